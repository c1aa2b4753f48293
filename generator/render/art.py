"""Art files (SVG and raster) read once and drawn wherever they are placed."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from PIL import Image
from svglib.svglib import svg2rlg

from generator.render.colour import convert

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
    _recolour(drawing, "rgb", 3.0)
    return drawing


def _recolour(node, mode: str, ink_limit: float) -> None:
    """Greys print with black ink only (an RGB grey costs all four inks once a printer converts it:
    as K alone it keeps ink-saver backs light and line art sharp); in CMYK output, every colour."""
    for attribute in ("fillColor", "strokeColor"):
        value = getattr(node, attribute, None)
        if value is not None:
            setattr(node, attribute, convert(value, mode, ink_limit))
    for child in getattr(node, "contents", ()):
        _recolour(child, mode, ink_limit)


@lru_cache(maxsize=None)
def cmyk_svg(path: Path, ink_limit: float):
    """The drawing with every colour separated to CMYK."""
    import copy
    drawing = copy.deepcopy(load_svg(path))
    _recolour(drawing, "cmyk", ink_limit)
    return drawing


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
