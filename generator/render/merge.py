"""Finish the PDFs pdfium writes (the kit joined with its rules booklet, the booklet imposed):
through pikepdf's object structure, each font subset under its own tag and a fixed file ID."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium

from generator.render.font_tags import distinct_tags

# pdfium writes a random file ID into every trailer, and the time into a new document's Info
FIXED_DATE = "D:20000101000000+00'00'"


def finished(pdf: bytes) -> bytes:
    """A PDF pdfium wrote, made reproducible: a subset meeting another under its tag renamed, dates fixed,
    the file ID derived from the content (identical input, identical bytes)."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        distinct_tags(document)
        if "/ID" in document.trailer:     # pdfium's random one: qpdf derives both halves from the content
            del document.trailer["/ID"]
        if "/Info" in document.trailer:
            info = document.trailer.Info
            for key in ("/CreationDate", "/ModDate"):
                if key in info:
                    info[key] = pikepdf.String(FIXED_DATE)
        buffer = io.BytesIO()
        # streams as pdfium wrote them (no decoding and compressing again); uncompressed ones deflated
        document.save(buffer, deterministic_id=True, compress_streams=True,
                      stream_decode_level=pikepdf.StreamDecodeLevel.none,
                      object_stream_mode=pikepdf.ObjectStreamMode.preserve)
        return buffer.getvalue()


def save(document: pdfium.PdfDocument) -> bytes:
    """The document's bytes: each font subset (those of every joined file) under its own tag, a fixed ID."""
    buffer = io.BytesIO()
    document.save(buffer)
    return finished(buffer.getvalue())


def append_pdf(first: bytes, second: bytes) -> bytes:
    """first's pages, then second's: the second starts on a front side (first has an even count)."""
    document = pdfium.PdfDocument(first)
    other = pdfium.PdfDocument(second)
    try:
        if len(document) % 2:
            width, height = document[len(document) - 1].get_size()
            document.new_page(width, height).close()
        document.import_pages(other)
        return save(document)
    finally:
        other.close()
        document.close()
