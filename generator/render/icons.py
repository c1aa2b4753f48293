"""Art rasterised for inline use in flowing text (ReportLab paragraphs take images, not drawings)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.graphics import renderPDF

from generator.render.art import load_svg
from generator.text.fonts import cache_dir, file_digest

ICON_PIXELS = 160     # 160 px for an icon printed ~4 mm high: far above 300 ppi


def icon_png(path: Path, pixels: int = ICON_PIXELS) -> Path:
    """A transparent PNG of the art, cached on disk by content."""
    target = cache_dir().parent / "icons" / f"{file_digest(path)}-{pixels}.png"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() != ".svg":
        return path
    drawing = load_svg(path)
    document = pdfium.PdfDocument(renderPDF.drawToString(drawing))
    page = document[0]
    width, height = page.get_size()
    image = page.render(scale=pixels / max(width, height), fill_color=(255, 255, 255, 0),
                        may_draw_forms=True).to_pil()
    page.close()
    document.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    temporary = target.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_bytes(buffer.getvalue())
    os.replace(temporary, target)
    return target
