"""Pawn sheets: a colour's pawns on one row, rows balanced, the block centred on the sheet (issue 15).
Measured on the placements the grid makes for a tiny synthetic pawn set."""

from __future__ import annotations

import pytest

from generator.components.piece import Face, PieceCopy
from generator.imposition.grid import impose_mixed
from generator.imposition.sheet import PAPER_SIZES
from generator.imposition.standees import block_shape, keeps_groups, standee_block

PAWN = (19.0, 60.0)      # a fold-over standee strip, mm


def _pawns(colours: dict[str, int], size=PAWN) -> list[PieceCopy]:
    copies = []
    for colour, count in colours.items():
        face = Face(f"pawn-{colour}", size[0], size[1], 0.0, ())
        copies += [PieceCopy("pawns", colour, len(copies) + 1, face, None) for _ in range(count)]
    return copies


def _rows(page) -> dict[float, list[str]]:
    rows: dict[float, list[str]] = {}
    for placement in sorted(page.placements, key=lambda p: (p.y, p.x)):
        rows.setdefault(round(placement.y, 3), []).append(placement.face.key)
    return rows


def test_groups_whole_on_rows():
    assert keeps_groups([4, 4, 4, 4], 8) and not keeps_groups([4, 4, 4, 4], 11)
    assert keeps_groups([12], 5)                       # a group longer than a row may break
    assert block_shape([4, 4, 4, 4], (11, 4)) == (8, 2)
    assert block_shape([1, 1, 1, 1], (10, 4)) == (4, 1)
    assert block_shape([1] * 6, (5, 4)) == (3, 2)      # 3 + 3, not 5 + 1


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sixteen_pawns_one_colour_a_row_pair_and_centred(paper):
    size = PAPER_SIZES[paper]
    copies = _pawns({"red": 4, "blue": 4, "yellow": 4, "green": 4})
    pages = impose_mixed(copies, size, None, "pawns", **standee_block(copies, size, 5.0))
    assert len(pages) == 1
    rows = list(_rows(pages[0]).values())
    for row in rows:                  # every colour's four pawns on one row
        for colour in ("red", "blue", "yellow", "green"):
            assert row.count(f"pawn-{colour}") in (0, 4)
    left = min(p.x for p in pages[0].placements)
    right = max(p.x + PAWN[0] for p in pages[0].placements)
    top = min(p.y for p in pages[0].placements)
    bottom = max(p.y + PAWN[1] for p in pages[0].placements)
    assert left == pytest.approx(size[0] - right, abs=0.01)
    assert top == pytest.approx(size[1] - bottom, abs=0.01)


def test_four_pawns_stand_in_the_middle_of_the_sheet():
    size = PAPER_SIZES["a4"]
    copies = _pawns({"red": 1, "green": 1, "blue": 1, "yellow": 1})
    page = impose_mixed(copies, size, None, "pawns", **standee_block(copies, size, 5.0))[0]
    xs = [p.x for p in page.placements]
    ys = {p.y for p in page.placements}
    assert len(ys) == 1
    assert (min(xs) + max(xs) + PAWN[0]) / 2 == pytest.approx(size[0] / 2, abs=0.01)
    assert next(iter(ys)) + PAWN[1] / 2 == pytest.approx(size[1] / 2, abs=0.01)


def test_mixed_sizes_keep_the_grid():
    copies = _pawns({"red": 2}) + _pawns({"big": 2}, size=(30.0, 80.0))
    assert standee_block(copies, PAPER_SIZES["a4"], 5.0) == {}
