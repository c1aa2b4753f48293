"""Every word reads back exactly (render/text_out.py): Thai marks stacked on their letters and words on
either side of an inline icon, read back with pypdfium2 and pdftotext from a real PDF."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.components.piece import ArtPlacement, Face, TextPlacement
from generator.imposition.sheet import Document, Page, Placement
from generator.render.pdf import render_pdf
from generator.text.fonts import DEFAULT_STACK, FontLibrary
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

SIZE = 14.0
PDFTOTEXT = shutil.which("pdftotext")
ICON = Path(__file__).resolve().parents[2] / "examples" / "world-scripts" / "art" / "coin.svg"


@pytest.fixture(scope="module")
def setter() -> TextSetter:
    return TextSetter(FontLibrary())


def _pdf(setter: TextSetter, lang: str, text: str, width: float = 180, size: float = SIZE) -> bytes:
    """The text set in the default stack at `size` in a box `width` mm wide (its icons the coin), one page."""
    layout = fit_text(parse_rich_text(text), width, 60, SetStyle(DEFAULT_STACK, size, size, lang=lang,
                                                                 hyphenate=False, icons=(("coin", ICON),)), setter)
    assert layout.fits, text
    icons = tuple(ArtPlacement(ICON, 10 + icon.x, 10 + icon.y, icon.size, icon.size) for icon in layout.icons)
    face = Face("read-back", 200, 280, 0, (TextPlacement(10, 10, layout.runs, icons),))
    page = Page(210, 297, (Placement(face, 5, 5, (5, 5, 200, 280)),))
    return render_pdf(Document([page]), setter.library.face("nunito").name)


def _readings(pdf: bytes, tmp_path: Path) -> dict[str, str]:
    document = pdfium.PdfDocument(pdf)
    read = {"pdfium": document[0].get_textpage().get_text_range()}
    document.close()
    if PDFTOTEXT is not None:
        path = tmp_path / "read.pdf"
        path.write_bytes(pdf)
        read["pdftotext"] = subprocess.run([PDFTOTEXT, "-q", "-enc", "UTF-8", str(path), "-"], capture_output=True,
                                           text=True, check=True, encoding="utf-8").stdout
    return read


def _words(text: str) -> list[str]:
    return text.replace("\u200b", " ").split()


@pytest.mark.parametrize("text", [
    "จั่ว เพิ่ม ผู้เล่น ขึ้น",          # a tone mark stacked on a vowel sign above (raised: a text object of its own)
])
def test_thai_marks_read_back_on_their_letters(setter, tmp_path, text):
    for reader, read in _readings(_pdf(setter, "th", text), tmp_path).items():
        assert _words(read) == text.split(), (reader, read)


def test_a_paragraph_with_icons_reads_back_in_order(setter, tmp_path):
    """At this width and size, without the icons' hidden spaces pdftotext cut the paragraph at the icons'
    gaps into blocks and read "2 . Ο νεότερος …" before ", από 4 το καθένα." (as in the Greek rulebook);
    each icon now has an invisible space, marked as a zero-width space, as wide as the icon under it."""
    text = ("Σε 3 χρώματα: Θάλασσα {icon:coin}, Αγορά {icon:coin} και Φως {icon:coin}, από 4 το καθένα. "
            "Κάθε παίκτης παίρνει 2 {icon:coin}. Ο νεότερος παίκτης παίρνει τη μάρκα.")
    expected = _words(text.replace("{icon:coin}", " "))
    for reader, read in _readings(_pdf(setter, "el", text, width=130, size=8.4), tmp_path).items():
        assert _words(read) == expected, (reader, read)


def test_text_after_an_icon_s_hidden_space_is_drawn(setter):
    """The hidden space is drawn in text render mode 3, which is the graphics state's: text set after it
    on the page must be inked again (a paragraph under one with an icon was invisible)."""
    runs = []
    for text in ("Gain 2 {icon:coin} now.", "Then this line is drawn."):
        runs.append(fit_text(parse_rich_text(text), 150, 20, SetStyle(DEFAULT_STACK, SIZE, SIZE, hyphenate=False,
                                                                     icons=(("coin", ICON),)), setter))
    first, second = runs
    icons = tuple(ArtPlacement(ICON, 10 + icon.x, 10 + icon.y, icon.size, icon.size) for icon in first.icons)
    face = Face("after-icon", 200, 280, 0, (TextPlacement(10, 10, first.runs, icons),
                                            TextPlacement(10, 40, second.runs)))
    pdf = render_pdf(Document([Page(210, 297, (Placement(face, 5, 5, (5, 5, 200, 280)),))]),
                     setter.library.face("nunito").name)
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=100 / 72).to_pil().convert("L")
    px = 100 / 25.4
    second_line = image.crop((int(15 * px), int(45 * px), int(165 * px), int(60 * px)))
    assert second_line.point(lambda value: 255 if value < 128 else 0).getbbox() is not None, "the line is not inked"
    document.close()
