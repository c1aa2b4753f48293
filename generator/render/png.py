"""PDF pages to PNG images with pypdfium2, at an exact pixel size."""

from __future__ import annotations

import io

import pypdfium2 as pdfium


def pages_png(pdf_bytes: bytes, indices: list[int], dpi: float,
              size: tuple[int, int] | None = None) -> dict[int, bytes]:
    """Several pages of one PDF (opened once)."""
    document = pdfium.PdfDocument(pdf_bytes)
    result = {}
    try:
        for index in indices:
            page = document[index]
            width_pt, _ = page.get_size()
            scale = size[0] / width_pt if size else dpi / 72.0
            image = page.render(scale=scale).to_pil().convert("RGB")
            page.close()
            if size is not None and image.size != size:
                image = image.resize(size)
            out = io.BytesIO()
            image.save(out, format="PNG", dpi=(dpi, dpi))
            result[index] = out.getvalue()
    finally:
        document.close()
    return result
