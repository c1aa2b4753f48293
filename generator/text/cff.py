"""Convert a CFF-flavoured OpenType font to TrueType outlines, which ReportLab can embed."""

from __future__ import annotations

# fontTools ships no type information
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

# A quadratic approximation this close to the cubic is invisible at any print size.
MAX_ERROR_EM = 1 / 1000


def cff_to_truetype(font: TTFont) -> TTFont:
    glyph_order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    max_error = MAX_ERROR_EM * font["head"].unitsPerEm
    glyf = newTable("glyf")
    glyf.glyphOrder = glyph_order
    glyf.glyphs = {}
    for name in glyph_order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_error, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for table in ("CFF ", "VORG"):
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
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = glyph_order
    font.sfntVersion = "\x00\x01\x00\x00"
    return font
