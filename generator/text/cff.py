"""Give a font TrueType (glyf) outlines, which is what pnp embeds: CFF-flavoured OpenType converted,
a face emboldened where its family has no file of the weight.

HarfBuzz draws the outlines (its CFF interpreter is C: a 65,535-glyph CJK face is drawn in ~1 s,
where fontTools' took 40 s), fontTools' cu2qu makes them quadratic and writes the glyf table; every
other table (cmap, hmtx, GSUB, GPOS, GDEF, BASE, vmtx) is kept as it is, so shaping is unchanged.
"""

from __future__ import annotations

from pathlib import Path

import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]

# fontTools ships no type information
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

# A quadratic approximation this close to the cubic is invisible at any print size.
MAX_ERROR_EM = 1 / 1000
# post format 2 numbers the names of glyphs in 16 bits: a CJK face's 65,535 do not fit (format 3 keeps none)
MAX_NAMED_GLYPHS = 32_000
# what only a TrueType rasteriser's hinting reads: outlines drawn anew have no instructions for it
HINTING_TABLES = ("fpgm", "prep", "cvt ", "gasp", "hdmx", "LTSH", "VDMX")


def cff_to_truetype(font: TTFont, path: Path | None = None, index: int = 0, embolden: float = 0.0) -> TTFont:
    """The font (read from `path`, the `index`th font of a collection) with glyf outlines; `embolden`:
    how much thicker every stroke is, in em (HarfBuzz's synthetic bold, in place: advances unchanged)."""
    if "glyf" in font and not embolden:
        return font           # a TrueType font of a collection: it is saved on its own as it is
    cubic = "glyf" not in font
    glyph_order = font.getGlyphOrder()
    max_error = MAX_ERROR_EM * font["head"].unitsPerEm
    drawn = _harfbuzz_font(font, path, index, embolden)
    glyf = newTable("glyf")
    glyf.glyphOrder = glyph_order
    glyf.glyphs = {}
    for glyph_id, name in enumerate(glyph_order):
        pen = TTGlyphPen(None)
        # CFF contours run the other way round from TrueType's; HarfBuzz draws glyf ones as they are
        drawn.draw_glyph_with_pen(glyph_id, Cu2QuPen(pen, max_error, reverse_direction=True) if cubic else pen)
        glyf[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for table in ("CFF ", "VORG", *HINTING_TABLES):
        if table in font:
            del font[table]
    font["head"].glyphDataFormat = 0
    font["head"].indexToLocFormat = 0
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for attribute in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                      "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions",
                      "maxComponentElements", "maxPoints", "maxContours",
                      "maxCompositePoints", "maxCompositeContours", "maxComponentDepth"):
        setattr(maxp, attribute, 0)
    maxp.maxZones = 1
    post = font["post"]
    post.formatType = 2.0 if len(glyph_order) <= MAX_NAMED_GLYPHS else 3.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = glyph_order
    font.sfntVersion = "\x00\x01\x00\x00"
    return font


def _harfbuzz_font(font: TTFont, path: Path | None, index: int, embolden: float) -> hb.Font:
    """HarfBuzz's font of the file (or of the font's own bytes where it was not read from one), at one
    unit per font unit."""
    if path is not None:
        face = hb.Face(hb.Blob.from_file_path(str(path)), index)
    else:
        from io import BytesIO
        data = BytesIO()
        font.save(data)
        face = hb.Face(data.getvalue())
    drawn = hb.Font(face)
    drawn.scale = (face.upem, face.upem)
    if embolden:
        drawn.synthetic_bold = (embolden, embolden, True)
    return drawn
