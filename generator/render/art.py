"""Art files (SVG and raster): each read once, checked whole, and drawn wherever it is placed.

Every check happens when the art is first asked for (its size, during layout), so a file that
cannot be drawn is a located error from `pnp check`, never a failure half-way through writing.
What is read is kept by the file's version (`art_version`: its inode, size and times, which any
write changes, even one that puts the modification time back), so a long-running `pnp serve`
sees an edit in place, and a file become a link is refused, not followed.

This module reads and keeps; what each kind of file needs is done below it: svg_guard checks an
SVG's tree, svg_drawing draws it in pnp's fonts, svg_inks recolours the drawing, raster_check
checks a PNG's or JPEG's pixels.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from generator.cache_folder import cache_root
from generator.caches import cached
from generator.engine import engine_digest
from generator.files import write_atomically
from generator.input_files import FileRefused, open_regular, read_regular, shown
from generator.render.raster_check import decoding_problem, raster_problem
from generator.render.svg_drawing import draw_svg
from generator.render.svg_guard import (MAX_SVG_BYTES, SIMPLER, SvgRefused, check_drawing_numbers,
                                        checked_svg_root)
from generator.render.svg_inks import recolour, separated

ART_SUFFIXES = frozenset({".svg", ".png", ".jpg", ".jpeg"})
MAX_IMAGE_BYTES = 256 * 2**20  # a 60-megapixel PNG of noise is ~180 MB
RASTER_FORMATS = ("PNG", "JPEG")   # by content: a .png that is really EPS would run Ghostscript
_REEXPORT = "re-export the file as plain SVG or PNG"
MAX_ART_FILES = 4096           # versions of art files kept read in one process (pnp serve sees many)


class ArtError(Exception):
    """An art file that cannot be used; the message says why, `hint` what to do."""

    def __init__(self, message: str, hint: str = _REEXPORT):
        super().__init__(message)
        self.hint = hint


@dataclass(frozen=True)
class ReadArt:
    """What one version of an art file gave: its bytes' digest (which names its form in a PDF), its
    intrinsic size and, for SVG, its drawing; or why it cannot be drawn (message, hint)."""

    digest: str = ""
    size: tuple[float, float] = (0.0, 0.0)
    drawing: object = None
    problem: tuple[str, str] | None = None


def art_version(path: Path) -> tuple:
    """What changes whenever the file at `path` does, from an lstat (never an open): device, inode,
    size, modification and change times, and its type. The change time moves with every write and
    every os.utime, so an edit that keeps the size and puts the modification time back is still seen."""
    try:
        status = os.lstat(path)
    except (OSError, ValueError):
        return ()
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns,
            status.st_mode)


def read_art(path: Path) -> ReadArt:
    """The art file as it is now (read again only once it has changed)."""
    return _read_version(path, art_version(path))


@cached("render.art_read", maxsize=MAX_ART_FILES, reads_files=True)
def _read_version(path: Path, version: tuple) -> ReadArt:
    """One version of the file read and checked: a refused file is read once, not once per card."""
    if version and stat.S_ISLNK(version[-1]):
        # `path` was found with every link followed (input_files.locate): a link now is a swap since
        return ReadArt(problem=(f"has become a link (to {shown(os.path.realpath(path))}) since pnp found it, "
                                f"and pnp follows no link made while it runs",
                                "copy the file into the game folder instead of linking to it (a link inside the "
                                "game folder is followed when pnp starts again)"))
    if path.suffix.lower() == ".svg":
        return _read_svg(path)
    return _read_raster(path)


def load_svg(path: Path):
    """The SVG drawn as a ReportLab drawing (greys as K), or ArtError."""
    return _checked(read_art(path)).drawing


def art_digest(path: Path) -> str:
    """The digest of the art's bytes as they were read and checked (names its form: the same input
    gives the same PDF in any checkout), or ArtError."""
    return _checked(read_art(path)).digest


def _checked(art: ReadArt) -> ReadArt:
    if art.problem is not None:
        raise ArtError(*art.problem)
    return art


def _read_svg(path: Path) -> ReadArt:
    try:
        data = read_regular(path, MAX_SVG_BYTES, "SVG art", SIMPLER)
    except FileRefused as error:
        return ReadArt(problem=(str(error), error.hint))
    except Exception as error:  # as any failure to read is worded below
        return ReadArt(problem=(f"cannot read SVG: {shown(str(error))}", _REEXPORT))
    digest = _digest(data)
    kept = _kept_drawing(digest)
    if kept is not None:          # these very bytes were checked and drawn by this engine before
        return ReadArt(digest, (float(kept.width), float(kept.height)), kept)
    try:
        drawing = draw_svg(path, checked_svg_root(data))
    except SvgRefused as error:
        return ReadArt(problem=(str(error), error.hint))
    except Exception as error:  # svglib raises many kinds on malformed files
        return ReadArt(problem=(f"cannot read SVG: {shown(str(error))}", _REEXPORT))
    if drawing is None or not drawing.width or not drawing.height:
        return ReadArt(problem=("cannot read SVG (no size: give it width, height or a viewBox)", _REEXPORT))
    try:
        check_drawing_numbers(drawing)
    except SvgRefused as error:
        return ReadArt(problem=(str(error), error.hint))
    recolour(drawing, "rgb", 3.0)
    _keep_drawing(digest, drawing)
    return ReadArt(digest, (float(drawing.width), float(drawing.height)), drawing)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# svglib takes ~10 ms to draw a card's art (a rules-only build reads ~35 files, a whole game's build ~70);
# the drawing, once checked and recoloured, is kept pickled in the cache folder (art/) by the SVG's bytes
# and the engine (pnp's code and svglib's and ReportLab's versions: engine_digest), and read back in
# ~1 ms. A drawing with text or an image is not kept (drawing a text registers pnp's face with ReportLab
# on the way; an image may name a file). Each file holds the SHA-256 of its pickle first: a damaged one
# is drawn again. One engine's drawings are in a folder of their own: the first drawing another engine
# keeps removes the folders of the others, so the cache holds one engine's art, not every upgrade's.
# PNP_NO_CACHE=1 turns it off, like the fitted texts' cache (face_cache.py).
_KEPT_FORMAT = 1


def _kept_path(digest: str) -> Path | None:
    if os.environ.get("PNP_NO_CACHE", "") not in ("", "0"):
        return None
    engine = hashlib.sha256(f"{_KEPT_FORMAT}:{engine_digest()}".encode()).hexdigest()[:24]
    return cache_root() / "art" / engine / f"{digest}.drawing"


def _kept_drawing(digest: str):
    """The drawing of the SVG whose bytes have `digest`, as this engine drew it before, or None."""
    path = _kept_path(digest)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) < 32 or hashlib.sha256(data[32:]).digest() != data[:32]:
        return None
    from reportlab.graphics.shapes import Drawing    # (unpickling it imports as much)
    try:
        drawing = pickle.loads(data[32:])
    except Exception:       # written by another pickle of a package since upgraded in place: drawn again
        return None
    return drawing if isinstance(drawing, Drawing) else None


def _keep_drawing(digest: str, drawing) -> None:
    path = _kept_path(digest)
    if path is None or not _keepable(drawing):
        return
    try:
        data = pickle.dumps(drawing, pickle.HIGHEST_PROTOCOL)
        if not path.parent.is_dir():        # this engine's first: the other engines' drawings go
            for other in path.parent.parent.glob("*"):
                shutil.rmtree(other, ignore_errors=True)
        write_atomically(path, hashlib.sha256(data).digest() + data)
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        pass                # a read-only cache, or a drawing pickle cannot hold: drawn again next time


def _keepable(drawing) -> bool:
    from reportlab.graphics.shapes import Image, String
    stack = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, (String, Image)):
            return False
        stack.extend(getattr(node, "contents", ()))
    return True


def cmyk_svg(path: Path, ink_limit: float, separation=None, opaque: bool = False):
    """The drawing with every colour separated to CMYK (through `separation`'s profile when given);
    `opaque`: every colour with opacity as it shows on white paper, at full opacity (PDF/X-1a)."""
    return _separated_drawing(load_svg(path), ink_limit, separation, opaque)


@cached("render.art_separated", maxsize=MAX_ART_FILES, reads_files=True)
def _separated_drawing(drawing, ink_limit: float, separation, opaque: bool):
    """Kept by the drawing itself (by identity): the file's next version is another drawing."""
    return separated(drawing, ink_limit, separation, opaque)


@contextmanager
def open_raster(path: Path):
    """A PNG or JPEG image, opened from a regular file only (never a FIFO) and its header read."""
    with open_regular(path, MAX_IMAGE_BYTES, "image") as handle, \
            Image.open(handle, formats=RASTER_FORMATS) as image:
        yield image


def art_size(path: Path) -> tuple[float, float]:
    """The art's intrinsic width and height (any unit; only the ratio matters), or ArtError."""
    return _checked(read_art(path)).size


def art_problem(path: Path) -> ArtError | None:
    """Why the art cannot be drawn, or None: every check `art_size` makes."""
    try:
        art_size(path)
    except ArtError as error:
        return error
    return None


def _read_raster(path: Path) -> ReadArt:
    """Every pixel decoded once within the caps, and the bytes hashed from the same open file."""
    try:
        with open_regular(path, MAX_IMAGE_BYTES, "image") as handle:
            digest = _digest_of(handle)
            handle.seek(0)
            with Image.open(handle, formats=RASTER_FORMATS) as image:
                width, height = image.size   # the header only: the size is known before any pixel
                problem = raster_problem(image, handle)
    except FileRefused as error:
        return ReadArt(problem=(str(error), error.hint))
    except Exception as error:  # Pillow raises many kinds on a damaged file
        return ReadArt(problem=decoding_problem(error))
    if problem is not None:
        return ReadArt(problem=problem)
    return ReadArt(digest, (float(width), float(height)))


def _digest_of(handle) -> str:
    digest = hashlib.sha256()
    while block := handle.read(1 << 20):
        digest.update(block)
    return digest.hexdigest()
