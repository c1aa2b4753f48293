"""Colours for the PDF: RGB for screens and home printers, or CMYK for print shops.

Colours arrive as '#rrggbb' or 'cmyk(c, m, y, k)' (percent). In RGB output a
neutral grey is still printed with black ink only. In CMYK output every RGB
colour is separated with full grey-component replacement (the grey part of a
colour goes to K, the declared conversion — no ICC profile is bundled) and the
total ink is held under the limit (300 % by default; US shops ask for 240 %).
"""

from __future__ import annotations


from PIL import Image
from reportlab.lib.colors import CMYKColor, Color, HexColor

from generator.caches import cached
from generator.content.colours import separate, written_inks
from generator.print_facts import INK_LIMIT

# Pixels of raster art separated at once: ~30 MB of float64 intermediates, whatever the image's size
SEPARATION_BAND_PIXELS = 1 << 18


# bounded: a game's colours are a few hundred; every text run of a deck asks again
@cached("render.colour_object", maxsize=4096)
def colour_object(value: str, mode: str = "rgb", ink_limit: float = INK_LIMIT, separation=None):
    """`separation` (render/separation.py): separate through an ICC profile instead of the declared formula."""
    inks = written_inks(value)
    if inks is not None:            # four inks of 0-100: the content checks judged it (content/colours.py)
        c, m, y, k = (float(ink) / 100 for ink in inks)
        total = c + m + y + k
        if total > ink_limit:
            scale = max(0.0, ink_limit - k) / max(c + m + y, 1e-9)
            c, m, y = c * scale, m * scale, y * scale
        return CMYKColor(c, m, y, k)
    return convert(HexColor(value), mode, ink_limit, separation)


def convert(colour, mode: str, ink_limit: float, separation=None):
    """A ReportLab colour as the output wants it (SVG art goes through here too)."""
    if type(colour) is not Color:
        return colour
    if colour.red == colour.green == colour.blue:     # greys: black ink only, in both modes
        return CMYKColor(0, 0, 0, 1 - colour.red, alpha=colour.alpha)
    if mode == "cmyk":
        inks = (separation.rgb(colour.red, colour.green, colour.blue, ink_limit) if separation is not None
                else separate(colour.red, colour.green, colour.blue, ink_limit))
        return CMYKColor(*inks, alpha=colour.alpha)
    return colour


def separate_image(image, ink_limit: float, separation=None):
    """A PIL image separated to CMYK the same way (for raster art in CMYK output): the same arithmetic
    as `separate` on whole rows at once in numpy, so every pixel gets the very inks `separate` gives it."""
    if separation is not None:
        return separation.image(image, ink_limit)
    import numpy    # (raster art only: a build of vector art never loads it)
    rgb = numpy.asarray(image.convert("RGB"))
    return Image.fromarray(in_bands(rgb, 4, lambda band: _separated_band(band, ink_limit)), "CMYK")


def in_bands(pixels, channels: int, separate_band):
    """`separate_band` applied to a few rows of an (h, w, n) uint8 array at a time, its (rows, w,
    `channels`) uint8 results put together: the float intermediates of one band, never a whole image's."""
    import numpy    # (raster art only)
    result = numpy.empty(pixels.shape[:2] + (channels,), dtype=numpy.uint8)
    rows = max(1, SEPARATION_BAND_PIXELS // max(1, pixels.shape[1]))
    for top in range(0, pixels.shape[0], rows):
        result[top:top + rows] = separate_band(pixels[top:top + rows])
    return result


def _separated_band(rgb, ink_limit: float):
    """`separate` over an (h, w, 3) uint8 band, operation for operation (the same doubles, the same
    round-half-to-even), as uint8 inks (h, w, 4)."""
    import numpy    # (raster art only)
    red, green, blue = (rgb[..., channel] / 255 for channel in range(3))
    k = 1 - numpy.maximum(numpy.maximum(red, green), blue)
    paper = numpy.where(k >= 1, 1.0, 1 - k)     # black: no division by zero (its c, m, y come out 0 as in `separate`)
    c, m, y = ((1 - value - k) / paper for value in (red, green, blue))
    colour = c + m + y
    over = (colour + k > ink_limit) & (colour > 0)         # a grey has no colour ink to take out
    scale = numpy.maximum(0.0, ink_limit - k) / numpy.where(over, colour, 1.0)
    c, m, y = (numpy.where(over, ink * scale, ink) for ink in (c, m, y))
    return numpy.rint(255 * numpy.stack([c, m, y, k], axis=-1)).astype(numpy.uint8)


def on_paper(image):
    """A PIL image with its transparency flattened onto white paper (RGB); an opaque image as it is."""
    if image.mode not in ("RGBA", "LA", "PA") and not (image.mode == "P" and "transparency" in image.info):
        return image
    rgba = image.convert("RGBA")
    paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(paper, rgba).convert("RGB")
