"""Flow a resolved rulebook into A5 (or half-letter) pages: the same display list as the cards.

Every paragraph is set by the engine's own layout (generator/text/layout.py), the same path as every
card's text: per-glyph font fallback, the language's line-breaking rules, hyphenation that never respells
a word except at a line end, hard hyphens kept, {icon:name} icons inline. The story of blocks (set_text,
tables, figures, cover) is placed by the paginator of pages.py under the rules of keeping.py: a paragraph
splits between lines across pages (no widow or orphan), headings keep with their text, tables repeat
their header row when they break, a figure that does not fit floats past the text after it. The contents
are filled in from where the headings landed (their lines are known before: one pass). Each page is a
Face of text, art and shape items drawn by the renderer's PdfRenderer, as every card is; the copyfitting
steps (copyfit.py) are paginated, not drawn, and only the chosen one is drawn.

A right-to-left book (generator.text.bidi.language_direction of its language) mirrors: its text is set
flush right, list markers, table columns, card figures and the contents' numbers run from the right,
the footer's page number stands at each page's outer edge as the book is bound on the right.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from types import MappingProxyType

from generator.components.piece import Face, Item, Line, TextPlacement
from generator.imposition.sheet import Document, Page, Placement
from generator.imposition.bleed import bled
from generator.imposition.single import face_page
from generator.print_facts import INK_LIMIT, RULEBOOK_PAGE_SIZES as PAGE_SIZES     # pages: A5; half-letter
from generator.render.pdf import PdfRenderer, drawing_settings
from generator.errors import Problems
from generator.rulebook.board_figure import BoardFigureDrawing
from generator.rulebook.card_figure import CARD_SCALE, CardArrangementDrawing
from generator.rulebook.back_cover import BackCoverPage, printed, set_back_cover
from generator.rulebook.copyfit import AS_DESIGNED, STEPS, Copyfit, Setting, choose_setting
from generator.rulebook.cover import CoverWords, LeafletBand, cover_items
from generator.rulebook.figures import ArtDrawing, CalloutBlock, Drawn, FaceDrawing, FigureRow, ShrinkingFigure
from generator.rulebook.keeping import keep_with_next
from generator.rulebook.pages import Block, Frame, PageBreak, Pagination, paginate
from generator.rulebook.resolve import Callout, Faq, Figure, RuleDoc, Table as RulesTable
from generator.rulebook.set_text import INK_HEX, Book, BookStyle, TextBlock, line_extent, moved
from generator.rulebook.tables import TABLE_PADDING, TableBlock, badge_width, column_widths, longest_word
from generator.text.bidi import language_direction
from generator.text.rich import Paragraph as RichParagraph, parse_rich_text, plain_text
from generator.text.setter import TextSetter
from generator.units import pt_to_mm

MARGINS = MappingProxyType({"top": 14.0, "bottom": 17.0, "inner": 13.0, "outer": 13.0})   # inner: at the fold
RED_HEX, WHITE_HEX = "#a31621", "#ffffff"
FIGURES_A_ROW = 3      # card figures side by side
CARD_FIGURE_SHARE = 0.34   # a card figure is at most this share of the text's width (and its real size)
FOOTER_SIZE = 7.5      # pt
FOOTER_BASELINE = 9.0  # mm above the page's bottom edge
FOOTER_RULE = 9.0      # pt above the footer's baseline: the red line across the text's width


def with_line_breaks(paragraphs: tuple[RichParagraph, ...]) -> list[tuple[RichParagraph, tuple[RichParagraph, ...]]]:
    """Each paragraph with the lines that continue it after a line break (rich.py: a single newline)."""
    grouped: list[tuple[RichParagraph, tuple[RichParagraph, ...]]] = []
    for paragraph in paragraphs:
        if paragraph.line_break and grouped:
            first, more = grouped[-1]
            grouped[-1] = (first, more + (paragraph,))
        else:
            grouped.append((paragraph, ()))
    return grouped


def book_direction(lang: str) -> str:
    """'rtl' for a book whose pages mirror (bound on the right), else 'ltr'."""
    return language_direction(lang)


class Styles:
    """Paragraph styles of the rulebook, in points."""

    def __init__(self, compact: bool = False, fit: Copyfit = AS_DESIGNED):
        """`compact` sets a leaflet: smaller type, tighter spacing; `fit` the copyfitting step (copyfit.py):
        a share of the space around blocks and a little less leading."""
        space = fit.space
        size, leading = (8.4, 10.9) if compact else (9.5, 12.8)
        leading -= fit.leading
        self.body = body = BookStyle(size, leading, space_after=(3 if compact else 4) * space)
        self.item = replace(body, indent=11, space_after=2.5 * space)
        title = BookStyle(0, 0, weight="black", keep_with_next=True, hyphenate=False)     # what every title is
        self.h1 = replace(title, size=12.5 if compact else 15, leading=15 if compact else 18, color=RED_HEX,
                          space_before=(6 if compact else 10) * space, space_after=(3 if compact else 5) * space)
        self.h2 = replace(title, size=11, leading=14, space_before=6 * space, space_after=3 * space)
        self.cell = replace(body, size=min(8.3, size), leading=min(10.4, leading), space_after=0)
        self.head = replace(self.cell, weight="bold", color=WHITE_HEX, hyphenate=False)
        self.caption = replace(body, size=8, leading=10, align="center", space_before=2 * space,
                               space_after=8 * space)
        # a board figure's numbered notes, under its caption; the last one's space after is the note's
        self.note = replace(self.caption, align="left", space_before=1 * space)
        self.note_item = replace(self.note, indent=10, space_after=1.5 * space)
        self.question = replace(body, weight="bold", keep_with_next=True, space_after=1.5 * space)
        self.callout_title = replace(title, size=10.5, leading=13, color=RED_HEX, space_after=3 * space)
        self.title = BookStyle(30, 34, weight="black", align="center", color=RED_HEX, hyphenate=False)
        self.leaflet_title = replace(self.title, size=22, leading=26)
        self.tagline = replace(body, size=12, leading=16, align="center", hyphenate=False)
        self.fact = replace(body, weight="bold", size=11, leading=15, align="center", hyphenate=False)
        self.facts = replace(self.fact, size=9.5, space_after=4)
        self.edition = replace(self.fact, weight="black", color=RED_HEX)
        self.toc = replace(body, size=10, leading=15, space_after=0, hyphenate=False)


class StoryBuilder:
    """The blocks of a rulebook, in order."""

    def __init__(self, doc: RuleDoc, book: Book, frame_width: float, page_width: float = PAGE_SIZES["a4"][0],
                 fit: Copyfit = AS_DESIGNED, compact: bool = False):
        """`compact`: a leaflet's smaller type (a leaflet's always)."""
        self.doc, self.book, self.frame_width, self.page_width = doc, book, frame_width, page_width
        self.styles = Styles(compact=doc.leaflet or compact, fit=fit)
        self.fit = fit
        self.headings: list[TextBlock] = []       # the headings the contents list, in order
        self.numbers: dict[int, str] = {}         # the page of each section's heading, once paginated
        self.lead_ins = 0                         # paragraphs kept with what they introduce

    def spaced(self, block: Block, before: float, after: float) -> Block:
        """The block with the designed space (pt) around it, as the copyfitting step shares it out."""
        block.space_before, block.space_after = pt_to_mm(before * self.fit.space), pt_to_mm(after * self.fit.space)
        return block

    def paragraphs(self, text: str, style: BookStyle, badge: bool = False,
                   item: BookStyle | None = None) -> list[Block]:
        """One block per paragraph of the text (list items in the `item` style, by default the body's); the
        badge after the last."""
        paragraphs = with_line_breaks(parse_rich_text(text))
        blocks: list[Block] = []
        for index, (paragraph, more) in enumerate(paragraphs):
            chosen = (item or self.styles.item) if paragraph.marker else style
            last = index == len(paragraphs) - 1
            blocks.append(TextBlock(paragraph, chosen, self.book, self.doc.badge if badge and last else "",
                                    more=more))
        return blocks

    def story(self) -> list[Block]:
        story = self.leaflet_head() if self.doc.leaflet else self.contents()
        for section in self.doc.sections:
            # a section never starts a page of its own: its heading keeps with the start of its text
            # (keeping.py), so it moves to the next page only when that start does not fit here
            paragraphs = with_line_breaks(parse_rich_text(section.heading.words))
            for index, (paragraph, more) in enumerate(paragraphs):
                last = index == len(paragraphs) - 1
                badge = self.doc.badge if section.heading.badge and last else ""
                block = TextBlock(paragraph, self.styles.h1, self.book, badge, more=more)
                if index == 0:
                    block.toc_text = section.heading.words
                    self.headings.append(block)
                story.append(block)
            blocks = self.items(section.items)
            if self.fit.keep_lead_ins:     # in the page flow only: a callout moves whole, the back cover is a page
                self.lead_ins += _lead_ins_kept(blocks)
            story += blocks
        return keep_with_next(story)

    def items(self, items) -> list[Block]:
        """The blocks of a run of rules.yaml's blocks; card figures in a row stand side by side."""
        blocks: list[Block] = []
        row: list[Figure] = []
        for item in list(items) + [None]:
            is_card = item is not None and item.kind == "figure" and item.content.kind == "card"
            if is_card and len(row) < FIGURES_A_ROW:
                row.append(item.content)
                continue
            if row:
                blocks += self.figure_row(row)
                row = []
            if is_card:
                row.append(item.content)
            elif item is not None:
                blocks += self.item(item)
        if row:
            blocks += self.figure_row(row)
        return blocks

    def leaflet_head(self) -> list[Block]:
        """A leaflet starts straight away: title, tagline and facts above the first section."""
        band = LeafletBand(self.doc.cover, self.doc.title, self.doc.tagline, self.book, self.styles, MARGINS,
                           self.page_width)
        facts = " · ".join(self.doc.facts + (self.doc.edition,))
        return [band] + self.paragraphs(facts, self.styles.facts)

    def contents(self) -> list[Block]:
        """The contents page: its title and an entry per section (dots and the page its heading lands on),
        filled in once the headings are placed (`number_contents`)."""
        story = self.paragraphs(self.doc.toc_title, self.styles.h1)
        for index, section in enumerate(self.doc.sections):
            for paragraph in parse_rich_text(section.heading.words) or (RichParagraph(()),):
                entry = TextBlock(paragraph, self.styles.toc, self.book, leader=partial(self.number, index))
                story.append(entry)
        return story + [PageBreak()]

    def number(self, section: int) -> str:
        """The page the section's heading landed on (a contents entry's number)."""
        return self.numbers.get(section, "")

    def number_contents(self, pagination: Pagination, first_page: int) -> None:
        """The contents' page numbers, from where the headings landed."""
        self.numbers = {index: str(pagination.page_of(heading) + first_page)
                        for index, heading in enumerate(self.headings)}

    def item(self, item) -> list[Block]:
        styles = self.styles
        content = item.content
        if item.kind in ("paragraph", "list"):
            return self.paragraphs(content.words, styles.body, content.badge)
        if item.kind == "subheading":
            return self.paragraphs(content.words, styles.h2, content.badge)
        if item.kind == "table":
            return [self.table(content)]
        if item.kind == "callout":
            return [self.callout(content)]
        if item.kind == "faq":
            return self.faq(content)
        if item.kind == "figure":
            return self.figure(content)
        return []

    def table(self, table: RulesTable) -> Block:
        styles = self.styles
        columns = max([len(table.header)] + [len(row) for row in table.rows])
        weights = list(table.widths or [1] * columns)[:columns]
        total = sum(weights)
        frame = self.frame_width * 72 / 25.4
        widths = column_widths([frame * w / total for w in weights], self.column_needs(table, columns))
        header = [self.paragraphs(text, styles.head) for text in table.header] if table.header else None
        rows = [[self.paragraphs(text, styles.cell, badge and index == 0) for index, text in enumerate(row)]
                for row, badge in zip(table.rows, table.row_badges, strict=True)]
        return self.spaced(TableBlock(header, rows, [pt_to_mm(width) for width in widths], self.book), 3, 7)

    def column_needs(self, table: RulesTable, columns: int) -> list[float]:
        """Each column's least width (pt): its longest word in its cells' style, the badge in a first column that
        carries one, and the cell's padding."""
        book = self.book
        head, cell = self.styles.head, self.styles.cell
        # the same at every copyfitting step (the cells' type does not change with the spaces)
        key = ("needs", table.header, table.rows, table.row_badges, columns, head.size, head.weight, cell.size,
               cell.weight, self.doc.badge)
        if key not in book.memo:
            book.memo[key] = self._column_needs(table, columns)
        return list(book.memo[key])

    def _column_needs(self, table: RulesTable, columns: int) -> list[float]:
        book = self.book
        needs = [0.0] * columns
        for style, rows in ((self.styles.head, (table.header,)), (self.styles.cell, table.rows)):
            measured = book.set_style(style.size, style.weight)
            for row in rows:
                for index, text in enumerate(row):
                    needs[index] = max(needs[index], longest_word(text, measured, book.setter))
        if any(table.row_badges) and self.doc.badge:
            needs[0] = max(needs[0], badge_width(self.doc.badge, book))
        return [need + 2 * TABLE_PADDING + 0.5 for need in needs]

    def callout(self, callout: Callout) -> Block:
        inner: list[Block] = []
        if callout.title:
            inner += self.paragraphs(callout.title, self.styles.callout_title)
        inner += self.items(callout.blocks)
        return self.spaced(CalloutBlock(inner), 4, 8)

    def faq(self, faq: Faq) -> list[Block]:
        blocks: list[Block] = []
        for question, answer, badge in faq.entries:
            blocks += self.paragraphs(question, self.styles.question, badge)
            blocks += self.paragraphs(answer, self.styles.body)
        return blocks

    def figure(self, figure: Figure) -> list[Block]:
        if figure.kind == "card":
            return self.figure_row([figure])
        if figure.arrangement is not None:
            most = figure.scale or CARD_SCALE
            cards = CardArrangementDrawing(figure.arrangement, min(figure.width or self.frame_width, self.frame_width),
                                           self.label, self.book.rtl, most)
            captions = self.paragraphs(figure.caption, self.styles.caption) if figure.caption else []
            return [ShrinkingFigure(cards, captions, 1.0 if figure.width or figure.scale else self.fit.figure)]
        width = figure.width or {"board": self.frame_width * 0.92}.get(figure.kind, 40.0)
        scene = figure.scene
        if scene is not None and not figure.width:      # a region: at its scale, else its real size at most
            region_width = scene.region[2]
            width = region_width * figure.scale if figure.scale else min(width, region_width)
        elif figure.scale and figure.face is not None:
            width = figure.face.width * figure.scale
        width = min(width, self.frame_width)
        drawn: Drawn
        if figure.face is not None and scene is not None:
            drawn = BoardFigureDrawing(figure.face, scene, width, self.label)
        elif figure.face is not None:
            drawn = FaceDrawing(figure.face, width)
        elif figure.art is not None:
            drawn = ArtDrawing(figure.art, width)
        else:
            return []
        captions = self.paragraphs(figure.caption, self.styles.caption) if figure.caption else []
        if scene is not None and scene.notes:       # the markers' notes, numbered as on the figure, under it
            if captions:
                captions[-1].space_after = captions[0].space_before
            notes = "\n".join(f"{number}. {note}" for number, note in enumerate(scene.notes, 1))
            captions += self.paragraphs(notes, self.styles.note, item=self.styles.note_item)
            captions[-1].space_after = pt_to_mm(self.styles.note.space_after)
        # a designed width or scale (rules.yaml) is kept; a default one may give way to fill a page's foot
        least = 1.0 if figure.width or figure.scale else self.fit.figure
        return [ShrinkingFigure(drawn, captions, least)]

    def label(self, text: str, size: float, weight: str, colour: str, cx: float, cy: float) -> list[Item]:
        """A figure's number on one line, centred on (cx, cy) mm: its digits' middle there (board_figure.py)."""
        layout = self.book.line(text, size, weight, colour)
        if not layout.runs:
            return []
        start, end = line_extent(layout, 0)
        baseline = layout.runs[0].baseline
        # the middle of a digit's height (a lining figure stands about 0.7 em above the baseline)
        return [moved(layout, cx - (start + end) / 2, cy + pt_to_mm(size) * 0.35 - baseline)]

    def figure_row(self, figures: list[Figure]) -> list[Block]:
        """Card figures side by side, each at its real size at most (and a third of the text's width),
        or at the width rules.yaml asks; their captions under them. One row: it moves whole."""
        column = self.frame_width / len(figures)
        cells: list[tuple[Drawn, list[Block]]] = []
        for figure in figures:
            face = figure.face
            if face is None:        # a card figure is its card's face (resolve.py): there is one
                continue
            width = figure.width or min(face.width, self.frame_width * CARD_FIGURE_SHARE)
            captions = self.paragraphs(figure.caption, self.styles.caption) if figure.caption else []
            cells.append((FaceDrawing(face, min(width, column - 4)), captions))
        return [self.spaced(FigureRow(cells, column, self.book.rtl), 4, 2)]


@dataclass(frozen=True)
class LaidOut:
    """A rulebook paginated at one copyfitting step: what drawing it needs."""

    builder: StoryBuilder
    pagination: Pagination
    first_page: int          # the number of the first body page (2 after a cover, 1 for a leaflet)


@dataclass(frozen=True)
class RulesPdf:
    """rules.pdf, and whether its last page is the back cover (the booklet puts that page last)."""

    data: bytes
    back_cover: bool


def rule_book(doc: RuleDoc, setter: TextSetter, stack: tuple[str, ...]) -> Book:
    """What sets the rulebook's words: the game's fonts, its language's rules and direction, its icons."""
    return Book(setter, stack, doc.lang, doc.icons, doc.breaks, book_direction(doc.lang))


def render_rules(doc: RuleDoc, paper: str, setter: TextSetter, stack: tuple[str, ...],
                 colour_mode: str = "rgb", ink_limit: float = INK_LIMIT, bleed: float = 0.0) -> RulesPdf:
    """rules.pdf, copyfitted (copyfit.py) so its booklet needs no more sheets than it must, ending with the
    back cover where the booklet has a spare page for it (back_cover.py); `bleed`: a print shop's, with
    that much bleed on every page."""
    book = rule_book(doc, setter, stack)
    setting = choose_setting(lambda fit: set_rules(doc, paper, book, fit))
    laid_out = setting.result
    assert isinstance(laid_out, LaidOut)
    back = back_cover_page(doc, paper, book) if printed(doc.back_cover, setting.pages) else None
    return RulesPdf(draw_rules(doc, paper, book, laid_out, colour_mode, ink_limit, back, bleed), back is not None)


def back_cover_page(doc: RuleDoc, paper: str, book: Book) -> BackCoverPage:
    """The back cover set on the paper's page, at the loosest copyfitting step it fits: the book's type first,
    then a leaflet's smaller type (a back cover is a summary: it may be set smaller than the rules)."""
    width = PAGE_SIZES[paper][0]
    frame_width = width - 2 * MARGINS["outer"]
    return set_back_cover(doc, PAGE_SIZES[paper], MARGINS,
                          (StoryBuilder(doc, book, frame_width, width, fit, compact)
                           for compact in (False, True) for fit in STEPS))


def back_cover_problems(doc: RuleDoc, papers: tuple[str, ...], setter: TextSetter, stack: tuple[str, ...],
                        problems: Problems) -> None:
    """An error at rules.yaml's back_cover where it is longer than its page on a paper asked for."""
    if doc.back_cover is None:
        return
    book = rule_book(doc, setter, stack)
    for paper in papers:
        overflow = back_cover_page(doc, paper, book).overflow
        if overflow > 0:
            page = "A5" if paper == "a4" else "half-letter"
            problems.add(doc.back_cover.mark, f"the back cover is {overflow:.0f} mm longer than its {page} page "
                         f"('{doc.lang}' on {paper} paper), even in a leaflet's smaller type, set tightly",
                         "shorten its blocks or drop one: it is one page, and never runs on")
            return


def set_rules(doc: RuleDoc, paper: str, book: Book, fit: Copyfit = AS_DESIGNED) -> Setting:
    """The rulebook paginated at one copyfitting step (not drawn)."""
    width, height = PAGE_SIZES[paper]
    frame = Frame(MARGINS["outer"], MARGINS["top"], width - MARGINS["outer"] - MARGINS["inner"],
                  height - MARGINS["top"] - MARGINS["bottom"])
    builder = StoryBuilder(doc, book, frame.width, width, fit)
    pagination = paginate(builder.story(), frame)
    first_page = 1 if doc.leaflet else 2
    builder.number_contents(pagination, first_page)
    return Setting(LaidOut(builder, pagination, first_page), len(pagination.pages) + first_page - 1,
                   pagination.last_fill, builder.lead_ins)


def page_faces(doc: RuleDoc, paper: str, book: Book, laid_out: LaidOut,
               back: BackCoverPage | None = None) -> list[Face]:
    """Every page of the rulebook as a face: the cover, then the body pages with their footers, then the back
    cover where there is one."""
    width, height = PAGE_SIZES[paper]
    styles = laid_out.builder.styles
    faces: list[Face] = []
    if not doc.leaflet:
        words = CoverWords(doc.title, doc.tagline, doc.edition, doc.facts)
        faces.append(Face("rules page 1", width, height, 0.0,
                          tuple(cover_items((width, height), doc.cover, words, book, styles))))
    for index, placed_blocks in enumerate(laid_out.pagination.pages):
        number = index + laid_out.first_page
        items: list[Item] = []
        for placed in placed_blocks:
            items += placed.block.items(placed.x, placed.y, placed.width, placed.height)
        items += footer(doc, book, number, width, height)
        faces.append(Face(f"rules page {number}", width, height, 0.0, tuple(items)))
    if back is not None:
        faces.append(Face("rules back cover", width, height, 0.0, back.items))
    return faces


def footer(doc: RuleDoc, book: Book, number: int, width: float, height: float) -> list[Item]:
    """A body page's running footer: the page number at the outer edge, the footer's words at the inner,
    a red line over them. Odd pages are right-hand pages of a book bound on the left, left-hand ones of a
    book bound on the right (right to left)."""
    baseline = height - FOOTER_BASELINE
    outer_right = (number % 2 == 1) != book.rtl
    items: list[Item] = [Line(MARGINS["outer"], baseline - pt_to_mm(FOOTER_RULE), width - 2 * MARGINS["outer"], 0.0,
                              stroke=RED_HEX, stroke_width=pt_to_mm(0.5))]
    for text, at_right in ((str(number), outer_right), (doc.footer, not outer_right)):
        items += _footer_text(text, book, width - MARGINS["outer"] if at_right else MARGINS["inner"], baseline,
                              at_right)
    return items


def _footer_text(text: str, book: Book, x: float, baseline: float, align_right: bool) -> list[Item]:
    """Footer text set by the engine on one line, its baseline at `baseline` mm: per-glyph font runs (a
    Georgian title needs another face than the digits) and the game's inline icons (a title may have one)."""
    layout = book.line(text, FOOTER_SIZE, color=INK_HEX)
    if not layout.runs and not layout.icons:
        return []
    start, end = line_extent(layout, 0)
    left = x - end if align_right else x - start
    first_baseline = layout.runs[0].baseline if layout.runs else pt_to_mm(FOOTER_SIZE * 0.8)
    placed: TextPlacement = moved(layout, left, baseline - first_baseline)
    return [placed]


def draw_rules(doc: RuleDoc, paper: str, book: Book, laid_out: LaidOut, colour_mode: str = "rgb",
               ink_limit: float = INK_LIMIT, back: BackCoverPage | None = None, bleed: float = 0.0) -> bytes:
    """The paginated rulebook drawn as a PDF of its pages, by the renderer that draws the cards; with
    `bleed`, a print shop's: each page that much larger, its TrimBox the page (bleed.py)."""
    faces = page_faces(doc, paper, book, laid_out, back)
    if bleed:
        pages = [face_page(bled(face, bleed), face.key) for face in faces]
    else:
        pages = [Page(face.width, face.height, (Placement(face, 0.0, 0.0, (0.0, 0.0, face.width, face.height)),))
                 for face in faces]
    document = Document(pages, title=plain_text(f"{doc.title} — {doc.edition}"), no_print_scaling=False)
    return PdfRenderer(drawing_settings(book.face(), colour_mode, ink_limit)).draw(document)


# what ends a paragraph that introduces the block after it ("The free edition has 12 Surprise cards:")
LEAD_IN_ENDINGS = (":", "\uff1a")     # the colon, and the full-width colon of Chinese and Japanese


def _lead_ins_kept(blocks: list[Block]) -> int:
    """Each paragraph that ends with a colon kept with the block it introduces (a table, a list, a figure, a
    paragraph): the two travel together to the next page rather than the lead-in being left alone at a
    page's foot (keeping.py). The last block of a run introduces nothing here. Returns how many there are."""
    for block, following in zip(blocks[:-1], blocks[1:], strict=True):
        if isinstance(block, TextBlock) and not isinstance(following, PageBreak) and _ends_with_colon(block):
            block.keep_with_next, block.passes_figures, block.lead_in = True, False, True
    return sum(block.lead_in for block in blocks)


def _ends_with_colon(block: TextBlock) -> bool:
    last = block.more[-1] if block.more else block.paragraph
    return "".join(fragment.text for fragment in last.fragments if not fragment.icon).rstrip().endswith(
        LEAD_IN_ENDINGS)
