"""The kit's line language (issue 29): four kinds of line, one meaning each, drawn the same on every page.

- **cut**: a solid black line, CROP_MARK_WIDTH wide — crop marks, a board tile's edge at a seam, the
  assembled board's outer trim marks.
- **fold**: a dashed black line of the same width (FOLD_DASH) — standee folds, the gutterfold sheet's
  middle, the booklet's fold. Never a cut.
- **glue**: a light grey hatch over a board tile's overlap strip (faint enough to see the art through it),
  with the word for "glue" in the strip; hidden under the neighbouring tile once assembled.
- **align**: short registration ticks at each end of a seam, outside the board's outer trim, that meet
  across the seam once two sheets are glued (the final trim cuts them away).

Imposition stage: gives the strokes of each kind as shape items (mm on the page) and `legend`, a row of
the four samples with their names (the engine words kit.line.cut, kit.line.fold, kit.line.glue,
kit.line.align in the sheet's language, passed in), for the kit's first page and under each board tile.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from generator.components.piece import Item, Line, Pen, Rect, TextPlacement
from generator.imposition.grid import CROP_MARK_WIDTH
from generator.print_facts import FOLD_DASH
from generator.text.layout import GlyphRun

KINDS = ("cut", "fold", "glue", "align")         # the legend's order; the engine words are kit.line.<kind>

CUT = Pen("#000000", CROP_MARK_WIDTH)
FOLD = Pen("#000000", CROP_MARK_WIDTH, FOLD_DASH)
ALIGN = Pen("#000000", CROP_MARK_WIDTH)
GLUE = Pen("#8c8c8c", 0.18)   # the hatch's strokes: thin and mid grey, the art reads through them
GLUE_STEP = 1.8               # mm between the hatch's strokes (across them)
GLUE_WORD_COLOUR = "#6e6e6e"
ALIGN_TICK = 4.0              # mm: an align tick's length, away from the board

Caption = Callable[..., tuple[GlyphRun, ...]]


def _line(pen: Pen, x: float, y: float, w: float, h: float) -> Line:
    return Line(x, y, w, h, stroke=pen.colour, stroke_width=pen.width, dash=pen.dash)


def cut_line(x: float, y: float, w: float, h: float) -> Line:
    """A cut from (x, y) to (x + w, y + h)."""
    return _line(CUT, x, y, w, h)


def fold_line(x: float, y: float, w: float, h: float) -> Line:
    """A fold from (x, y) to (x + w, y + h)."""
    return _line(FOLD, x, y, w, h)


def align_tick(x: float, y: float, w: float, h: float) -> Line:
    """An align tick from (x, y) to (x + w, y + h)."""
    return _line(ALIGN, x, y, w, h)


def glue_hatch(x: float, y: float, w: float, h: float, step: float = GLUE_STEP) -> list[Item]:
    """The glue strip x, y, w, h hatched at 45 degrees (lines x - y = c, clipped to the rectangle)."""
    if w <= 0 or h <= 0:
        return []
    items: list[Item] = []
    spacing = step * math.sqrt(2)        # lines `step` mm apart are this far apart along x (and along y)
    # the lines x' - y' = c for c from -h to w (x', y' inside the strip), every `spacing`
    count = int((w + h) / spacing)
    for index in range(1, count + 1):
        c = -h + index * spacing
        x_start, y_start = max(0.0, c), max(0.0, -c)      # where the line enters the strip
        x_end, y_end = min(w, h + c), min(h, w - c)
        length = x_end - x_start
        if length > 1e-6 and abs((y_end - y_start) - length) < 1e-6:
            items.append(_line(GLUE, x + x_start, y + y_start, length, length))
    return items


def sample(kind: str, x: float, y: float, length: float) -> list[Item]:
    """A sample of one kind, `length` mm long, on the level y (its middle)."""
    if kind == "cut":
        return [cut_line(x, y, length, 0)]
    if kind == "fold":
        return [fold_line(x, y, length, 0)]
    if kind == "glue":
        height = 3.0
        return [Rect(x, y - height / 2, length, height, fill="#ffffff", stroke="#bbbbbb", stroke_width=0.1),
                *glue_hatch(x, y - height / 2, length, height, step=1.5)]
    if kind == "align":      # the two sheets' ticks, end to end where they meet across a seam
        gap, middle = 0.8, x + length / 2
        return [align_tick(middle, y - gap / 2 - ALIGN_TICK / 2, 0, ALIGN_TICK / 2),
                align_tick(middle, y + gap / 2, 0, ALIGN_TICK / 2)]
    raise ValueError(f"unknown line kind {kind!r}")


LEGEND_SIZE = 7.0             # pt: the names' size
LEGEND_SAMPLE = 9.0           # mm: a sample's length
LEGEND_HEIGHT = 5.0           # mm: the legend's height


def legend(x: float, y: float, width: float, names: Sequence[str], caption: Caption,
           kinds: Sequence[str] = KINDS) -> list[Item]:
    """The four kinds in a row from (x, y) (its top) across `width` mm: each a sample and its name
    (`names`, in the order of `kinds`: the engine words kit.line.*), set by `caption`."""
    if len(names) != len(kinds):
        raise ValueError("one name per line kind")
    items: list[Item] = []
    column = width / len(kinds)
    middle = y + LEGEND_HEIGHT / 2
    for index, (kind, name) in enumerate(zip(kinds, names, strict=True)):
        left = x + index * column
        items.extend(sample(kind, left, middle, LEGEND_SAMPLE))
        room = column - LEGEND_SAMPLE - 3.0
        if name and room > 0:
            runs = caption(name, LEGEND_SIZE, room)
            items.append(TextPlacement(left + LEGEND_SAMPLE + 2.0, middle - LEGEND_SIZE * 0.3528 * 0.75, runs))
    return items
