"""Shaped glyphs in the PDF (render/text_out.py, render/glyph_fonts.py): set where HarfBuzz puts them,
embedded as one subset per face, and every word read back as its logical text."""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from generator.components.piece import Face, TextPlacement
from generator.imposition.sheet import Document, Page, Placement
from generator.render.font_tags import subset_tags
from generator.render.pdf import render_pdf
from generator.text.fonts import DEFAULT_STACK, FontLibrary
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter
from generator.text.shaping import shape
from generator.units import PT_PER_MM
from tests.pdf_probe import pdftotext

SIZE = 20.0


@pytest.fixture(scope="module")
def setter() -> TextSetter:
    return TextSetter(FontLibrary())


def _pdf(setter: TextSetter, texts: list[tuple[str, str]], **style) -> bytes:
    """One face per (language, text), each text set in the default stack at SIZE, one page."""
    items = []
    for index, (lang, text) in enumerate(texts):
        layout = fit_text(parse_rich_text(text), 180, 20, SetStyle(DEFAULT_STACK, SIZE, SIZE, lang=lang,
                                                                   hyphenate=False, **style), setter)
        assert layout.fits, text
        items.append(TextPlacement(10, 10 + 22 * index, layout.runs))
    face = Face("glyphs", 200, 280, 0, tuple(items))
    page = Page(210, 297, (Placement(face, 5, 5, (5, 5, 200, 280)),))
    return render_pdf(Document([page]), setter.library.face("nunito").name)


def _origins(pdf: bytes) -> list[tuple[str, float, float]]:
    """Every character pdfium reads on the first page with its origin (points)."""
    document = pdfium.PdfDocument(pdf)
    textpage = document[0].get_textpage()
    found = []
    x, y = ctypes.c_double(), ctypes.c_double()
    for index in range(textpage.count_chars()):
        pdfium_c.FPDFText_GetCharOrigin(textpage.raw, index, ctypes.byref(x), ctypes.byref(y))
        found.append((chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, index)), x.value, y.value))
    textpage.close()
    document.close()
    return found


def _pdfium_text(pdf: bytes) -> str:
    document = pdfium.PdfDocument(pdf)
    text = document[0].get_textpage().get_text_range()
    document.close()
    return text


def _pdftotext(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "text.pdf"
    path.write_bytes(pdf)
    return pdftotext(path)


def _content(pdf: bytes) -> str:
    streams = []
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:
            streams.append(zlib.decompress(match.group(1)))
        except zlib.error:
            streams.append(match.group(1))
    return b"\n".join(streams).decode("latin-1")


@pytest.mark.parametrize("pair", ["AV", "Ta", "To"])
def test_a_kerned_pair_is_set_at_harfbuzz_s_advance(setter, pair):
    pdf = _pdf(setter, [("en", pair)])
    (first, x1, _), (second, x2, _) = _origins(pdf)[:2]
    assert first + second == pair
    face = setter.library.face("nunito")
    kerned = shape(face, pair).advances[0] * SIZE
    alone = shape(face, pair[0]).advances[0] * SIZE
    assert x2 - x1 == pytest.approx(kerned, abs=0.01)
    assert alone - kerned > 0.5          # the pair's kerning is there to see (over half a point at 20 pt)


def test_words_after_a_kerned_pair_are_where_the_layout_measured_them(setter):
    layout = fit_text(parse_rich_text("AVAVAV Tatata end"), 180, 20, SetStyle(DEFAULT_STACK, SIZE, SIZE), setter)
    pdf = _pdf(setter, [("en", "AVAVAV Tatata end")])
    origins = _origins(pdf)
    e = next(x for char, x, _ in origins if char == "e")
    # the run starts at the box (5 + 10 mm); "end" begins where the layout's widths say
    widths = sum(setter.width_pt(word, DEFAULT_STACK, "regular", False, SIZE) for word in ("AVAVAV ", "Tatata "))
    assert e == pytest.approx((15 + layout.runs[0].x) * PT_PER_MM + widths, abs=0.01)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "office affluent fjord"),                 # ligatures read back as all their letters
    ("ar", "مرحبا بالعالم سلام"),                     # joined contextual forms, right to left, lam-alef
    ("he", "שלום עולם"),
    ("hi", "हिन्दी भाषा क्षत्रिय"),                     # conjuncts and the reordered i-matra
    ("th", "ภาษาไทย กินข้าว"),
])
def test_every_word_reads_back_as_written(setter, tmp_path, lang, text):
    pdf = _pdf(setter, [(lang, text)])
    for read in (_pdfium_text(pdf), _pdftotext(pdf, tmp_path)):
        words = read.replace("\u202b", "").replace("\u202c", "").split()
        assert words == text.split(), read


