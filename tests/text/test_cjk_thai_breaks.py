"""Lines of Japanese, Chinese, Thai and Korean as the engine sets them (fit_text): breaks where ICU
says a line may break (segment.py), strict kinsoku, Thai between words, Korean at its spaces, every
character kept, no hyphen added."""

from __future__ import annotations

import pytest

from generator.text.fonts import FontLibrary
from generator.text.hyphenation import breaks, dictionary
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import Fragment, Paragraph, parse_rich_text
from generator.text.segment import segments
from generator.text.setter import TextSetter

# a line never starts with these (closing punctuation, iteration and prolonged sound marks, small kana)
NEVER_FIRST_JA = "、。，．」』）〕】！？：；ー々ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
NEVER_FIRST_ZH = "，。、；：？！」』）〕】"
NEVER_LAST = "「『（〔【"

JAPANESE = [
    "山札からカードを1枚引き、自分の手札に加えてください。",
    "「港」のカードを出したプレイヤーは、ちょっとだけ得をします：コインを2枚受け取ります！",
    "ゲームの終わりに、最もコインを多く持っているプレイヤーが勝者です。同点の場合は、スタートプレイヤーに近い方が勝ちます。",
]
CHINESE = [
    "从牌堆抽一张牌，加入你的手牌。",
    "打出「港口」牌的玩家获得两枚硬币；如果没有硬币了，就跳过这一步。",
    "游戏结束时，硬币最多的玩家获胜！平局时，离起始玩家最近的一方获胜。",
]
THAI = [
    "จั่วการ์ดหนึ่งใบจากกองแล้วเพิ่มเข้าไปในมือของคุณ",
    "ผู้เล่นที่มีเหรียญมากที่สุดเมื่อจบเกมเป็นผู้ชนะ",
    "เมื่อเล่นการ์ดท่าเรือ ให้รับเหรียญสองเหรียญจากกองกลาง",
]
KOREAN = [
    "더미에서 카드를 한 장 뽑아 손에 추가하세요.",
    "게임이 끝났을 때 동전을 가장 많이 가진 플레이어가 승리합니다.",
]


@pytest.fixture(scope="module")
def setter():
    return TextSetter(FontLibrary())


def _stack(setter, lang: str) -> tuple[str, ...]:
    """The default families, with the script's own where this install has it (the line breaks do not
    depend on it: a character no font has is measured too)."""
    families = setter.library.families
    own = {"ja": "noto-sans-cjk-jp", "zh": "noto-sans-cjk-sc", "ko": "noto-sans-cjk-kr", "th": "noto-sans-thai"}
    return ("nunito", "inter") + ((own[lang],) if own.get(lang) in families else ())


def set_lines(setter, paragraphs, width: float, lang: str, hyphenate: bool = False) -> list[str]:
    """The printed lines, top to bottom, each its runs' text side by side (as drawn: a run may carry the
    U+200B that ends a word to the shaper, which draws nothing for it)."""
    style = SetStyle(_stack(setter, lang), 9.0, 9.0, lang=lang, hyphenate=hyphenate)
    layout = fit_text(paragraphs, width, 1000, style, setter)
    lines = []
    for line, top in enumerate(layout.line_tops):
        bottom = layout.line_tops[line + 1] if line + 1 < len(layout.line_tops) else 1e9
        runs = sorted((run.x, run.text) for run in layout.runs if top < run.baseline <= bottom)
        icons = [(icon.x, "\ufffc") for icon in layout.icons if top < icon.y + icon.size / 2 <= bottom]
        lines.append("".join(text for _, text in sorted(runs + icons)).replace("\u200b", ""))
    return lines


WIDTHS = [width / 2 for width in range(16, 90, 3)]     # 8 to 44.5 mm: two to twenty characters a line


@pytest.mark.parametrize("text", JAPANESE)
def test_japanese_kinsoku_in_narrow_boxes(setter, text):
    several = 0
    for width in WIDTHS:
        lines = set_lines(setter, parse_rich_text(text), width, "ja")
        assert "".join(lines) == text, (width, lines)       # every character, no space, no hyphen added
        for line in lines[1:]:
            assert line[0] not in NEVER_FIRST_JA, (width, lines)
        for line in lines[:-1]:
            assert line[-1] not in NEVER_LAST, (width, lines)
        several += len(lines) > 2
    assert several > 5       # the text really was broken, many ways


