"""Small drawings of the kit's assembly steps, made from the game's own pieces (issue 29.3): the board in
miniature cut into its tiles as they are glued, a pawn flat and standing, the rulebook's sheets folded.

Each drawing is in the kit's line language (line_kinds.py): seams as cut lines with the glue strip
hatched on the sheet that goes under, folds dashed, staples solid. cover.py sets them in a row under the
printing steps, each numbered as the step it shows.

Imposition stage: reads laid-out faces (components) and a board's tiling (tiles.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.piece import Face, Group, Item, Line, Polygon, Rect, TextPlacement, Triangle
from generator.components.standee import TAB_COLOUR as TAB
from generator.imposition.line_kinds import CUT, FOLD, Caption, glue_hatch
from generator.imposition.tiles import TileLayout, tile_label
from generator.text.layout import run_width

HEIGHT = 36.0           # mm: a drawing's height
GAP = 1.6               # mm of paper shown between the board's tiles (drawn as a white seam)
STRIP = 1.4             # mm: the glue strip beside a seam, at least (a true 8 mm strip is under 1 mm here)
LABEL_SIZE = 5.5        # pt: a tile's label on the board drawing
ARROW = 7.0             # mm: the arrow from a part flat to the part made
INK = "#2b2220"
PAPER = "#ffffff"
SHEET = "#f3efe6"       # a sheet of the rulebook, drawn plain


@dataclass(frozen=True)
class StepDrawing:
    """A drawing for the kit step `step` (its kit.step.* key): items in its own box, mm from its top-left."""

    step: str
    width: float
    height: float
    items: tuple[Item, ...]


def board_drawing(face: Face, layout: TileLayout, caption: Caption) -> StepDrawing:
    """The board in miniature, its tiles apart at their seams (a white gap), each inner seam's glue strip
    hatched on the tile that goes under it, each tile labelled as its page is (A1, A2 …)."""
    scale = HEIGHT / face.height
    width = face.width * scale
    # its words are drawn, not read: at a tenth of their size they are no text a reader could use
    items: list[Item] = [Group(0, 0, width, HEIGHT, face.width, face.height, 0, face.items, read=False)]
    seams: list[Item] = []
    strips: list[Item] = []
    strip = max(STRIP, layout.overlap * scale)
    for row in range(layout.rows):
        top, bottom = _band(layout.down[0] if layout.shape != "columns" else (), row, face.height)
        for x in layout.across[row]:
            at = x * scale
            strips.extend(_strip(at + GAP / 2, top * scale, strip, (bottom - top) * scale))
            seams.append(Line(at, top * scale, 0, (bottom - top) * scale, stroke=PAPER, stroke_width=GAP))
    for column in range(layout.columns):
        left, right = _band(layout.across[0] if layout.shape != "rows" else (), column, face.width)
        for y in layout.down[column]:
            at = y * scale
            strips.extend(_strip(left * scale, at + GAP / 2, (right - left) * scale, strip))
            seams.append(Line(left * scale, at, (right - left) * scale, 0, stroke=PAPER, stroke_width=GAP))
    items += strips + seams
    items.append(Rect(0, 0, width, HEIGHT, stroke=CUT.colour, stroke_width=CUT.width))      # the outer trim
    items.extend(_tile_labels(face, layout, scale, caption))
    return StepDrawing("kit.step.board", width, HEIGHT, tuple(items))


def _band(seams: tuple[float, ...], index: int, length: float) -> tuple[float, float]:
    """Where band `index` of a direction cut at `seams` starts and ends (the whole length where the other
    direction's seams run right across: bricks)."""
    if not seams:
        return 0.0, length
    bounds = (0.0, *seams, length)
    return bounds[index], bounds[index + 1]


def _strip(x: float, y: float, w: float, h: float) -> list[Item]:
    """A glue strip's hatch just past a seam's gap, on the tile after it (the one that goes under)."""
    return [Rect(x, y, w, h, fill=PAPER), *glue_hatch(x, y, w, h, step=0.7)]


def _tile_labels(face: Face, layout: TileLayout, scale: float, caption: Caption) -> list[Item]:
    """Each tile's label (as on its page: A1, A2 …) on a small white plate in the middle of its own part."""
    items: list[Item] = []
    for row in range(layout.rows):
        for column in range(layout.columns):
            xs, ys = (0.0, *layout.across[row], face.width), (0.0, *layout.down[column], face.height)
            middle_x, middle_y = (xs[column] + xs[column + 1]) / 2 * scale, (ys[row] + ys[row + 1]) / 2 * scale
            runs = caption(tile_label(row, column), LABEL_SIZE)
            wide = max((run.x + run_width(run) for run in runs), default=0.0)
            items.append(Rect(middle_x - wide / 2 - 0.8, middle_y - 1.9, wide + 1.6, 3.8, fill=PAPER,
                              radius=0.6))
            items.append(TextPlacement(middle_x - wide / 2, middle_y - 1.6, runs))
    return items


def standee_drawing(pawn: Face) -> StepDrawing:
    """A pawn as printed (flat, its folds dashed), an arrow, and the pawn made: its front standing upright
    on its base tabs folded out (the back glued behind it)."""
    scale = HEIGHT / pawn.height
    flat_width = pawn.width * scale
    items: list[Item] = [Group(0, 0, flat_width, HEIGHT, pawn.width, pawn.height, 0, pawn.items, read=False),
                         Rect(0, 0, flat_width, HEIGHT, stroke=CUT.colour, stroke_width=CUT.width)]
    x = flat_width + 2.0
    items.extend(_arrow(x, HEIGHT / 2))
    x += ARROW + 3.0
    front = next((item for item in pawn.items if isinstance(item, Group) and item.rotation == 0), None)
    if front is None:            # not a fold-over standee: the arrow to nothing would say nothing
        return StepDrawing("kit.step.pawns", flat_width, HEIGHT, tuple(items[:2]))
    base = 2.4                   # mm: the tabs folded out, seen a little from above
    upright = (HEIGHT - base) * 0.9 / front.h * front.w, (HEIGHT - base) * 0.9
    flare = 3.0
    left = x + flare
    top = HEIGHT - base - upright[1]
    items.append(Polygon(x, HEIGHT - base, 0, 0, fill=TAB, stroke=INK, stroke_width=0.3,
                         points=((left, HEIGHT - base), (left + upright[0], HEIGHT - base),
                                 (left + upright[0] + flare, HEIGHT), (x, HEIGHT))))
    items.append(Group(left, top, upright[0], upright[1], front.width, front.height, 0, front.items, read=False))
    items.append(Rect(left, top, upright[0], upright[1], stroke=INK, stroke_width=0.3))
    return StepDrawing("kit.step.pawns", left + upright[0] + flare, HEIGHT, tuple(items))


def booklet_drawing(sheets: int) -> StepDrawing:
    """The rulebook's sheets stacked and folded in half (stapled on the fold where there is more than one),
    an arrow, and the folded booklet."""
    page_w, page_h = HEIGHT * 148 / 210 * 0.8, HEIGHT * 0.8
    top = (HEIGHT - page_h) / 2
    items: list[Item] = []
    for index in range(min(sheets, 3) - 1, -1, -1):      # the stack, the top sheet last
        offset = index * 1.2
        items.append(Rect(offset, top - offset, 2 * page_w, page_h, fill=SHEET, stroke=INK, stroke_width=0.3))
    items.append(Line(page_w, top, 0, page_h, stroke=FOLD.colour, stroke_width=FOLD.width, dash=(1.5, 1.0)))
    staples = sheets > 1
    if staples:
        for y in (top + page_h * 0.25, top + page_h * 0.75):
            items.append(Line(page_w, y - 1.5, 0, 3.0, stroke=INK, stroke_width=0.9))
    x = 2 * page_w + 4.0
    items.extend(_arrow(x, HEIGHT / 2))
    x += ARROW + 3.0
    items.append(Rect(x, top, page_w, page_h, fill=SHEET, stroke=INK, stroke_width=0.3))
    if staples:
        for y in (top + page_h * 0.25, top + page_h * 0.75):
            items.append(Line(x, y - 1.5, 0, 3.0, stroke=INK, stroke_width=0.9))
    step = "kit.step.booklet" if sheets > 1 else "kit.step.booklet_sheet"
    return StepDrawing(step, x + page_w, HEIGHT, tuple(items))


def _arrow(x: float, y: float) -> list[Item]:
    return [Line(x, y, ARROW - 2.0, 0, stroke=INK, stroke_width=0.6),
            Triangle(x + ARROW - 2.4, y - 1.4, 2.4, 2.8, fill=INK, point="right")]
