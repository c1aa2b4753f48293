"""Line-breaking rules per language, hyphenation by break positions, hyphenate: false and inline icons,
measured on lines set by the engine with its real fonts."""

from __future__ import annotations

import pytest

from generator.text.fonts import FontLibrary
from generator.text.layout import ICON_CAPS, SetStyle, fit_text
from generator.text.linebreak import BreakRules, break_rules, glue_spaces
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

STACK = ("nunito", "inter", "noto-sans-georgian", "noto-sans-symbols")


@pytest.fixture(scope="module")
def setter():
    return TextSetter(FontLibrary())


def set_lines(setter, text: str, width: float, lang: str, size: float = 10.0, **more) -> list[str]:
    """The printed lines (text as drawn, icons as ■), top to bottom; words whole unless asked."""
    more.setdefault("hyphenate", False)
    style = SetStyle(STACK, size, size, lang=lang, **more)
    layout = fit_text(parse_rich_text(text), width, 500, style, setter)
    pieces: dict[int, list[tuple[float, str]]] = {}
    for line, top in enumerate(layout.line_tops):
        bottom = layout.line_tops[line + 1] if line + 1 < len(layout.line_tops) else 1e9
        pieces[line] = [(run.x, run.text) for run in layout.runs if top < run.baseline <= bottom]
        pieces[line] += [(icon.x, "■") for icon in layout.icons if top < icon.y + icon.size / 2 <= bottom]
    return ["".join(text for _, text in sorted(pieces[line])).strip() for line in sorted(pieces)]


