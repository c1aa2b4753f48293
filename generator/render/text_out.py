"""Text objects written onto a canvas faster than through ReportLab's own `PDFTextObject`, the same bytes.

pnp draws a text as one text object (BT … ET): each run placed at its own origin (`setTextOrigin`,
a `Tm`), the font and fill colour set where they change, the run written without moving a cursor
(`_textOut`). `reportlab_text` does exactly that through ReportLab; `TextWriter.draw` writes the very
same operators itself, which takes a deck's drawing a fraction of the time: ReportLab does per run,
in Python, what is the same for a whole text (the font's state, the colour) and writes each string
one character at a time.

For a TrueType font ReportLab embeds subsets of at most 256 glyphs: `TTFont.splitString` gives each
character a code the first time the document uses it (subset = code >> 8, byte = code & 0xFF) and
cuts a string where the subset changes; `PDFTextObject._formatText` then writes `/F1+n size Tf
leading TL` where the subset changes and `(escaped bytes) Tj` per piece. A table per font and
document, kept in step with the font state's `assignments` (a code, once given, never changes),
holds each subset's characters and their escaped bytes as a charmap codec, so one C-speed
`charmap_encode` both checks that every character of a string has its code in the subset and writes
the Tj operand. Anything else, a character seen for the first time, a font that is not a dynamic
TrueType font, a colour with a spot ink or a transparency still to set, a canvas or font class that
overrides how ReportLab writes, goes through ReportLab itself (a text object of its own whose code
is the text object being written), so the codes are still given by ReportLab, in the order it gives
them, and the bytes cannot differ; the table takes the new codes in on the next run.
"""

from __future__ import annotations

from codecs import charmap_encode
from collections.abc import Sequence
from itertools import groupby, islice
from typing import Any

from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

NBSP, SPACE = 0xA0, 0x20     # splitString writes a no-break space as a space
# each byte as ReportLab escapes it in a Tj operand: ( ) \\ with a backslash, others below 32 or above 126 in octal
BYTE_ESCAPES = tuple(escapePDF(bytes((byte,))).encode("latin-1") for byte in range(256))


class CodeTable:
    """What `splitString` and `_formatText` make of the characters that already have a code in one
    font's subsets of one document."""

    __slots__ = ("assignments", "synced", "subsets", "subset_of")

    def __init__(self, assignments: dict[int, int]):
        self.assignments = assignments     # the font state's own dict: code point → code
        self.synced = 0                    # how many of its entries the table holds (it only grows)
        # per subset, each of its characters' code point → its byte, escaped: a charmap codec's table
        self.subsets: list[dict[int, bytes]] = []
        self.subset_of: dict[str, int] = {}

    def sync(self) -> None:
        """Take in the codes ReportLab gave since the last call (a dict keeps insertion order)."""
        assignments = self.assignments
        if len(assignments) < self.synced:   # never happens with ReportLab's State: start again
            self.synced, self.subsets, self.subset_of = 0, [], {}
        if len(assignments) == self.synced:
            return
        for point, code in islice(assignments.items(), self.synced, None):
            if point != NBSP:            # never looked up: splitString asks for a space instead
                self._add(point, code)
                if point == SPACE:
                    self._add(NBSP, code)
        self.synced = len(assignments)

    def _add(self, point: int, code: int) -> None:
        subset = code >> 8
        while len(self.subsets) <= subset:
            self.subsets.append({})
        self.subsets[subset][point] = BYTE_ESCAPES[code & 0xFF]
        self.subset_of[chr(point)] = subset

    def pieces(self, text: str, current: int) -> list[tuple[int, str]] | None:
        """The (subset, escaped bytes) pieces splitString cuts the text into, the current subset tried
        first; None if a character of it has no code yet."""
        subsets = self.subsets
        if 0 <= current < len(subsets):
            try:
                return [(current, charmap_encode(text, "strict", subsets[current])[0].decode("latin-1"))]
            except UnicodeEncodeError:
                pass
        for subset, codes in enumerate(subsets):
            if subset != current:
                try:
                    return [(subset, charmap_encode(text, "strict", codes)[0].decode("latin-1"))]
                except UnicodeEncodeError:
                    pass
        if not self.subset_of.keys() >= set(text):
            return None
        return [(subset, charmap_encode("".join(piece), "strict", subsets[subset])[0].decode("latin-1"))
                for subset, piece in groupby(text, self.subset_of.__getitem__)]


