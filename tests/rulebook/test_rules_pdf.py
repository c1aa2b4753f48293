"""rules.pdf and rules-booklet.pdf of the real game: sizes, TOC, editions, languages, counts, booklet order."""

from __future__ import annotations

import re

import pytest

from generator.imposition.booklet import booklet_sides
from tests.pdf_probe import font_report, open_pdf, page_size_mm, page_text

PAGES = {"a4": (148.0, 210.0), "letter": (139.7, 215.9)}
SHEETS = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def _texts(path) -> list[str]:
    document = open_pdf(path)
    return [" ".join(page_text(document, i).replace("\u00ad", "").replace("\ufffe", "").split())
            for i in range(len(document))]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_are_a5_or_half_letter(built_christmas, paper):
    document = open_pdf(built_christmas / "full" / "en" / paper / "rules.pdf")
    for index in range(len(document)):
        assert page_size_mm(document, index) == pytest.approx(PAGES[paper], abs=0.05)


@pytest.mark.parametrize("edition, lang", [("full", "bg"), ("free", "en"), ("full", "en")])
def test_table_of_contents_gives_the_pages_headings_land_on(built_christmas, edition, lang):
    texts = _texts(built_christmas / edition / lang / "a4" / "rules.pdf")
    toc = texts[1].split({"bg": "Съдържание", "en": "Contents"}[lang], 1)[1]
    entries = re.findall(r"\s*(.+?)\s*(?:\.\s*){3,}(\d+)", toc)
    assert len(entries) >= 10, toc
    for heading, page in entries:
        heading = heading.strip()
        assert heading in texts[int(page) - 1], f"{heading!r} not on page {page}"
        # no earlier page starts with it (a page's text is its body first, the running footer last)
        assert not any(text.startswith(heading) for text in texts[2:int(page) - 1]), heading


def test_page_numbers_and_running_footer(built_christmas):
    texts = _texts(built_christmas / "full" / "en" / "a4" / "rules.pdf")
    if "Rules ·" not in texts[-1]:      # the back cover (where the booklet has a spare page): no footer
        assert "2–6 players" in texts[-1]
        texts = texts[:-1]
    for number, text in enumerate(texts[1:], start=2):
        assert re.search(rf"(^|\s){number}(\s|$)", text), number
        assert "Christmas Round · Rules · Full edition" in text


def test_the_free_edition_reads_complete_without_full_edition_parts(built_christmas):
    free_pages = _texts(built_christmas / "free" / "en" / "a4" / "rules.pdf")
    # the back cover (on the free booklet's spare page) says what the full edition adds: the rules do not
    assert "The full edition adds" in free_pages[-1] and "Helpers with special abilities" in free_pages[-1]
    # the closing pitch (the original's, in both editions) names what the full edition adds: the rules do not
    free = " ".join(free_pages[:-1])
    pitch = free.index("The full edition is for 2–6 players")
    rules, closing = free[:pitch], free[pitch:]
    full = " ".join(_texts(built_christmas / "full" / "en" / "a4" / "rules.pdf"))
    for part in ("Helpers", "Team night", "Socks the Puppy", "Golden Ribbon", "Elfie", "snowflake"):
        assert part in full, part
        assert part not in rules, part
    assert "Team night" in closing and "6 helpers" in closing
    # the board is the same in both editions: its night track marks the 5- and 6-player starts
    assert free.count("FULL EDITION") == 2 and full.count("FULL EDITION") > 10
    for part in ("Setup", "Tailwind", "Blizzard", "Frequently asked questions"):
        assert part in free and part in full


def test_counts_come_from_the_content(built_christmas):
    free = " ".join(_texts(built_christmas / "free" / "en" / "a4" / "rules.pdf"))
    full = " ".join(_texts(built_christmas / "full" / "en" / "a4" / "rules.pdf"))
    assert "36 gift cards" in free and "12 Surprise cards" in free
    assert "21 Surprise cards" in full and "48 wish tokens" in full


@pytest.mark.parametrize("edition", ["free", "full"])
def test_each_language_has_only_its_own_words(built_christmas, edition):
    english = " ".join(_texts(built_christmas / edition / "en" / "letter" / "rules.pdf"))
    bulgarian = " ".join(_texts(built_christmas / edition / "bg" / "letter" / "rules.pdf"))
    assert not CYRILLIC.findall(english)
    assert "Подготовка" in bulgarian and "Често задавани въпроси" in bulgarian
    assert all(font_report(built_christmas / edition / "bg" / "a4" / "rules.pdf").values())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_booklet_sides_hold_the_right_pages(built_christmas, paper):
    pages = _texts(built_christmas / "full" / "bg" / paper / "rules.pdf")
    booklet = open_pdf(built_christmas / "full" / "bg" / paper / "rules-booklet.pdf")
    # the back cover, where the rules print one, is the booklet's last page whatever blanks come before it
    sides = booklet_sides(len(pages), back_cover="Правила ·" not in pages[-1])
    # one PDF page per printed side; the pages pad to a multiple of 4, so the sides come in sheets
    assert len(booklet) == len(sides) and (2 * len(sides)) % 4 == 0 and 2 * len(sides) >= len(pages)
    for index, (left, right) in enumerate(sides):
        page = booklet[index]
        width, height = page.get_size()
        assert (width * 25.4 / 72, height * 25.4 / 72) == pytest.approx(SHEETS[paper], abs=0.05)
        textpage = page.get_textpage()
        for number, bounds in ((left, (0, 0, width / 2, height)), (right, (width / 2, 0, width, height))):
            found = " ".join(textpage.get_text_bounded(*bounds).replace("\u00ad", "").split())
            if number == 0:
                assert found == ""
            else:
                assert found[:40] == pages[number - 1][:40]
