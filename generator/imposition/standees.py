"""Pawn sheets laid out as a designer would: each colour's pawns on one row, the block centred on the sheet.

The grid (grid.py) imposes the standees; this module decides only the block's shape. A run of the same
pawn (Sorry!'s four red ones) is a group. The block gets the most columns that fit the sheet and end
every row at the end of a group, so no colour is split across two rows (16 pawns on Letter: 8 a row,
not 11); rows are balanced (6 pawns: 3 + 3, not 5 + 1) and only as many as the pawns need, so four
pawns stand in the middle of the sheet, not in its corner.
"""

from __future__ import annotations

from itertools import groupby
from typing import Sequence

from generator.components.piece import PieceCopy
from generator.imposition.grid import GridSpec, default_gap, grid_geometry


def group_sizes(copies: Sequence[PieceCopy]) -> list[int]:
    """How many copies each run of the same piece has, in order."""
    return [len(list(run)) for _, run in groupby(copies, key=lambda copy: (copy.deck, copy.card))]


def keeps_groups(sizes: list[int], columns: int) -> bool:
    """Whether filling rows of `columns` ends every row where a group ends (a group longer than a row
    cannot be kept on one, and may break anywhere)."""
    start = 0
    for size in sizes:
        for row_end in range(-(-start // columns) * columns, start + size, columns):
            if row_end > start and size <= columns:
                return False
        start += size
    return True


def block_shape(sizes: list[int], fit: tuple[int, int]) -> tuple[int, int]:
    """(columns, rows) of the block: the most columns (at most `fit`'s) keeping groups whole on rows, then
    as few as keep that number of rows (balanced rows); rows as many as needed, at most `fit`'s."""
    count = sum(sizes)
    most = max(1, min(fit[0], count))
    columns = next((c for c in range(most, 0, -1) if keeps_groups(sizes, c) and c * 2 > most), most)
    rows = -(-count // columns)
    if rows <= fit[1]:
        columns = min((c for c in range(-(-count // rows), columns + 1)
                       if keeps_groups(sizes, c) and -(-count // c) == rows), default=columns)
    return columns, min(rows, fit[1])


def standee_block(copies: Sequence[PieceCopy], paper: tuple[float, float], margin: float,
                  gap: float | None = None) -> dict[str, int]:
    """Grid options (columns, rows) for a sheet of standees of one size; none for mixed sizes."""
    if not copies or len({(copy.front.width, copy.front.height) for copy in copies}) != 1:
        return {}
    front = copies[0].front
    gap = default_gap(copies) if gap is None else gap
    try:
        full = grid_geometry(GridSpec(paper, (front.width, front.height), gap=gap, margin=margin))
    except ValueError:          # not one fits: layout has reported it
        return {}
    columns, rows = block_shape(group_sizes(copies), (full.columns, full.rows))
    return {"columns": columns, "rows": rows}
