"""`pnp preview`: PNGs of every distinct face and a contact sheet per deck and per component file.

Faces are drawn by the same renderer as the real files (one trim-size page
each, in one PDF) and rendered with pypdfium2; identical copies are shown once.
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
from generator.files import write_atomically

THUMB_GAP = 12        # px between contact-sheet thumbnails


def face_pages(faces: list[tuple[str, Face]]) -> Document:
    pages = [Page(face.width, face.height, (Placement(face, 0.0, 0.0, (0.0, 0.0, face.width, face.height)),),
                  label=name) for name, face in faces]
    return Document(pages, title="preview")


def render_previews(groups: dict[str, list[tuple[str, Face]]], folder: Path, dpi: float, initial_font: str,
                    written: list[Path]) -> None:
    """groups: contact-sheet name → (file stem, face) in order. Writes <stem>.png and <group>.png."""
    for group, faces in groups.items():
        if not faces:
            continue
        pdf = render_pdf(face_pages(faces), initial_font)
        document = pdfium.PdfDocument(pdf)
        images = []
        try:
            for index, (stem, _) in enumerate(faces):
                image = document[index].render(scale=dpi / 72).to_pil().convert("RGB")
                images.append(image)
                path = folder / f"{stem}.png"
                write_atomically(path, _png(image, dpi))
                written.append(path)
        finally:
            document.close()
        sheet = contact_sheet(images, [stem.split("/")[-1] for stem, _ in faces])
        path = folder / f"{group}.png"
        write_atomically(path, _png(sheet, dpi))
        written.append(path)


def contact_sheet(images: list[Image.Image], labels: list[str]) -> Image.Image:
    columns = max(1, min(6, math.ceil(math.sqrt(len(images)))))
    rows = math.ceil(len(images) / columns)
    cell_w = max(image.width for image in images) + THUMB_GAP
    cell_h = max(image.height for image in images) + THUMB_GAP + 14
    sheet = Image.new("RGB", (columns * cell_w + THUMB_GAP, rows * cell_h + THUMB_GAP), "#e6e6e6")
    draw = ImageDraw.Draw(sheet)
    for index, (image, label) in enumerate(zip(images, labels)):
        x = THUMB_GAP + (index % columns) * cell_w
        y = THUMB_GAP + (index // columns) * cell_h
        sheet.paste(image, (x, y))
        draw.text((x, y + image.height + 2), label, fill="#333333")
    return sheet


def _png(image: Image.Image, dpi: float) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi))
    return buffer.getvalue()
