"""Art files (SVG and raster): each read once, checked whole, and drawn wherever it is placed.

Every check happens when the art is first asked for (its size, during layout), so a file that
cannot be drawn is a located error from `pnp check`, never a failure half-way through writing.
What is read is kept by the file's version (`art_version`: its inode, size and times, which any
write changes, even one that puts the modification time back), so a long-running `pnp serve`
sees an edit in place, and a file become a link is refused, not followed.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import struct
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from generator.render.colour import convert
from generator.input_files import FileRefused, open_regular, read_regular, shown
from generator.render.svg_guard import (MAX_SVG_BYTES, SIMPLER, SvgRefused, check_drawing_numbers,
                                        checked_svg_root)

ART_SUFFIXES = {".svg", ".png", ".jpg", ".jpeg"}
MAX_PIXELS = 60_000_000        # 60 megapixels: a 63 × 88 mm card at 1,200 ppi is 9 MP
MAX_SIDE = 20_000
MAX_IMAGE_BYTES = 256 * 2**20  # a 60-megapixel PNG of noise is ~180 MB
RASTER_FORMATS = ("PNG", "JPEG")   # by content: a .png that is really EPS would run Ghostscript
_REEXPORT = "re-export the file as plain SVG or PNG"
TRUNCATED = "the image data ends early (truncated file)"
_EXPORT_AGAIN = "export it again"
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


@lru_cache(maxsize=MAX_ART_FILES)
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
        drawing = _render_svg(path, checked_svg_root(data))
    except (SvgRefused, FileRefused) as error:
        return ReadArt(problem=(str(error), error.hint))
    except Exception as error:  # svglib raises many kinds on malformed files
        return ReadArt(problem=(f"cannot read SVG: {shown(str(error))}", _REEXPORT))
    if drawing is None or not drawing.width or not drawing.height:
        return ReadArt(problem=("cannot read SVG (no size: give it width, height or a viewBox)", _REEXPORT))
    try:
        check_drawing_numbers(drawing)
    except SvgRefused as error:
        return ReadArt(problem=(str(error), error.hint))
    _recolour(drawing, "rgb", 3.0)
    return ReadArt(_digest(data), (float(drawing.width), float(drawing.height)), drawing)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------ SVG drawn by svglib, with pnp's fonts

GENERIC_FAMILIES = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif",
                    "ui-sans-serif", "ui-monospace", "ui-rounded", "math", "emoji", "helvetica"}
# ('helvetica': what svglib asks for when a text names no family; pnp never prints an unembedded font)


def _render_svg(path: Path, root):
    """The checked tree drawn by svglib: its text in pnp's own faces, its opacities drawn."""
    # A Path, not a str, as the source: svglib then resolves no file reference at all
    return _svg_renderer_class()(path).render(root)


