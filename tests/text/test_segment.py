"""Break opportunities inside runs without spaces (generator/text/segment.py, ICU through icu4py)."""

from __future__ import annotations

import pytest

from generator.caches import Caches
from generator.text.linebreak import break_rules
from generator.text.rich import Fragment, Paragraph, parse_rich_text
from generator.text.segment import break_locale, break_opportunities, has_spaceless, segments
from generator.text.words import glue_paragraphs, paragraph_words, segmented


def test_thai_between_words_by_dictionary():
    assert segments("ภาษาไทยเป็นภาษาที่ไม่มีช่องว่างระหว่างคำ", "th") == (
        "ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "ไม่มี", "ช่อง", "ว่าง", "ระหว่าง", "คำ")


def test_lao_khmer_burmese_by_dictionary():
    assert segments("ພາສາລາວ", "lo") == ("ພາສາ", "ລາວ")
    assert segments("ភាសាខ្មែរគឺជាភាសា", "km") == ("ភាសាខ្មែរ", "គឺជា", "ភាសា")
    assert segments("မြန်မာဘာသာစကား", "my") == ("မြန်မာဘာသာ", "စကား")


def test_japanese_strict_kinsoku():
    pieces = segments("これは「テスト」です。ちょっと待ってください、ゲームを始めます！", "ja")
    assert "".join(pieces) == "これは「テスト」です。ちょっと待ってください、ゲームを始めます！"
    for piece in pieces:
        assert piece[0] not in "、。」』）！？ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ", pieces
        assert piece[-1] not in "「『（", pieces
    assert "ちょっ" in pieces and "ゲー" in pieces and "す。" in pieces and "「テ" in pieces


def test_chinese_punctuation_never_starts_a_piece():
    pieces = segments("我们开始游戏吧，好吗？「对」。他说：可以；走！", "zh")
    assert pieces[:6] == ("我", "们", "开", "始", "游", "戏")
    for piece in pieces:
        assert piece[0] not in "，。、；：？！」』）", pieces
        assert piece[-1] not in "「『（", pieces


def test_korean_keeps_its_words():
    # between spaces only: no opportunity inside (or beside) a Hangul word
    assert break_opportunities("띄어쓰기로", "ko") == ()
    assert break_opportunities("韓國語를", "ko") == ()           # hanja inside a Korean word too
    assert break_opportunities("韓國語", "ja") == (1, 2)         # (as Japanese, between the characters)
    assert break_opportunities("띄어\u200b쓰기로", "ko") == (3,)   # a U+200B the writer put there
    assert not has_spaceless("한국어 문장은 띄어쓰기로 나눕니다.")


def test_latin_and_cyrillic_are_not_asked():
    assert not has_spaceless("well-known Путь ქართული 12/3")
    assert break_opportunities("well-known", "en") == ()
    # inside a Japanese run, ICU's break after a Latin hyphen is the layout's own business
    assert break_opportunities("well-known日本", "ja") == (10, 11)


def test_no_break_right_after_an_icon():
    assert break_opportunities("得る\ufffcを", "ja") == (1, 2)


def test_a_number_holds_its_counter():
    assert segments("コインを2枚、3人で20分", "ja") == ("コ", "イ", "ン", "を", "2枚、", "3人", "で", "20分")


def test_positions_beyond_the_basic_plane_are_characters_not_utf16_units():
    run = "𠀋𠀌あい😀です"
    cuts = break_opportunities(run, "ja")
    assert all(0 < cut < len(run) for cut in cuts)
    assert "".join(segments(run, "ja")) == run
    assert "で" in segments(run, "ja")


@pytest.mark.parametrize(("lang", "locale"), [
    ("ja", "ja@lb=strict"), ("zh-Hant", "zh@lb=strict"), ("th_TH", "th@lb=strict"),
    ("qps-ploc", "qps@lb=strict"), ("", "und@lb=strict"), ("x y", "und@lb=strict")])
def test_locale(lang, locale):
    assert break_locale(lang) == locale


def test_cached_in_the_build_caches():
    with Caches().active() as caches:
        break_opportunities("ภาษาไทย", "th")
        break_opportunities("ภาษาไทย", "th")
        assert caches.sizes()["text.line_breaks"] == 1


def _texts(words):
    return ["".join(fragment.text for fragment in word) for word in words]


def test_paragraph_words_end_each_piece_with_a_zero_width_space():
    paragraph = Paragraph((Fragment("これは"), Fragment("太字", bold=True), Fragment("です。ちょっと")))
    words = paragraph_words(paragraph, "ja")
    assert _texts(words) == ["こ\u200b", "れ\u200b", "は\u200b", "太\u200b", "字\u200b", "で\u200b", "す。\u200b",
                             "ちょっ\u200b", "と"]
    assert [fragment.bold for word in words for fragment in word][3:5] == [True, True]


def test_a_glued_paragraph_is_cut_once():
    paragraphs = parse_rich_text("ภาษาไทยเป็นภาษา 2 ใบ **ที่ไม่มี**ช่องว่าง")
    glued = glue_paragraphs(paragraphs, break_rules("th"))
    assert segmented(glued[0], "th") is glued[0]
    assert _texts(paragraph_words(glued[0], "th")) == [
        "ภาษา\u200b", "ไทย\u200b", "เป็น\u200b", "ภาษา", "2\u00a0ใบ", "ที่\u200b", "ไม่มี\u200b", "ช่อง\u200b", "ว่าง"]


def test_latin_and_cyrillic_paragraphs_are_left_as_they_are():
    for text, lang in [("Take a card, then move 3 spaces.", "en"), ("Положите карту в колоду", "ru"),
                       ("მოთამაშე იღებს ორ ბარათს", "ka")]:
        paragraph = parse_rich_text(text)[0]
        assert segmented(paragraph, lang) is paragraph
        assert _texts(paragraph_words(paragraph, lang)) == text.split(" ")


def test_a_zero_width_space_the_writer_put_is_a_break():
    assert _texts(paragraph_words(parse_rich_text("Sonnen\u200bblumen feld")[0], "de")) == [
        "Sonnen\u200b", "blumen", "feld"]
