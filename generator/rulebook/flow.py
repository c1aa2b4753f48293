"""Flow a resolved rulebook into A5 (or half-letter) pages with ReportLab platypus.

Every paragraph is set by the engine's own layout (generator/text/layout.py),
the same path as every card's text: per-glyph font fallback, the language's
line-breaking rules, hyphenation that never respells a word except at a line
end, hard hyphens kept, {icon:name} icons inline. Platypus only places the set
paragraphs: SetText splits between lines across pages (no widows or orphans),
headings keep with their text, tables repeat their header row when they break;
the table of contents is filled in by a second pass, from where headings landed.
"""

from __future__ import annotations

import io
from dataclasses import replace
from types import MappingProxyType

from reportlab.lib.colors import HexColor, toColor
from reportlab.platypus import (BaseDocTemplate, Flowable, Frame, KeepTogether, NextPageTemplate,
                                PageBreak, PageTemplate, Spacer, Table, TableStyle)
from reportlab.platypus.tableofcontents import TableOfContents

from generator.components.piece import ArtPlacement
from generator.print_facts import INK_LIMIT, RULEBOOK_PAGE_SIZES as PAGE_SIZES     # pages: A5; half-letter
from generator.render.art import art_size
from generator.render.colour import convert
from generator.render.icons import icon_art
from generator.render.pdf import FacePainter, drawing_settings
from generator.rulebook.copyfit import AS_DESIGNED, Copyfit, Setting, choose_setting
from generator.rulebook.cover import CoverWords, LeafletBand, draw_cover
from generator.rulebook.keeping import KeptTable, PagedTable, keep_with_next
from generator.rulebook.tables import TABLE_PADDING, badge_width, column_widths, longest_word
from generator.rulebook.resolve import Callout, Faq, Figure, RuleDoc, Table as RulesTable
from generator.rulebook.set_text import INK_HEX, Book, BookStyle, SetText, line_end
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import Paragraph as RichParagraph, parse_rich_text, plain_text
from generator.text.setter import TextSetter
from generator.units import mm_to_pt, pt_to_mm

MARGINS = MappingProxyType({"top": 14.0, "bottom": 17.0, "inner": 13.0, "outer": 13.0})   # inner: at the fold
RED_HEX, WHITE_HEX = "#a31621", "#ffffff"
INK = HexColor(INK_HEX)
RED = HexColor(RED_HEX)
CREAM = HexColor("#f6ecd9")
FIGURES_A_ROW = 3      # card figures side by side
CARD_FIGURE_SHARE = 0.34   # a card figure is at most this share of the text's width (and its real size)


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


class Markup:
    """Rich text to set paragraphs, for one rulebook's fonts, language and icons."""

    def __init__(self, book: Book):
        self.book = book
        self.setter, self.stack = book.setter, book.stack

    def flowables(self, text: str, style: BookStyle, item_style: BookStyle | None = None,
                  badge: str = "") -> list[SetText]:
        """One SetText per paragraph of the text (list items in the item style); the badge after the last."""
        paragraphs = with_line_breaks(parse_rich_text(text))
        result = []
        for index, (paragraph, more) in enumerate(paragraphs):
            chosen = item_style if paragraph.marker and item_style is not None else style
            result.append(SetText(paragraph, chosen, self.book, badge if index == len(paragraphs) - 1 else "",
                                  more=more))
        return result

    def face(self, weight: str = "regular", italic: bool = False) -> str:
        return self.book.face(weight, italic)


class FaceFigure(Flowable):
    """A card or board drawn from the game's own definitions."""

    def __init__(self, face, width_mm: float, font: str):
        super().__init__()
        self.face, self.font = face, font
        self.scale = mm_to_pt(width_mm) / mm_to_pt(face.width)
        self.width, self.height = mm_to_pt(width_mm), mm_to_pt(face.height) * self.scale

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        painter = FacePainter.on(self.canv, drawing_settings(self.font))
        painter.draw_face(self.face, 0, 0, self.scale)
        self.canv.setStrokeColor(HexColor("#b9ad9b"))
        self.canv.setLineWidth(0.4)
        self.canv.rect(0, 0, self.width, self.height, stroke=1, fill=0)


