"""Fold-over standees: a figure's front and back on one strip, folded along the middle.

From top to bottom: a base tab, the back turned 180° (it reads upright once
folded behind the front), the fold line, the front, a base tab. The tabs fold
outwards to make the stand.
"""

from __future__ import annotations

from generator.components.piece import Face, Group, Item, Line, Rect
from generator.print_facts import FOLD_DASH, MARK_WIDTH

TAB_COLOUR = "#d9d2c5"


def standee_face(front: Face, back: Face, base: float, key: str) -> Face:
    width, figure = front.width, front.height
    height = 2 * base + 2 * figure
    items: list[Item] = [
        Rect(0, 0, width, base, fill=TAB_COLOUR),
        Group(0, base, width, figure, back.width, back.height, 180, back.items),
        Group(0, base + figure, width, figure, front.width, front.height, 0, front.items),
        Rect(0, base + 2 * figure, width, base, fill=TAB_COLOUR),
    ]
    for y in (base, base + figure, base + 2 * figure):   # folds, as every fold of the kit (print_facts)
        items.append(Line(0, y, width, 0, stroke="#000000", stroke_width=MARK_WIDTH, dash=FOLD_DASH))
    # the front named as its space: a rulebook figure draws the pawn standing on a board by it (board_scene.py)
    return Face(key, width, height, 0.0, tuple(items), spaces=(("front", 0.0, base + figure, width, figure),))
