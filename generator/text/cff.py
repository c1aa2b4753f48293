"""Give a font TrueType (glyf) outlines, which is what pnp embeds: CFF-flavoured OpenType converted,
a face emboldened where its family has no file of the weight.

HarfBuzz draws the outlines (its CFF interpreter is C: a 65,535-glyph CJK face is drawn in ~1 s,
where fontTools' took 40 s), fontTools' cu2qu makes them quadratic, and the glyf table is written
here (~13 s for the whole face, where fontTools' glyph objects took 35); every
other table (cmap, hmtx, GSUB, GPOS, GDEF, BASE, vmtx) is kept as it is, so shaping is unchanged.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy
import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]

# fontTools ships no type information
from fontTools.cu2qu import curve_to_quadratic
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._g_l_y_f import Glyph

# A quadratic approximation this close to the cubic is invisible at any print size.
MAX_ERROR_EM = 1 / 1000
# post format 2 numbers the names of glyphs in 16 bits: a CJK face's 65,535 do not fit (format 3 keeps none)
MAX_NAMED_GLYPHS = 32_000
# what only a TrueType rasteriser's hinting reads: outlines drawn anew have no instructions for it
HINTING_TABLES = ("fpgm", "prep", "cvt ", "gasp", "hdmx", "LTSH", "VDMX")


def cff_to_truetype(font: TTFont, path: Path | None = None, index: int = 0, embolden: float = 0.0,
                    glyphs: frozenset[int] | None = None, data: bytes | None = None) -> TTFont:
    """The font (read from `path`, the `index`th font of a collection) with glyf outlines; `embolden`:
    how much thicker every stroke is, in em (HarfBuzz's synthetic bold, in place: advances unchanged);
    `glyphs`: the only glyphs drawn (the others left empty), where a document's few are all it needs;
    `data`: the font's bytes, where it was read from no file (HarfBuzz draws from them).

    The glyf table is written here, not by fontTools' glyph objects: compiling 65,535 of those took
    15 s of the 35 a CJK face cost (points to bytes, bounds, the font's maxima), numpy does it in one
    pass over every point of the font. The head, maxp and hhea figures it would recalculate are set
    from the same arrays (the font is saved with recalcBBoxes off)."""
    if "glyf" in font and not embolden:
        return font           # a TrueType font of a collection: it is saved on its own as it is
    glyph_order = font.getGlyphOrder()
    outlines = _draw_outlines(_harfbuzz_font(font, path, index, embolden, data), len(glyph_order),
                              MAX_ERROR_EM * font["head"].unitsPerEm, reverse="glyf" not in font, glyphs=glyphs)
    head, maxp = _with_glyf(font, {name: Glyph(data) for name, data in zip(glyph_order, outlines.data,
                                                                         strict=True)})
    if glyphs is None:     # (a few glyphs cut: the bounds stay the whole face's, as its shell and the PDF give them)
        head.xMin, head.yMin, head.xMax, head.yMax = outlines.font_bounds
    maxp.maxPoints, maxp.maxContours = outlines.max_points, outlines.max_contours
    _horizontal_metrics(font, glyph_order, outlines, whole=glyphs is None)
    return font           # (saved with recalcBBoxes off: what it would recalculate is set from the outlines)


def truetype_shell(font: TTFont) -> TTFont:
    """The font as a TrueType file whose glyphs have no outlines: every other table (cmap, hmtx, GSUB,
    GPOS, GDEF, OS/2, head's bounds) as it is, so it shapes and measures as the font does, and ReportLab
    reads its metrics, in well under a second where drawing a CJK face's 65,535 glyphs took ~13 s. What
    a document draws is cut from the source when the document is written (render/glyph_fonts.py)."""
    glyph_order = font.getGlyphOrder()
    _with_glyf(font, dict.fromkeys(glyph_order, Glyph(b"")))
    return font           # (saved with recalcBBoxes off: head's bounds stay the source's, hmtx and hhea untouched)


def _with_glyf(font: TTFont, glyphs: dict) -> tuple:
    """The font's outlines replaced by TrueType `glyphs` (by glyph name): glyf and loca in, the CFF
    tables and hinting out; head, maxp (every maximum 0: the caller sets the points and contours it
    knows), post and the sfnt version told so, and the bounds kept as set, not recalculated on saving.
    Returns head and maxp for the caller's own fields."""
    glyph_order = font.getGlyphOrder()
    glyf = newTable("glyf")
    glyf.glyphOrder = glyph_order
    glyf.glyphs = glyphs
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for table in ("CFF ", "VORG", *HINTING_TABLES):
        if table in font:
            del font[table]
    head = font["head"]
    head.glyphDataFormat = 0
    head.indexToLocFormat = 0
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for attribute in ("maxPoints", "maxContours", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                      "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions",
                      "maxComponentElements", "maxCompositePoints", "maxCompositeContours", "maxComponentDepth"):
        setattr(maxp, attribute, 0)
    maxp.maxZones = 1
    post = font["post"]
    post.formatType = 2.0 if len(glyph_order) <= MAX_NAMED_GLYPHS else 3.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = glyph_order
    font.sfntVersion = "\x00\x01\x00\x00"
    font.recalcBBoxes = False
    return head, maxp


class _Contours:
    """A pen for HarfBuzz's drawing: the TrueType points of a glyph's contours (cubic curves made
    quadratic within `max_error`), gathered into the font's flat lists of points."""

    def __init__(self, max_error: float, reverse: bool, xs: list[float], ys: list[float], on: list[bool]):
        self.max_error, self.reverse = max_error, reverse
        self.xs, self.ys, self.on = xs, ys, on
        self.ends: list[int] = []          # each contour's last point, counted from the glyph's first
        self.first = len(xs)               # the glyph's first point in the flat lists
        self.points: list[tuple[tuple[float, float], bool]] = []

    def moveTo(self, point: tuple[float, float]) -> None:   # noqa: N802 (the pen protocol's names)
        self.points = [(point, True)]

    def lineTo(self, point: tuple[float, float]) -> None:   # noqa: N802
        self.points.append((point, True))

    def qCurveTo(self, *points: tuple[float, float]) -> None:   # noqa: N802
        self.points.extend((point, False) for point in points[:-1])
        self.points.append((points[-1], True))

    def curveTo(self, *points: tuple[float, float]) -> None:   # noqa: N802
        start = self.points[-1][0]
        quadratic = curve_to_quadratic((start, *points), self.max_error)
        self.points.extend((point, False) for point in quadratic[1:-1])
        self.points.append((quadratic[-1], True))

    def closePath(self) -> None:   # noqa: N802
        points = self.points
        if len(points) > 1 and points[-1] == points[0]:
            points.pop()          # the line back to the start: TrueType closes every contour itself
        if len(points) > 1:
            if self.reverse:      # CFF contours run the other way round from TrueType's
                points = points[:1] + points[:0:-1]
            for (x, y), on_curve in points:
                self.xs.append(x)
                self.ys.append(y)
                self.on.append(on_curve)
            self.ends.append(len(self.xs) - self.first - 1)
        self.points = []

    endPath = closePath       # noqa: N815 (an open contour is closed: TrueType has no other)


@dataclass
class _Outlines:
    data: list[bytes]                          # each glyph's glyf data
    bounds: numpy.ndarray                      # each glyph's xMin, yMin, xMax, yMax (zeros for an empty one)
    empty: numpy.ndarray                       # which glyphs have no contour
    font_bounds: tuple[int, int, int, int]
    max_points: int
    max_contours: int


def _draw_outlines(drawn: hb.Font, count: int, max_error: float, reverse: bool,
                   glyphs: frozenset[int] | None = None) -> _Outlines:
    """Every glyph of the font (or those of `glyphs`, the others empty) as glyf data (TrueType's simple
    glyph: contour ends, flags, and the x and y deltas, each a byte where it fits in one)."""
    xs: list[float] = []
    ys: list[float] = []
    on: list[bool] = []
    glyph_ends: list[list[int]] = []
    starts = []
    for glyph_id in range(count):
        pen = _Contours(max_error, reverse, xs, ys, on)
        starts.append(len(xs))
        if glyphs is None or glyph_id in glyphs:
            drawn.draw_glyph_with_pen(glyph_id, pen)
        glyph_ends.append(pen.ends)
    starts.append(len(xs))
    first = numpy.array(starts, dtype=numpy.int64)
    x = numpy.floor(numpy.array(xs, dtype=numpy.float64) + 0.5).astype(numpy.int64)
    y = numpy.floor(numpy.array(ys, dtype=numpy.float64) + 0.5).astype(numpy.int64)
    # deltas from the point before in the same glyph (the first point's from the origin)
    dx, dy = numpy.diff(x, prepend=0), numpy.diff(y, prepend=0)
    lead = first[:-1][first[:-1] < first[1:]]
    dx[lead], dy[lead] = x[lead], y[lead]
    flags = numpy.array(on, dtype=numpy.uint8)
    x_bytes, x_flags = _coordinate_bytes(dx, 0x02, 0x10)
    y_bytes, y_flags = _coordinate_bytes(dy, 0x04, 0x20)
    flags |= x_flags | y_flags
    x_offsets = numpy.concatenate(([0], numpy.cumsum(numpy.where(dx == 0, 0, numpy.where(abs(dx) < 256, 1, 2)))))
    y_offsets = numpy.concatenate(([0], numpy.cumsum(numpy.where(dy == 0, 0, numpy.where(abs(dy) < 256, 1, 2)))))
    empty = first[:-1] == first[1:]
    bounds = numpy.zeros((count, 4), dtype=numpy.int64)
    if len(x):
        full = numpy.flatnonzero(~empty)
        at = first[full]
        bounds[full, 0] = numpy.minimum.reduceat(x, at)
        bounds[full, 1] = numpy.minimum.reduceat(y, at)
        bounds[full, 2] = numpy.maximum.reduceat(x, at)
        bounds[full, 3] = numpy.maximum.reduceat(y, at)
    flag_bytes, flag_offsets = _repeated_flags(flags, first)
    flag_data, x_data, y_data = flag_bytes.tobytes(), x_bytes.tobytes(), y_bytes.tobytes()
    data = []
    for glyph_id in range(count):
        a, b = starts[glyph_id], starts[glyph_id + 1]
        if a == b:
            data.append(b"")
            continue
        ends = glyph_ends[glyph_id]
        data.append(struct.pack(f">hhhhh{len(ends)}HH", len(ends), *bounds[glyph_id].tolist(), *ends, 0)
                    + flag_data[flag_offsets[glyph_id]:flag_offsets[glyph_id + 1]]
                    + x_data[x_offsets[a]:x_offsets[b]] + y_data[y_offsets[a]:y_offsets[b]])
    full_bounds = bounds[~empty]
    font_bounds = ((int(full_bounds[:, 0].min()), int(full_bounds[:, 1].min()), int(full_bounds[:, 2].max()),
                    int(full_bounds[:, 3].max())) if len(full_bounds) else (0, 0, 0, 0))
    return _Outlines(data, bounds, empty, font_bounds, int(numpy.diff(first).max(initial=0)),
                     max((len(ends) for ends in glyph_ends), default=0))


def _repeated_flags(flags: numpy.ndarray, first: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The points' flags as glyf writes them, a run of one flag within a glyph as the flag with its
    repeat bit and the count (fontTools' greedy rule: runs of three or more, 256 at most), and where
    each glyph's flags start in them."""
    count = len(first) - 1
    if not len(flags):
        return flags, numpy.zeros(count + 1, dtype=numpy.int64)
    # a run starts where the flag changes, at a glyph's first point, and every 256th point of a run
    starts = numpy.ones(len(flags), dtype=bool)
    starts[1:] = flags[1:] != flags[:-1]
    starts[first[:-1][first[:-1] < len(flags)]] = True
    run = numpy.cumsum(starts) - 1
    place = numpy.arange(len(flags)) - numpy.flatnonzero(starts)[run]
    starts |= place % 256 == 0
    at = numpy.flatnonzero(starts)
    lengths = numpy.diff(numpy.append(at, len(flags)))
    values = flags[at]
    sizes = numpy.where(lengths >= 2, 2, 1)
    offsets = numpy.cumsum(sizes) - sizes
    out = numpy.empty(int(sizes.sum()), dtype=numpy.uint8)
    out[offsets] = numpy.where(lengths >= 3, values | 0x08, values)
    pairs = lengths >= 2
    out[offsets[pairs] + 1] = numpy.where(lengths[pairs] >= 3, lengths[pairs] - 1, values[pairs])
    # each glyph's flags begin with the run of its first point
    run_of_glyph = numpy.searchsorted(at, first[:-1])
    glyph_offsets = numpy.append(numpy.where(first[:-1] < len(flags), offsets[numpy.minimum(run_of_glyph, len(at) - 1)],
                                             len(out)), len(out))
    return out, glyph_offsets.astype(numpy.int64)


def _coordinate_bytes(delta: numpy.ndarray, short: int, same_or_positive: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The bytes of one coordinate's deltas (none for 0, one for a short delta, two for the rest) and
    the flag bits that say which: TrueType's simple glyph encoding."""
    magnitude = numpy.abs(delta)
    is_short = (delta != 0) & (magnitude < 256)
    is_long = magnitude >= 256
    flags = numpy.where(delta == 0, same_or_positive, 0) | numpy.where(is_short, short, 0) \
        | numpy.where(is_short & (delta > 0), same_or_positive, 0)
    sizes = numpy.where(is_short, 1, 0) + numpy.where(is_long, 2, 0)
    at = numpy.cumsum(sizes) - sizes
    out = numpy.zeros(int(sizes.sum()), dtype=numpy.uint8)
    out[at[is_short]] = magnitude[is_short]
    word = delta[is_long] & 0xFFFF
    out[at[is_long]] = word >> 8
    out[at[is_long] + 1] = word & 0xFF
    return out, flags.astype(numpy.uint8)


def _horizontal_metrics(font: TTFont, glyph_order: list[str], outlines: _Outlines, whole: bool = True) -> None:
    """hmtx's left side bearings are the outlines' xMin (a glyph emboldened moved its left edge), and
    hhea's extremes follow from them, as fontTools recalculates them (`whole`: every glyph was drawn;
    else hhea stays the face's)."""
    hmtx = font["hmtx"].metrics
    advances = numpy.array([hmtx[name][0] for name in glyph_order], dtype=numpy.int64)
    bearings = numpy.where(outlines.empty, 0, outlines.bounds[:, 0])
    for name, advance, bearing in zip(glyph_order, advances.tolist(), bearings.tolist(), strict=True):
        hmtx[name] = (advance, bearing)
    if not whole:
        return
    hhea = font["hhea"]
    full = ~outlines.empty
    hhea.advanceWidthMax = int(advances.max(initial=0))
    if full.any():
        extent = outlines.bounds[full, 2] - outlines.bounds[full, 0]
        hhea.minLeftSideBearing = int(bearings[full].min())
        hhea.minRightSideBearing = int((advances[full] - bearings[full] - extent).min())
        hhea.xMaxExtent = int((bearings[full] + extent).max())


def _harfbuzz_font(font: TTFont, path: Path | None, index: int, embolden: float,
                   data: bytes | None = None) -> hb.Font:
    """HarfBuzz's font of the file (or of its bytes, `data`, or of the font saved where it was read from
    neither: fontTools compiling a CFF table took ~1.6 s of a CJK subset's 2), at one unit per font unit."""
    if path is not None:
        face = hb.Face(hb.Blob.from_file_path(str(path)), index)
    elif data is not None:
        face = hb.Face(hb.Blob(data), index)
    else:
        from io import BytesIO
        saved = BytesIO()
        font.save(saved)
        face = hb.Face(saved.getvalue())
    drawn = hb.Font(face)
    drawn.scale = (face.upem, face.upem)
    if embolden:
        drawn.synthetic_bold = (embolden, embolden, True)
    return drawn
