"""The drawable unit between layout and imposition: a face made of shapes, art and text.

Coordinates are millimetres from the top-left corner of the trim, y downwards;
the bleed lies at negative coordinates and beyond width × height.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from generator.text.layout import GlyphRun


@dataclass(frozen=True)
class Shape:
    kind: str                      # rect, ellipse, line, curve (x, y to x + w, y + h), triangle-*, polygon
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    radius: float = 0.0
    dash: tuple[float, ...] | None = None
    control: tuple[float, float] | None = None   # a 'curve' bends towards this point
    points: tuple[tuple[float, float], ...] | None = None   # a 'polygon''s corners


class Pen(NamedTuple):
    """How a line is drawn: its colour (None: not drawn), width (mm) and dash pattern."""

    colour: str | None
    width: float
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class ArtPlacement:
    file: Path
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class TextPlacement:
    x: float                       # the box's top-left; runs are relative to it
    y: float
    runs: tuple[GlyphRun, ...]
    icons: tuple[ArtPlacement, ...] = ()   # inline icons' art, placed on the face like any art


@dataclass(frozen=True)
class Group:
    """Items laid out in their own width × height, drawn into the frame x, y, w, h.

    `rotation` turns the group clockwise by 0, 90, 180 or 270 degrees (a board
    space facing its side of the table, the back half of a standee); the
    group is scaled to fill the frame.
    """

    x: float
    y: float
    w: float
    h: float
    width: float
    height: float
    rotation: int
    items: tuple["Item", ...]


Item = Shape | ArtPlacement | TextPlacement | Group


def walk(items: tuple[Item, ...]):
    """Every item, descending into groups."""
    for item in items:
        yield item
        if isinstance(item, Group):
            yield from walk(item.items)
        elif isinstance(item, TextPlacement):
            yield from item.icons


@dataclass(frozen=True)
class Face:
    """One side of a piece. `key` identifies identical faces so each is drawn once."""

    key: str
    width: float
    height: float
    bleed: float
    items: tuple[Item, ...]
    shape: str = "rect"            # or 'round': where the piece is cut (the template's `shape`)

    @property
    def text(self) -> str:
        """The face's words in reading order (tests and checks search it)."""
        return " ".join(run.text for item in walk(self.items) if isinstance(item, TextPlacement)
                        for run in item.runs)


@dataclass(frozen=True)
class PieceCopy:
    """One physical card: its front, its back, and where it came from."""

    deck: str
    card: str
    number: int                    # 1-based position in its deck
    front: Face
    back: Face
