"""The drawable unit between layout and imposition: a face made of shapes, art and text.

Coordinates are millimetres from the top-left corner of the trim, y downwards;
the bleed lies at negative coordinates and beyond width × height.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, NamedTuple

from generator.text.layout import GlyphRun


@dataclass(frozen=True)
class Shape:
    """What every drawn shape has: its frame (mm from the face's top-left) and its paint.

    Each kind is its own class below; render/pdf.py draws each by one table keyed by class,
    so a new kind is a class here, its schema model and one line of that table.
    """

    kind: ClassVar[str] = ""
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Rect(Shape):
    """A rectangle filling its frame, its corners rounded by `radius` (mm)."""

    kind: ClassVar[str] = "rect"
    radius: float = 0.0


@dataclass(frozen=True)
class Ellipse(Shape):
    """An ellipse touching its frame's sides."""

    kind: ClassVar[str] = "ellipse"


@dataclass(frozen=True)
class Line(Shape):
    """A straight line from (x, y) to (x + w, y + h)."""

    kind: ClassVar[str] = "line"


@dataclass(frozen=True)
class Curve(Shape):
    """A quadratic curve from (x, y) to (x + w, y + h), bending towards `control`."""

    kind: ClassVar[str] = "curve"
    control: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Triangle(Shape):
    """A triangle filling its frame, its tip at the middle of the side `point` names."""

    kind: ClassVar[str] = "triangle"
    point: str = "right"          # right, left, up or down


@dataclass(frozen=True)
class Polygon(Shape):
    """A closed polygon through `points` (mm on the face); x, y, w and h are not used to draw it."""

    kind: ClassVar[str] = "polygon"
    points: tuple[tuple[float, float], ...] = ()


class Pen(NamedTuple):
    """How a line is drawn: its colour (None: not drawn), width (mm) and dash pattern."""

    colour: str | None
    width: float
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class ArtPlacement:
    """An art file drawn into the frame x, y, w, h (mm on the face)."""

    file: Path
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class TextPlacement:
    """Set text: its glyph runs, placed from the box's top-left, and the art of its inline icons."""

    x: float                       # the box's top-left; runs are relative to it
    y: float
    runs: tuple[GlyphRun, ...]
    icons: tuple[ArtPlacement, ...] = ()   # inline icons' art, placed on the face like any art
    readings: tuple[tuple[float, str], ...] = ()   # right-to-left lines' logical texts (TextLayout.readings)


@dataclass(frozen=True)
class Group:
    """Items laid out in their own width × height, drawn into the frame x, y, w, h.

    `rotation` turns the group clockwise by 0, 90, 180 or 270 degrees (a board
    space facing its side of the table, the back half of a standee), or by any
    whole number of degrees about the frame's centre (a card of the rulebook
    cover's fan: only the renderer draws such a group); the group is scaled
    to fill the frame.
    """

    x: float
    y: float
    w: float
    h: float
    width: float
    height: float
    rotation: int
    items: tuple["Item", ...]
    read: bool = True       # whether its words go into the file's text (a miniature's, too small to read, do not)


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
    # its named places (a board's spaces): 'track.5' (the 5th cell of the cells box 'track'), 'track.start'
    # (the cell whose `id` is start), 'map.minsk' (a network's node), 'players.2/trees.3' (a cell of a cell);
    # each with its frame (x, y, w, h, mm on the face). The rulebook's board excerpts point at them.
    spaces: tuple[tuple[str, float, float, float, float], ...] = ()
    loops: tuple[str, ...] = ()    # the cells boxes of those whose cells go round a loop (a move may pass the last)

    def space(self, name: str) -> tuple[float, float, float, float] | None:
        """The frame of the named space, or None where the face has none of that name."""
        for known, x, y, w, h in self.spaces:
            if known == name:
                return x, y, w, h
        return None

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
    back: Face | None              # None: a piece with no back of its own (a pawn's standee, a one-sided set)
