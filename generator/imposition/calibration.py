"""`pnp calibrate`: a two-sided test sheet from which a user reads their printer's back offset.

The front carries black scales through the page centre and a fine grid; the
back carries a red cross exactly behind the centre, and a red grid. Held
against the light, seen from the front, the red cross sits over the scales:
their numbers already account for the mirror of the duplex flip, so the
numbers under the red cross are the X,Y to pass as `--back-offset`.
"""

from __future__ import annotations

from generator.components.piece import Ellipse, Item, Line, TextPlacement
from generator.imposition.grid import scale_bar_items
from generator.imposition.sheet import Page

REACH = 6.0          # mm either side of the centre
GRID = 40.0          # mm square of fine grid around the centre
RED = "#d40000"


def calibration_pages(paper: tuple[float, float], duplex: str, caption, instructions: str,
                      bar_label: str = "") -> list[Page]:
    """The sheet's front (scales, grid, `instructions`, a 50 mm bar labelled `bar_label`) and its back."""
    cx, cy = paper[0] / 2, paper[1] / 2
    # sign of the correction per mm the red cross appears right (x) or down (y) of the centre, seen from the front
    sign_x, sign_y = (1, -1) if duplex == "long-edge" else (-1, 1)
    front: list[Item] = []
    front += _grid(cx, cy, "#bdbdbd")
    for step in range(int(-REACH * 2), int(REACH * 2) + 1):
        d = step / 2
        long_tick = step % 2 == 0
        length = 3.0 if long_tick else 1.6
        front.append(Line(cx + d, cy - GRID / 2 - length, 0, length, stroke="#000000", stroke_width=0.12))
        front.append(Line(cx - GRID / 2 - length, cy + d, length, 0, stroke="#000000", stroke_width=0.12))
        if step % 4 == 0 and d:      # a number every 2 mm
            front.append(TextPlacement(cx + d - 1.6, cy - GRID / 2 - 7.5, caption(f"{sign_x * d:+g}", 5.0)))
            front.append(TextPlacement(cx - GRID / 2 - 10.5, cy + d - 1.0, caption(f"{sign_y * d:+g}", 5.0)))
    front += _cross(cx, cy, "#000000", 0.15)
    front.append(TextPlacement(15, 15, caption(instructions, 9.0, paper[0] - 30)))
    front.extend(scale_bar_items(15, paper[1] - 15, caption, bar_label))
    # the red cross reaches the scales at the grid's edges, where it is read
    back: list[Item] = _grid(cx, cy, "#f2a0a0") + _cross(cx, cy, RED, 0.25, GRID / 2 + 3.0)
    # the scales' own red twins on the back, behind the front's: their lines fall on one another when registered
    for step in range(int(-REACH), int(REACH) + 1):
        back.append(Line(cx + step, cy - GRID / 2 - 3.0, 0, 3.0, stroke=RED, stroke_width=0.12))
        back.append(Line(cx - GRID / 2 - 3.0, cy + step, 3.0, 0, stroke=RED, stroke_width=0.12))
    return [Page(*paper, (), tuple(front), label="calibration front"),
            Page(*paper, (), tuple(back), label="calibration back")]


def _grid(cx: float, cy: float, colour: str) -> list[Item]:
    lines: list[Item] = []
    for step in range(int(GRID) + 1):
        offset = step - GRID / 2
        width = 0.2 if step % 5 == 0 else 0.08
        lines.append(Line(cx + offset, cy - GRID / 2, 0, GRID, stroke=colour, stroke_width=width))
        lines.append(Line(cx - GRID / 2, cy + offset, GRID, 0, stroke=colour, stroke_width=width))
    return lines


def _cross(cx: float, cy: float, colour: str, width: float, reach: float = REACH) -> list[Item]:
    return [Line(cx - reach, cy, 2 * reach, 0, stroke=colour, stroke_width=width),
            Line(cx, cy - reach, 0, 2 * reach, stroke=colour, stroke_width=width),
            Ellipse(cx - 1.5, cy - 1.5, 3, 3, stroke=colour, stroke_width=width)]
