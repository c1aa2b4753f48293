"""text/shaping.py on numbers: HarfBuzz's glyphs and advances, features, the caches, and every width the
layout measures being the shaped one."""

from __future__ import annotations

import pytest

from generator.caches import Caches
from generator.text.fonts import FontLibrary
from generator.text.layout import SetStyle, fit_text, line_width
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter
from generator.text.shaping import cut_pieces, feature_map, shape, shaped_width
from generator.units import pt_to_mm


@pytest.fixture(scope="module")
def library() -> FontLibrary:
    return FontLibrary()


@pytest.mark.parametrize("pair", ["AV", "Ta", "To", "Yo"])
def test_a_kerned_pair_is_narrower_than_its_letters_side_by_side(library, pair):
    face = library.face("nunito")
    apart = shape(face, pair[0]).width + shape(face, pair[1]).width
    assert shape(face, pair).width < apart - 0.02        # Nunito kerns these by 3 % of an em or more


def test_the_layout_measures_shaped_advances(library):
    setter = TextSetter(library)
    stack = ("nunito",)
    face = library.face("nunito")
    assert setter.width_pt("AVATAR", stack, "regular", False, 10) == pytest.approx(shape(face, "AVATAR").width * 10)
    style = SetStyle(stack, 10, 10)
    words = parse_rich_text("AVATAR Tavern")
    expected = shape(face, "AVATAR").width + shape(face, " ").width + shape(face, "Tavern").width
    assert line_width(words, style, setter) == pytest.approx(pt_to_mm(expected * 10))
    # a box exactly that wide holds the line; a hair narrower does not
    fits = fit_text(words, pt_to_mm(expected * 10) + 1e-4, 10, style, setter)
    assert fits.fits and fits.lines == 1
    tight = fit_text(words, pt_to_mm(expected * 10) - 0.05, 10, SetStyle(stack, 10, 10, hyphenate=False), setter)
    assert tight.lines == 2


def test_features_turn_on_and_off(library):
    assert feature_map(("tnum", "+smcp", "-liga")) == {"tnum": True, "smcp": True, "liga": False}
    inter = library.face("inter")
    one, eight = shape(inter, "1", ("tnum",)).width, shape(inter, "8", ("tnum",)).width
    assert one == pytest.approx(eight) and shape(inter, "1").width < eight     # tabular figures share a width
    nunito = library.face("nunito")
    assert len(shape(nunito, "office").gids) < 6 == len(shape(nunito, "office", ("-liga",)).gids)


def test_a_style_s_features_reach_the_width_the_layout_measures(library):
    setter = TextSetter(library)
    proportional = line_width(parse_rich_text("111"), SetStyle(("inter",), 10, 10), setter)
    tabular = line_width(parse_rich_text("111"), SetStyle(("inter",), 10, 10, features=("tnum",)), setter)
    assert tabular > proportional + 0.1
    layout = fit_text(parse_rich_text("111"), 50, 10, SetStyle(("inter",), 10, 10, features=("tnum",)), setter)
    assert layout.runs[0].features == ("tnum",)


def test_complex_scripts_are_shaped(library):
    hindi = shape(library.face("noto-sans-devanagari"), "क्षत्रिय")
    assert len(hindi.gids) < len("क्षत्रिय")                          # conjuncts: fewer glyphs than letters
    arabic = library.face("noto-sans-arabic")
    joined = shape(arabic, "سلام")
    assert joined.rtl and shape(arabic, "س").gids[0] not in joined.gids   # the initial form, not the isolated
    hebrew = shape(library.face("heebo"), "(שלום)")
    assert hebrew.rtl


def test_layout_characters_shape_and_leave_no_glyph(library):
    face = library.face("nunito")
    assert shape(face, "ab\u200bcd").gids == shape(face, "abcd").gids
    assert shaped_width(face, "ab\u200b") == pytest.approx(shaped_width(face, "ab"))
    assert cut_pieces("one two\u200bthree  four") == ["one", " ", "two\u200b", "three", " ", " ", "four"]


def test_a_font_is_read_once_and_shaped_texts_are_kept_in_bounded_tables(library):
    face = library.face("nunito")
    with Caches().active() as tables:
        first = shape(face, "Teddy bear")
        assert shape(face, "Teddy bear") is first
        shape(face, "Toy train")
        sizes = tables.sizes()
        assert sizes["text.harfbuzz_fonts"] == 1 and sizes["text.shaped"] == 2


def test_a_style_s_features_are_checked_where_they_are_written(tmp_path):
    from tests.test_content_errors import edit, make_game, pnp, problem_lines

    folder = make_game(tmp_path, edit("templates/card.yaml", "color: ink}", "color: ink, features: [tnum, tabular]}"))
    result = pnp("check", str(folder))
    assert result.exit_code == 1
    (line,) = [line for line in problem_lines(result.output) if "features" in line]
    assert "g/templates/card.yaml:5:71: styles.body.features: 'tabular' is not an OpenType feature tag" in line, line
    assert "write four letters or digits" in result.output
    good = make_game(tmp_path / "good", edit("templates/card.yaml", "color: ink}",
                                            "color: ink, features: [tnum, -liga], align: end}"))
    assert pnp("check", str(good)).exit_code == 0