@lru_cache(maxsize=1)
def _svg_renderer_class():
    """svglib's renderer, made to draw text only in the fonts pnp ships and to draw `opacity`.

    svglib would look a family up as a file ('/any/path/x.ttf', '../fonts/x.ttf', 'name.ttf' in the
    current folder) and then through fontconfig, and embed whatever it found: the same game built
    other PDFs on other machines. Here each family of a text's font-family list is looked for among
    pnp's families (a generic one, like sans-serif, or none stands for pnp's default stack), and the
    text is set in the first that has all its characters (a glyph a font lacks prints as nothing); a
    text no family of which pnp has, or has whole, is refused at its line. `opacity` (of a shape, a group, a <use> or the
    <svg>), which svglib ignores, multiplies the fill and stroke opacity of everything drawn inside it
    once the whole file is drawn (a <use> is filled in when its target comes): a group's overlapping
    shapes then show through each other, where a viewer composites the group first.
    """
    from svglib.svglib import SvgRenderer
    from svglib.fonts import FontMap

    class NoFontFiles(FontMap):
        """A font map that never registers a file nor asks fontconfig (nothing asks it: families are
        resolved by convert_family below; kept for any path svglib may add)."""

        def find_font(self, font_name, weight="normal", style="normal"):
            raise _UnknownFont(font_name)

    class GameSvgRenderer(SvgRenderer):
        def __init__(self, path):
            super().__init__(path, font_map=NoFontFiles())
            self.library = None              # pnp's fonts, once a text asks for one
            self.characters = frozenset()    # those of the <text> being drawn
            self.fades = []                  # (drawn item, opacity), applied once all is drawn
            self.attrConverter.convertFontFamily = self.convert_family

        def convert_family(self, families, weight="normal", style="normal"):
            if not families:
                return ""
            if self.library is None:
                from generator.text.fonts import FontLibrary
                self.library = FontLibrary()
            known = _pnp_families(self.attrConverter.split_font_family_list(families), self.library.families)
            if not known:
                raise _UnknownFont(families)
            for family in known:             # the first with every character (a missing one draws nothing)
                if self.characters <= self.library.characters(family):
                    return self.library.face(family, _weight(weight), style in ("italic", "oblique")).name
            raise _MissingCharacters(families, known, self.characters - self.library.characters(known[0]))

        def render(self, svg_node):
            drawing = super().render(svg_node)
            for item, opacity in self.fades:
                _fade(item, opacity)
            return drawing

        def renderSvg(self, node, outermost=False):
            group = super().renderSvg(node, outermost)
            self._note_opacity(node, [group])
            return group

        def renderNode(self, node, parent=None):
            drawn = len(parent.contents) if parent is not None else 0
            if _local_name(node) == "text":
                self.characters = frozenset(character for character in "".join(node.etree_element.itertext())
                                            if not character.isspace())
            try:
                super().renderNode(node, parent)
            except _UnknownFont as error:       # met in the innermost element rendered: the <text>
                from generator.text.fonts import builtin_families
                raise SvgRefused(f"refused: the text at line {node.sourceline} is in the font "
                                 f"{_quoted(error.families)}, not one of pnp's fonts",
                                 _font_hint(builtin_families())) from None
            except _MissingCharacters as error:
                raise SvgRefused(f"refused: the text at line {node.sourceline} is in the font {_quoted(error.families)}, "
                                 f"and none of pnp's fonts it means ({', '.join(error.tried)}) has all its characters: "
                                 f"{error.tried[0]} lacks {_listed(error.missing)}, which would print as nothing",
                                 self._families_with(self.characters)) from None
            if parent is not None and _local_name(node) != "svg":    # an <svg>'s own: renderSvg
                self._note_opacity(node, parent.contents[drawn:])

        def _note_opacity(self, node, items):
            self.attrConverter.findAttr(node, "opacity")     # applies the node's style and CSS first
            opacity = _opacity(node.attrib.get("opacity", ""))
            if opacity < 1:
                self.fades += [(item, opacity) for item in items]

        def _families_with(self, characters: frozenset) -> str:
            having = [family for family in sorted(self.library.families)
                      if characters <= self.library.characters(family)]
            where = f"a family that has them all ({', '.join(having)})" if having else "other fonts"
            return (f"set the text in {where}, split it into texts of one font each, or convert it to paths "
                    f"(Inkscape: Path > Object to Path)")

    return GameSvgRenderer


class _MissingCharacters(Exception):
    """A text with characters the first pnp family its font-family means (of those `tried`) lacks, and no
    later one has them all."""

    def __init__(self, families: str, tried: list[str], missing: frozenset):
        super().__init__(families)
        self.families, self.tried, self.missing = families, tried, missing


def _listed(characters: frozenset) -> str:
    """The first few characters, each quoted (control characters escaped) with its code point."""
    named = ", ".join(f"{character!r} (U+{ord(character):04X})" for character in sorted(characters)[:5])
    more = len(characters) - 5
    return named + (f" and {more} more" if more > 0 else "")


class _UnknownFont(Exception):
    """A text none of whose font families pnp has (`families`: its font-family, as written)."""

    def __init__(self, families: str):
        super().__init__(families)
        self.families = families


def _font_hint(families) -> str:
    return ("convert the text to paths (Inkscape: Path > Object to Path), or set it in one of pnp's fonts: "
            f"{', '.join(sorted(families))}, or sans-serif")


def _quoted(name: str) -> str:
    return repr(str(name)[:80])


def _local_name(node) -> str:
    tag = node.tag if isinstance(node.tag, str) else ""
    return tag.rpartition("}")[2]


def _pnp_families(names: list[str], families) -> list[str]:
    """The pnp families a font-family list means, in its order ('Noto Sans' is noto-sans; a generic
    family is pnp's default stack, which sets what its first family lacks in the next)."""
    from generator.text.fonts import DEFAULT_STACK
    found: list[str] = []
    for name in names:
        key = "-".join(name.strip().strip("'\"").lower().split())
        for family in DEFAULT_STACK if key in GENERIC_FAMILIES else (key,):
            if family in families and family not in found:
                found.append(family)
    return found


def _weight(value: str) -> str:
    """A CSS font-weight as one of pnp's weights."""
    value = str(value).strip().lower()
    number = int(value) if value.isdigit() else {"bold": 700, "bolder": 700, "black": 900, "heavy": 900}.get(value, 400)
    return "black" if number >= 850 else "bold" if number >= 600 else "regular"


def _opacity(value: str) -> float:
    """An SVG opacity (a number or a percentage) within 0-1; 1 when absent or unreadable."""
    value = value.strip()
    try:
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        return 1.0
    return min(1.0, max(0.0, number)) if number == number else 1.0


