"""Boards larger than the paper, tiled across pages at 100 % with overlap strips on inner edges.

Every tile shows the board itself (one form, clipped), so neighbouring tiles
show identical content in their shared strip. A tile's overlap strip is either
cut off (the tile left of or above a seam: a cut line at the seam, solid as
every cut of the kit) or hidden under its neighbour once glued (right of or
below it: the glue strip, hatched light grey, whose edge at the seam is where
the neighbour's cut edge goes) — the kit's line language (imposition/line_kinds.py),
named the same in the kit's board step; the board's outer edges are cut lines too,
the art bleeding past them, and where a seam meets them both tiles draw an align tick outside the board
(where the paper has room) that meets its neighbour's once laid together. The marks are drawn inside the strips
only, so none of them is left over the board's art once it is assembled.
Under each tile: its label (A1, A2, B1 …), an assembly map, a 50 mm bar and
the legend of the lines it shows. How many tiles and where their seams lie is
tile_layout's choice (the fewest tiles, the seams off the board's words and
spaces: seams.py); the build lays it out with the Target (tile_boards).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from generator.components.piece import Ellipse, Face, Item, Rect, TextPlacement
from generator.imposition.grid import CROP_MARK_WIDTH, SCALE_BAR, scale_bar_items
from generator.imposition.line_kinds import ALIGN_TICK, GLUE, KINDS, align_tick, cut_line, glue_hatch, legend
from generator.components.board import LaidOutFace
from generator.imposition.seams import Crossing, Obstacle, SeamCosts, board_obstacles, place_seams, seam_window
from generator.input_files import quoted
from generator.imposition.sheet import Page, Placement
from generator.print_facts import PAPER_NAMES, PAPER_SIZES, TILE_MARGIN
from generator.text.layout import GlyphRun, run_width

MAP_CELL = 10.0      # mm per tile in the assembly map (at most, each way)
MAP_LABEL = 6.5      # pt: a tile's label in the map
CROSSING_DOT = 1.6   # mm: the map's mark where a seam crosses a word, a space or a picture
CROSSING_RED = "#d0021b"
TILE_LINES = ("cut", "glue")      # the line kinds every tile shows (its legend; "align" where it has ticks)
LEGEND_COLUMN = 28.0  # mm a line kind takes in the legend
ALIGN_GAP = 0.5      # mm between the board's bleed and an align tick
ALIGN_LEAST = 2.0    # mm: a shorter tick is left out (the paper has no room for it there)


@dataclass(frozen=True)
class TileSpec:
    paper: tuple[float, float]
    margin: float = TILE_MARGIN      # the least; a printer's wider margin wins (tile_spec)
    max_overlap: float = 12.0
    min_overlap: float = 5.0
    label_band: float = 40.0         # room under the tile for the label, map and scale bar
    outer_bleed: float = 2.0         # board art past the board's edge, for a clean cut
    printable: float = TILE_MARGIN   # the printer's unprinted margin: align ticks stay inside it


@dataclass(frozen=True)
class TileLayout:
    """How a board is cut into tiles: the seams across it (mm on the board), the overlap strip beyond
    each, and what the seams could not avoid (`crossings`).

    `across[row]` are a row's vertical seams (x) and `down[column]` a column's horizontal seams (y). In a
    grid every row has the same; in rows of bricks (`shape` 'rows') the horizontal seams run across the
    whole board and each row has vertical seams of its own, which need to be clear only between its top
    and bottom seams; in columns of bricks ('columns') the other way round."""

    columns: int
    rows: int
    overlap: float
    across: tuple[tuple[float, ...], ...]
    down: tuple[tuple[float, ...], ...]
    crossings: tuple[Crossing, ...] = ()
    shape: str = "grid"


def _count(length: float, usable: float, spec: TileSpec) -> tuple[int, float]:
    """The fewest tiles along a direction with at least the least overlap, and the widest overlap they
    allow (seams evenly spread)."""
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
    return TileSpec(paper, margin=max(TileSpec.margin, printable_margin), printable=printable_margin)


def usable_size(spec: TileSpec) -> tuple[float, float]:
    """The room a tile's part of the board has on the page (mm): the paper inside its margins, its label band."""
    return spec.paper[0] - 2 * spec.margin, spec.paper[1] - 2 * spec.margin - spec.label_band


