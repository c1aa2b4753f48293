"""Join finished PDFs (the kit and the rules booklet) with pypdfium2."""

from __future__ import annotations

import io

import pypdfium2 as pdfium


def append_pdf(first: bytes, second: bytes) -> bytes:
    """first's pages, then second's: the second starts on a front side (first has an even count)."""
    document = pdfium.PdfDocument(first)
    other = pdfium.PdfDocument(second)
    try:
        if len(document) % 2:
            width, height = document[len(document) - 1].get_size()
            document.new_page(width, height).close()
        document.import_pages(other)
        buffer = io.BytesIO()
        document.save(buffer)
        return buffer.getvalue()
    finally:
        other.close()
        document.close()
