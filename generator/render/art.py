"""Art files (SVG and raster) read once and drawn wherever they are placed."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

ART_SUFFIXES = {".svg", ".png", ".jpg", ".jpeg"}


class ArtError(Exception):
    """An art file that cannot be read; the message says why."""


@lru_cache(maxsize=None)
def load_svg(path: Path):
    from svglib.svglib import svg2rlg
    try:
        drawing = svg2rlg(str(path))
    except Exception as error:  # svglib raises many kinds on malformed files
        raise ArtError(f"cannot read SVG: {error}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise ArtError("cannot read SVG (no size: give it width, height or a viewBox)")
    return drawing


@lru_cache(maxsize=None)
def art_size(path: Path) -> tuple[float, float]:
    """The art's intrinsic width and height (any unit; only the ratio matters)."""
    if path.suffix.lower() == ".svg":
        drawing = load_svg(path)
        return float(drawing.width), float(drawing.height)
    from PIL import Image
    try:
        with Image.open(path) as image:
            return float(image.width), float(image.height)
    except Exception as error:
        raise ArtError(f"cannot read image: {error}") from None