def tile_layout(board: tuple[float, float], spec: TileSpec, obstacles: Sequence[Obstacle] = ()) -> TileLayout:
    """The fewest tiles the paper allows, their seams placed off the board's `obstacles` (seams.py).

    Tried: each overlap from the widest the tiles allow down to the least, in whole mm, and for each a
    grid, rows of bricks and columns of bricks. Kept: the one whose seams cross the least; then a grid
    (one seam line all along, simpler to assemble); then the one keeping furthest from words and icons;
    then the widest overlap."""
    usable = usable_size(spec)
    columns, across = _count(board[0], usable[0], spec)
    rows, down = _count(board[1], usable[1], spec)
    widest = min(across, down)
    costs = SeamCosts(obstacles, board)
    best: tuple[tuple[float, bool, float, float], TileLayout] | None = None
    for overlap in [widest - step for step in range(int(widest - spec.min_overlap) + 1)]:
        for shape in _SHAPES if rows > 1 and columns > 1 else _SHAPES[:1]:
            tried = _tiled(shape, board, usable, columns, rows, overlap, costs)
            if tried is None:
                continue
            layout, short = tried
            key = (round(sum(c.obstacle.weight for c in layout.crossings), 6), shape != "grid",
                   round(short, 6), -overlap)
            if best is None or key < best[0]:
                best = key, layout
            if shape == "grid" and not key[0]:
                break           # bricks win only by crossing less than the grid: nothing to win here
        if best is not None and best[0][:3] == (0, False, 0):
            break               # a clean grid, clear of everything, at the widest overlap left: the best
    if best is None:       # (cannot happen: the widest overlap's seams evenly spread fit)
        raise ValueError(f"no tiling of a {board[0]} × {board[1]} mm board fits {spec.paper}")
    return best[1]


_SHAPES = ("grid", "rows", "columns")


def _tiled(shape: str, board: tuple[float, float], usable: tuple[float, float], columns: int, rows: int,
           overlap: float, costs: SeamCosts) -> tuple[TileLayout, float] | None:
    """A layout of that shape with that overlap, and the mm its seams lie short of clearance; None if its
    tiles cannot fit."""
    counts = (columns, rows)
    if shape == "grid":
        choices = [place_seams(board[axis], usable[axis], counts[axis], overlap, costs, axis) for axis in (0, 1)]
        if None in choices:
            return None
        vertical, horizontal = choices
        assert vertical is not None and horizontal is not None
        layout = TileLayout(columns, rows, overlap, (vertical.seams,) * rows, (horizontal.seams,) * columns,
                            vertical.crossings + horizontal.crossings, shape)
        return layout, vertical.short + horizontal.short
    long = 1 if shape == "rows" else 0           # the axis whose seams run across the whole board
    whole = place_seams(board[long], usable[long], counts[long], overlap, costs, long)
    if whole is None:
        return None
    bounds = (0.0, *whole.seams, board[long])
    bands = []
    for band in range(counts[long]):
        choice = place_seams(board[1 - long], usable[1 - long], counts[1 - long], overlap, costs, 1 - long,
                             bounds[band], bounds[band + 1])
        if choice is None:
            return None
        bands.append(choice)
    crossings = whole.crossings + tuple(crossing for band in bands for crossing in band.crossings)
    short = whole.short + sum(band.short for band in bands)
    band_seams = tuple(band.seams for band in bands)
    if long == 1:
        return TileLayout(columns, rows, overlap, band_seams, (whole.seams,) * columns, crossings, shape), short
    return TileLayout(columns, rows, overlap, (whole.seams,) * rows, band_seams, crossings, shape), short


def tile_boards(boards: Sequence[LaidOutFace], papers: Sequence[str], margin: float,
                warn: Callable[[str, str, str], None]) -> dict[tuple[str, str], TileLayout]:
    """Each board's tiles on each paper (keyed by board id and paper), for a printer leaving `margin` mm;
    `warn(board id, message, hint)` is told of every seam that crosses what it should not (seams.py)."""
    tilings = {}
    for board in boards:
        obstacles = board_obstacles(board.face)
        for paper in papers:
            spec = tile_spec(PAPER_SIZES[paper], margin)
            layout = tilings[board.id, paper] = tile_layout((board.face.width, board.face.height), spec, obstacles)
            crossed = [crossing for crossing in layout.crossings if crossing.obstacle.major]
            if crossed:
                warn(board.id, *_crossing_message(board, paper, spec, layout, crossed))
    return tilings


