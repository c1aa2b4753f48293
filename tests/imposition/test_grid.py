"""Grid geometry on numbers: margins from PRINT.md, duplex mirroring, crop marks."""

import pytest

from generator.imposition.grid import GridSpec, back_position, crop_marks, grid_geometry
from generator.imposition.sheet import PAPER_SIZES

CARD = (63.0, 88.0)


@pytest.mark.parametrize("paper, gap, side, top", [
    ("a4", 0.0, 10.5, 16.5),
    ("a4", 3.0, 7.5, 13.5),
    ("letter", 0.0, 13.45, 7.7),
])
def test_three_by_three_grid_margins_match_print_figures(paper, gap, side, top):
    geometry = grid_geometry(GridSpec(PAPER_SIZES[paper], CARD, gap=gap))
    assert (geometry.columns, geometry.rows) == (3, 3)
    assert geometry.left == pytest.approx(side, abs=0.01)
    assert geometry.top == pytest.approx(top, abs=0.01)


def test_letter_with_a_gap_drops_a_row_rather_than_print_in_the_unprintable_margin():
    geometry = grid_geometry(GridSpec(PAPER_SIZES["letter"], CARD, gap=3.0))
    assert geometry.rows == 2
    assert geometry.top >= 6.35


def test_long_edge_backs_mirror_columns_and_short_edge_backs_mirror_rows():
    spec = GridSpec(PAPER_SIZES["a4"], CARD)
    geometry = grid_geometry(spec)
    assert back_position(spec, geometry, 0, 0) == (0, 2)
    assert back_position(spec, geometry, 1, 2) == (1, 0)
    short = GridSpec(PAPER_SIZES["a4"], CARD, duplex="short-edge")
    assert back_position(short, geometry, 0, 0) == (2, 0)
    assert back_position(short, geometry, 2, 1) == (0, 1)


def test_crop_marks_sit_outside_the_grid_in_line_with_every_cut():
    spec = GridSpec(PAPER_SIZES["a4"], CARD)
    geometry = grid_geometry(spec)
    marks = crop_marks(spec, geometry)
    vertical = sorted({round(m.x, 3) for m in marks if m.w == 0})
    horizontal = sorted({round(m.y, 3) for m in marks if m.h == 0})
    assert vertical == [10.5, 73.5, 136.5, 199.5]
    assert horizontal == [16.5, 104.5, 192.5, 280.5]
    for mark in marks:
        if mark.w == 0:   # above or below the grid, 2 mm away, 5 mm long
            assert mark.y + mark.h <= 16.5 - 2 + 1e-9 or mark.y >= 280.5 + 2 - 1e-9
            assert mark.h == pytest.approx(5.0)


def test_a_part_filled_sheet_has_marks_only_around_its_cards():
    from generator.components.piece import Face, PieceCopy
    from generator.imposition.grid import impose_cards
    face = Face("f", 63, 88, 3, ())
    copies = [PieceCopy("d", "c", n, face, face) for n in range(1, 12)]       # 9 on sheet one, 2 on sheet two
    spec = GridSpec(PAPER_SIZES["a4"], CARD)
    pages = impose_cards(copies, spec)
    full, part = pages[0].marks, pages[2].marks
    assert sorted({round(m.x, 2) for m in part if m.w == 0}) == [10.5, 73.5, 136.5]   # two columns' edges
    assert sorted({round(m.y, 2) for m in part if m.h == 0}) == [16.5, 104.5]         # one row's edges
    assert sorted({round(m.x, 2) for m in full if m.w == 0 and m.y < 16.5}) == [10.5, 73.5, 136.5, 199.5]
