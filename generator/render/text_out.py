"""Text objects of shaped glyphs written onto a canvas: the renderer's one way of putting text in a PDF.

Takes runs of text as the layout placed them (a baseline start in points, the text in logical order,
the face's registered name, size, fill colour, the style's OpenType features, whether the run is
right to left, whether it is slanted) and writes one text object (BT … ET) per stretch of one colour:
each run at its own origin (`Tm`), the glyphs HarfBuzz gives for the run (generator/text/shaping.py
`run_pieces`, the very pieces the layout measured) as two-byte glyph ids in a `TJ` array, whose
numbers move a glyph from its own advance to where HarfBuzz put it (kerning, marks, a word's
spaces) and whose rises (`Ts`) lift marks HarfBuzz moved up. The fonts are the faces' glyph fonts
(render/glyph_fonts.py: a Type0 font per face and document, its ToUnicode map made from the texts
drawn); where the glyphs drawn do not read back as the run's text — right to left, Indic reordering,
a glyph first met in another cluster — the run is marked `/Span <</ActualText (…)>> BDC … EMC`, so
pdftotext and pdfium read every word as it is written.

Everything goes through ReportLab's public canvas: `setFont` once per glyph font (ReportLab names
the font and puts it in the pages' resources), `setFillColor` where the colour changes (spot colours,
CMYK enforcement and transparency are ReportLab's), and `addLiteral` for the text objects. A run's
operators are worked out once per canvas and kept (`GlyphUsage.written`): a deck's repeated names
and rules cost a dictionary look-up.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import MappingProxyType
from typing import cast

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from generator.render.glyph_fonts import GlyphFont, GlyphUsage, glyph_font
from generator.render.rtl_reading import for_pdfium, for_pdftotext
from generator.text.shaping import IGNORABLE, ZWSP, Shaped, cut_pieces, shape_file

# IGNORABLE: characters that shape their neighbours or steer bidi but leave no glyph (and are not read back)
_DROPPED = MappingProxyType({ord(char): None for char in IGNORABLE})

# One run: (x, y) its baseline's start in points on the canvas, its text (logical order), the face's
# registered name, size (points), fill colour (a ReportLab colour, or None: the canvas's), features,
# right to left, slanted (synthetic italic).
TextLine = tuple[float, float, str, str, float, object, tuple[str, ...], bool, bool]

RLM = "\u200f"                   # RIGHT-TO-LEFT MARK
# Marks a glyph object as read as nothing: pdfium takes the innermost /ActualText of any tag and skips an
# object whose text is U+FFFD; poppler takes /ActualText from /Span tags only and ignores this one
UNREAD = "/Drawn << /ActualText <FEFFFFFD> >> BDC"
SLANT = 0.19438030913771848      # tan(11°): a synthetic italic's shear


def line(x: float, y: float, text: str, font: str, size: float, colour: object,
         features: tuple[str, ...] = (), rtl: bool = False, slant: bool = False) -> TextLine:
    """A TextLine with the usual defaults (upright, left to right, the font's default features)."""
    return (x, y, text, font, size, colour, features, rtl, slant)


class TextWriter:
    """Writes text objects of shaped glyphs onto one canvas."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.fonts: dict[str, tuple[GlyphFont, GlyphUsage]] = {}    # a face's name → its glyph font here

    def draw(self, lines: Sequence[TextLine], stroke: bool = False, unread: bool = False) -> None:
        """The lines as text objects (nothing for no lines); `stroke`: the letters' outlines only
        (text render mode 1, in the canvas's stroke colour and line width: a halo); `unread`: each run
        marked as read as nothing (UNREAD: its line's text is read from `read_line`'s marks)."""
        if not lines:
            return
        canvas = self.canvas
        fonts = self.fonts
        for entry in lines:        # every font selected before any text object is begun
            if entry[3] not in fonts:
                font = glyph_font(entry[3])
                fonts[entry[3]] = (font, font.select(canvas, entry[4]))
        flip = "" if canvas.bottomup else "-"
        code: list[str] = []
        colour: object = _UNSET
        selected: tuple[str, float] | None = None
        for x, y, text, name, size, fill, features, rtl, slant in lines:
            if not text:
                continue
            if fill is not colour and not stroke:
                if code:
                    code.append("ET")
                    canvas.addLiteral(" ".join(code))
                    code = []
                if fill is not None:
                    canvas.setFillColor(fill)
                colour, selected = fill, None
            if not code:
                code.append("BT 1 Tr" if stroke else "BT")
            font, usage = fonts[name]
            if selected != (name, size):
                code.append(f"{usage.resource} {fp_str(size)} Tf")
                selected = (name, size)
            shear = fp_str(SLANT) if slant else "0"
            code.append(f"1 0 {shear} {flip}1 {fp_str(x, y)} Tm")
            if unread:
                code.append(f"{UNREAD} {run_operators(font, usage, text, features, rtl, size, marked=False)} EMC")
            else:
                code.append(run_operators(font, usage, text, features, rtl, size))
        if code:
            code.append("ET")
            canvas.addLiteral(" ".join(code))


    @contextmanager
    def unread(self) -> Iterator[None]:
        """Text drawn inside is read as nothing by either reader (its runs drawn `unread` for pdfium, inside
        a /Span whose /ActualText is empty for poppler): the words of a miniature, too small to read."""
        self.canvas.addLiteral(_span_opened(""))
        yield
        self.canvas.addLiteral("EMC")

    def read_line(self, logical: str, left: float, y: float, width: float, font_name: str, size: float) -> None:
        """Opens the marks a right-to-left line is read by (closed by `end_read_line`), the line's runs and
        halos then drawn `unread` inside them: a /Span whose /ActualText is the line's text as poppler
        reads it back to logical order, and an invisible glyph (text render mode 3) at each end of the
        line, from `left` across `width` (points) on the baseline `y`, whose own /ActualText is the text
        as pdfium reads it back (render/rtl_reading.py). Neither reader puts a line's runs, drawn in
        visual order, back into the order they were written in, where numbers, Latin names or
        punctuation stand between right-to-left words."""
        canvas = self.canvas
        logical = logical.translate(_DROPPED)           # what steers the shaping and the bidi levels: not read
        canvas.addLiteral(_span_opened(for_pdftotext(logical)))
        if font_name not in self.fonts:
            font = glyph_font(font_name)
            self.fonts[font_name] = (font, font.select(canvas, size))
        font, usage = self.fonts[font_name]
        # a low, flat glyph that reads as itself, left to right or neutral (pdfium reverses the text of a
        # glyph that reads right to left: an Arabic face may draw "_" with its tatweel's glyph), drawn at
        # the line's two ends: readers give the line's characters the box between them. Not one glyph
        # stretched across (Tz): pdfium measures how far apart lines are by their glyphs' widths, and
        # took a stretched glyph's lines below for its own (and a tall one, "|", overlapping ones)
        hb = font.hb
        shaped = next((shaped for char in "-_." if len((shaped := shape_file(font.path, char, (), "ltr")).gids) == 1
                       and shaped.gids[0] and shaped.width > 0 and _note(shaped, usage) == char), None)
        if shaped is None:
            return
        glyph = shaped.gids[0]
        extents = hb.font.get_glyph_extents(glyph)
        # (a face registered as a shell has no outlines to measure: its advance stands for the ink)
        bearing, ink = (extents.x_bearing, extents.width) if extents.width > 0 else (0, shaped.width * hb.upem)
        em = size / hb.upem                                     # points per font unit
        first = left - bearing * em                             # its ink starts at the line's left end
        last = left + width - (bearing + ink) * em              # its ink ends at the line's right end
        gap = (last - first) / size * 1000 - font.advance(glyph)    # thousandths of an em between them
        flip = "" if canvas.bottomup else "-"
        text = for_pdfium(logical)
        canvas.addLiteral(f"BT 3 Tr {usage.resource} {fp_str(size)} Tf 1 0 0 {flip}1 {fp_str(first, y)} Tm "
                          f"/Line << /ActualText <FEFF{_utf16(text)}> >> BDC "
                          f"[<{glyph:04X}>{_number(-gap)}<{glyph:04X}>] TJ EMC 0 Tr ET")

    def end_read_line(self) -> None:
        self.canvas.addLiteral("EMC")

    def hidden_spaces(self, spaces: Sequence[tuple[float, float, float, str, float, bool]]) -> None:
        """An invisible space (text render mode 3) as wide as each inline icon, under it: (x, y) its
        baseline's start in points, its width in points, the face and size of the text beside it. It is
        marked as a zero-width space (/ActualText): pdftotext takes a space for a gap, and an icon's gap
        for the edge of a block (it read the words after an icon before those in front of it), but a
        character that is not white space fills the gap; pdfium reads the space. Beside right-to-left
        text (the last field) it is marked as a right-to-left mark instead: pdftotext reads a stretch of
        neither direction with the number before it ("2 ⟨coin⟩." as ".​ 2"), and a right-to-left mark
        ends it."""
        canvas = self.canvas
        code = ["BT 3 Tr"]
        flip = "" if canvas.bottomup else "-"
        for x, y, width, name, size, rtl in spaces:
            if name not in self.fonts:
                font = glyph_font(name)
                self.fonts[name] = (font, font.select(canvas, size))
            font, usage = self.fonts[name]
            shaped = shape_file(font.path, " ", (), "ltr")
            if len(shaped.gids) != 1 or shaped.width <= 0:
                continue
            _note(shaped, usage)
            scale = 100 * width / (shaped.width * size)
            code.append(f"{usage.resource} {fp_str(size)} Tf {fp_str(scale)} Tz 1 0 0 {flip}1 {fp_str(x, y)} Tm "
                        + _marked(RLM if rtl else ZWSP, f"[<{shaped.gids[0]:04X}>] TJ"))
        if len(code) > 1:
            # (the render mode and scaling are the graphics state's, not the text object's: both put back)
            canvas.addLiteral(" ".join([*code, "100 Tz 0 Tr ET"]))


_UNSET = object()


def run_operators(font: GlyphFont, usage: GlyphUsage, text: str, features: tuple[str, ...], rtl: bool,
                  size: float, marked: bool = True) -> str:
    """The TJ (and Ts) operators that draw a run from the pen, its glyphs' texts noted in `usage`;
    marked with the run's text where the glyphs do not read back as it (and `marked`).

    A run is cut into the pieces the layout measured (its words and spaces, text/shaping.py
    `cut_pieces`); each piece's operators and reading are worked out once per canvas (a deck's
    texts are made of the same few thousand words), so a run costs a look-up per word."""
    key = (features, rtl)
    plain = usage.plain.get(key)
    if plain is not None and ZWSP not in text:       # the usual run: words met before, each reading as itself
        known = [plain.get(word) for word in text.split(" ")]
        if None not in known:
            words = cast(list[str], known)
            if len(words) == 1:
                return words[0].replace("] TJ [", "")
            space = plain.get(" ")
            if space is not None:
                return f" {space} ".join(reversed(words) if rtl else words).replace("] TJ [", "")
    table = usage.pieces.get(key)
    if table is None:
        table = usage.pieces[key] = {}
    plain = usage.plain.setdefault(key, {})
    pieces = cut_pieces(text)
    found = [table.get(piece) or _piece(font, usage, table, piece, features, rtl) for piece in pieces]
    parts = []
    for piece, entry in zip(pieces, found, strict=True):
        if entry[3]:       # a mark raised: its rise is in points, the piece is written for this size
            parts.append(piece_operators(shape_file(font.path, piece, features, "rtl" if rtl else "ltr"), font, size))
            continue
        parts.append(entry[0])
        if entry[2]:
            plain[piece] = entry[0]
    # the pieces' arrays joined end to end: one TJ a run (where no mark is raised); right to left,
    # the last word leftmost (each piece's glyphs are in visual order already)
    operators = " ".join(reversed(parts) if rtl else parts).replace("] TJ [", "")
    logical = text.translate(_DROPPED)
    # a raised mark is a text object of its own, which readers may put after the next letter
    # (pdfium orders a line's objects by their origins) or on a line of its own (pdftotext): marked
    if not marked or (all(entry[2] for entry in found) and "".join(entry[1] for entry in found) == logical):
        return operators
    # readers take a marked text as the glyphs' own, in the order they are drawn, and put a
    # right-to-left line back into logical order themselves: a right-to-left text is marked in visual order
    return _marked(logical[::-1] if rtl else logical, operators)


def _piece(font: GlyphFont, usage: GlyphUsage, table: dict[str, tuple[str, str, bool, bool]], piece: str,
           features: tuple[str, ...], rtl: bool) -> tuple[str, str, bool, bool]:
    """A piece met the first time on this canvas: shaped, its operators written (at 1 pt where a mark is
    raised: written again for each size) and its glyphs' texts noted (what it reads back as, whether that
    is its own text, whether a mark is raised)."""
    shaped = shape_file(font.path, piece, features, "rtl" if rtl else "ltr")
    reading = _note(shaped, usage)
    own = reading == piece.translate(_DROPPED) and not shaped.rises and not _has_mark(piece)
    entry = table[piece] = (piece_operators(shaped, font, 1.0), reading, own, shaped.rises)
    return entry


def _has_mark(text: str) -> bool:
    """Whether a text has a combining mark (Thai vowels and tone marks, harakat, niqqud …): readers place a
    mark's glyph by its position, before or after its letter or on a line of its own, so a run holding
    one is marked with its text."""
    return not text.isascii() and any(unicodedata.category(char) == "Mn" for char in text)


def _marked(text: str, operators: str) -> str:
    """Operators marked as drawing the text (/ActualText), for glyphs that do not read back as it."""
    return f"{_span_opened(text)} {operators} EMC"


def _span_opened(text: str) -> str:
    """The start of a marked-content sequence read as `text` (by pdfium and poppler alike)."""
    return f"/Span << /ActualText <FEFF{_utf16(text)}> >> BDC"


def _utf16(text: str) -> str:
    """A text as the hex digits of a PDF text string in UTF-16 (after its byte order mark)."""
    return text.encode("utf-16-be").hex().upper()


def piece_operators(piece: Shaped, font: GlyphFont, size: float) -> str:
    """One shaped piece as TJ arrays from the pen, leaving the pen at the piece's shaped advance."""
    if not piece.gids:
        return _adjust_only(-piece.width * 1000)
    advances = font.advances
    elements: list[str] = []
    out: list[str] = []
    hex_run: list[str] = []
    pdf_pen = 0.0           # where the PDF's pen is, in thousandths of an em from the piece's start
    pen = 0.0               # where HarfBuzz's pen is
    offsets = piece.offsets
    for index, gid in enumerate(piece.gids):
        width = advances.get(gid)
        if width is None:
            width = font.advance(gid)
        x_offset, y_offset = offsets[index] if offsets is not None else (0.0, 0.0)
        target = pen + x_offset * 1000
        delta = target - pdf_pen
        if abs(delta) > 0.0005:
            if hex_run:
                elements.append(f"<{''.join(hex_run)}>")
                hex_run = []
            elements.append(_number(-delta))
        if y_offset:
            if hex_run:
                elements.append(f"<{''.join(hex_run)}>")
                hex_run = []
            if elements:
                out.append(f"[{''.join(elements)}] TJ")
                elements = []
            out.append(f"{fp_str(y_offset * size)} Ts [<{gid:04X}>] TJ 0 Ts")
        else:
            hex_run.append(f"{gid:04X}")
        pdf_pen = target + width
        pen += piece.advances[index] * 1000
    if hex_run:
        elements.append(f"<{''.join(hex_run)}>")
    delta = pen - pdf_pen
    if abs(delta) > 0.0005:
        elements.append(_number(-delta))
    if elements:
        out.append(f"[{''.join(elements)}] TJ")
    return " ".join(out)


