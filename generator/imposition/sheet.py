"""Pages as data: faces placed in millimetres from the page's top-left, plus marks."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.components.piece import Face, Item
from generator.print_facts import PAPER_SIZES  # noqa: F401  (the papers pages are laid out on, portrait mm)


@dataclass(frozen=True)
class Placement:
    """A face with its trim's top-left at (x, y); only `clip` (page mm) of it shows."""

    face: Face
    x: float
    y: float
    clip: tuple[float, float, float, float]
    scale: tuple[float, float] = (1.0, 1.0)   # a print-shop preset's slightly different card size


@dataclass(frozen=True)
class Page:
    """One page (mm): faces placed on it, marks drawn over them, and a print-shop page's boxes."""

    width: float
    height: float
    placements: tuple[Placement, ...]
    marks: tuple[Item, ...] = ()
    trim_box: tuple[float, float, float, float] | None = None   # x, y, w, h in page mm
    bleed_box: tuple[float, float, float, float] | None = None
    label: str = ""


@dataclass
class Document:
    """The pages of one PDF file, its title, and whether viewers should print it at 100 %."""

    pages: list[Page] = field(default_factory=list)
    title: str = ""
    no_print_scaling: bool = True
