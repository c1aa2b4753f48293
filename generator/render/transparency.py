"""Transparent art in CMYK files: kept as a soft mask where the file may carry transparency (plain CMYK
output, PDF/X-4), flattened onto what lies beneath it where it may not (PDF/X-1a:2003).

Flattening works on the laid-out faces, before drawing: every art placement that is not
opaque (a PNG with alpha under 255, an SVG with opacity under 1) is replaced by an opaque
raster of its own rectangle at 300 dpi, taken from the face drawn up to and including that
art (the face's shapes, text and art beneath it composited with it). Drawn in CMYK like any
raster art, the page then prints as the same face with transparency does (PDF/X-4), without
a soft mask or an opacity anywhere in the file — what a prepress flattener does for the
"complex regions" of a page. Everything outside those rectangles stays vector.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, PngImagePlugin

from generator.caches import cached
from generator.components.affine import IDENTITY, Affine, group_affine
from generator.components.piece import ArtPlacement, Face, Group, Item, TextPlacement
from generator.files import write_atomically
from generator.imposition.sheet import Document, Page, Placement
from generator.render.art import art_version, load_svg, open_raster
from generator.render.colour import separate_image
from generator.render.pdf import render_pdf
from generator.render.settings import DrawingSettings
from generator.render.soft_mask import CMYK_MARK, alpha_channel, cmyk_token
from generator.render.svg_drawing import GROUP_OPACITY
from generator.units import mm_to_pt

FLATTEN_DPI = 300           # a print shop's resolution for raster art


# ------------------------------------------------------------------ which art is transparent

def art_is_transparent(file: Path) -> bool:
    """True for a raster with any pixel under full opacity, or an SVG with any opacity (of a painting or a
    group) or colour alpha under 1."""
    return _transparent(file, art_version(file))


@cached("render.art_transparent", maxsize=4096, reads_files=True)
def _transparent(file: Path, version: tuple) -> bool:
    if file.suffix.lower() == ".svg":
        return _svg_transparent(load_svg(file))
    with open_raster(file) as image:
        return alpha_channel(image) is not None


def _svg_transparent(node) -> bool:
    if getattr(node, GROUP_OPACITY, 1) < 1:
        return True
    for attribute in ("fillOpacity", "strokeOpacity"):
        value = getattr(node, attribute, None)
        if value is not None and value < 1:
            return True
    for attribute in ("fillColor", "strokeColor"):
        colour = getattr(node, attribute, None)
        if colour is not None and (getattr(colour, "alpha", 1) if getattr(colour, "alpha", 1) is not None else 1) < 1:
            return True
    return any(_svg_transparent(child) for child in getattr(node, "contents", ()))


# ------------------------------------------------------------------ where art lies on its face

@dataclass(frozen=True)
class Found:
    """A transparent art placement: the way to it through the face's items, its mapping onto the face, and
    the quarter turns (clockwise) it is drawn with."""

    path: tuple[tuple, ...]      # ('item', i) | ('group', i) | ('icon', i, k) steps
    art: ArtPlacement
    affine: Affine
    rotation: int


def transparent_art(items: tuple[Item, ...], affine: Affine = IDENTITY, rotation: int = 0,
                    path: tuple = ()) -> list[Found]:
    """Every transparent art placement among `items`, in drawing order."""
    found: list[Found] = []
    for index, item in enumerate(items):
        if isinstance(item, ArtPlacement) and art_is_transparent(item.file):
            found.append(Found(path + (("item", index),), item, affine, rotation % 360))
        elif isinstance(item, TextPlacement):
            found += [Found(path + (("icon", index, number),), icon, affine, rotation % 360)
                      for number, icon in enumerate(item.icons) if art_is_transparent(icon.file)]
        elif isinstance(item, Group):
            found += transparent_art(item.items, group_affine(item).then(affine), rotation + item.rotation,
                                     path + (("group", index),))
    return found


def _before(items: tuple[Item, ...], path: tuple) -> tuple[Item, ...]:
    """The items drawn before the one at `path` (inside its groups: their items before it)."""
    step, rest = path[0], path[1:]
    index = step[1]
    item = items[index]
    if step[0] == "item":
        return items[:index]
    if step[0] == "icon":
        return items[:index] + (replace(item, icons=item.icons[:step[2]]),)
    return items[:index] + (replace(item, items=_before(item.items, rest)),)


def _alone(items: tuple[Item, ...], path: tuple) -> tuple[Item, ...]:
    """Only the art at `path`, inside its groups (their placement and clip kept)."""
    step, rest = path[0], path[1:]
    item = items[step[1]]
    if step[0] == "item":
        return (item,)
    if step[0] == "icon":
        return (item.icons[step[2]],)
    return (replace(item, items=_alone(item.items, rest)),)


def _swapped(items: tuple[Item, ...], path: tuple, new: ArtPlacement | None) -> tuple[Item, ...]:
    """The items with the art at `path` replaced by `new` (None: left out)."""
    step, rest = path[0], path[1:]
    index = step[1]
    item = items[index]
    if step[0] == "item":
        changed = (new,) if new else ()
    elif step[0] == "icon":
        changed = (replace(item, icons=item.icons[:step[2]] + ((new,) if new else ()) + item.icons[step[2] + 1:]),)
    else:
        changed = (replace(item, items=_swapped(item.items, rest, new)),)
    return items[:index] + changed + items[index + 1:]


# ------------------------------------------------------------------ flattening

class Flattener:
    """Replaces transparent art by opaque CMYK rasters of what the face shows there; the rasters are PNG
    files in `folder` (named by their content), which must outlive the drawing of the document."""

    def __init__(self, folder: Path, initial_font: str, ink_limit: float, separation=None):
        self.folder, self.initial_font = folder, initial_font
        self.ink_limit, self.separation = ink_limit, separation
        self.faces: dict[tuple[str, float], Face] = {}

    def document(self, document: Document) -> Document:
        """The document with every placed face flattened (a page's marks are never transparent art)."""
        pages = [replace(page, placements=tuple(replace(p, face=self.face(p.face, max(1.0, *p.scale)))
                                                for p in page.placements))
                 for page in document.pages]
        return replace(document, pages=pages)

    def face(self, face: Face, scale: float = 1.0) -> Face:
        """The face with each transparent art placement replaced by an opaque raster; the face itself when
        it has none. `scale`: how much larger than its own size the page prints it (a shop's product a little
        larger than the card): the rasters are rendered that much finer, to print at FLATTEN_DPI still."""
        key = (face.key, scale)
        if key not in self.faces:
            found = transparent_art(face.items)
            items = face.items
            for art in reversed(found):      # from the last: a removed placement moves none still to come
                items = _swapped(items, art.path, self._flattened(face, items, art, FLATTEN_DPI * scale))
            self.faces[key] = replace(face, key=face.key + "\0flattened", items=items) if found else face
        return self.faces[key]

    def _flattened(self, face: Face, items: tuple[Item, ...], found: Found, dpi: float) -> ArtPlacement | None:
        """An opaque raster of the art's rectangle (as much of it as lies on the face's bleed): the art
        blended in CMYK over the face drawn up to it, placed where the art was; None for art wholly off
        the face. `items`: the face's items with the art after this one already flattened (drawn above it,
        they do not show here)."""
        art, affine = found.art, found.affine
        corners = [affine(x, y) for x in (art.x, art.x + art.w) for y in (art.y, art.y + art.h)]
        b = face.bleed
        left, top = max(-b, min(x for x, _ in corners)), max(-b, min(y for _, y in corners))
        right = min(face.width + b, max(x for x, _ in corners))
        bottom = min(face.height + b, max(y for _, y in corners))
        if right <= left or bottom <= top:               # the art lies off the face: nothing of it shows
            return None
        box = (left, top, right, bottom)
        below = self._render(face, _before(items, found.path), box, dpi, transparent=False)
        layer = self._render(face, _alone(items, found.path), box, dpi, transparent=True)
        image = self._blend(below, layer)
        turn = {90: "ROTATE_90", 180: "ROTATE_180", 270: "ROTATE_270"}.get(found.rotation)
        if turn:                 # drawn turned clockwise: the raster turned back into the art's own frame
            image = image.transpose(getattr(Image.Transpose, turn))
        inverse = affine.inverse()
        local = [inverse(x, y) for x in (left, right) for y in (top, bottom)]
        x0, y0 = min(x for x, _ in local), min(y for _, y in local)
        x1, y1 = max(x for x, _ in local), max(y for _, y in local)
        return ArtPlacement(self._save(image), x0, y0, x1 - x0, y1 - y0)

    def _blend(self, below, layer):
        """The layer (RGBA) over what lies below (RGB), both separated as their colours are everywhere in the
        file, blended ink by ink with the layer's alpha."""
        import numpy    # (raster flattening only)
        alpha = numpy.asarray(layer.getchannel("A"), dtype=numpy.float64)[..., None] / 255
        under, over = self._separated(below), self._separated(layer.convert("RGB"))
        inks = numpy.rint(alpha * over + (1 - alpha) * under).astype(numpy.uint8)
        return Image.fromarray(inks, "CMYK")

    def _separated(self, rgb):
        """An RGB raster as CMYK inks (0–255) the way vector colours are separated: greys on black alone."""
        import numpy    # (raster flattening only)
        inks = numpy.asarray(separate_image(rgb, self.ink_limit, self.separation), dtype=numpy.float64)
        pixels = numpy.asarray(rgb, dtype=numpy.float64)
        grey = (pixels[..., 0] == pixels[..., 1]) & (pixels[..., 1] == pixels[..., 2])
        inks[grey] = 0
        inks[grey, 3] = 255 - pixels[grey, 0]
        return inks

    def _render(self, face: Face, items: tuple[Item, ...], box: tuple[float, float, float, float], dpi: float,
                transparent: bool):
        """The face's `items` drawn in RGB and rendered at `dpi`, cropped to `box` (face mm, y down):
        on white paper (RGB), or on nothing (RGBA: `transparent`)."""
        b = face.bleed
        width, height = face.width + 2 * b, face.height + 2 * b
        drawn = Face(face.key + "\0layer", face.width, face.height, b, items, face.shape)
        page = Page(width, height, (Placement(drawn, b, b, (0.0, 0.0, width, height)),))
        left, top, right, bottom = box
        crop = (mm_to_pt(left + b), mm_to_pt(height - bottom - b), mm_to_pt(width - right - b), mm_to_pt(top + b))
        document = pdfium.PdfDocument(render_pdf(Document([page], title="flatten"), DrawingSettings(self.initial_font)))
        try:
            paper = (255, 255, 255, 0) if transparent else (255, 255, 255, 255)
            bitmap = document[0].render(scale=dpi / 72, crop=crop, fill_color=paper)
            return bitmap.to_pil().convert("RGBA" if transparent else "RGB")
        finally:
            document.close()

    def _save(self, cmyk) -> Path:
        carrier = Image.frombytes("RGBA", cmyk.size, cmyk.tobytes())
        text = PngImagePlugin.PngInfo()
        text.add_text(CMYK_MARK, cmyk_token())
        buffer = io.BytesIO()
        carrier.save(buffer, "PNG", optimize=False, pnginfo=text)
        path = self.folder / f"flat-{hashlib.sha256(cmyk.tobytes()).hexdigest()[:20]}.png"
        if not path.exists():
            write_atomically(path, buffer.getvalue())
        return path


def flatten_document(document: Document, initial_font: str, folder: Path, ink_limit: float,
                     separation=None) -> Document:
    """`document` without transparency: see the module's docstring. The rasters are written into `folder`."""
    return Flattener(folder, initial_font, ink_limit, separation).document(document)
