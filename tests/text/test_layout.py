"""Text setting on numbers: font fallback per glyph, real bold, shrink-to-fit, hyphenation."""

import pytest

from generator.text.fonts import FontLibrary
from generator.text.layout import SetStyle, fit_text, line_width
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

STACK = ("nunito", "inter", "noto-sans-georgian", "noto-sans-symbols")


@pytest.fixture(scope="module")
def setter():
    return TextSetter(FontLibrary())


def _style(size=10.0, min_size=6.0, lang="en", **more):
    return SetStyle(STACK, size, min_size, lang=lang, **more)


def test_each_glyph_takes_the_first_font_that_has_it(setter):
    runs = setter.runs("Мече 2★ გამარჯობა ő", STACK, "regular", False)
    faces = [(run.text, run.face.family) for run in runs]
    assert ("★", "inter") in faces
    assert ("გამარჯობა", "noto-sans-georgian") in faces
    assert all(family == "nunito" for text, family in faces if text.strip(" ★" + "გამარჯობა"))
    assert not setter.missing


def test_a_character_no_font_has_is_recorded(setter):
    setter.runs("中", STACK, "regular", False)
    assert "中" in setter.missing


def test_bold_and_italic_are_separate_faces(setter):
    regular = setter.library.face("nunito")
    bold = setter.library.face("nunito", "bold")
    italic = setter.library.face("nunito", italic=True)
    assert len({regular.path, bold.path, italic.path}) == 3
    assert setter.width_pt("Плюшено", STACK, "bold", False, 10) > \
        setter.width_pt("Плюшено", STACK, "regular", False, 10)


def test_text_that_fits_keeps_its_size(setter):
    layout = fit_text(parse_rich_text("Teddy bear"), 50, 10, _style(), setter)
    assert layout.fits and layout.size == 10.0


def test_long_text_shrinks_by_binary_search_to_a_real_size(setter):
    text = "Take the top card of the gift deck, if there is room in your bag. " * 3
    layout = fit_text(parse_rich_text(text), 40, 20, _style(), setter)
    assert layout.fits and 6.0 < layout.size < 10.0
    bigger = fit_text(parse_rich_text(text), 40, 20, _style(size=layout.size + 0.1, min_size=layout.size + 0.1), setter)
    assert not bigger.fits          # the size found is within 0.1 pt of the largest that fits
    lowest_baseline = max(run.baseline for run in layout.runs)
    assert lowest_baseline <= 20


def test_text_too_long_at_the_minimum_size_reports_by_how_much(setter):
    layout = fit_text(parse_rich_text("word " * 200), 30, 10, _style(), setter)
    assert not layout.fits and layout.size == 6.0 and layout.overflow > 10


@pytest.mark.parametrize("text, width, lines", [
    ("Разбъркайте картите", 14, ["Разбър-", "кайте", "картите"]),     # a word wider than the box
    ("До помощниците", 20, ["До помощ-", "ниците"]),                  # a line that would be left loose
    ("Придвижете се още три полета", 22, ["Придвижете", "се още три", "полета"]),  # full enough: no break
])
def test_bulgarian_words_hyphenate_only_where_it_helps(setter, text, width, lines):
    layout = fit_text(parse_rich_text(text), width, 30, _style(size=9, min_size=9, lang="bg"), setter)
    assert [run.text for run in layout.runs] == lines


def test_list_items_hang_their_text_after_the_marker(setter):
    layout = fit_text(parse_rich_text("1. Roll two dice and choose one of them to move."), 30, 30,
                      _style(size=9, min_size=9), setter)
    marker = layout.runs[0]
    assert marker.text == "1." and marker.x == 0
    lines = sorted({run.baseline for run in layout.runs})
    assert len(lines) >= 2
    second_line_x = min(run.x for run in layout.runs if run.baseline == lines[1])
    assert second_line_x > 2.5     # aligned with the item's text, not the marker


def test_bold_markup_uses_the_bold_face(setter):
    layout = fit_text(parse_rich_text("All **other** players"), 60, 10, _style(), setter)
    fonts = {run.text.strip(): run.font for run in layout.runs}   # a word in another face carries its space
    assert "-bold-" in fonts["other"] and "-regular-" in fonts["All"]