def test_arabic_letters_are_joined_not_isolated(setter):
    face = setter.library.face("noto-sans-arabic")
    joined = shape(face, "سلام").gids
    isolated = tuple(shape(face, letter).gids[0] for letter in "سلام")
    assert set(joined).isdisjoint(isolated[:1])       # the initial seen is another glyph than the isolated one


def test_a_zero_width_space_draws_no_glyph(setter):
    pdf = _pdf(setter, [("en", "AB\u200b CD")])
    content = _content(pdf)
    face = setter.library.face("nunito")
    glyphs = re.findall(r"<([0-9A-F]+)>", content.split("BT", 2)[-1])
    drawn = "".join(glyphs)
    assert len(drawn) // 4 == 4 and f"{shape(face, 'A').gids[0]:04X}" in drawn
    assert _pdfium_text(pdf).split() == ["ABCD"]


def test_features_of_a_style_change_the_glyphs(setter):
    face = setter.library.face("inter")
    assert shape(face, "1", ("tnum",)).advances != shape(face, "1").advances
    nunito = setter.library.face("nunito")
    assert len(shape(nunito, "office", ("-liga",)).gids) == 6 > len(shape(nunito, "office").gids)


def test_each_face_is_one_embedded_subset_under_its_own_tag_and_the_file_is_valid(setter, tmp_path):
    pdf = _pdf(setter, [("en", "Plain **bold** *italic*"), ("he", "שלום 123"), ("hi", "हिन्दी")])
    tags = subset_tags(pdf)
    assert len(tags) == len({tag for tag, _ in tags}) >= 4
    assert pdf == _pdf(setter, [("en", "Plain **bold** *italic*"), ("he", "שלום 123"), ("hi", "हिन्दी")])
    path = tmp_path / "fonts.pdf"
    path.write_bytes(pdf)
    if shutil.which("qpdf"):
        assert subprocess.run(["qpdf", "--check", str(path)], capture_output=True).returncode == 0
    if shutil.which("pdffonts"):
        listed = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
        rows = [line.split() for line in listed.splitlines()[2:]]
        assert rows and all(row[-5:-2] == ["yes", "yes", "yes"] for row in rows if "CID" in row), listed


def test_the_text_writer_uses_no_private_name_of_reportlab():
    for module in ("text_out.py", "glyph_fonts.py"):
        source = (Path(__file__).parents[2] / "generator" / "render" / module).read_text()
        assert not re.search(r"\b(canvas|doc|font|self\.canvas)\._[a-zA-Z]", source), module


def test_every_glyph_drawn_has_its_outline_in_the_subset(setter):
    # Noto Sans Arabic draws its dots as marks (glyphs without a text of their own): they must be embedded too
    import io

    import pikepdf
    from fontTools.ttLib import TTFont

    words = ["ثم", "اقرأ", "بطاقات", "من"]
    pdf = _pdf(setter, [("ar", " ".join(words))])
    face = setter.library.face("noto-sans-arabic")
    drawn = {gid for word in words for gid in shape(face, word, (), "rtl").gids}
    with pikepdf.open(io.BytesIO(pdf)) as document:
        fonts = [font for font in document.pages[0].Resources.Font.values()
                 if font.get("/Subtype") == "/Type0" and "Arabic" in str(font.BaseFont)]
        assert len(fonts) == 1
        program = TTFont(io.BytesIO(fonts[0].DescendantFonts[0].FontDescriptor.FontFile2.read_bytes()))
    glyf, order = program["glyf"], program.getGlyphOrder()
    assert len(drawn) > 8
    assert [gid for gid in drawn if glyf[order[gid]].numberOfContours == 0] == []
