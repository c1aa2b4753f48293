"""Read facts back out of built PDFs: page sizes, boxes, placed forms, text, fonts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import pypdfium2.raw as pdfium_raw

from generator.preflight import font_report as preflight_font_report

PT = 25.4 / 72


def pdftotext(path: Path | str, *options: str) -> str:
    """The PDF's text as poppler's pdftotext reads it (`options` before the file, e.g. "-f", "1");
    the calling test is skipped where poppler-utils is not installed, as every test of an outside tool."""
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return subprocess.run([tool, *options, str(path), "-"], capture_output=True, text=True, check=True).stdout


def open_pdf(path: Path | bytes) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(path if isinstance(path, bytes) else str(path))


def page_size_mm(document, index: int) -> tuple[float, float]:
    width, height = document[index].get_size()
    return width * PT, height * PT


def form_origins_mm(document, index: int) -> list[tuple[float, float]]:
    """Bottom-left corner of every top-level face form on the page, measured from the page's
    top-left in mm (the engine places each card's trim corner there), in drawing order.

    The page's own marks, when shared by several pages, are a form too, drawn untransformed
    in page coordinates: that one is left out."""
    page = document[index]
    _, page_height = page.get_size()
    origins = []
    for obj in page.get_objects(max_depth=1):
        if obj.type == pdfium_raw.FPDF_PAGEOBJ_FORM:
            matrix = obj.get_matrix()
            if (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f) == (1, 0, 0, 1, 0, 0):
                continue
            origins.append((matrix.e * PT, (page_height - matrix.f) * PT))
    return origins


def page_text(document, index: int) -> str:
    textpage = document[index].get_textpage()
    return textpage.get_text_range()


def all_text(path: Path) -> str:
    document = open_pdf(path)
    return "\n".join(page_text(document, i) for i in range(len(document)))


def box_mm(document, box: str, index: int = 0) -> tuple[float, float, float, float]:
    """A page box ('media', 'trim', 'bleed') as x0, y0, x1, y1 in mm."""
    page = document[index]
    values = getattr(page, f"get_{box}box")(fallback_ok=False)
    return tuple(v * PT for v in values)  # type: ignore[return-value]


def font_report(path: Path) -> dict[str, bool]:
    """Each font the PDF names → whether its program is embedded (the preflight's own reading)."""
    return preflight_font_report(path.read_bytes())
