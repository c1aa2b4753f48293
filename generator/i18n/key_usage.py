"""What the layout did with each catalog key: the boxes it was set in, their room, how the words fit.

The data `pnp i18n export` gathers (generator/i18n/sizes.py records it while laying out) and the
translation units read (generator/i18n/translation_units.py): kept here, below both, so the
catalogs stage reads it without importing the layout that fills it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from generator.units import mm_to_pt, pt_to_mm

if TYPE_CHECKING:      # only named: the layout stages above this one make these values
    from generator.components.piece import TextPlacement
    from generator.text.layout import SetStyle


@dataclass(frozen=True)
class BoxRoom:
    """A text box as the engine sets it: room inside its padding (mm) and its style."""

    template: str
    box: str
    width: float
    height: float
    style: SetStyle

    @property
    def lines(self) -> int:
        """Lines that fit at the smallest size the engine sets this box at (one paragraph)."""
        return max(1, math.floor(self.height / pt_to_mm(self.style.min_size * self.style.leading) + 1e-6))

    @property
    def width_pt(self) -> int:
        """The box's width in points, rounded down (what a size check may use)."""
        return math.floor(mm_to_pt(self.width) + 1e-6)

    @property
    def capacity(self) -> float:
        """Room for words, in line-millimetres at the smallest size: the tighter box has less."""
        return self.width * self.lines


@dataclass
class BoxUse:
    """One key set in one box: every subject (card, cell) showing it, and how the words fit."""

    room: BoxRoom
    subjects: list[str] = field(default_factory=list)    # 'deck gifts, card teddy', each once, in layout order
    editions: list[str] = field(default_factory=list)
    placement: TextPlacement | None = None     # the first face's, to find it on the printed face
    fits: bool = True
    overflow: float = 0.0                      # mm beyond the box at the smallest size (worst subject)
    size: float = 0.0                          # pt the text fits at on its own (smallest seen)


@dataclass
class KeyUsage:
    """Everything the layout did with one key."""

    key: str
    places: list[str] = field(default_factory=list)   # 'cards.yaml:12:11' (relative to the game folder)
    boxes: dict[tuple[str, str], BoxUse] = field(default_factory=dict)

    @property
    def tightest(self) -> BoxUse | None:
        """The box with the least room: its limit holds the key everywhere it is printed."""
        return min(self.boxes.values(), key=lambda use: use.room.capacity) if self.boxes else None
