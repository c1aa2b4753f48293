"""Grid geometry on numbers: margins from docs/print.md, duplex mirroring, crop marks."""

import pytest

from generator.components.piece import Face, PieceCopy
from generator.imposition.grid import BAND_GAP, GridSpec, crop_marks, grid_geometry, impose_mixed
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


def _copies(count: int, size=CARD, deck="d") -> list[PieceCopy]:
    front = Face(f"{deck}-front", *size, 3, ())
    back = Face(f"{deck}-back", *size, 3, ())
    return [PieceCopy(deck, "c", n, front, back) for n in range(1, count + 1)]


def _cells(page) -> list[tuple[float, float]]:
    return [(round(p.x, 2), round(p.y, 2)) for p in page.placements]


def test_long_edge_backs_mirror_columns_and_short_edge_backs_mirror_rows():
    long_edge = impose_mixed(_copies(2), PAPER_SIZES["a4"])
    assert _cells(long_edge[0]) == [(10.5, 16.5), (73.5, 16.5)]          # row 1, columns 1 and 2
    assert _cells(long_edge[1]) == [(136.5, 16.5), (73.5, 16.5)]         # behind them: columns 3 and 2
    short_edge = impose_mixed(_copies(2), PAPER_SIZES["a4"], duplex="short-edge")
    assert _cells(short_edge[1]) == [(10.5, 192.5), (73.5, 192.5)]       # row 3, same columns


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
    pages = impose_mixed(_copies(11), PAPER_SIZES["a4"])                 # 9 on sheet one, 2 on sheet two
    full, part = pages[0].marks, pages[2].marks
    assert sorted({round(m.x, 2) for m in part if m.w == 0}) == [10.5, 73.5, 136.5]   # two columns' edges
    assert sorted({round(m.y, 2) for m in part if m.h == 0}) == [16.5, 104.5]         # one row's edges
    assert sorted({round(m.x, 2) for m in full if m.w == 0 and m.y < 16.5}) == [10.5, 73.5, 136.5, 199.5]


def test_a_smaller_size_fills_the_rest_of_a_part_filled_sheet_in_a_band_below():
    """48 tokens of 26 mm leave room under their 7 rows: a 15 mm token goes there, not on a sheet of its own."""
    pages = impose_mixed(_copies(48, (26, 26), "wish") + _copies(1, (15, 15), "santa"), PAPER_SIZES["a4"])
    assert [page.label for page in pages] == ["pieces fronts 1", "pieces backs 1"]
    fronts, backs = pages
    santa = [p for p in fronts.placements if p.face.key == "santa-front"]
    wishes = [p for p in fronts.placements if p.face.key == "wish-front"]
    bottom_of_wishes = max(p.y for p in wishes) + 26
    assert santa[0].y == pytest.approx(bottom_of_wishes + BAND_GAP)
    assert santa[0].y + 15 <= 297 - 6.35                                    # inside the printable margin
    back = [p for p in backs.placements if p.face.key == "santa-back"][0]
    assert (back.x, back.y) == pytest.approx((210 - santa[0].x - 15, santa[0].y))   # behind it, long edge
    # the two bands' crop marks stay apart: the upper band's end 7.5 mm below it (2.5 mm past its 2 mm
    # bleed, 5 mm long), the lower's start 7.5 mm above
    vertical = [m for m in fronts.marks if m.w == 0 and m.h > 0 and bottom_of_wishes < m.y < santa[0].y]
    assert vertical and all(m.y + m.h <= bottom_of_wishes + 7.5 + 1e-9 or m.y >= santa[0].y - 7.5 - 1e-9
                            for m in vertical)


def test_a_size_that_does_not_fit_below_starts_a_new_sheet():
    pages = impose_mixed(_copies(9) + _copies(1, (26, 26), "token"), PAPER_SIZES["a4"])   # a full card sheet
    assert [page.label for page in pages] == ["pieces fronts 1", "pieces backs 1", "pieces fronts 2", "pieces backs 2"]


def test_gutterfold_gives_each_size_sheets_of_its_own():
    from generator.imposition.grid import impose_gutterfold
    pages = impose_gutterfold(_copies(5) + _copies(3, (44, 63), "mini"), PAPER_SIZES["a4"])
    sizes = [{(p.face.width, p.face.height) for p in page.placements} for page in pages]
    assert sizes == [{CARD}, {CARD}, {(44, 63)}]                      # 4 poker cards a sheet, then the minis
    assert [page.label for page in pages] == ["cards gutterfold 1", "cards gutterfold 2", "cards gutterfold 3"]
    fold = 297 / 2
    for page in pages:
        fronts, backs = page.placements[0::2], page.placements[1::2]
        assert all(f.x + f.face.width <= fold <= b.x for f, b in zip(fronts, backs, strict=False))