@pytest.mark.parametrize("text", CHINESE)
def test_chinese_punctuation_never_starts_a_line(setter, text):
    for width in WIDTHS:
        lines = set_lines(setter, parse_rich_text(text), width, "zh")
        assert "".join(lines) == text, (width, lines)
        assert all(line[0] not in NEVER_FIRST_ZH for line in lines[1:]), (width, lines)
        assert all(line[-1] not in NEVER_LAST for line in lines[:-1]), (width, lines)


def test_the_kinsoku_checks_can_fail(setter):
    """The control: the same sentence cut by hand after every character does start lines with 。 and 、."""
    text = JAPANESE[0]
    by_hand = Paragraph((Fragment(" ".join(char + "\u200b" for char in text[:-1]) + " " + text[-1]),))
    starts = {line[0] for width in WIDTHS for line in set_lines(setter, (by_hand,), width, "ja")[1:]}
    assert starts & set("、。")


@pytest.mark.parametrize("text", THAI)
def test_thai_breaks_between_words_only(setter, text):
    words = [word for run in text.split(" ") for word in segments(run, "th")]
    # where a line may end: after a dictionary word, or at a space
    ends, position = set(), 0
    for run in text.split(" "):
        for word in segments(run, "th"):
            position += len(word)
            ends.add(position)
        position += 1
    assert len(words) >= 8
    broken = 0
    for width in WIDTHS:
        lines = set_lines(setter, parse_rich_text(text), width, "th", hyphenate=True)
        assert _rejoined(lines, text), (width, lines)            # every character kept
        assert not any(line.endswith("-") for line in lines), (width, lines)   # Thai prints no hyphen
        offset = 0
        for line in lines[:-1]:
            offset = text.index(line, offset) + len(line)
            assert offset in ends, (width, lines)
            broken += 1
    assert broken > 20


def _rejoined(lines: list[str], text: str) -> bool:
    """Whether the lines are the text, each break either at one of its spaces or inside a run."""
    rest = text
    for line in lines:
        if not rest.startswith(line):
            return False
        rest = rest[len(line):].removeprefix(" ")
    return rest == ""


def test_thai_has_hyphenation_patterns_that_are_not_used():
    """The control: pyphen's Thai dictionary would hyphenate a Thai word; hyphenation.breaks gives none."""
    word = "ระหว่างประเทศ"
    assert dictionary("th") is not None and dictionary("th").positions(word)
    assert breaks(word, "th") == ()
    assert breaks("港のあかり", "ja") == () and breaks("띄어쓰기로", "ko") == ()
    assert breaks("hyphenation", "en")          # Latin words keep theirs


@pytest.mark.parametrize("text", KOREAN)
def test_korean_breaks_at_spaces_only(setter, text):
    for width in WIDTHS:
        lines = set_lines(setter, parse_rich_text(text), width, "ko", hyphenate=True)
        assert " ".join(lines) == text, (width, lines)          # every word whole
        assert all(set(line.split()) <= set(text.split()) for line in lines)


def test_markup_and_icons_inside_japanese(setter):
    text = "カードを**1枚**引き、{icon:coin}を受け取る。"
    expected = "カードを1枚引き、\ufffcを受け取る。"
    for width in WIDTHS:
        lines = set_lines(setter, parse_rich_text(text), width, "ja")
        assert "".join(lines) == expected, (width, lines)
        assert all(line[0] not in NEVER_FIRST_JA for line in lines[1:]), (width, lines)
        assert not any(line.endswith("\ufffc") for line in lines[:-1]), (width, lines)   # the icon holds what follows


def test_latin_words_inside_japanese_keep_their_spaces(setter):
    text = "「Harbour Lights」は2〜4人用のゲームです。"
    for width in WIDTHS:
        lines = set_lines(setter, parse_rich_text(text), width, "ja")
        assert _rejoined(lines, text), (width, lines)
        assert all(line[0] not in NEVER_FIRST_JA for line in lines[1:]), (width, lines)
