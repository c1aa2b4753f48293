"""Booklet imposition: saddle-stitch page order and where each page lands."""

import io

import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.imposition.booklet import booklet_sides, impose_booklet
from tests.pdf_probe import open_pdf

A5 = (419.53, 595.28)


def test_pages_pad_to_a_multiple_of_four_in_saddle_stitch_order():
    assert booklet_sides(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert booklet_sides(6) == [(0, 1), (2, 0), (6, 3), (4, 5)]      # pages 7 and 8 are blank
    assert booklet_sides(1) == [(0, 1), (0, 0)]


def test_a_right_to_left_booklet_is_bound_at_the_right():
    # the front cover on the sheet's left half, so the folded booklet opens from the right
    assert booklet_sides(8, right_bound=True) == [(1, 8), (7, 2), (3, 6), (5, 4)]
    assert booklet_sides(6, right_bound=True) == [(1, 0), (0, 2), (3, 6), (5, 4)]
    document = open_pdf(impose_booklet(_numbered_pdf(8), (297, 210), right_bound=True))
    width, height = document[0].get_size()
    text = document[0].get_textpage()
    assert text.get_text_bounded(0, 0, width / 2, height).strip() == "P1"
    assert text.get_text_bounded(width / 2, 0, width, height).strip() == "P8"


def test_a_back_cover_stays_the_outside_back_the_blanks_before_it():
    # 6 pages, the 6th the back cover: booklet pages 6 and 7 blank, the back cover on page 8
    assert booklet_sides(6, back_cover=True) == [(6, 1), (2, 0), (0, 3), (4, 5)]
    assert booklet_sides(6, right_bound=True, back_cover=True) == [(1, 6), (0, 2), (3, 0), (5, 4)]
    assert booklet_sides(8, back_cover=True) == booklet_sides(8)          # no spare page: nothing moves
    document = open_pdf(impose_booklet(_numbered_pdf(6), (297, 210), back_cover=True))
    width, height = document[0].get_size()
    text = document[0].get_textpage()
    assert text.get_text_bounded(0, 0, width / 2, height).strip() == "P6"
    assert document[2].get_textpage().get_text_bounded(0, 0, width / 2, height).strip() == ""


def _numbered_pdf(pages: int) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A5, invariant=1)
    for number in range(1, pages + 1):
        canvas.setFont("Helvetica", 40)
        canvas.drawCentredString(A5[0] / 2, A5[1] / 2, f"P{number}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


@pytest.mark.parametrize("pages", [5, 8, 12, 70])     # 70: 36 sides, imposed in passes
def test_each_page_lands_on_its_sheet_side_and_half(pages):
    document = open_pdf(impose_booklet(_numbered_pdf(pages), (297, 210)))
    sides = booklet_sides(pages)
    assert len(document) == len(sides) and len(document) % 2 == 0
    for index, (left, right) in enumerate(sides):
        page = document[index]
        width, height = page.get_size()
        assert (width, height) == pytest.approx((841.89, 595.28), abs=0.1)      # A4 landscape
        text = page.get_textpage()
        left_text = text.get_text_bounded(0, 0, width / 2, height).strip()
        right_text = text.get_text_bounded(width / 2, 0, width, height).strip()
        assert left_text == (f"P{left}" if left else "")
        assert right_text == (f"P{right}" if right else "")


def _first_letters(pdf: bytes) -> list[tuple]:
    """Each side's letters with where they stand (rounded to 0.01 pt)."""
    document = open_pdf(pdf)
    found = []
    for index in range(len(document)):
        text = document[index].get_textpage()
        found.append([(text.get_text_range(char, 1), tuple(round(value, 2) for value in text.get_charbox(char)))
                      for char in range(text.count_chars())])
    return found


def test_a_booklet_imposed_in_passes_places_every_page_as_one_pass_would(monkeypatch):
    import generator.imposition.booklet as booklet
    source = _numbered_pdf(70)
    in_passes = impose_booklet(source, (297, 210))
    monkeypatch.setattr(booklet, "SIDES_A_PASS", 1000)
    assert _first_letters(in_passes) == _first_letters(impose_booklet(source, (297, 210)))   # creep included
