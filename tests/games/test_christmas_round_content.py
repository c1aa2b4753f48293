"""What the christmas-round kits promise, measured in the built files (issues 15 and 12): the free
edition's files, the reference cards' own back, the designer's notes, one card-stock figure."""

from __future__ import annotations

import hashlib
import re

import pytest

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