def _crossing_message(board: LaidOutFace, paper: str, spec: TileSpec, layout: TileLayout,
                      crossed: Sequence[Crossing]) -> tuple[str, str]:
    """The warning (and its hint) for seams no position spares: what each crosses, and where seams can lie."""
    size, usable = (board.face.width, board.face.height), usable_size(spec)
    counts = (layout.columns, layout.rows)
    things = []
    for crossing in crossed:
        obstacle, line = crossing.obstacle, "xy"[crossing.axis]
        what = f"the space {quoted(obstacle.name)}" if obstacle.kind == "space" else \
            f"the picture {obstacle.name}" if obstacle.kind == "icon" else quoted(obstacle.name)
        things.append(f"{what} ({line} = {crossing.at:g} mm)")
    windows = sorted({(crossing.axis, crossing.index) for crossing in crossed})
    places = []
    for axis, index in windows:
        low, high = seam_window(size[axis], usable[axis], counts[axis], spec.min_overlap, index)
        places.append(f"{'xy'[axis]} = {low:.0f}–{high:.0f} mm")
    message = (f"board {quoted(board.id)} on {PAPER_NAMES.get(paper, paper)}: no seam between its tiles "
               f"avoids {', '.join(things)}")
    hint = (f"keep words, spaces and pictures off a line across the board somewhere in {' and '.join(places)} "
            f"(where its tiles can meet on this paper); the tiles' assembly map marks each crossing in red")
    return message, hint


def tile_label(row: int, column: int) -> str:
    return f"{chr(ord('A') + row)}{column + 1}"


def tile_region(board: tuple[float, float], layout: TileLayout, row: int, column: int):
    """The part of the board (x0, y0, x1, y1 in board mm) a tile shows, overlap included."""
    width, height = board
    o = layout.overlap
    xs, ys = (0.0, *layout.across[row], width), (0.0, *layout.down[column], height)
    x0 = xs[column] - (o if column > 0 else 0)
    x1 = xs[column + 1] + (o if column < layout.columns - 1 else 0)
    y0 = ys[row] - (o if row > 0 else 0)
    y1 = ys[row + 1] + (o if row < layout.rows - 1 else 0)
    return x0, y0, x1, y1


def impose_board(face: Face, spec: TileSpec, layout: TileLayout, caption: Callable[..., tuple[GlyphRun, ...]],
                 label: str = "board", bar_label: str = "", line_names: tuple[str, ...] = ()) -> list[Page]:
    """The board's tiles as `layout` cuts it (tile_layout), one a page, each with its label band; the
    band's 50 mm bar labelled `bar_label`, its legend naming the lines in `line_names` (the engine words
    kit.line.*, in line_kinds.KINDS' order)."""
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
    for seam in layout.across[row]:
        if not x0 < seam < x1:
            continue
        if x1 - seam <= strip + 1e-9:          # the strip beyond the seam is cut off: the cut at the seam
            (px, py), (_, qy) = to_page(seam + CROP_MARK_WIDTH / 2, y0), to_page(seam, y1)
            cuts.append(cut_line(px, py, 0, qy - py))
        else:                                   # the strip before it goes under the neighbour: glue
            glued.extend(_glue_strip(*to_page(seam - strip, y0), strip, y1 - y0))
    for seam in layout.down[column]:
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
    band = top + (y1 - y0) + grow_bottom + 6.0
    ticks = _align_ticks(spec, layout, row, column, (x0, y0, x1, y1), to_page, bleed, band)
    marks: list[Item] = glued + cuts + ticks
    kinds = TILE_LINES + (("align",) if ticks else ())
    marks.extend(_label_band(spec, board, layout, row, column, band, caption, bar_label, names or {}, kinds))
    return Page(*spec.paper, (placement,), tuple(marks), label=f"{label} {tile_label(row, column)}")


def _align_ticks(spec: TileSpec, layout: TileLayout, row: int, column: int,
                 region: tuple[float, float, float, float], to_page: Callable[[float, float], tuple[float, float]],
                 bleed: float, band: float) -> list[Item]:
    """Ticks outside the board's outer edge where each of this tile's seams meets it: the neighbour draws
    its own at the same place, so the two meet once the tiles are laid together (the final trim cuts them
    away). Each runs out from the bleed, ALIGN_TICK long or as far as the printable paper lets it."""
    x0, y0, x1, y1 = region
    width = spec.paper[0]
    ticks: list[Item] = []

    def tick(start: float, limit: float, across: float, vertical: bool) -> None:
        """A tick from `start` towards `limit` (page mm along it), at `across` (page mm the other way)."""
        room = abs(limit - start)
        if room >= ALIGN_LEAST:
            length = math.copysign(min(ALIGN_TICK, room), limit - start)
            ticks.append(align_tick(across, start, 0, length) if vertical else align_tick(start, across, length, 0))

    for seam in (s for s in layout.across[row] if x0 < s < x1):
        x, top = to_page(seam, y0)
        _, bottom = to_page(seam, y1)
        if row == 0:
            tick(top - bleed - ALIGN_GAP, spec.printable, x, True)
        if row == layout.rows - 1:
            tick(bottom + bleed + ALIGN_GAP, band - ALIGN_GAP, x, True)
    for seam in (s for s in layout.down[column] if y0 < s < y1):
        left, y = to_page(x0, seam)
        right, _ = to_page(x1, seam)
        if column == 0:
            tick(left - bleed - ALIGN_GAP, spec.printable, y, False)
        if column == layout.columns - 1:
            tick(right + bleed + ALIGN_GAP, width - spec.printable, y, False)
    return ticks


