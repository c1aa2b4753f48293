"""What the christmas-round kits promise, measured in the built files (issues 15 and 12): the free
edition's files, the reference cards' own back, the designer's notes, one card-stock figure."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml

from tests.pdf_probe import all_text, open_pdf, page_text

# print-shop cards.pdf holds every copy, front then back, deck by deck: gifts, surprises, helpers, reference
GIFTS, SURPRISES, HELPERS = 36, 21, 6


def _render_hash(document, index: int) -> str:
    return hashlib.sha1(document[index].render(scale=30 / 72).to_pil().tobytes()).hexdigest()


def test_the_free_edition_offers_no_print_shop_files_nor_ink_saver_backs(built_christmas):
    # the seed sells both as extras of the full edition
    for lang in ("bg", "en"):
        assert not (built_christmas / "free" / lang / "print-shop").exists()
        assert (built_christmas / "full" / lang / "print-shop" / "cards.pdf").is_file()
        for paper in ("a4", "letter"):
            assert not (built_christmas / "free" / lang / paper / "cards-ink-saver.pdf").exists()
            assert (built_christmas / "full" / lang / paper / "cards-ink-saver.pdf").is_file()


@pytest.mark.parametrize("lang, helper, reference", [("bg", "ПОМОЩНИК", "СПРАВКА"), ("en", "HELPER", "REFERENCE")])
def test_reference_cards_have_a_back_of_their_own(built_christmas, lang, helper, reference):
    document = open_pdf(built_christmas / "full" / lang / "print-shop" / "cards.pdf")
    helper_back = 2 * (GIFTS + SURPRISES) + 1
    reference_back = 2 * (GIFTS + SURPRISES + HELPERS) + 1
    assert " ".join(page_text(document, helper_back).split()) == helper
    assert " ".join(page_text(document, reference_back).split()) == reference
    assert _render_hash(document, helper_back) != _render_hash(document, reference_back)
    # the team-night card shares the reference back, word for word and pixel for pixel
    last_back = len(document) - 1
    assert _render_hash(document, last_back) == _render_hash(document, reference_back)


@pytest.mark.parametrize("lang, note", [("bg", "Бележка на дизайнера"), ("en", "Designer’s note")])
@pytest.mark.parametrize("edition", ["free", "full"])
def test_the_rules_mark_the_designers_decision_on_the_sleigh(built_christmas, lang, note, edition):
    text = " ".join(all_text(built_christmas / edition / lang / "a4" / "rules.pdf").split())
    assert note in text


@pytest.mark.parametrize("lang", ["bg", "en"])
def test_the_kit_asks_for_the_card_stock_the_rules_name(built_christmas, lang):
    folder = built_christmas / "full" / lang / "a4"
    kit_cover = page_text(open_pdf(folder / "kit.pdf"), 0)
    rules = all_text(folder / "rules.pdf")
    assert "250–300" in kit_cover and "250–300" in rules
    assert not re.search(r"160–220", kit_cover)


# ---------------------------------------------------------------- issue 31: the publisher's review

def _words(path) -> str:
    return " ".join(all_text(path).split())


PITCH = {"en": (r"The (?:free|full) edition has (\d+) Surprise cards", r"Shuffle the (\d+) helper cards",
                r"The full edition is for 2–6 players and adds (\d+) helpers with special abilities, (\d+) more "
                r"Surprise cards"),
         "bg": (r"(?:Безплатното|Пълното) издание има (\d+) карти Изненада", r"Разбъркайте (\d+)-те карти помощници",
                r"Пълното издание е за 2–6 играчи и добавя (\d+) помощници със специални умения, още (\d+) карти "
                r"Изненада")}


@pytest.mark.parametrize("lang", sorted(PITCH))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_free_booklet_ends_with_the_full_editions_pitch(built_christmas, lang, paper):
    # as the original rules end: the full edition's helpers and its 9 more Surprise cards, counted from the decks
    surprises, helpers, pitch = PITCH[lang]
    free = _words(built_christmas / "free" / lang / paper / "rules.pdf")
    full = _words(built_christmas / "full" / lang / paper / "rules.pdf")
    more = int(re.search(surprises, full).group(1)) - int(re.search(surprises, free).group(1))
    for text in (free, full):
        found = re.search(pitch, text)
        assert found, "the full edition's pitch"
        assert (int(found.group(1)), int(found.group(2))) == (int(re.search(helpers, full).group(1)), more) == (6, 9)


@pytest.mark.parametrize("lang, pile", [("en", "played-Surprise pile"), ("bg", "купчината изиграни Изненади")])
def test_the_played_surprise_pile_has_one_name_on_cards_and_in_rules(built_christmas, lang, pile):
    cards = _words(built_christmas / "full" / lang / "a4" / "cards.pdf")
    assert cards.count(pile) == SURPRISES                     # every Surprise card's reminder
    assert "discard" not in cards.lower() and "изиграните Изненади" not in cards
    for edition in ("free", "full"):
        assert _words(built_christmas / edition / lang / "a4" / "rules.pdf").count(pile) >= 3


def test_the_bulgarian_words_are_one_each():
    # 'кръг' is a round only (the track a closed road, the Wishes pile a place), the board a 'дъска' (the kit's
    # step too), units written one way
    path = Path(__file__).resolve().parents[2] / "content" / "christmas-round" / "i18n" / "bg.yaml"

    def texts(value):
        if isinstance(value, dict):
            for inner in value.values():
                yield from texts(inner)
        elif isinstance(value, str):
            yield value
    catalog = "\n".join(texts(yaml.safe_load(path.read_text(encoding="utf-8"))))     # the words, not the comments
    assert "затворен кръг" not in catalog and "кръга „Желания“" not in catalog
    assert "затворен път от 28 полета" in catalog
    assert "g/m²" not in catalog and not re.search(r"\d%", catalog)
    assert "Игрално поле" not in catalog


@pytest.mark.parametrize("edition", ["free", "full"])
def test_the_kit_calls_the_board_a_board(built_christmas, edition):
    kit = page_text(open_pdf(built_christmas / edition / "bg" / "a4" / "kit.pdf"), 0)
    assert "Дъска: изрежете" in kit and "Игрално поле" not in kit


@pytest.mark.parametrize("lang, first", [("en", "Christmas"), ("bg", "Коледна")])
def test_the_boards_title_is_set_large(built_christmas, lang, first):
    # a 38 cm board's title: two lines of up to 66 pt, capitals some 16 mm high (it was 34 pt, 8 mm)
    document = open_pdf(built_christmas / "full" / lang / "print-shop" / "board.pdf")
    textpage = document[0].get_textpage()
    left, bottom, right, top = textpage.get_charbox(textpage.get_text_range().index(first))
    assert (top - bottom) * 25.4 / 72 > 15
