"""Flow a resolved rulebook into A5 (or half-letter) pages with ReportLab platypus.

Text goes into paragraphs as explicit font runs (per-glyph fallback done by
our TextSetter, which platypus cannot do), with soft hyphens from pyphen so
words with ё, ѝ and the like hyphenate too. Headings keep with their text,
tables repeat their header row when they break, no widows or orphans; the
table of contents is filled in by a second pass, from where headings landed.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor, toColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Flowable, Frame, KeepTogether, NextPageTemplate,
                                PageBreak, PageTemplate, Paragraph, Spacer, Table, TableStyle)
from reportlab.platypus.tableofcontents import TableOfContents

from generator.render.icons import icon_png
from generator.render.colour import convert
from generator.render.pdf import FacePainter
from generator.rulebook.resolve import ICON, Callout, Faq, Figure, RuleDoc, Table as RulesTable
from generator.text.hyphenation import soft_hyphenate
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter
from generator.units import mm_to_pt

PAGE_SIZES = {"a4": (148.0, 210.0), "letter": (139.7, 215.9)}   # A5; half-letter
MARGINS = {"top": 14.0, "bottom": 17.0, "inner": 13.0, "outer": 13.0}   # inner: at the fold
INK = HexColor("#2b2220")
RED = HexColor("#a31621")
CREAM = HexColor("#f6ecd9")
BADGE = "#f2b705"


class Markup:
    """Rich text to platypus paragraph XML, one <font> per run of a fallback face."""

    def __init__(self, setter: TextSetter, stack: tuple[str, ...], lang: str, icons: dict):
        self.setter, self.stack, self.lang, self.icons = setter, stack, lang, icons

    def paragraphs(self, text: str, weight: str = "regular", size: float = 9.5) -> list[tuple[str, str]]:
        """(marker, xml) per paragraph of the text."""
        result = []
        for paragraph in parse_rich_text(text):
            xml = "".join(self.fragment(f.text, self._weight(weight, f.bold), f.italic, size)
                          for f in paragraph.fragments)
            result.append((paragraph.marker, xml))
        return result

    @staticmethod
    def _weight(base: str, bold: bool) -> str:
        return base if not bold else ("black" if base != "regular" else "bold")

    def fragment(self, text: str, weight: str, italic: bool, size: float) -> str:
        out = []
        for index, piece in enumerate(ICON.split(text)):
            if index % 2:      # an :icon: name
                if piece in self.icons:
                    height = size * 1.25
                    out.append(f'<img src="{icon_png(self.icons[piece])}" width="{height:.2f}" '
                               f'height="{height:.2f}" valign="{-size * 0.28:.2f}"/>')
                continue
            for run in self.setter.runs(soft_hyphenate(piece, self.lang), self.stack, weight, italic):
                out.append(f'<font name="{run.face.name}">{escape(run.text)}</font>')
        return "".join(out)

    def face(self, weight: str = "regular", italic: bool = False) -> str:
        return self.setter.library.face(self.stack[0], weight, italic).name


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
        painter = FacePainter.on(self.canv, self.font)
        painter.draw_face(self.face, 0, 0, self.scale)
        self.canv.setStrokeColor(HexColor("#b9ad9b"))
        self.canv.setLineWidth(0.4)
        self.canv.rect(0, 0, self.width, self.height, stroke=1, fill=0)


class Heading(Paragraph):
    """A paragraph that the table of contents lists (with its font runs, so any script shows)."""

    def __init__(self, text, style, toc_xml: str, level: int = 0):
        super().__init__(text, style)
        self.toc_xml, self.toc_level = toc_xml, level


class RulebookTemplate(BaseDocTemplate):
    def __init__(self, buffer, doc: RuleDoc, paper: str, markup: "Markup", colour_mode: str = "rgb",
                 ink_limit: float = 3.0, **kwargs):
        width, height = PAGE_SIZES[paper]
        body_font = markup.face()
        if colour_mode == "cmyk":
            # every colour platypus sets (text, rules, table backgrounds, badges) separated
            # on its way to the canvas, the same way as the cards' colours
            kwargs["enforceColorSpace"] = lambda colour: convert(toColor(colour), "cmyk", ink_limit)
        super().__init__(buffer, pagesize=(mm_to_pt(width), mm_to_pt(height)), invariant=1,
                         initialFontName=body_font, title=f"{doc.title} — {doc.edition}", creator="pnp", **kwargs)
        self.rule_doc, self.body_font, self.markup = doc, body_font, markup
        self.colour_mode, self.ink_limit = colour_mode, ink_limit
        frame = Frame(mm_to_pt(MARGINS["outer"]), mm_to_pt(MARGINS["bottom"]),
                      mm_to_pt(width - MARGINS["outer"] - MARGINS["inner"]),
                      mm_to_pt(height - MARGINS["top"] - MARGINS["bottom"]), id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        body = PageTemplate("body", [frame], onPage=self._footer)
        # a leaflet has no cover: its first page is a body page
        self.addPageTemplates([body] if doc.leaflet else [PageTemplate("cover", [frame]), body])

    def beforeDocument(self):
        # figures and art drawn by the face painter: one painter per pass's canvas, in this colour mode
        FacePainter.on(self.canv, self.body_font, self.colour_mode, self.ink_limit)

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
        """Footer text in per-glyph font runs (a Georgian title needs another face than the digits)."""
        runs = self.markup.setter.runs(text, self.markup.stack, "regular", False)
        widths = [stringWidth(run.text, run.face.name, size) for run in runs]
        if align_right:
            x -= sum(widths)
        for run, advance in zip(runs, widths):
            canvas.setFont(run.face.name, size)
            canvas.drawString(x, y, run.text)
            x += advance

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading):
            self.notify("TOCEntry", (flowable.toc_level, flowable.toc_xml, self.page))


class Styles:
    """Paragraph styles of the rulebook, in points."""

    def __init__(self, markup: Markup, compact: bool = False):
        """`compact` sets a leaflet: smaller type, tighter spacing."""
        regular, bold, black = markup.face(), markup.face("bold"), markup.face("black")
        size, leading = (8.4, 10.9) if compact else (9.5, 12.8)
        body = ParagraphStyle("body", fontName=regular, fontSize=size, leading=leading, textColor=INK,
                              spaceAfter=3 if compact else 4, allowWidows=0, allowOrphans=0, embeddedHyphenation=1,
                              splitLongWords=0, bulletFontName=regular, bulletFontSize=size)
        self.body = body
        self.item = ParagraphStyle("item", parent=body, leftIndent=11, bulletIndent=1, spaceAfter=2.5)
        self.h1 = ParagraphStyle("h1", parent=body, fontName=black, fontSize=12.5 if compact else 15,
                                 leading=15 if compact else 18, textColor=RED, spaceBefore=6 if compact else 10,
                                 spaceAfter=3 if compact else 5, keepWithNext=1, embeddedHyphenation=0)
        self.h2 = ParagraphStyle("h2", parent=body, fontName=black, fontSize=11, leading=14, spaceBefore=6,
                                 spaceAfter=3, keepWithNext=1, embeddedHyphenation=0)
        self.cell = ParagraphStyle("cell", parent=body, fontSize=min(8.3, size), leading=min(10.4, leading),
                                   spaceAfter=0)
        self.head = ParagraphStyle("head", parent=self.cell, fontName=bold, textColor=HexColor("#ffffff"))
        self.caption = ParagraphStyle("caption", parent=body, fontSize=8, leading=10, alignment=TA_CENTER,
                                      spaceBefore=2, spaceAfter=8)
        self.question = ParagraphStyle("question", parent=body, fontName=bold, keepWithNext=1, spaceAfter=1.5)
        self.callout_title = ParagraphStyle("callout", parent=body, fontName=black, fontSize=10.5, leading=13,
                                            textColor=RED, spaceAfter=3, keepWithNext=1)
        self.title = ParagraphStyle("title", parent=body, fontName=black, fontSize=30, leading=34,
                                    alignment=TA_CENTER, textColor=RED, embeddedHyphenation=0)
        self.tagline = ParagraphStyle("tagline", parent=body, fontSize=12, leading=16, alignment=TA_CENTER)
        self.fact = ParagraphStyle("fact", parent=body, fontName=bold, fontSize=11, leading=15, alignment=TA_CENTER)
        self.toc = [ParagraphStyle("toc0", parent=body, fontSize=10, leading=15, alignment=TA_LEFT)]


class StoryBuilder:
    """The flowables of a rulebook, in order."""

    def __init__(self, doc: RuleDoc, markup: Markup, frame_width_mm: float):
        self.doc, self.markup, self.frame_width = doc, markup, frame_width_mm
        self.styles = Styles(markup, compact=doc.leaflet)

    def paragraphs(self, text: str, style: ParagraphStyle, weight: str = "regular") -> list[Flowable]:
        flowables = []
        for marker, xml in self.markup.paragraphs(text, weight, style.fontSize):
            if marker:
                flowables.append(Paragraph(xml, self.styles.item, bulletText=marker))
            else:
                flowables.append(Paragraph(xml, style))
        return flowables

    def table_style(self, commands: list) -> TableStyle:
        """Tables select a cell font even for flowable cells: make it ours, not an unembedded Helvetica."""
        return TableStyle([("FONT", (0, 0), (-1, -1), self.markup.face(), 8.3)] + commands)

    def badge(self) -> str:
        if not self.doc.badge:
            return ""
        return (f' <font backColor="{BADGE}" size="7" name="{self.markup.face("black")}">'
                f'&nbsp;{escape(self.doc.badge)}&nbsp;</font>')

    def story(self) -> list[Flowable]:
        story = self.leaflet_head() if self.doc.leaflet else self.cover_and_contents()
        for section in self.doc.sections:
            if not self.doc.leaflet:   # a leaflet keeps headings with their text, but fills its pages
                story.append(CondPageBreak(mm_to_pt(30)))
            heading_xml = "".join(xml for _, xml in self.markup.paragraphs(section.heading.words, "black", 15))
            toc_xml = "".join(xml for _, xml in self.markup.paragraphs(section.heading.words, "regular", 10))
            if section.heading.badge:
                heading_xml += self.badge()
            story.append(Heading(heading_xml, self.styles.h1, toc_xml))
            for item in section.items:
                story += self.item(item)
        return story

    def leaflet_head(self) -> list[Flowable]:
        """A leaflet starts straight away: title, tagline and facts above the first section."""
        styles = self.styles
        story: list[Flowable] = [NextPageTemplate("body")]
        story += self.paragraphs(self.doc.title, ParagraphStyle("leaflet", parent=styles.title, fontSize=22,
                                                                leading=26), "black")
        story += self.paragraphs(self.doc.tagline, styles.tagline)
        facts = " · ".join(self.doc.facts + (self.doc.edition,))
        story += self.paragraphs(facts, ParagraphStyle("facts", parent=styles.fact, fontSize=9.5, spaceAfter=4),
                                 "bold")
        return story

    def cover_and_contents(self) -> list[Flowable]:
        styles = self.styles
        story: list[Flowable] = [Spacer(1, mm_to_pt(22))]
        story += self.paragraphs(self.doc.title, styles.title, "black")
        story.append(Spacer(1, mm_to_pt(4)))
        story += self.paragraphs(self.doc.tagline, styles.tagline)
        story.append(Spacer(1, mm_to_pt(8)))
        if self.doc.cover_art:
            story.append(CentredArt(self.doc.cover_art, 55, self.markup.face()))
            story.append(Spacer(1, mm_to_pt(8)))
        for fact in self.doc.facts:
            story += self.paragraphs(fact, styles.fact, "bold")
        story.append(Spacer(1, mm_to_pt(4)))
        story += self.paragraphs(self.doc.edition, ParagraphStyle("edition", parent=styles.fact, textColor=RED),
                                 "black")
        story += [NextPageTemplate("body"), PageBreak()]
        story += self.paragraphs(self.doc.toc_title, styles.h1, "black")
        toc = TableOfContents(levelStyles=styles.toc, dotsMinLevel=0, tableStyle=self.table_style([
            ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
        story += [toc, PageBreak()]
        return story

    def item(self, item) -> list[Flowable]:
        styles = self.styles
        content = item.content
        if item.kind == "paragraph":
            return self.paragraphs(content.words, styles.body)
        if item.kind == "list":
            return self.paragraphs(content.words, styles.body)
        if item.kind == "subheading":
            xml = "".join(x for _, x in self.markup.paragraphs(content.words, "black", 11))
            return [Paragraph(xml + (self.badge() if content.badge else ""), styles.h2)]
        if item.kind == "table":
            return [self.table(content)]
        if item.kind == "callout":
            return [self.callout(content)]
        if item.kind == "faq":
            return self.faq(content)
        if item.kind == "figure":
            return self.figure(content)
        return []

    def table(self, table: RulesTable) -> Table:
        styles = self.styles
        columns = max([len(table.header)] + [len(row) for row in table.rows])
        weights = list(table.widths or [1] * columns)[:columns]
        total = sum(weights)
        widths = [mm_to_pt(self.frame_width) * w / total for w in weights]
        data = []
        if table.header:
            data.append([self._cell(text, styles.head, "bold") for text in table.header])
        for row, badge in zip(table.rows, table.row_badges):
            cells = [self._cell(text, styles.cell) for text in row]
            if badge and cells:
                first = "".join(x for _, x in self.markup.paragraphs(row[0], "regular", 8.3))
                cells[0] = Paragraph(first + "<br/>" + self.badge(), styles.cell)
            data.append(cells)
        flowable = Table(data, colWidths=widths, repeatRows=1 if table.header else 0, splitByRow=1)
        commands = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("GRID", (0, 0), (-1, -1), 0.4, HexColor("#c9b79c")),
                    ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                    ("LEFTPADDING", (0, 0), (-1, -1), 3.5), ("RIGHTPADDING", (0, 0), (-1, -1), 3.5)]
        if table.header:
            commands.append(("BACKGROUND", (0, 0), (-1, 0), RED))
        for index in range(1 if table.header else 0, len(data)):
            if index % 2 == 0:
                commands.append(("BACKGROUND", (0, index), (-1, index), HexColor("#fbf6ec")))
        flowable.setStyle(self.table_style(commands))
        flowable.spaceBefore, flowable.spaceAfter = 3, 7
        return flowable

    def _cell(self, text: str, style: ParagraphStyle, weight: str = "regular"):
        parts = self.paragraphs(text, style, weight)
        return parts if len(parts) != 1 else parts[0]

    def callout(self, callout: Callout) -> Flowable:
        inner: list[Flowable] = []
        if callout.title:
            inner += self.paragraphs(callout.title, self.styles.callout_title, "black")
        for item in callout.blocks:
            inner += self.item(item)
        box = Table([[inner]], colWidths=[mm_to_pt(self.frame_width)])
        box.setStyle(self.table_style([("BACKGROUND", (0, 0), (-1, -1), CREAM), ("BOX", (0, 0), (-1, -1), 0.8, RED),
                                 ("LEFTPADDING", (0, 0), (-1, -1), 7), ("RIGHTPADDING", (0, 0), (-1, -1), 7),
                                 ("TOPPADDING", (0, 0), (-1, -1), 6), ("BOTTOMPADDING", (0, 0), (-1, -1), 4)]))
        box.spaceBefore, box.spaceAfter = 4, 8
        return KeepTogether([box])

    def faq(self, faq: Faq) -> list[Flowable]:
        flowables: list[Flowable] = []
        for question, answer, badge in faq.entries:
            xml = "".join(x for _, x in self.markup.paragraphs(question, "bold", 9.5))
            flowables.append(Paragraph(xml + (self.badge() if badge else ""), self.styles.question))
            flowables += self.paragraphs(answer, self.styles.body)
        return flowables

    def figure(self, figure: Figure) -> list[Flowable]:
        width = {"card": 42.0, "board": self.frame_width * 0.92}.get(figure.kind, 40.0)
        drawn: Flowable
        if figure.face is not None:
            drawn = FaceFigure(figure.face, width, self.markup.face())
        else:
            drawn = CentredArt(figure.art, width, self.markup.face())
        drawn.hAlign = "CENTER"
        parts = [drawn] + (self.paragraphs(figure.caption, self.styles.caption) if figure.caption else [])
        return [KeepTogether(parts)]


class CentredArt(Flowable):
    """An art file drawn centred at a width in mm."""

    def __init__(self, path, width_mm: float, font: str):
        super().__init__()
        from generator.render.art import art_size
        art_w, art_h = art_size(path)
        self.path, self.width, self.font = path, mm_to_pt(width_mm), font
        self.height = self.width * art_h / art_w

    def wrap(self, available_width, available_height):
        self.available = available_width
        return available_width, self.height

    def draw(self):
        from generator.components.piece import ArtPlacement
        painter = FacePainter.on(self.canv, self.font)
        painter._define_art(self.path)
        x = (self.available - self.width) / 2
        self.canv.saveState()
        self.canv.translate(x, 0)
        painter._art(ArtPlacement(self.path, 0, 0, self.width / mm_to_pt(1), self.height / mm_to_pt(1)),
                     self.height / mm_to_pt(1))
        self.canv.restoreState()


def render_rules(doc: RuleDoc, paper: str, setter: TextSetter, stack: tuple[str, ...],
                 colour_mode: str = "rgb", ink_limit: float = 3.0) -> bytes:
    """rules.pdf as bytes: two passes, so the table of contents has the real page numbers."""
    markup = Markup(setter, stack, doc.lang, doc.icons)
    width, _ = PAGE_SIZES[paper]
    frame_width = width - MARGINS["outer"] - MARGINS["inner"]
    buffer = io.BytesIO()
    template = RulebookTemplate(buffer, doc, paper, markup, colour_mode, ink_limit)
    template.multiBuild(StoryBuilder(doc, markup, frame_width).story())
    return buffer.getvalue()