def _glue_strip(x: float, y: float, w: float, h: float) -> list[Item]:
    """A glue strip (mm on the page): hatched, and edged where the neighbour's cut edge goes — the strokes'
    whole width inside it, so that none is left beside the seam once the neighbour covers the strip."""
    inset = GLUE.width
    x, y, w, h = x + inset, y + inset, w - 2 * inset, h - 2 * inset
    return [*glue_hatch(x, y, w, h), Rect(x, y, w, h, stroke=GLUE.colour, stroke_width=GLUE.width)]


def _label_band(spec: TileSpec, board: tuple[float, float], layout: TileLayout, row: int, column: int, top: float,
                caption, bar_label: str = "", names: dict[str, str] | None = None,
                kinds: tuple[str, ...] = TILE_LINES) -> list[Item]:
    items: list[Item] = []
    left = spec.margin + 4
    items.append(TextPlacement(left, top, caption(tile_label(row, column), 26.0)))
    items.extend(_assembly_map(spec.paper[0] / 2, top, board, layout, row, column, caption))
    bar_left = spec.paper[0] - spec.margin - 22 - SCALE_BAR
    items.extend(scale_bar_items(bar_left, top + 6, caption, bar_label))
    if names and all(names.get(kind) for kind in kinds):
        # under the bar, as wide as its kinds need, and never over the map
        right = spec.paper[0] - spec.margin
        map_right = spec.paper[0] / 2 + board[0] * _map_scale(board, layout) / 2
        start = max(min(bar_left, right - LEGEND_COLUMN * len(kinds)), map_right + 4)
        items.extend(legend(start, top + 18, right - start, [names[kind] for kind in kinds], caption, kinds))
    return items


def _assembly_map(middle: float, top: float, board: tuple[float, float], layout: TileLayout, row: int,
                  column: int, caption) -> list[Item]:
    """The board in small under `top`, centred on `middle`: each tile's own part (its seams to scale,
    bricks offset as they are glued) labelled, this tile's filled, a red dot where a seam crosses a word,
    a space or a picture (tile_boards warns of each)."""
    scale = _map_scale(board, layout)
    left = middle - board[0] * scale / 2
    items: list[Item] = []
    for r in range(layout.rows):
        for c in range(layout.columns):
            xs, ys = (0.0, *layout.across[r], board[0]), (0.0, *layout.down[c], board[1])
            x, y = left + xs[c] * scale, top + ys[r] * scale
            w, h = (xs[c + 1] - xs[c]) * scale, (ys[r + 1] - ys[r]) * scale
            this = (r, c) == (row, column)
            items.append(Rect(x, y, w, h, fill="#555555" if this else "#ffffff", stroke="#000000",
                              stroke_width=0.25))
            # the label centred, smaller in a narrow brick (6.5 pt holds "B2" in 5.6 mm)
            size = MAP_LABEL * min(1.0, w / (MAP_CELL * 0.56))
            runs = caption(tile_label(r, c), size)
            wide = max((run.x + run_width(run) for run in runs), default=0.0)
            items.append(TextPlacement(x + (w - wide) / 2, y + h / 2 - 1.6 * size / MAP_LABEL,
                                       tuple(_recolour(runs, "#ffffff" if this else "#000000"))))
    for crossing in layout.crossings:
        if crossing.obstacle.major:
            box = crossing.obstacle.box
            along = (box[1] + box[3]) / 2 if crossing.axis == 0 else (box[0] + box[2]) / 2
            bx, by = (crossing.at, along) if crossing.axis == 0 else (along, crossing.at)
            items.append(Ellipse(left + bx * scale - CROSSING_DOT / 2, top + by * scale - CROSSING_DOT / 2,
                                 CROSSING_DOT, CROSSING_DOT, fill=CROSSING_RED, stroke=None))
    return items


def _map_scale(board: tuple[float, float], layout: TileLayout) -> float:
    """The assembly map's scale: a tile at most MAP_CELL each way."""
    return min(layout.columns * MAP_CELL / board[0], layout.rows * MAP_CELL / board[1])


def _recolour(runs, colour):
    return [replace(run, color=colour) for run in runs]