def words_of(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize("lang, text, pair", [
    ("bg", "Вземете още 1 звезда и продължете в посока към Минск утре", ("1", "звезда")),
    ("ru", "Положите карту в колоду и возьмите с собой к другу", ("в", "колоду")),
    ("hu", "Játssz ki 1 énekesmadár lapot és a kártyát s a többit", ("1", "énekesmadár")),
    ("en", "Take a card from the deck and then I roll the dice", ("a", "card")),
    ("pl", "Weź kartę i połóż ją w talii z kartami o jeden dalej u gracza", ("w", "talii")),
    ("cs", "Vezměte kartu a položte ji v balíčku s kartami k hráči u stolu", ("v", "balíčku")),
    ("sk", "Vezmite kartu a položte ju v balíčku s kartami k hráčovi", ("k", "hráčovi")),
])
def test_no_line_ends_with_a_number_or_a_one_letter_word(setter, lang, text, pair):
    for width in [w / 2 for w in range(30, 120)]:
        lines = set_lines(setter, text, width, lang)
        assert words_of(lines) == text
        for line in lines[:-1]:
            assert line.split()[-1].lower() not in break_rules(lang).no_break_after, (width, lines)
            assert not line.split()[-1].isdigit(), (width, lines)
    # and the pair is set together wherever the text breaks near it
    assert any(pair[0] + " " + pair[1] in line
               for width in range(15, 60) for line in set_lines(setter, text, width, lang))


def test_without_the_rules_those_lines_do_occur(setter):
    """The control: with the tables switched off, the same texts do end lines with '1' and 'в'."""
    bare = BreakRules("bg", number_holds_next=False, dash_holds_previous=False, icon_holds_word=False)
    text = "Вземете още 1 звезда и продължете в посока към Минск утре"
    endings = {line.split()[-1] for width in range(15, 60)
               for line in set_lines(setter, text, width, "bg", breaks=bare)[:-1]}
    assert {"1", "в"} <= endings


def test_a_dash_that_continues_a_sentence_never_starts_a_line(setter):
    text = "Съберете звездите — числом повече от всички други играчи"
    for width in range(15, 60):
        lines = set_lines(setter, text, width, "bg")
        assert words_of(lines) == text
        assert not any(line.startswith("—") for line in lines), lines


def test_a_danda_never_starts_a_line(setter):
    text = "खिलाड़ी एक पत्ता लेता है । फिर वह दो कदम चलता है ॥ अंत"
    starts = set()
    for width in range(8, 60):
        lines = set_lines(setter, text, width, "hi")
        assert words_of(lines) == text
        starts |= {line[0] for line in lines}
    assert not starts & {"।", "॥"}
    bare = BreakRules("hi", number_holds_next=False)       # the glue is a general rule, of every language
    assert "है\u00a0।" in glue_spaces(text, bare) and "है\u00a0॥" in glue_spaces(text, bare)


def test_languages_with_one_letter_words_have_tables():
    for lang, words in [("pl", {"w", "z", "i"}), ("cs", {"k", "s", "v", "z"}), ("sk", {"k", "v"}),
                        ("sl", {"v", "z"}), ("be", {"ў", "і"}), ("sr", {"и", "i"}), ("pl-PL", {"w"})]:
        assert words <= break_rules(lang).no_break_after, lang
    for lang in ("ja", "zh", "th", "ko", "ar", "he", "hi", "el", "tr"):   # only the general rules
        assert break_rules(lang).no_break_after == frozenset()


def test_georgian_breaks_only_at_spaces_and_keeps_every_word(setter):
    text = "ა ბ მოთამაშე იღებს ორ ბარათს და აგრძელებს სვლას"
    for width in range(12, 50, 3):
        lines = set_lines(setter, text, width, "ka")
        assert words_of(lines) == text     # no dictionary: no hyphen, every word whole
        assert all(not line.endswith("-") for line in lines)


def test_french_no_break_spaces_before_punctuation_and_inside_guillemets(setter):
    text = "Vous gagnez : « une étoile » ! Encore ? Oui ; bravo"
    for width in range(10, 60):
        lines = set_lines(setter, text, width, "fr")
        for line in lines:
            assert line[0] not in ":;!?»", lines
            assert not line.endswith("«"), lines
        assert " ".join(" ".join(lines).replace("\u202f", " ").split()) == text


def test_hungarian_respelling_only_where_the_line_breaks(setter):
    text = "Ez a klasszikus játék"
    seen_break = False
    for width in [w / 2 for w in range(20, 80)]:
        lines = set_lines(setter, text, width, "hu", hyphenate=True)
        joined = " ".join(lines)
        if "klasz-" in lines[0].split()[-1:] or any(line.endswith("klasz-") for line in lines):
            seen_break = True
            index = next(i for i, line in enumerate(lines) if line.endswith("klasz-"))
            assert lines[index + 1].startswith("szikus")
        else:
            assert "klaszszikus" not in joined and "klasszikus" in joined.replace("-", "") or "klasszi-" in joined
    assert seen_break


def test_hard_hyphens_are_kept_at_line_ends(setter):
    for text, lang in [("Вземете жетони-желания от най-много играчи", "bg"),
                       ("Print the ink-saving backs on print-shop stock", "en")]:
        for width in range(14, 40):
            lines = set_lines(setter, text, width, lang, hyphenate=False)
            assert " ".join(lines).replace("- ", "-") == text, lines


def test_hyphenate_false_shrinks_instead_of_breaking_a_word(setter):
    text = "Брестская крепость"
    hyphenating = fit_text(parse_rich_text(text), 16, 20, SetStyle(STACK, 11, 6, lang="ru"), setter)
    whole = fit_text(parse_rich_text(text), 16, 20, SetStyle(STACK, 11, 6, lang="ru", hyphenate=False), setter)
    assert all(not run.text.endswith("-") for run in whole.runs)
    assert [run.text for run in whole.runs] == ["Брестская", "крепость"]
    assert whole.size < 11 and whole.fits
    assert hyphenating.size >= whole.size


def test_an_icon_stays_with_its_word_and_stands_on_the_capitals(setter):
    text = "Gain 2 {icon:star} now, then move to the {icon:house} house"
    for width in range(12, 60):
        style = SetStyle(STACK, 10, 10, lang="en")
        layout = fit_text(parse_rich_text(text), width, 500, style, setter)
        lines = set_lines(setter, text, width, "en")
        assert not any(line.endswith("■") and "now" not in line for line in lines[:-1]), lines
        assert not any(line.startswith("■ now") for line in lines)
        capitals = setter.cap_height(STACK) * 10 * 25.4 / 72      # Nunito's capitals at 10 pt (0.705 em)
        for icon in layout.icons:
            middle = icon.y + icon.size / 2
            # centred on its line's capitals (the baseline nearest under its middle), ICON_CAPS × their height
            baseline = min((run.baseline for run in layout.runs), key=lambda b: abs(b - capitals / 2 - middle))
            assert abs(baseline - capitals / 2 - middle) < 1e-6
            assert abs(icon.size - ICON_CAPS * capitals) < 1e-6


def test_an_icon_shrinks_with_fit(setter):
    text = "Gain {icon:star} " + "and more words here " * 6
    small = fit_text(parse_rich_text(text), 30, 15, SetStyle(STACK, 10, 5, lang="en"), setter)
    capitals = setter.cap_height(STACK) * small.size * 25.4 / 72
    assert small.size < 10 and small.icons[0].size == pytest.approx(ICON_CAPS * capitals)


def test_a_game_adds_words_to_its_language_table():
    rules = break_rules("ru", {"ru": ["на", "По"]})
    assert {"на", "по", "в"} <= rules.no_break_after
    assert break_rules("ka").no_break_after == frozenset()


def test_a_roll_of_dice_is_never_broken_across_lines(setter):
    roll = " ".join("{icon:star}" for _ in range(6))
    text = f"She rolls the other six dice: {roll}. Then she sets the matching dice aside and rolls again."
    broken_elsewhere = False
    for width in range(30, 90, 2):
        lines = set_lines(setter, text, width, "en")
        holding = [line for line in lines if "■" in line]
        assert len(holding) == 1 and holding[0].count("■") == 6, (width, lines)
        broken_elsewhere |= len(lines) > 1
    assert broken_elsewhere


def test_a_long_row_of_icons_is_a_list_and_may_break(setter):
    row = " ".join("{icon:star}" for _ in range(12))
    lines = set_lines(setter, f"Stars: {row}", 25, "en")
    assert sum(line.count("■") for line in lines) == 12 and sum("■" in line for line in lines) > 1
