"""Art files (SVG and raster) read once and drawn wherever they are placed."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from PIL import Image
from reportlab.lib.colors import CMYKColor, Color
from svglib.svglib import svg2rlg

ART_SUFFIXES = {".svg", ".png", ".jpg", ".jpeg"}
MAX_PIXELS = 60_000_000        # 60 megapixels: a 63 × 88 mm card at 1,200 ppi is 9 MP
MAX_SIDE = 20_000
# SVG that could read files or reach the network: entity declarations, links to anything but #ids
_UNSAFE_SVG = re.compile(rb"<!ENTITY|<!DOCTYPE[^>]*\[|(?:xlink:)?href\s*=\s*[\"'](?!#)", re.IGNORECASE)


class ArtError(Exception):
    """An art file that cannot be read; the message says why."""


@lru_cache(maxsize=None)
def load_svg(path: Path):
    if _UNSAFE_SVG.search(path.read_bytes()):
        raise ArtError("refused: the SVG declares entities or links to other files or addresses "
                       "(art must be self-contained)")
    try:
        drawing = svg2rlg(str(path))
    except Exception as error:  # svglib raises many kinds on malformed files
        raise ArtError(f"cannot read SVG: {error}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise ArtError("cannot read SVG (no size: give it width, height or a viewBox)")
    _neutrals_to_black_ink(drawing)
    return drawing


def neutral_as_black_ink(colour):
    """Greys (r = g = b) print with black ink only, as shops ask for text and line art.

    An RGB grey goes through all four inks when a printer or Ghostscript
    converts it; as CMYK with only K it costs one ink, which is what keeps
    ink-saver backs light and makes body text sharp.
    """
    if type(colour) is Color and colour.red == colour.green == colour.blue:
        return CMYKColor(0, 0, 0, 1 - colour.red, alpha=colour.alpha)
    return colour


def _neutrals_to_black_ink(node) -> None:
    for attribute in ("fillColor", "strokeColor"):
        value = getattr(node, attribute, None)
        if value is not None:
            setattr(node, attribute, neutral_as_black_ink(value))
    for child in getattr(node, "contents", ()):
        _neutrals_to_black_ink(child)


@lru_cache(maxsize=None)
def art_size(path: Path) -> tuple[float, float]:
    """The art's intrinsic width and height (any unit; only the ratio matters)."""
    if path.suffix.lower() == ".svg":
        drawing = load_svg(path)
        return float(drawing.width), float(drawing.height)
    try:
        with Image.open(path) as image:      # reads the header only: the size is known before any pixel
            width, height = image.size
    except Image.DecompressionBombError:
        raise ArtError(f"refused: more pixels than any printed piece needs (at most "
                       f"{MAX_PIXELS // 1_000_000} megapixels)") from None
    except Exception as error:
        raise ArtError(f"cannot read image: {error}") from None
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        raise ArtError(f"refused: {width} × {height} pixels is more than any printed piece needs "
                       f"(at most {MAX_PIXELS // 1_000_000} megapixels, {MAX_SIDE} pixels a side)")
    return float(width), float(height)