class Heading(SetText):
    """A set paragraph that the table of contents lists."""

    def __init__(self, paragraph: RichParagraph, style: BookStyle, book: Book, badge: str, toc_text: str,
                 level: int = 0, more: tuple[RichParagraph, ...] = ()):
        super().__init__(paragraph, style, book, badge, more=more)
        self.toc_text, self.toc_level = toc_text, level


class Contents(TableOfContents):
    """The table of contents, its entries set like every other text (dots and page number at the end)."""

    def __init__(self, book: Book, style: BookStyle, **kwargs):
        super().__init__(**kwargs)
        self.book, self.entry_style = book, style

    def wrap(self, available_width, available_height):
        entries = self._lastEntries or [(0, "", 0, None)]
        rows = []
        for _level, text, page, _key in entries:
            for paragraph in parse_rich_text(text) or (RichParagraph(()),):
                rows.append([SetText(paragraph, self.entry_style, self.book, leader=str(page))])
        self._table = Table(rows, colWidths=(available_width,), style=self.tableStyle)
        self.width, self.height = self._table.wrapOn(self.canv, available_width, available_height)
        return self.width, self.height


class RulebookTemplate(BaseDocTemplate):
    def __init__(self, buffer, doc: RuleDoc, paper: str, markup: "Markup", colour_mode: str = "rgb",
                 ink_limit: float = INK_LIMIT, **kwargs):
        width, height = PAGE_SIZES[paper]
        body_font = markup.face()
        if colour_mode == "cmyk":
            # every colour platypus sets (text, rules, table backgrounds, badges) separated
            # on its way to the canvas, the same way as the cards' colours
            kwargs["enforceColorSpace"] = lambda colour: convert(toColor(colour), "cmyk", ink_limit)
        super().__init__(buffer, pagesize=(mm_to_pt(width), mm_to_pt(height)), invariant=1,
                         initialFontName=body_font, title=plain_text(f"{doc.title} — {doc.edition}"),
                         creator="pnp", **kwargs)
        self.rule_doc, self.body_font, self.markup = doc, body_font, markup
        self.colour_mode, self.ink_limit = colour_mode, ink_limit
        frame = Frame(mm_to_pt(MARGINS["outer"]), mm_to_pt(MARGINS["bottom"]),
                      mm_to_pt(width - MARGINS["outer"] - MARGINS["inner"]),
                      mm_to_pt(height - MARGINS["top"] - MARGINS["bottom"]), id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        body = PageTemplate("body", [frame], onPage=self._footer)
        # a leaflet has no cover: its first page is a body page
        self.addPageTemplates([body] if doc.leaflet else [PageTemplate("cover", [frame], onPage=self._cover), body])

    def beforeDocument(self):
        # figures and art drawn by the face painter: one painter per pass's canvas, in this colour mode
        FacePainter.on(self.canv, drawing_settings(self.body_font, self.colour_mode, self.ink_limit))

    def _cover(self, canvas, doc):
        """The cover page, drawn whole under the (empty) frame."""
        rule_doc = self.rule_doc
        words = CoverWords(rule_doc.title, rule_doc.tagline, rule_doc.edition, rule_doc.facts)
        draw_cover(canvas, (pt_to_mm(self.pagesize[0]), pt_to_mm(self.pagesize[1])), rule_doc.cover, words,
                   self.markup.book, Styles())

    def _footer(self, canvas, doc):
        canvas.saveState()
        width = self.pagesize[0]
        canvas.setFillColor(INK)
        y = mm_to_pt(9)
        number = str(canvas.getPageNumber())
        if canvas.getPageNumber() % 2:       # odd pages: the number at the outer (right) edge
            self._runs(canvas, number, width - mm_to_pt(MARGINS["outer"]), y, align_right=True)
            self._runs(canvas, self.rule_doc.footer, mm_to_pt(MARGINS["inner"]), y)
        else:
            self._runs(canvas, number, mm_to_pt(MARGINS["outer"]), y)
            self._runs(canvas, self.rule_doc.footer, width - mm_to_pt(MARGINS["inner"]), y, align_right=True)
        canvas.setStrokeColor(RED)
        canvas.setLineWidth(0.5)
        canvas.line(mm_to_pt(MARGINS["outer"]), y + 9, width - mm_to_pt(MARGINS["outer"]), y + 9)
        canvas.restoreState()

    def _runs(self, canvas, text: str, x: float, y: float, align_right: bool = False, size: float = 7.5) -> None:
        """Footer text set by the engine on one line, its baseline at y: per-glyph font runs (a Georgian
        title needs another face than the digits) and the game's inline icons (a title may have one)."""
        book = self.markup.book
        style = SetStyle(book.stack, size, size, lang=book.lang, hyphenate=False, breaks=book.rules,
                         icons=tuple(sorted(book.icons.items())))
        layout = fit_text(parse_rich_text(text), 1e4, 1e4, style, book.setter)
        if align_right:
            x -= mm_to_pt(line_end(layout, 0))
        for run in layout.runs:
            canvas.setFont(run.font, size)
            canvas.drawString(x + mm_to_pt(run.x), y, run.text)
        page_height = pt_to_mm(self.pagesize[1])
        painter = FacePainter.on(canvas, drawing_settings(self.body_font))
        for icon in layout.icons:
            if icon.file is not None:     # standing on the footer's baseline
                painter._art(icon_art(icon.file, icon, pt_to_mm(x), page_height - pt_to_mm(y) - icon.y - icon.size),
                             page_height)

    last_fill = 0.0     # the share of the last page's text area in use, once built

    def filterFlowables(self, flowables):
        """A figure that does not fit the room left on the page floats: the paragraph after it is set
        first, filling the page's foot, and the figure is tried again after it (so it tops the next page
        rather than leaving the foot of this one empty). Only running text of the same section passes a
        figure: never a heading, a table, a callout or another figure."""
        if len(flowables) < 2 or not getattr(flowables[0], "floats", False) or not _passes_figures(flowables[1]):
            return
        frame = getattr(self, "frame", None)
        if frame is None or frame._atTop:
            return
        figure, text = flowables[0], flowables[1]
        width = frame._getAvailableWidth()
        room = frame._y - frame._y1p - figure.getSpaceBefore()
        _, height = figure.wrapOn(self.canv, width, room)
        if height <= room + 1e-6:
            return
        # the text passes only if some of it stays on this page: else the figure tops the next page
        room = frame._y - frame._y1p - text.getSpaceBefore()
        _, height = text.wrapOn(self.canv, width, room)
        if height <= room + 1e-6 or text.split(width, room):
            flowables[0], flowables[1] = text, figure

    def afterFlowable(self, flowable):
        frame = getattr(self, "frame", None)
        if frame is not None:
            self.last_fill = (frame._y2 - frame._y) / (frame._y2 - frame._y1)
        if isinstance(flowable, Heading) and flowable.first == 0:
            self.notify("TOCEntry", (flowable.toc_level, flowable.toc_text, self.page))


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
    """The flowables of a rulebook, in order."""

    def __init__(self, doc: RuleDoc, markup: Markup, frame_width_mm: float,
                 page_width_mm: float = PAGE_SIZES["a4"][0], fit: Copyfit = AS_DESIGNED):
        self.doc, self.markup, self.frame_width, self.page_width = doc, markup, frame_width_mm, page_width_mm
        self.styles = Styles(compact=doc.leaflet, fit=fit)
        self.fit = fit

    def spaced(self, flowable: Flowable, before: float, after: float) -> Flowable:
        """The flowable with the designed space around it, as the copyfitting step shares it out."""
        flowable.spaceBefore, flowable.spaceAfter = before * self.fit.space, after * self.fit.space
        return flowable

    def paragraphs(self, text: str, style: BookStyle, badge: bool = False) -> list[Flowable]:
        return self.markup.flowables(text, style, self.styles.item, self.doc.badge if badge else "")

    def table_style(self, commands: list) -> TableStyle:
        """Tables select a cell font even for flowable cells: make it ours, not an unembedded Helvetica."""
        return TableStyle([("FONT", (0, 0), (-1, -1), self.markup.face(), 8.3)] + commands)

    def story(self) -> list[Flowable]:
        story = self.leaflet_head() if self.doc.leaflet else self.cover_and_contents()
        for section in self.doc.sections:
            # a section never starts a page of its own: its heading keeps with the start of its text
            # (keeping.py), so it moves to the next page only when that start does not fit here
            paragraphs = with_line_breaks(parse_rich_text(section.heading.words))
            for index, (paragraph, more) in enumerate(paragraphs):
                last = index == len(paragraphs) - 1
                badge = self.doc.badge if section.heading.badge and last else ""
                story.append(Heading(paragraph, self.styles.h1, self.markup.book, badge,
                                     section.heading.words, more=more) if index == 0 else
                             SetText(paragraph, self.styles.h1, self.markup.book, badge, more=more))
            story += self.items(section.items)
        return keep_with_next(story)

    def items(self, items) -> list[Flowable]:
        """The flowables of a run of blocks; card figures in a row stand side by side."""
        flowables: list[Flowable] = []
        row: list = []
        for item in list(items) + [None]:
            if item is not None and item.kind == "figure" and item.content.kind == "card" \
                    and len(row) < FIGURES_A_ROW:
                row.append(item.content)
                continue
            if row:
                flowables += self.figure_row(row)
                row = []
            if item is not None and item.kind == "figure" and item.content.kind == "card":
                row.append(item.content)
            elif item is not None:
                flowables += self.item(item)
        if row:
            flowables += self.figure_row(row)
        return flowables

    def leaflet_head(self) -> list[Flowable]:
        """A leaflet starts straight away: title, tagline and facts above the first section."""
        styles = self.styles
        story: list[Flowable] = [NextPageTemplate("body")]
        story.append(LeafletBand(self.doc.cover, self.doc.title, self.doc.tagline, self.markup.book, styles,
                                 MARGINS, self.page_width))
        facts = " · ".join(self.doc.facts + (self.doc.edition,))
        story += self.paragraphs(facts, styles.facts)
        return story

    def cover_and_contents(self) -> list[Flowable]:
        styles = self.styles
        # the cover is drawn whole by its page template (rulebook/cover.py): the story only moves past it
        story: list[Flowable] = [Spacer(1, 1), NextPageTemplate("body"), PageBreak()]
        story += self.paragraphs(self.doc.toc_title, styles.h1)
        toc = Contents(self.markup.book, styles.toc, dotsMinLevel=0, tableStyle=self.table_style([
            ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
        story += [toc, PageBreak()]
        return story

    def item(self, item) -> list[Flowable]:
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

    def table(self, table: RulesTable) -> Flowable:
        styles = self.styles
        columns = max([len(table.header)] + [len(row) for row in table.rows])
        weights = list(table.widths or [1] * columns)[:columns]
        total = sum(weights)
        widths = column_widths([mm_to_pt(self.frame_width) * w / total for w in weights],
                               self.column_needs(table, columns))
        header = [[self._cell(text, styles.head) for text in table.header]] if table.header else []
        rows = [[self._cell(text, styles.cell, badge and index == 0) for index, text in enumerate(row)]
                for row, badge in zip(table.rows, table.row_badges, strict=True)]
        paged = PagedTable(header, rows, lambda data, first: self.table_part(data, widths, len(header), first))
        return self.spaced(paged, 3, 7)

    def table_part(self, data: list, widths: list[float], head: int, first: int) -> KeptTable:
        """A table's header (`head` rows) and some of its body rows, from body row `first` on, as one
        ReportLab table: every other row shaded, counted from the table's start."""
        flowable = KeptTable(data, colWidths=widths, repeatRows=head, splitByRow=1)
        commands = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("GRID", (0, 0), (-1, -1), 0.4, HexColor("#c9b79c")),
                    ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                    ("LEFTPADDING", (0, 0), (-1, -1), TABLE_PADDING),
                    ("RIGHTPADDING", (0, 0), (-1, -1), TABLE_PADDING)]
        if head:
            commands.append(("BACKGROUND", (0, 0), (-1, 0), RED))
        for index in range(head, len(data)):
            if (first + index) % 2 == 0:
                commands.append(("BACKGROUND", (0, index), (-1, index), HexColor("#fbf6ec")))
        flowable.setStyle(self.table_style(commands))
        return flowable

    def column_needs(self, table: RulesTable, columns: int) -> list[float]:
        """Each column's least width (pt): its longest word in its cells' style, the badge in a first column that
        carries one, and the cell's padding."""
        book = self.markup.book
        needs = [0.0] * columns
        for style, rows in ((self.styles.head, (table.header,)), (self.styles.cell, table.rows)):
            measured = SetStyle(book.stack, style.size, style.size, weight=style.weight, lang=book.lang,
                                hyphenate=False, breaks=book.rules)
            for row in rows:
                for index, text in enumerate(row):
                    needs[index] = max(needs[index], longest_word(text, measured, book.setter))
        if any(table.row_badges) and self.doc.badge:
            needs[0] = max(needs[0], badge_width(self.doc.badge, self.markup.face("black")))
        return [need + 2 * TABLE_PADDING + 0.5 for need in needs]

    def _cell(self, text: str, style: BookStyle, badge: bool = False):
        parts = self.paragraphs(text, style, badge)
        return parts if len(parts) != 1 else parts[0]

    def callout(self, callout: Callout) -> Flowable:
        inner: list[Flowable] = []
        if callout.title:
            inner += self.paragraphs(callout.title, self.styles.callout_title)
        inner += self.items(callout.blocks)
        box = Table([[inner]], colWidths=[mm_to_pt(self.frame_width)])
        box.setStyle(self.table_style([("BACKGROUND", (0, 0), (-1, -1), CREAM), ("BOX", (0, 0), (-1, -1), 0.8, RED),
                                 ("LEFTPADDING", (0, 0), (-1, -1), 7), ("RIGHTPADDING", (0, 0), (-1, -1), 7),
                                 ("TOPPADDING", (0, 0), (-1, -1), 6), ("BOTTOMPADDING", (0, 0), (-1, -1), 4)]))
        return KeepTogether([self.spaced(box, 4, 8)])

    def faq(self, faq: Faq) -> list[Flowable]:
        flowables: list[Flowable] = []
        for question, answer, badge in faq.entries:
            flowables += self.paragraphs(question, self.styles.question, badge)
            flowables += self.paragraphs(answer, self.styles.body)
        return flowables

    def figure(self, figure: Figure) -> list[Flowable]:
        if figure.kind == "card":
            return self.figure_row([figure])
        width = figure.width or {"board": self.frame_width * 0.92}.get(figure.kind, 40.0)
        width = min(width, self.frame_width)
        drawn: Flowable
        if figure.face is not None:
            drawn = FaceFigure(figure.face, width, self.markup.face())
        else:
            drawn = CentredArt(figure.art, width, self.markup.face())
        captions = self.paragraphs(figure.caption, self.styles.caption) if figure.caption else []
        # a designed width (rules.yaml) is kept; a default one may give way to fill a page's foot
        least = 1.0 if figure.width else self.fit.figure
        return [ShrinkingFigure(drawn, captions, least)]

    def figure_row(self, figures: list[Figure]) -> list[Flowable]:
        """Card figures side by side, each at its real size at most (and a third of the text's width),
        or at the width rules.yaml asks; their captions under them. One table row: it moves whole."""
        column = self.frame_width / len(figures)
        cells = []
        for figure in figures:
            face = figure.face
            if face is None:        # a card figure is its card's face (resolve.py): there is one
                continue
            width = figure.width or min(face.width, self.frame_width * CARD_FIGURE_SHARE)
            drawn = FaceFigure(face, min(width, column - 4), self.markup.face())
            drawn.hAlign = "CENTER"
            cells.append([drawn] + (self.paragraphs(figure.caption, self.styles.caption) if figure.caption
                                    else []))
        row = Table([cells], colWidths=[mm_to_pt(column)] * len(figures))
        row.floats = True        # a row that does not fit waits for the next page (RulebookTemplate.filterFlowables)
        row.setStyle(self.table_style([("VALIGN", (0, 0), (-1, -1), "TOP"), ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                                       ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
                                       ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
        return [self.spaced(row, 4, 2)]


def _passes_figures(flowable: Flowable) -> bool:
    """Whether a flowable may be set before a figure that waits for the next page: a paragraph of running
    text (not a heading, nor anything kept with what follows it)."""
    return type(flowable) is SetText and not flowable.keepWithNext


class ShrinkingFigure(Flowable):
    """A figure (a board, art) and its caption, kept together, centred: drawn at its width where it fits,
    else as large as the room left on the page allows down to a share `least` of that width (a page's foot
    filled rather than left empty), else on the next page (floating past the text after it)."""

    floats = True

    def __init__(self, drawn: Flowable, captions: list[Flowable], least: float):
        super().__init__()
        self.drawn, self.captions, self.least = drawn, captions, least
        self.scale = 1.0

    def _captions_height(self, available_width: float) -> float:
        height = 0.0
        for index, caption in enumerate(self.captions):
            _, caption_height = caption.wrapOn(self.canv, available_width, 1e6)
            height += caption_height + caption.getSpaceAfter() * (index < len(self.captions) - 1)
            height += caption.getSpaceBefore()
        return height

    def wrap(self, available_width, available_height):
        drawn_width, drawn_height = self.drawn.wrapOn(self.canv, self.drawn.width, 1e6)
        captions = self._captions_height(available_width)
        room = available_height - captions
        self.scale = 1.0 if drawn_height <= room + 1e-6 else max(self.least, room / drawn_height)
        self.width, self.height = available_width, drawn_height * self.scale + captions
        self.drawn_size = (drawn_width, drawn_height)
        return self.width, self.height

    def split(self, available_width, available_height):
        return []          # never in parts: on the next page it is drawn at its width

    def getSpaceAfter(self):
        return self.captions[-1].getSpaceAfter() if self.captions else 2.0

    def draw(self):
        drawn_width, drawn_height = self.drawn_size
        canvas, scale = self.canv, self.scale
        y = self.height - drawn_height * scale
        canvas.saveState()
        canvas.translate((self.width - drawn_width * scale) / 2, y)
        canvas.scale(scale, scale)
        self.drawn.drawOn(canvas, 0, 0)
        canvas.restoreState()
        for index, caption in enumerate(self.captions):
            y -= caption.getSpaceBefore() + caption.height
            caption.drawOn(canvas, 0, y)
            y -= caption.getSpaceAfter() if index < len(self.captions) - 1 else 0


class CentredArt(Flowable):
    """An art file drawn centred at a width in mm."""

    def __init__(self, path, width_mm: float, font: str):
        super().__init__()
        art_w, art_h = art_size(path)
        self.path, self.width, self.font = path, mm_to_pt(width_mm), font
        self.height = self.width * art_h / art_w

    def wrap(self, available_width, available_height):
        self.available = available_width
        return available_width, self.height

    def draw(self):
        painter = FacePainter.on(self.canv, drawing_settings(self.font))
        painter._define_art(self.path)
        x = (self.available - self.width) / 2
        self.canv.saveState()
        self.canv.translate(x, 0)
        painter._art(ArtPlacement(self.path, 0, 0, self.width / mm_to_pt(1), self.height / mm_to_pt(1)),
                     self.height / mm_to_pt(1))
        self.canv.restoreState()


def render_rules(doc: RuleDoc, paper: str, setter: TextSetter, stack: tuple[str, ...],
                 colour_mode: str = "rgb", ink_limit: float = INK_LIMIT) -> bytes:
    """rules.pdf as bytes, copyfitted (copyfit.py) so its booklet needs no more sheets than it must."""
    markup = Markup(Book(setter, stack, doc.lang, doc.icons, doc.breaks))
    return choose_setting(lambda fit: set_rules(doc, paper, markup, fit, colour_mode, ink_limit)).pdf


def set_rules(doc: RuleDoc, paper: str, markup: Markup, fit: Copyfit = AS_DESIGNED, colour_mode: str = "rgb",
              ink_limit: float = INK_LIMIT) -> Setting:
    """The rulebook set at one copyfitting step: two passes, so the table of contents has the real page numbers."""
    width, _ = PAGE_SIZES[paper]
    frame_width = width - MARGINS["outer"] - MARGINS["inner"]
    buffer = io.BytesIO()
    template = RulebookTemplate(buffer, doc, paper, markup, colour_mode, ink_limit)
    template.multiBuild(StoryBuilder(doc, markup, frame_width, width, fit).story())
    return Setting(buffer.getvalue(), template.page, template.last_fill)
