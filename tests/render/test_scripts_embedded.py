"""Every glyph a script's shaper draws is embedded with its outline (Thai SARA AM's ring, Arabic dots,
Devanagari marks), and the bidi format characters a translator's text may hold steer bidi and draw nothing."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from fontTools.ttLib import TTFont

from generator.text.fonts import DEFAULT_STACK, FontLibrary
from generator.text.setter import TextSetter
from generator.text.shaping import shape
from tests.pdf_probe import pdftotext
from tests.render.test_glyph_text import _origins, _pdf, _pdfium_text
from tests.robustness.test_outputs import GAME, build, cards_game

FORMAT_CHARACTERS = ["\u200e", "\u200f", "\u061c", "\u2066", "\u2067", "\u2068", "\u2069"]


@pytest.fixture(scope="module")
def setter() -> TextSetter:
    return TextSetter(FontLibrary())


def _outline(font: TTFont, gid: int) -> tuple:
    """A glyph's contours as its points and end points (composites flattened)."""
    glyf = font["glyf"]
    glyph = glyf[font.getGlyphOrder()[gid]]
    coordinates, ends, _ = glyph.getCoordinates(glyf)
    return tuple(coordinates), tuple(ends)


def _embedded(pdf: bytes, family: str) -> TTFont:
    with pikepdf.open(io.BytesIO(pdf)) as document:
        fonts = [font for font in document.pages[0].Resources.Font.values()
                 if font.get("/Subtype") == "/Type0" and family in str(font.BaseFont)]
        assert len(fonts) == 1, [str(font.BaseFont) for font in fonts]
        return TTFont(io.BytesIO(fonts[0].DescendantFonts[0].FontDescriptor.FontFile2.read_bytes()))


@pytest.mark.parametrize(("lang", "family", "text"), [
    ("th", "noto-sans-thai", "สำหรับ ผู้เล่น น้ำ ทำ"),          # SARA AM: nikhahit (a mark) + SARA AA
    ("ar", "noto-sans-arabic", "ثم اقرأ بطاقات من"),           # dots drawn as marks
    ("hi", "noto-sans-devanagari", "क्षत्रिय हिन्दी प्रति र्क"),   # conjuncts, reph, i-matra
])
def test_every_glyph_drawn_is_embedded_with_the_source_font_s_outline(setter, lang, family, text):
    pdf = _pdf(setter, [(lang, text)])
    face = setter.library.face(family)
    drawn = {gid for word in text.split() for gid in shape(face, word).gids}
    embedded, source = _embedded(pdf, family.split("-")[-1].title()), TTFont(face.path)
    assert len(drawn) > 5
    for gid in sorted(drawn):
        assert _outline(embedded, gid) == _outline(source, gid), (lang, gid, source.getGlyphOrder()[gid])
        if source["hmtx"][source.getGlyphOrder()[gid]][0] == 0:    # a mark: it must have contours
            assert _outline(embedded, gid)[1], (lang, gid)


def test_thai_sara_am_prints_its_ring(setter):
    # สำ and สา differ by the nikhahit HarfBuzz splits off SARA AM: its pixels must be on the page
    def ink(text: str) -> int:
        document = pdfium.PdfDocument(_pdf(setter, [("th", text)]))
        image = document[0].render(scale=3).to_pil().convert("L")
        document.close()
        return sum(1 for value in image.tobytes() if value < 128)

    with_ring, without = ink("สำ"), ink("สา")
    assert with_ring > without * 1.08, (with_ring, without)
    nikhahit = shape(setter.library.face("noto-sans-thai"), "สำ").gids
    assert len(nikhahit) == 3       # ส, the ring, า


@pytest.mark.parametrize("char", FORMAT_CHARACTERS, ids=[f"U+{ord(c):04X}" for c in FORMAT_CHARACTERS])
def test_a_bidi_format_character_draws_nothing_and_the_text_reads_back(setter, char):
    close = "\u2069" if char in "\u2066\u2067\u2068" else char
    for lang, text, expected in [
        ("en", f"Gain {char}3 coins{close} now", "Gain coins 3 now" if char == "\u2067" else "Gain 3 coins now"),
        ("he", f"שלום {char}abc{close} עולם", None),
    ]:
        pdf = _pdf(setter, [(lang, text)])
        read = _pdfium_text(pdf)
        assert char not in read
        if expected is not None:
            assert read == expected
        else:
            assert "abc" in read and "שלום" in read and "עולם" in read


def test_isolates_steer_bidi(setter):
    # a Hebrew word and a Latin one in a Hebrew paragraph: right to left, the Hebrew word is on the
    # right; isolated left to right (LRI … PDI), it comes first from the left
    def x_of(pdf: bytes, char: str) -> float:
        return next(x for found, x, _ in _origins(pdf) if found == char)

    plain = _pdf(setter, [("he", "מילה שלום abc")])
    assert x_of(plain, "a") < x_of(plain, "ש")
    isolated = _pdf(setter, [("he", "מילה \u2066שלום abc\u2069")])
    assert x_of(isolated, "a") > x_of(isolated, "ש")
    assert "\u2066" not in _pdfium_text(isolated)


def test_a_card_holding_each_format_character_builds(tmp_path: Path):
    name = "שלום " + " ".join(f"{char}abc{char}" for char in FORMAT_CHARACTERS[:3]) \
        + " \u2066A 1\u2069 \u2067B 2\u2069 \u2068C 3\u2069"
    game = cards_game(tmp_path, cards=2, name=name, languages=("he",),
                      **{"game.yaml": GAME.replace("languages: [en]", "languages: [he]")
                         .replace("body: [nunito, inter]", "body: [nunito, heebo]")})
    result = build(game, tmp_path / "out", "--only", "cards", "--paper", "a4")
    assert result.exit_code == 0, result.output
    pdf = next((tmp_path / "out").rglob("cards.pdf"))
    text = pdftotext(pdf)
    assert not set(text) & set(FORMAT_CHARACTERS)
    assert text.count("abc") >= 6 and "שלום" in text and DEFAULT_STACK


def test_a_chinese_caption_is_set_in_the_sc_face_and_reads_back(setter):
    # write.caption_maker (scale bar, tile labels) maps the default stack's CJK family to the language's
    from generator.components.piece import Face, TextPlacement
    from generator.imposition.sheet import Document, Page, Placement
    from generator.render.pdf import render_pdf
    from generator.write import caption_maker

    text = "比例尺 50 毫米 直"          # 直 differs between the Chinese and Japanese faces
    runs = caption_maker(setter.library, "zh")(text, 8)
    cjk = [run.font for run in runs if "cjk" in run.font]
    assert cjk and all("cjk-sc" in font for font in cjk), [run.font for run in runs]
    face = Face("caption", 100, 20, 0, (TextPlacement(5, 5, runs),))
    pdf = render_pdf(Document([Page(110, 30, (Placement(face, 5, 5, (5, 5, 100, 20)),))]),
                     setter.library.face("nunito").name)
    assert _pdfium_text(pdf).split() == text.split()
