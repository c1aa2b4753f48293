"""The drawable unit between layout and imposition: a face made of shapes, art and text.

Coordinates are millimetres from the top-left corner of the trim, y downwards;
the bleed lies at negative coordinates and beyond width × height.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.text.layout import GlyphRun


@dataclass(frozen=True)
class Shape:
    kind: str                      # 'rect', 'ellipse' or 'line' (from x, y to x + w, y + h)
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    radius: float = 0.0
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


Item = Shape | ArtPlacement | TextPlacement


@dataclass(frozen=True)
class Face:
    """One side of a piece. `key` identifies identical faces so each is drawn once."""

    key: str
    width: float
    height: float
    bleed: float
    items: tuple[Item, ...]

    @property
    def text(self) -> str:
        """The face's words in reading order (tests and checks search it)."""
        return " ".join(run.text for item in self.items if isinstance(item, TextPlacement)
                        for run in item.runs)


@dataclass(frozen=True)
class PieceCopy:
    """One physical card: its front, its back, and where it came from."""

    deck: str
    card: str
    number: int                    # 1-based position in its deck
    front: Face
    back: Face
