"""Art files (SVG and raster): each read once, checked whole, and drawn wherever it is placed.

Every check happens when the art is first asked for (its size, during layout), so a file that
cannot be drawn is a located error from `pnp check`, never a failure half-way through writing.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from generator.render.colour import convert
from generator.input_files import FileRefused, file_signature, open_regular, read_regular, shown
from generator.render.svg_guard import (MAX_SVG_BYTES, SIMPLER, SvgRefused, check_drawing_numbers,
                                        checked_svg_root)

ART_SUFFIXES = {".svg", ".png", ".jpg", ".jpeg"}
MAX_PIXELS = 60_000_000        # 60 megapixels: a 63 × 88 mm card at 1,200 ppi is 9 MP
MAX_SIDE = 20_000
MAX_IMAGE_BYTES = 256 * 2**20  # a 60-megapixel PNG of noise is ~180 MB
RASTER_FORMATS = ("PNG", "JPEG")   # by content: a .png that is really EPS would run Ghostscript
_REEXPORT = "re-export the file as plain SVG or PNG"


class ArtError(Exception):
    """An art file that cannot be used; the message says why, `hint` what to do."""

    def __init__(self, message: str, hint: str = _REEXPORT):
        super().__init__(message)
        self.hint = hint


def load_svg(path: Path):
    """The SVG drawn as a ReportLab drawing (greys as K), or ArtError."""
    drawing, problem = _svg_or_problem(path, file_signature(path))
    if problem is not None:
        raise ArtError(*problem)
    return drawing


@lru_cache(maxsize=None)
def _svg_or_problem(path: Path, signature: tuple):
    """(drawing, None) or (None, (message, hint)): a refused file is read once, not once per card
    (and again once it changes: `signature`)."""
    from svglib.svglib import SvgRenderer     # (ReportLab's graphics with it: only for a game with SVG art)
    try:
        root = checked_svg_root(read_regular(path, MAX_SVG_BYTES, "SVG art", SIMPLER))
        # A Path, not a str, as the source: svglib then resolves no file reference at all
        drawing = SvgRenderer(path).render(root)
    except (SvgRefused, FileRefused) as error:
        return None, (str(error), error.hint)
    except Exception as error:  # svglib raises many kinds on malformed files
        return None, (f"cannot read SVG: {shown(str(error))}", _REEXPORT)
    if drawing is None or not drawing.width or not drawing.height:
        return None, ("cannot read SVG (no size: give it width, height or a viewBox)", _REEXPORT)
    try:
        check_drawing_numbers(drawing)
    except SvgRefused as error:
        return None, (str(error), error.hint)
    _recolour(drawing, "rgb", 3.0)
    return drawing, None


def _recolour(node, mode: str, ink_limit: float, separation=None, opaque: bool = False) -> None:
    """Greys print with black ink only (an RGB grey costs all four inks once a printer converts it:
    as K alone it keeps ink-saver backs light and line art sharp); in CMYK output, every colour."""
    for attribute in ("fillColor", "strokeColor"):
        value = getattr(node, attribute, None)
        if value is not None:
            if opaque:
                value = _on_paper(value)
            setattr(node, attribute, convert(value, mode, ink_limit, separation))
    if opaque:
        for attribute in ("fillOpacity", "strokeOpacity"):
            if getattr(node, attribute, None) is not None:
                setattr(node, attribute, 1)
    for child in getattr(node, "contents", ()):
        _recolour(child, mode, ink_limit, separation, opaque)


def _on_paper(colour):
    """A colour with opacity as it shows on white paper, opaque (PDF/X-1a has no transparency)."""
    from reportlab.lib.colors import Color
    alpha = getattr(colour, "alpha", 1) or 0
    if type(colour) is not Color or alpha >= 1:
        return colour
    mix = lambda value: 1 - alpha * (1 - value)
    return Color(mix(colour.red), mix(colour.green), mix(colour.blue))


@lru_cache(maxsize=None)
def cmyk_svg(path: Path, ink_limit: float, separation=None, opaque: bool = False):
    """The drawing with every colour separated to CMYK (through `separation`'s profile when given);
    `opaque`: every colour with opacity as it shows on white paper, at full opacity (PDF/X-1a)."""
    import copy
    drawing = copy.deepcopy(load_svg(path))
    _recolour(drawing, "cmyk", ink_limit, separation, opaque)
    return drawing


@contextmanager
def open_raster(path: Path):
    """A PNG or JPEG image, opened from a regular file only (never a FIFO) and its header read."""
    with open_regular(path, MAX_IMAGE_BYTES, "image") as handle, \
            Image.open(handle, formats=RASTER_FORMATS) as image:
        yield image


def art_size(path: Path) -> tuple[float, float]:
    """The art's intrinsic width and height (any unit; only the ratio matters), or ArtError."""
    if path.suffix.lower() == ".svg":
        drawing = load_svg(path)
        return float(drawing.width), float(drawing.height)
    size, problem = _raster_or_problem(path, file_signature(path))
    if problem is not None:
        raise ArtError(*problem)
    return size


def art_problem(path: Path) -> ArtError | None:
    """Why the art cannot be drawn, or None: every check `art_size` makes."""
    try:
        art_size(path)
    except ArtError as error:
        return error
    return None


@lru_cache(maxsize=None)
def _raster_or_problem(path: Path, signature: tuple):
    """((width, height), None) or (None, (message, hint)), every pixel decoded once within the caps."""
    try:
        with open_raster(path) as image:     # reads the header only: the size is known before any pixel
            width, height = image.size
            if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
                return None, (f"refused: {width} × {height} pixels is more than any printed piece needs "
                              f"(at most {MAX_PIXELS // 1_000_000} megapixels, {MAX_SIDE} pixels a side)",
                              "scale the image down: 300 ppi at its printed size is enough")
            image.load()                     # a truncated or damaged file fails here, not while drawing
    except Image.DecompressionBombError:
        return None, (f"refused: more pixels than any printed piece needs (at most "
                      f"{MAX_PIXELS // 1_000_000} megapixels)", "scale the image down: 300 ppi at its printed size is enough")
    except FileRefused as error:
        return None, (str(error), error.hint)
    except UnidentifiedImageError:
        return None, ("cannot read image: not a PNG or JPEG file", "export it as PNG or JPEG")
    except Exception as error:  # Pillow raises many kinds on a damaged file
        return None, (f"cannot read image: {shown(str(error))}", "export the image again")
    return (float(width), float(height)), None
