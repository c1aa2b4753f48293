"""The bidirectional algorithm's half the text stage owns (generator/text/bidi.py): directions by
language and by a paragraph's letters (its language's direction where it has a letter of it, else its
first strong letter's), embedding levels, visual order (UAX #9)."""

from __future__ import annotations

import unicodedata

import pytest
from bidi import get_display

from generator.text.bidi import (_MAYBE_RTL, _described_levels, embedding_levels, language_direction, line_levels,
                                 paragraph_direction, visual_order)


@pytest.mark.parametrize(("lang", "direction"), [
    ("ar", "rtl"), ("ar-EG", "rtl"), ("fa_IR", "rtl"), ("he", "rtl"), ("ur", "rtl"), ("ps", "rtl"),
    ("sd", "rtl"), ("ug", "rtl"), ("yi", "rtl"), ("dv", "rtl"), ("ckb", "rtl"), ("AR", "rtl"),
    ("az-Arab", "rtl"), ("sd-Deva", "ltr"),
    ("en", "ltr"), ("ru", "ltr"), ("ja", "ltr"), ("hi", "ltr"), ("qps-ploc", "ltr"), ("", "ltr"),
])
def test_language_direction(lang, direction):
    assert language_direction(lang) == direction


@pytest.mark.parametrize(("text", "lang", "direction"), [
    ("שלום עולם", "en", "rtl"),                 # no letter of the language's direction: the first strong's
    ("Catan היא משחק", "he", "rtl"),            # a Hebrew sentence starting with a name: the language's
    ("Catan is a game", "he", "ltr"),           # no letter of the language's direction: the first strong's
    ("Catan is a game, שלום", "en", "ltr"),
    ("123 مرحبا", "en", "rtl"),                 # numbers are not strong
    ("123 — ★", "he", "rtl"),                   # no strong letter: the language's
    ("123 — ★", "en", "ltr"),
    ("\u2067שלום\u2069 is Hebrew", "he", "ltr"),  # what an isolate encloses is skipped (P2)
])
def test_paragraph_direction(text, lang, direction):
    assert paragraph_direction(text, lang) == direction


def _display(text: str, direction: str) -> str:
    levels = embedding_levels(text, direction)
    return "".join(text[index] for index in visual_order(levels))


def test_hebrew_with_a_number_and_a_latin_name():
    text = "שחק 3 תורות עם Catan"
    levels = embedding_levels(text, "rtl")
    assert len(levels) == len(text)
    assert [levels[i] for i in range(3)] == [1, 1, 1]
    assert levels[text.index("3")] == 2 and levels[text.index("C")] == 2
    # read right to left: the Hebrew reversed, the number and the name as written
    assert _display(text, "rtl") == "Catan םע תורות 3 קחש"


def test_arabic_numbers_in_an_ltr_paragraph():
    text = "Score: مرحبا ١٢٣ end"
    levels = embedding_levels(text, "ltr")
    assert levels[0] == 0 and levels[-1] == 0
    assert levels[text.index("م")] == 1
    assert levels[text.index("١")] == 2        # Arabic digits inside Arabic: a level above it
    assert _display(text, "ltr") == "Score: ١٢٣ ابحرم end"


@pytest.mark.parametrize(("text", "direction"), [
    ("abc שלום 123 עולם", "ltr"), ("שלום abc 12 def", "rtl"), ("אבג 1.5% ד", "rtl"),
    ("مرحبا بكم في Catan 2", "rtl"), ("plain English text", "rtl"), ("a😀ש b", "ltr"),
])
def test_visual_order_agrees_with_python_bidi(text, direction):
    # get_display reorders (and mirrors: none of these have brackets) by the same levels
    assert _display(text, direction) == get_display(text, base_dir="R" if direction == "rtl" else "L")


def test_one_level_per_character_beyond_the_basic_plane():
    text = "😀 שלום 😀"
    levels = embedding_levels(text, "rtl")
    assert len(levels) == len(text) == 8 and set(levels) == {1}


def test_left_to_right_text_stays_at_level_zero():
    assert embedding_levels("Move 3 spaces — then stop.", "ltr") == (0,) * 26
    assert embedding_levels("", "rtl") == ()
    assert embedding_levels("abc", "rtl") == (2, 2, 2)


def test_visual_order_of_runs():
    assert visual_order([0, 0, 0]) == [0, 1, 2]
    assert visual_order([1, 1, 1]) == [2, 1, 0]
    assert visual_order([0, 1, 1, 0]) == [0, 2, 1, 3]
    assert visual_order([1, 2, 2, 1]) == [3, 1, 2, 0]
    assert visual_order([]) == []


def test_trailing_space_back_at_the_paragraph_level():
    text = "abc def שלום"          # a right-to-left paragraph broken after "abc "
    levels = embedding_levels(text, "rtl")
    assert levels[3] == 2           # between two Latin words: their level
    line = line_levels(text[:4], levels[:4], "rtl")
    assert line == (2, 2, 2, 1)     # at the line's end: the paragraph's (L1)
    assert line_levels(text, levels, "rtl") == levels


def test_the_left_to_right_shortcut_misses_no_right_to_left_character():
    # every character that could lift a left-to-right paragraph off level 0 is in _MAYBE_RTL's blocks
    lifting = {"R", "AL", "AN", "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
    missed = [hex(code) for code in range(0x110000)
              if unicodedata.bidirectional(chr(code)) in lifting and not _MAYBE_RTL.match(chr(code))]
    assert missed == []


@pytest.mark.parametrize("text", ["Положите карту в колоду", "მოთამაშე იღებს 2 ბარათს", "Δύναμη +2 ★",
                                  "カードを1枚引く。", "plain (ascii) 1.5%"])
def test_the_shortcut_gives_the_library_levels(text):
    assert embedding_levels(text, "ltr") == (0,) * len(text)
    described = get_display(text, base_dir="L", debug=True)
    assert set(_described_levels(described)) == {0}
