"""Join finished PDFs (the kit and the rules booklet) with pypdfium2."""

from __future__ import annotations

import hashlib
import io
import re

import pypdfium2 as pdfium

from generator.render.font_tags import distinct_subset_tags

# pdfium writes a random file ID into every trailer, and the time into a new document's Info
_TRAILER_ID = re.compile(rb"/ID\s*\[\s*<[0-9A-Fa-f]*>\s*<[0-9A-Fa-f]*>\s*\]")
_CREATION_DATE = re.compile(rb"/CreationDate\(D:\d{14}[+-]\d\d'\d\d'\)")
FIXED_DATE = b"/CreationDate(D:20000101000000+00'00')"   # same length: the xref offsets stay right


def deterministic(pdf: bytes) -> bytes:
    """The same PDF with its file ID derived from its content: identical input, identical bytes."""
    pdf = _CREATION_DATE.sub(FIXED_DATE, pdf)
    digest = hashlib.md5(_TRAILER_ID.sub(b"", pdf)).hexdigest().upper().encode()
    return _TRAILER_ID.sub(lambda _: b"/ID[<" + digest + b"><" + digest + b">]", pdf)


def save(document: pdfium.PdfDocument) -> bytes:
    """The document's bytes: each font subset (those of every joined file) under its own tag, a fixed ID."""
    buffer = io.BytesIO()
    document.save(buffer)
    return deterministic(distinct_subset_tags(buffer.getvalue()))


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
