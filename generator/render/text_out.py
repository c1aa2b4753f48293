"""Text runs written into a ReportLab text object, faster than its own `textOut`, the same bytes.

For a TrueType font ReportLab embeds subsets of at most 256 glyphs: `TTFont.splitString` gives each
character a code the first time the document uses it (subset = code >> 8, byte = code & 0xFF) and
cuts a string where the subset changes; `PDFTextObject._formatText` then writes `/F1+n size Tf
leading TL` where the subset changes and `(escaped bytes) Tj` per piece. It does so one character at
a time in Python, and `textOut` measures the string's width for a cursor pnp never uses (every run
is placed by its own `setTextOrigin`). Drawing a deck spends almost half its time there.

`text_out` writes the very same operators from a table per font and document, kept in step with
the font state's `assignments` (a code, once given, never changes): each subset's characters and
their escaped bytes make a charmap codec, so one C-speed `charmap_encode` both checks that every
character of a string has its code in the subset and writes the Tj operand. Anything else, a
character seen for the first time, a font that is not a dynamic TrueType font, an object not of the
expected shape, goes through ReportLab itself, so the codes are still given by ReportLab, in the
order it gives them, and the bytes cannot differ; the table takes the new codes in on the next call.
"""

from __future__ import annotations

import weakref
from codecs import charmap_encode
from itertools import groupby, islice

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

    __slots__ = ("assignments", "synced", "subsets", "subset_of", "__weakref__")

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
            self.__init__(assignments)
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


_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # a font's state in one document → its table


def text_out(block: PDFTextObject, text: str) -> None:
    """Append `text` to the text object at its current origin in its current font, as ReportLab's
    `textOut` writes it, without advancing the text cursor (like ReportLab's `_textOut`): place the
    next run with `setTextOrigin`."""
    written = _written(block, text)
    if written is None:
        _reportlab_text_out(block, text)
        return
    operators, subset = written
    block._code.append(operators)
    block._curSubset = subset


def _written(block: PDFTextObject, text: str) -> tuple[str, int] | None:
    """The operators `_formatText` would return and the subset selected after them; None where ReportLab
    must write the text itself (a character without a code yet, a font this module does not know)."""
    if type(text) is not str or not text:    # a ShapedStr, bytes; '' appends '' (as ReportLab does)
        return None
    try:
        font, canvas = getFont(block._fontname), block._canvas
        if not font._dynamicFont or not _reportlab_own(type(font), type(block), type(canvas)):
            return None
        doc = canvas._doc
        state = font.state.get(doc)
        if state is None:
            return None
        table = _TABLES.get(state)
        if table is None or table.assignments is not state.assignments:
            table = _TABLES[state] = CodeTable(state.assignments)
        table.sync()
        pieces = table.pieces(text, block._curSubset)
        if pieces is None:
            return None
        current = block._curSubset
        operators = []
        for subset, escaped in pieces:
            if subset != current:
                operators.append(f"{font.getSubsetInternalName(subset, doc)} "
                                 f"{fp_str(block._fontsize)} Tf {fp_str(block._leading)} TL")
                current = subset
            operators.append(f"({escaped}) Tj")
    except (AttributeError, TypeError):      # ReportLab's insides changed shape: let it write
        return None
    return " ".join(operators), current


_OWN: dict[tuple[type, type, type], bool] = {}


def _reportlab_own(font: type, block: type, canvas: type) -> bool:
    """Whether the font, text object and canvas split, format and escape as ReportLab's own classes do
    (a subclass overriding one of them is left to write its own way)."""
    own = _OWN.get((font, block, canvas))
    if own is None:
        own = _OWN[font, block, canvas] = (
            issubclass(font, TTFont) and getattr(font, "splitString", None) is TTFont.splitString
            and getattr(block, "_formatText", None) is PDFTextObject._formatText
            and getattr(canvas, "_escape", None) is Canvas._escape)
    return own


def _reportlab_text_out(block: PDFTextObject, text: str) -> None:
    """ReportLab's own writing, which also gives new characters their codes."""
    without_cursor = getattr(block, "_textOut", None)
    if without_cursor is not None:
        without_cursor(text)
    else:
        block.textOut(text)