# One run of a text: (x, y) its baseline's start in points on the canvas, its text, font name, size
# (points) and fill colour (a ReportLab colour; the same colour is the same object: compared by identity).
TextLine = tuple[float, float, str, str, float, object]


def reportlab_text(canvas: Canvas, lines: Sequence[TextLine]) -> None:
    """The lines as one text object through ReportLab's own PDFTextObject: what `TextWriter.draw`
    writes, byte for byte (and what it falls back to)."""
    block, style = None, None
    for x, y, text, font, size, colour in lines:
        if block is None:
            block = canvas.beginText(x, y)
        else:
            block.setTextOrigin(x, y)
        if style is None or font != style[0] or size != style[1] or colour is not style[2]:
            block.setFont(font, size)
            block.setFillColor(colour)
            style = (font, size, colour)
        _reportlab_text_out(block, text)
    if block is not None:
        canvas.drawText(block)


class TextWriter:
    """Writes text objects onto one canvas as `reportlab_text` does, most of it without ReportLab."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        cls = type(canvas)
        # a canvas class writing its own way: ReportLab writes
        self.fast = (getattr(cls, "_escape", None) is Canvas._escape
                     and getattr(cls, "beginText", None) is Canvas.beginText
                     and getattr(cls, "drawText", None) is Canvas.drawText)
        self.tables: dict[object, CodeTable] = {}                # a font object → its table in this document
        self.fills: dict[int, tuple[object, str | None]] = {}    # id(colour) → (colour, its operator or None)
        self.helper: PDFTextObject | None = None
        # (font, subset, size) → the operator selecting it: the font's name in the document, once given, stays
        self.selections: dict[tuple[object, int, float], str] = {}
        self.transparency = False      # the document's version raised for transparency (setFillAlpha does it)

    def draw(self, lines: Sequence[TextLine]) -> None:
        """The lines as one text object (nothing for no lines)."""
        if not lines:
            return
        canvas = self.canvas
        if not self.fast or not canvas.bottomup or getattr(canvas, "_enforceColorSpace", None) is not None:
            reportlab_text(canvas, lines)       # drawing top-down, or enforcing a colour space: ReportLab writes
            return
        code = ["BT"]
        append = code.append
        style_font = style_size = style_colour = None
        table = None
        font: Any = None
        current = -1                 # the subset selected (-1: none since the font was set)
        codes = None                 # its characters' escaped bytes (table.subsets[current]), if it has any
        for x, y, text, font_name, size, colour in lines:
            if font_name == style_font and size == style_size and colour is style_colour:
                if codes is not None and type(text) is str and text:   # the usual case: the subset of the run before
                    try:
                        escaped = charmap_encode(text, "strict", codes)[0].decode("latin-1")
                    except UnicodeEncodeError:
                        pass
                    else:
                        append(f"1 0 0 1 {fp_str(x, y)} Tm ({escaped}) Tj")
                        continue
                append(f"1 0 0 1 {fp_str(x, y)} Tm")
            else:                                # setFont and setFillColor after the origin
                append(f"1 0 0 1 {fp_str(x, y)} Tm")
                style_font, style_size, style_colour = font_name, size, colour
                font = getFont(font_name)
                current, codes = -1, None
                table = self._table(font)
                if table is None:                   # not a dynamic TrueType font: setFont writes a Tf
                    self._reportlab(code, font_name, size, current).setFont(font_name, size)
                fill = self._fill(colour)
                if fill is None:
                    self._reportlab(code, font_name, size, current).setFillColor(colour)
                else:
                    append(fill)
            if table is not None and type(text) is str and text:
                pieces = table.pieces(text, current)
                if pieces is not None:
                    for subset, escaped in pieces:
                        if subset != current:
                            append(self._select(font, subset, size))
                            current = subset
                        append(f"({escaped}) Tj")
                    codes = table.subsets[current]
                    continue
            helper = self._reportlab(code, font_name, size, current)
            _reportlab_text_out(helper, text)      # gives new characters their codes
            current = helper._curSubset
            if table is None and font._dynamicFont:     # its first text in the document: it has codes now
                table = self._table(font)
            elif table is not None:
                table.sync()
            codes = table.subsets[current] if table is not None and 0 <= current < len(table.subsets) else None
        append("ET")
        canvas._code.append(" ".join(code))

    def _table(self, font) -> CodeTable | None:
        """The font's code table in this document, synced; None for a font ReportLab must write (not a
        dynamic TrueType font, or one whose writing a subclass overrides) or that has no codes yet."""
        table = self.tables.get(font)
        if table is None:
            if not font._dynamicFont or not _own_font(type(font)):
                return None
            state = font.state.get(self.canvas._doc)
            if state is None:           # not used in this document yet: ReportLab makes its state
                return None
            table = self.tables[font] = CodeTable(state.assignments)
        table.sync()
        return table

    def _fill(self, colour) -> str | None:
        """What `setFillColor` writes for an RGB or CMYK colour whose transparency is already in effect;
        None where ReportLab must set it (a spot colour, another kind, an alpha to set)."""
        known = self.fills.get(id(colour))
        if known is None or known[0] is not colour:
            kind = type(colour)
            if kind is CMYKColor:
                d = colour.density
                operator = "%s k" % fp_str(d * colour.cyan, d * colour.magenta, d * colour.yellow, d * colour.black)
            elif kind is Color:
                operator = "%s rg" % fp_str((colour.red, colour.green, colour.blue))
            else:
                operator = None
            known = self.fills[id(colour)] = (colour, operator)   # the colour kept: its id stays its own
        operator = known[1]
        alpha = getattr(colour, "alpha", None)
        if operator is None or alpha is None:
            return operator
        if type(alpha) not in (float, int) or self.canvas._extgstate.getValue("ca") != alpha:
            return None              # setFillAlpha checks it, or writes a graphics state
        if not self.transparency:     # as setFillAlpha does (the version only ever rises)
            self.canvas._doc.ensureMinPdfVersion("transparency")
            self.transparency = True
        return operator

    def _select(self, font, subset: int, size: float) -> str:
        """What `_formatText` writes to select a subset of the font at a size (leading: setFont's 1.2 × size)."""
        selection = self.selections.get((font, subset, size))
        if selection is None:
            selection = self.selections[font, subset, size] = (
                f"{font.getSubsetInternalName(subset, self.canvas._doc)} {fp_str(size)} Tf {fp_str(size * 1.2)} TL")
        return selection

    def _reportlab(self, code: list[str], font_name: str, size: float, subset: int) -> PDFTextObject:
        """ReportLab's own text object, in the state of the one being written and writing into its code."""
        helper = self.helper
        if helper is None:
            helper = self.helper = self.canvas.beginText()
        helper._code = code
        helper._fontname, helper._fontsize, helper._leading, helper._curSubset = font_name, size, size * 1.2, subset
        return helper


def _own_font(font: type) -> bool:
    """Whether the font class splits strings as ReportLab's TrueType font does (a subclass overriding
    it is left to write its own way). Two lookups: cheaper than remembering them."""
    return issubclass(font, TTFont) and getattr(font, "splitString", None) is TTFont.splitString


def _reportlab_text_out(block: PDFTextObject, text: str) -> None:
    """ReportLab's own writing, which also gives new characters their codes."""
    without_cursor = getattr(block, "_textOut", None)
    if without_cursor is not None:
        without_cursor(text)
    else:
        block.textOut(text)
