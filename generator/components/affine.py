"""Where a group's items lie on its face: the mapping render/pdf.py draws a Group with.

Components stage: the renderer (render/transparency.py) finds art through it, the tiler
(imposition/seams.py) the words and spaces a seam would cross.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.components.piece import Group


@dataclass(frozen=True)
class Affine:
    """x' = a x + b y + e, y' = c x + d y + f: a group's items' coordinates mapped onto the face (mm, y down)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x + self.b * y + self.e, self.c * x + self.d * y + self.f

    def then(self, outer: "Affine") -> "Affine":
        """This mapping followed by `outer`."""
        return Affine(outer.a * self.a + outer.b * self.c, outer.a * self.b + outer.b * self.d,
                      outer.c * self.a + outer.d * self.c, outer.c * self.b + outer.d * self.d,
                      outer.a * self.e + outer.b * self.f + outer.e, outer.c * self.e + outer.d * self.f + outer.f)

    def inverse(self) -> "Affine":
        det = self.a * self.d - self.b * self.c
        a, b, c, d = self.d / det, -self.b / det, -self.c / det, self.a / det
        return Affine(a, b, c, d, -(a * self.e + b * self.f), -(c * self.e + d * self.f))


IDENTITY = Affine()


def group_affine(group: Group) -> Affine:
    """The group's own coordinates onto its parent's, as render/pdf.py draws it: centred on its frame,
    scaled to fill it, turned clockwise by its rotation."""
    turned = group.rotation % 180 == 90
    along, across = (group.h, group.w) if turned else (group.w, group.h)
    sx, sy = along / group.width, across / group.height
    angle = math.radians(group.rotation)
    cos, sin = round(math.cos(angle)), round(math.sin(angle))   # quarter turns only
    centre_x, centre_y = group.x + group.w / 2, group.y + group.h / 2
    local = Affine(sx, 0, 0, sy, -sx * group.width / 2, -sy * group.height / 2)
    return local.then(Affine(cos, -sin, sin, cos, centre_x, centre_y))
