"""Boards larger than the paper, tiled across pages at 100 % with overlap strips on inner edges.

Every tile shows the board itself (one form, clipped), so neighbouring tiles
show identical content in their shared strip. A tile's overlap strip is either
cut off (the tile left of or above a seam: a cut line at the seam, solid as
every cut of the kit) or hidden under its neighbour once glued (right of or
below it: the glue strip, hatched light grey, whose edge at the seam is where
the neighbour's cut edge goes) — the kit's line language (imposition/line_kinds.py),
named the same in the kit's board step; the board's outer edges are cut lines too,
the art bleeding past them. The marks are drawn inside the strips
only, so none of them is left over the board's art once it is assembled.
Under each tile: its label (A1, A2, B1 …), an assembly map, a 50 mm bar and
the legend of the lines it shows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from generator.components.piece import Face, Item, Rect, TextPlacement
from generator.imposition.grid import CROP_MARK_WIDTH, SCALE_BAR, scale_bar_items
from generator.imposition.line_kinds import GLUE, KINDS, cut_line, glue_hatch, legend
from generator.imposition.sheet import Page, Placement
from generator.print_facts import TILE_MARGIN
from generator.text.layout import GlyphRun

MAP_CELL = 10.0      # mm per tile in the assembly map
TILE_LINES = ("cut", "glue")      # the line kinds a tile shows (its legend)
LEGEND_WIDTH = 56.0  # mm


@dataclass(frozen=True)
class TileSpec:
    paper: tuple[float, float]
    margin: float = TILE_MARGIN      # the least; a printer's wider margin wins (tile_spec)
    max_overlap: float = 12.0
    min_overlap: float = 5.0
    label_band: float = 40.0         # room under the tile for the label, map and scale bar
    outer_bleed: float = 2.0         # board art past the board's edge, for a clean cut


@dataclass(frozen=True)
class TileLayout:
    columns: int
    rows: int
    overlap: float

    def seams(self, length: float, count: int) -> list[float]:
        return [length * i / count for i in range(1, count)]


def _count_and_overlap(length: float, usable: float, spec: TileSpec) -> tuple[int, float]:
    count = 1
    while True:
        if count == 1 and length <= usable:
            return 1, spec.max_overlap
        inner = 1 if count == 2 else 2          # strips a tile carries along this direction
        room = (usable - length / count) / inner if count > 1 else -1
        if room >= spec.min_overlap:
            return count, min(spec.max_overlap, room)
        count += 1


def tile_spec(paper: tuple[float, float], printable_margin: float) -> TileSpec:
    """Tiles for a paper whose printer leaves `printable_margin` mm unprinted (never less than TILE_MARGIN)."""
    return TileSpec(paper, margin=max(TileSpec.margin, printable_margin))


def tile_layout(board: tuple[float, float], spec: TileSpec) -> TileLayout:
    columns, across = _count_and_overlap(board[0], spec.paper[0] - 2 * spec.margin, spec)
    rows, down = _count_and_overlap(board[1], spec.paper[1] - 2 * spec.margin - spec.label_band, spec)
    return TileLayout(columns, rows, min(across, down))


def tile_label(row: int, column: int) -> str:
    return f"{chr(ord('A') + row)}{column + 1}"


def tile_region(board: tuple[float, float], layout: TileLayout, row: int, column: int):
    """The part of the board (x0, y0, x1, y1 in board mm) a tile shows, overlap included."""
    width, height = board
    o = layout.overlap
    x0 = column * width / layout.columns - (o if column > 0 else 0)
    x1 = (column + 1) * width / layout.columns + (o if column < layout.columns - 1 else 0)
    y0 = row * height / layout.rows - (o if row > 0 else 0)
    y1 = (row + 1) * height / layout.rows + (o if row < layout.rows - 1 else 0)
    return x0, y0, x1, y1


def impose_board(face: Face, spec: TileSpec, caption: Callable[..., tuple[GlyphRun, ...]],
                 label: str = "board", bar_label: str = "", line_names: tuple[str, ...] = ()) -> list[Page]:
    """The board's tiles, one a page, each with its label band; the band's 50 mm bar labelled `bar_label`,
    its legend naming the lines in `line_names` (the engine words kit.line.*, in line_kinds.KINDS' order)."""
    board = (face.width, face.height)
    layout = tile_layout(board, spec)
    names = dict(zip(KINDS, line_names, strict=False))
    pages = []
    for row in range(layout.rows):
        for column in range(layout.columns):
            pages.append(_tile_page(face, spec, layout, row, column, caption, label, bar_label, names))
    return pages


def _tile_page(face: Face, spec: TileSpec, layout: TileLayout, row: int, column: int, caption, label,
               bar_label: str = "", names: dict[str, str] | None = None) -> Page:
    board = (face.width, face.height)
    x0, y0, x1, y1 = tile_region(board, layout, row, column)
    left = (spec.paper[0] - (x1 - x0)) / 2
    top = spec.margin
    bleed = min(spec.outer_bleed, face.bleed)
    grow_left = bleed if column == 0 else 0.0
    grow_right = bleed if column == layout.columns - 1 else 0.0
    grow_top = bleed if row == 0 else 0.0
    grow_bottom = bleed if row == layout.rows - 1 else 0.0
    clip = (left - grow_left, top - grow_top, x1 - x0 + grow_left + grow_right, y1 - y0 + grow_top + grow_bottom)
    placement = Placement(face, left - x0, top - y0, clip)

    def to_page(bx: float, by: float) -> tuple[float, float]:
        return left + bx - x0, top + by - y0

    strip = layout.overlap
    glued: list[Item] = []        # the glue strips first: a cut line crossing one is drawn over it
    cuts: list[Item] = []
    for seam in layout.seams(board[0], layout.columns):
        if not x0 < seam < x1:
            continue
        if x1 - seam <= strip + 1e-9:          # the strip beyond the seam is cut off: the cut at the seam
            (px, py), (_, qy) = to_page(seam + CROP_MARK_WIDTH / 2, y0), to_page(seam, y1)
            cuts.append(cut_line(px, py, 0, qy - py))
        else:                                   # the strip before it goes under the neighbour: glue
            glued.extend(_glue_strip(*to_page(seam - strip, y0), strip, y1 - y0))
    for seam in layout.seams(board[1], layout.rows):
        if not y0 < seam < y1:
            continue
        if y1 - seam <= strip + 1e-9:
            (px, py), (qx, _) = to_page(x0, seam + CROP_MARK_WIDTH / 2), to_page(x1, seam)
            cuts.append(cut_line(px, py, qx - px, 0))
        else:
            glued.extend(_glue_strip(*to_page(x0, seam - strip), x1 - x0, strip))
    # the board's outer edges: the trim, cut on its line, the line's whole width outside the board (the art
    # bleeds past it, `grow_*`); a tile shows its share of each edge, strips included
    half = CROP_MARK_WIDTH / 2
    for at, first in ((-half, column == 0), (board[0] + half, column == layout.columns - 1)):
        if first:
            (px, py), (_, qy) = to_page(at, y0), to_page(at, y1)
            cuts.append(cut_line(px, py, 0, qy - py))
    for at, first in ((-half, row == 0), (board[1] + half, row == layout.rows - 1)):
        if first:
            (px, py), (qx, _) = to_page(x0, at), to_page(x1, at)
            cuts.append(cut_line(px, py, qx - px, 0))
    marks: list[Item] = glued + cuts
    band = top + (y1 - y0) + grow_bottom + 6.0
    marks.extend(_label_band(spec, layout, row, column, band, caption, bar_label, names or {}))
    return Page(*spec.paper, (placement,), tuple(marks), label=f"{label} {tile_label(row, column)}")


def _glue_strip(x: float, y: float, w: float, h: float) -> list[Item]:
    """A glue strip (mm on the page): hatched, and edged where the neighbour's cut edge goes — the strokes'
    whole width inside it, so that none is left beside the seam once the neighbour covers the strip."""
    inset = GLUE.width
    x, y, w, h = x + inset, y + inset, w - 2 * inset, h - 2 * inset
    return [*glue_hatch(x, y, w, h), Rect(x, y, w, h, stroke=GLUE.colour, stroke_width=GLUE.width)]


def _label_band(spec: TileSpec, layout: TileLayout, row: int, column: int, top: float, caption,
                bar_label: str = "", names: dict[str, str] | None = None) -> list[Item]:
    items: list[Item] = []
    left = spec.margin + 4
    items.append(TextPlacement(left, top, caption(tile_label(row, column), 26.0)))
    # the assembly map: every tile as a square, this one filled
    map_left = spec.paper[0] / 2 - layout.columns * MAP_CELL / 2
    for r in range(layout.rows):
        for c in range(layout.columns):
            x, y = map_left + c * MAP_CELL, top + r * MAP_CELL
            this = (r, c) == (row, column)
            items.append(Rect(x, y, MAP_CELL, MAP_CELL, fill="#555555" if this else "#ffffff",
                               stroke="#000000", stroke_width=0.25))
            runs = caption(tile_label(r, c), 6.5)
            items.append(TextPlacement(x + 2.2, y + 3.4, tuple(_recolour(runs, "#ffffff" if this else "#000000"))))
    bar_left = spec.paper[0] - spec.margin - 22 - SCALE_BAR
    items.extend(scale_bar_items(bar_left, top + 6, caption, bar_label))
    if names and all(names.get(kind) for kind in TILE_LINES):
        items.extend(legend(bar_left, top + 18, LEGEND_WIDTH, [names[kind] for kind in TILE_LINES], caption,
                            TILE_LINES))
    return items


def _recolour(runs, colour):
    return [replace(run, color=colour) for run in runs]
