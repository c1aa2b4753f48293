"""`pnp preview`: PNGs of every distinct face and a contact sheet per deck and per component file.

Faces are drawn by the same renderer as the real files (one trim-size page
each, in one PDF) and rendered with pypdfium2; identical copies are shown once.
Memory stays bounded whatever the deck and the --dpi: a face is rendered at most
MAX_FACE_PIXELS (a 2 m board at 600 dpi would be 2.2 gigapixels) and only its
thumbnail is kept for the contact sheet, whose thumbnails shrink as a deck grows.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from generator.components.piece import Face
from generator.imposition.sheet import Document, Page, Placement
from generator.render.pdf import render_pdf
from generator.render.settings import DrawingSettings
from generator.files import write_atomically

THUMB_GAP = 12        # px between contact-sheet thumbnails
THUMB_SIDE = 320      # px: the largest side of a thumbnail on a contact sheet
MAX_FACE_PIXELS = 40_000_000          # one preview: a 63 × 88 mm card at 600 dpi is 2.9 MP
MAX_SHEET_PIXELS = 30_000_000         # one contact sheet


def face_pages(faces: list[tuple[str, Face]]) -> Document:
    pages = [Page(face.width, face.height, (Placement(face, 0.0, 0.0, (0.0, 0.0, face.width, face.height)),),
                  label=name) for name, face in faces]
    return Document(pages, title="preview")


def render_previews(groups: dict[str, list[tuple[str, Face]]], folder: Path, dpi: float, initial_font: str,
                    written: list[Path], inside: Path) -> None:
    """groups: contact-sheet name → (file stem, face) in order. Writes <stem>.png and <group>.png under
    `folder`, never through a link leading out of the output folder `inside`.

    A face in several groups (its deck's sheet and its component's) is rendered and written once:
    `written` names every file once."""
    thumbnails: dict[str, Image.Image] = {}       # stem → its thumbnail, at the largest side a sheet uses
    kept_side: dict[str, int] = {}
    for faces in groups.values():
        for stem, _ in faces:
            kept_side[stem] = max(kept_side.get(stem, 0), thumbnail_side(len(faces)))
    for group, faces in groups.items():
        if not faces:
            continue
        side = thumbnail_side(len(faces))
        fresh = [(stem, face) for stem, face in faces if stem not in thumbnails]
        if fresh:
            document = pdfium.PdfDocument(render_pdf(face_pages(fresh), DrawingSettings(initial_font)))
            try:
                for index, (stem, face) in enumerate(fresh):
                    scale = _scale(face, dpi)
                    image = document[index].render(scale=scale).to_pil().convert("RGB")
                    path = folder / f"{stem}.png"
                    write_atomically(path, _png(image, scale * 72), inside)
                    written.append(path)
                    image.thumbnail((kept_side[stem], kept_side[stem]))
                    thumbnails[stem] = image
            finally:
                document.close()
        sheet = contact_sheet([_shrunk(thumbnails[stem], side) for stem, _ in faces],
                              [stem.split("/")[-1] for stem, _ in faces])
        path = folder / f"{group}.png"
        write_atomically(path, _png(sheet, dpi), inside)
        written.append(path)


def face_png(face: Face, dpi: float, initial_font: str) -> bytes:
    """One face as a PNG at `dpi` (lowered past MAX_FACE_PIXELS), drawn as the real files draw it."""
    document = pdfium.PdfDocument(render_pdf(face_pages([("face", face)]), DrawingSettings(initial_font)))
    try:
        scale = _scale(face, dpi)
        bitmap = document[0].render(scale=scale)
        image = bitmap.to_pil().convert("RGB")
        bitmap.close()
    finally:
        document.close()
    return _png(image, scale * 72)


def _shrunk(image: Image.Image, side: int) -> Image.Image:
    if max(image.size) <= side:
        return image
    copy = image.copy()
    copy.thumbnail((side, side))
    return copy


def unique_stems(faces: list[tuple[str, Face]], taken: set[str]) -> list[tuple[str, Face]]:
    """Distinct faces that would share a file name (two faces of one card id) get -2, -3 …:
    a preview is never written over another."""
    result = []
    for stem, face in faces:
        name, number = stem, 1
        while name in taken:
            number += 1
            name = f"{stem}-{number}"
        taken.add(name)
        result.append((name, face))
    return result


def _scale(face: Face, dpi: float) -> float:
    """Pixels per point: the asked dpi, lowered for a face that would pass MAX_FACE_PIXELS."""
    scale = dpi / 72
    points = face.width * face.height * (72 / 25.4) ** 2
    return min(scale, math.sqrt(MAX_FACE_PIXELS / points) * 0.999)   # pdfium rounds each side up


def thumbnail_side(count: int) -> int:
    """Thumbnails small enough that `count` of them fit one contact sheet of MAX_SHEET_PIXELS."""
    return max(24, min(THUMB_SIDE, int(math.sqrt(MAX_SHEET_PIXELS / count)) - THUMB_GAP - 14))


def contact_sheet(images: list[Image.Image], labels: list[str]) -> Image.Image:
    columns = max(1, math.ceil(math.sqrt(len(images))))
    rows = math.ceil(len(images) / columns)
    cell_w = max(image.width for image in images) + THUMB_GAP
    cell_h = max(image.height for image in images) + THUMB_GAP + 14
    sheet = Image.new("RGB", (columns * cell_w + THUMB_GAP, rows * cell_h + THUMB_GAP), "#e6e6e6")
    draw = ImageDraw.Draw(sheet)
    for index, (image, label) in enumerate(zip(images, labels, strict=True)):
        x = THUMB_GAP + (index % columns) * cell_w
        y = THUMB_GAP + (index // columns) * cell_h
        sheet.paste(image, (x, y))
        draw.text((x, y + image.height + 2), label, fill="#333333")
    return sheet


def _png(image: Image.Image, dpi: float) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi))
    return buffer.getvalue()