def _fade(item, opacity: float) -> None:
    """Everything drawn in `item` `opacity` times as opaque (new colours: svglib shares colour objects)."""
    from reportlab.lib.colors import Color
    stack = [item]
    while stack:
        node = stack.pop()
        for attribute in ("fillOpacity", "strokeOpacity"):
            value = getattr(node, attribute, None)
            if value is not None:
                setattr(node, attribute, value * opacity)
        for attribute in ("fillColor", "strokeColor"):
            colour = getattr(node, attribute, None)
            if isinstance(colour, Color):
                faded = colour.clone()
                faded.alpha = (colour.alpha if colour.alpha is not None else 1) * opacity
                setattr(node, attribute, faded)
        stack.extend(getattr(node, "contents", ()))


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


def cmyk_svg(path: Path, ink_limit: float, separation=None, opaque: bool = False):
    """The drawing with every colour separated to CMYK (through `separation`'s profile when given);
    `opaque`: every colour with opacity as it shows on white paper, at full opacity (PDF/X-1a)."""
    return _separated_drawing(load_svg(path), ink_limit, separation, opaque)


@lru_cache(maxsize=MAX_ART_FILES)
def _separated_drawing(drawing, ink_limit: float, separation, opaque: bool):
    """Kept by the drawing itself (by identity): the file's next version is another drawing."""
    import copy
    separated = copy.deepcopy(drawing)
    _recolour(separated, "cmyk", ink_limit, separation, opaque)
    return separated


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
                if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
                    return ReadArt(problem=(f"refused: {width} × {height} pixels is more than any printed piece "
                                            f"needs (at most {MAX_PIXELS // 1_000_000} megapixels, {MAX_SIDE} "
                                            f"pixels a side)", "scale the image down: 300 ppi at its printed size is enough"))
                image.load()                 # a truncated or damaged file fails here, not while drawing
                if image.format == "PNG" and png_rows_missing(handle):
                    return ReadArt(problem=(TRUNCATED, _EXPORT_AGAIN))
    except Image.DecompressionBombError:
        return ReadArt(problem=(f"refused: more pixels than any printed piece needs (at most "
                                f"{MAX_PIXELS // 1_000_000} megapixels)",
                                "scale the image down: 300 ppi at its printed size is enough"))
    except FileRefused as error:
        return ReadArt(problem=(str(error), error.hint))
    except UnidentifiedImageError:
        return ReadArt(problem=("cannot read image: not a PNG or JPEG file", "export it as PNG or JPEG"))
    except OSError as error:
        if "truncated" in str(error):       # Pillow: 'image file is truncated (… bytes not processed)'
            return ReadArt(problem=(TRUNCATED, _EXPORT_AGAIN))
        return ReadArt(problem=(f"cannot read image: {shown(str(error))}", "export the image again"))
    except Exception as error:  # Pillow raises many kinds on a damaged file
        return ReadArt(problem=(f"cannot read image: {shown(str(error))}", "export the image again"))
    return ReadArt(digest, (float(width), float(height)))


def _digest_of(handle) -> str:
    digest = hashlib.sha256()
    while block := handle.read(1 << 20):
        digest.update(block)
    return digest.hexdigest()


# Adam7's passes: first column and row, column and row steps
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}      # by PNG colour type


def png_rows_missing(handle) -> bool:
    """True when a PNG (an open binary file) has compressed pixel data that ends before its last row.
    Pillow fills the rows a complete zlib stream never gave with black and says nothing (an exporter
    that stopped half-way and still closed the stream); counted here by inflating the IDAT chunks
    1 MiB at a time."""
    handle.seek(0)
    try:
        width, height, depth, colour, _, _, interlaced = struct.unpack(">IIBBBBB", handle.read(29)[16:29])
    except struct.error:
        return True
    bits = depth * _CHANNELS.get(colour, 4)
    passes = _ADAM7 if interlaced else ((0, 0, 1, 1),)
    expected = 0
    for x0, y0, dx, dy in passes:
        columns, rows = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if columns > 0 and rows > 0:
            expected += rows * (1 + -(-columns * bits // 8))
    return _inflated_idat_size(handle, expected) < expected


def _inflated_idat_size(handle, enough: int) -> int:
    """How many bytes the IDAT chunks inflate to (counting stops at `enough`)."""
    inflater, size = zlib.decompressobj(), 0
    handle.seek(8)
    while size < enough:
        head = handle.read(8)
        if len(head) < 8:
            break
        length, kind = struct.unpack(">I4s", head)
        if kind == b"IEND":
            break
        if kind != b"IDAT":
            handle.seek(length + 4, io.SEEK_CUR)
            continue
        left = length
        while left and size < enough:
            pending = handle.read(min(left, 1 << 20))
            if not pending:
                return size
            left -= len(pending)
            while pending and size < enough:
                size += len(inflater.decompress(pending, 1 << 20))
                pending = inflater.unconsumed_tail
        handle.seek(left + 4, io.SEEK_CUR)        # what is left of the chunk, and its CRC
    return size