@pytest.mark.parametrize("text, align, valign", [
    ("Card number 17", "center", "top"), ("  Plush   teddy ", "left", "middle"), ("Мече", "right", "bottom"),
    ("Card ★ 3", "center", "middle"), ("გამარჯობა", "left", "top"),
])
def test_one_line_shortcut_sets_exactly_what_wrapping_and_placing_would(setter, text, align, valign):
    """Titles that fit on one line skip word-by-word wrapping; the runs must be the general path's."""
    from generator.text.layout import _attempt, _one_line, _place, _prepare
    style = _style(12, 8, align=align, valign=valign)
    paragraphs = _prepare(parse_rich_text(text), style, setter)   # words measured once, as fit_text does
    general = _place(_attempt(paragraphs, 53, 9, style.size, style, setter, False), 53, 9, style.size, style, setter)
    quick = _one_line(paragraphs, 53, 9, style, setter)
    if len(general.runs) != 1:       # a line of several fonts ('★'): the shortcut steps aside
        assert quick is None
        return
    assert quick is not None
    assert quick.runs[0].text == general.runs[0].text and quick.runs[0].font == general.runs[0].font
    assert (quick.runs[0].x, quick.runs[0].baseline) == pytest.approx((general.runs[0].x, general.runs[0].baseline))
    assert (quick.size, quick.fits, quick.height) == pytest.approx((general.size, general.fits, general.height))


def test_a_lines_width_counts_an_inline_icon_at_its_set_size(setter):
    """A table's columns are as wide as their cells measure: an icon is ICON_CAPS × the capitals, not a glyph."""
    from generator.text.layout import ICON_CAPS, line_width
    from generator.units import pt_to_mm
    style = _style(size=8.0, min_size=8.0)
    with_icon = line_width(parse_rich_text("27 {icon:star} won"), style, setter)
    with_word = line_width(parse_rich_text("27 X won"), style, setter)     # the same spaces, X for the icon
    x = line_width(parse_rich_text("X"), style, setter)
    assert with_icon == pytest.approx(with_word - x + pt_to_mm(8.0 * ICON_CAPS * setter.cap_height(STACK)))
    two = line_width(parse_rich_text("short\nthe longer paragraph"), style, setter)
    assert two == pytest.approx(line_width(parse_rich_text("the longer paragraph"), style, setter))


# ------------------------------------------------- U+200B: a break opportunity without a space

def test_a_word_ending_in_zero_width_space_is_followed_by_no_space(setter):
    # split by hand as paragraph_words will split Thai and Japanese at ICU's break opportunities
    style = _style(size=10, min_size=10)
    split = "Take\u200b the\u200b cake and run"
    layout = fit_text(parse_rich_text(split), 80, 10, style, setter)
    assert "".join(run.text for run in layout.runs).replace("\u200b", "") == "Takethecake and run"
    joined = fit_text(parse_rich_text("Takethecake and run"), 80, 10, style, setter)
    assert line_width(parse_rich_text(split), style, setter) == \
        pytest.approx(line_width(parse_rich_text("Takethecake and run"), style, setter), abs=1e-6)
    assert [run.x for run in layout.runs] == pytest.approx([run.x for run in joined.runs])


def test_a_line_breaks_after_a_zero_width_space_and_never_draws_it(setter):
    style = _style(size=10, min_size=10, hyphenate=False)
    words = "Abcd\u200b Efgh\u200b Ijkl"
    one = line_width(parse_rich_text("Abcd"), style, setter)
    layout = fit_text(parse_rich_text(words), one * 2.2, 30, style, setter)
    # (a U+200B stays in the run's text, where HarfBuzz draws no glyph for it: tests/render/test_glyph_text.py)
    assert [run.text.replace("\u200b", "") for run in layout.runs] == ["AbcdEfgh", "Ijkl"]
    bold = fit_text(parse_rich_text("**Abcd\u200b** Efgh"), 60, 10, style, setter)
    assert "".join(run.text for run in bold.runs).replace("\u200b", "") == "AbcdEfgh"
    assert bold.runs[-1].x == pytest.approx(line_width(parse_rich_text("**Abcd**"), style, setter), abs=1e-6)