def _adjust_only(number: float) -> str:
    return f"[{_number(number)}] TJ" if abs(number) > 0.0005 else ""


def _number(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _note(piece: Shaped, usage: GlyphUsage) -> str:
    """Each glyph's text noted in the usage (the first a glyph gets stays) and what the piece's glyphs
    read back as through those notes, in logical order ("\0" for a glyph without one).

    A cluster of as many glyphs as characters gives each glyph its character; otherwise its first
    glyph takes the cluster's text. Right to left, a text of several characters is noted in visual
    order: a reader puts a right-to-left line back into logical order character by character."""
    text, clusters, gids = piece.text, piece.clusters, piece.gids
    if not gids:
        return ""
    texts = usage.texts
    if not piece.rtl and len(gids) == len(text) and clusters == tuple(range(len(text))):
        # the usual word: a glyph a letter, in order
        usage.glyphs.update(gids)
        for gid, char in zip(gids, text, strict=True):
            if gid not in texts and char not in IGNORABLE:
                texts[gid] = char
        return "".join([texts.get(gid, "\0") for gid in gids])
    if piece.rtl:
        clusters, gids = clusters[::-1], gids[::-1]       # logical order
    starts = sorted(set(clusters))
    ends = dict(zip(starts, starts[1:] + [len(text)], strict=True))
    usage.glyphs.update(gids)
    read: list[str] = []
    index = 0
    while index < len(gids):
        cluster = clusters[index]
        end = index
        while end < len(gids) and clusters[end] == cluster:
            end += 1
        chars = [c for c in text[cluster:ends[cluster]] if c not in IGNORABLE]
        own = chars if len(chars) == end - index else ["".join(chars)] + [""] * (end - index - 1)
        for gid, mine in zip(gids[index:end], own, strict=True):
            if gid not in texts and mine:
                texts[gid] = mine[::-1] if piece.rtl else mine
            known = texts.get(gid, "\0")
            read.append(known[::-1] if piece.rtl else known)
        index = end
    return "".join(read)
