"""kit.pdf is written from what the build made: it names the files beside it where they were built
(cards-ink-saver.pdf, the print-shop folder) and not where they were not, counts the rulebook among the
parts, folds a one-sheet rulebook instead of stapling it, and says how to print card stock by hand on a
printer that cannot print it on both sides. Read from the shared builds of the shipped games
(tests/conftest.py): Christmas Round's full edition sells the ink-saver backs and the print-shop files,
its free edition has neither, Christmas Trees is built without print-shop files and its rules are one sheet.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.imposition.test_kit_and_backs import _first_page_text
from tests.pdf_probe import open_pdf


def _pages(path: Path) -> int:
    document = open_pdf(path)
    try:
        return len(document)
    finally:
        document.close()


def test_the_kit_names_the_ink_saver_and_print_shop_files_where_they_are_built(shipped_build):
    round_ = shipped_build("christmas-round")
    for edition in ("full", "free"):
        folder = round_ / edition / "en"
        text = _first_page_text(folder / "a4" / "kit.pdf")
        ink_saver = (folder / "a4" / "cards-ink-saver.pdf").exists()
        assert ("cards-ink-saver.pdf" in text) == ink_saver, edition
        assert ("print-shop folder" in text) == (folder / "print-shop").is_dir(), edition
        assert "1 × Rulebook" in text
        if ink_saver:      # the pages it stands for are the kit's cards: as many as cards.pdf has
            (start, end), = re.findall(r"print cards-ink-saver\.pdf instead of pages (\d+)–(\d+)", text)
            assert int(end) - int(start) + 1 == _pages(folder / "a4" / "cards.pdf")
    assert (round_ / "full" / "en" / "a4" / "cards-ink-saver.pdf").exists()
    assert (round_ / "full" / "en" / "print-shop").is_dir() and not (round_ / "free" / "en" / "print-shop").exists()


def test_a_one_sheet_rulebook_is_folded_and_card_stock_has_a_manual_duplex_step(shipped_build):
    trees = _first_page_text(shipped_build("christmas-trees") / "standard" / "en" / "a4" / "kit.pdf")
    assert "fold the sheet in half" in trees and "staple" not in trees
    assert "print-shop" not in trees and "cards-ink-saver" not in trees     # built without them
    full = _first_page_text(shipped_build("christmas-round") / "full" / "en" / "a4" / "kit.pdf")
    assert "staple it twice along the fold" in full                        # six pages: a stapled booklet
    assert "cannot print card stock on both sides: print the odd pages" in full


def test_every_kit_cover_ends_above_its_scale_bar(shipped_build):
    """The longest first pages (Christmas Round's full edition, every part and file, Bulgarian, on Letter
    too): the body is set smaller rather than run into the 50 mm bar at the foot."""
    round_ = shipped_build("christmas-round")
    kits = sorted(round_.glob("*/*/*/kit.pdf"))
    assert len(kits) >= 8
    for kit in kits:
        document = open_pdf(kit)
        try:
            textpage = document[0].get_textpage()
            boxes = [textpage.get_charbox(index) for index in range(textpage.count_chars())]
            text = textpage.get_text_range()
        finally:
            document.close()
        label = text.rindex("50 ")             # the bar's label: the page's last text
        bar_top = max(box[3] for box in boxes[label:label + 3])
        body_bottom = min(box[1] for box, char in zip(boxes[:label], text[:label], strict=True) if not char.isspace())
        assert body_bottom - bar_top > 2 / 25.4 * 72, f"{kit.relative_to(round_)}: text runs into the scale bar"


def _page_texts(path: Path) -> list[str]:
    document = open_pdf(path)
    try:
        return [" ".join(document[index].get_textpage().get_text_range().split()) for index in range(len(document))]
    finally:
        document.close()


def test_the_free_kit_puts_its_pawns_under_the_last_cards_and_the_full_kit_keeps_them_apart(shipped_build):
    """Christmas Round's 4 free pawns share the cards' last card-stock sheet (3 cards, room under them), the
    backs page behind it unchanged: 30 pages where the pawns took a sheet and its blank back (32); the
    full edition, whose cards-ink-saver.pdf stands for the kit's card pages, keeps its pawns on their own."""
    round_ = shipped_build("christmas-round")
    for paper in ("a4", "letter"):
        free = _page_texts(round_ / "free" / "en" / paper / "kit.pdf")
        # (the first page draws a pawn in its pawns step: the sheets are the pages after it)
        (shared,) = [index for index, text in enumerate(free) if "Red elf" in text and index > 0]
        assert "Jingle Bells" in free[shared] and "elf" not in free[shared + 1] and "SURPRISE" in free[shared + 1]
        separate = _pages(round_ / "free" / "en" / paper / "pawns.pdf")
        assert separate == 1 and len(free) == 30                   # was 32: pawns and a blank back
        full = _page_texts(round_ / "full" / "en" / paper / "kit.pdf")
        (pawns,) = _page_texts(round_ / "full" / "en" / paper / "pawns.pdf")
        names = pawns.split(" 50 ")[0]                             # the pawns' words, the scale bar's aside
        (alone,) = [index for index, text in enumerate(full) if names in text and index > 0]
        assert "Deliver" not in full[alone] and "SURPRISE" not in full[alone] and not full[alone + 1]


def test_page_ranges_are_listed_as_the_language_lists_things():
    """CLDR's list pattern (babel): the kit's page ranges in Japanese, Arabic, Persian and Thai are joined
    as those languages join a list, not with a Latin comma; a code CLDR lacks keeps ', '."""
    from generator.imposition.instructions import page_ranges
    pages = [1, 2, 9, 10, 12]
    assert page_ranges(pages) == page_ranges(pages, "bg") == "1–2, 9–10, 12"
    assert page_ranges(pages, "ja") == page_ranges(pages, "zh-Hant") == "1–2、9–10、12"
    assert page_ranges(pages, "ar") == "1–2 و9–10 و12"
    assert page_ranges(pages, "fa") == "1–2،\u200f 9–10،\u200f 12"
    assert page_ranges(pages, "th") == "1–2 9–10 12"
    assert page_ranges(pages, "qps-ploc") == "1–2, 9–10, 12"
