"""A set text placed on a face: its glyph runs, and its inline icons as art standing in the line.

The layout gives each icon a square ICON_CAPS × the capitals' height on a side,
centred on the capitals; the art is fitted into that square keeping its proportions and
drawn as vector art (the same form as the art's every other use in the PDF).
Every text the engine places on a face — text boxes, table cells, the kit's
first page, a leaflet's cover — is placed by `placed_text`, so an icon is drawn
wherever its text is. The art's proportions come from `art_size`, the render
stage's measure handed down (LayoutContext.art.size).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from generator.components.piece import ArtPlacement, TextPlacement
from generator.text.layout import InlineIcon, TextLayout

ArtSize = Callable[[Path], tuple[float, float]]


def placed_text(layout: TextLayout, x: float, y: float, art_size: ArtSize) -> TextPlacement:
    """A set text whose box starts at (x, y) mm: its glyph runs and its icons' art."""
    return TextPlacement(x, y, layout.runs, inline_art(layout, x, y, art_size), layout.readings)


def inline_art(layout: TextLayout, x: float, y: float, art_size: ArtSize) -> tuple[ArtPlacement, ...]:
    """The art of a set text's icons, for text whose box starts at (x, y) mm."""
    return tuple(icon_art(icon.file, icon, art_size, (x, y)) for icon in layout.icons if icon.file is not None)


def icon_art(file: Path, icon: InlineIcon, art_size: ArtSize,
             shift: tuple[float, float] = (0.0, 0.0)) -> ArtPlacement:
    """The art of an inline icon in the square the layout kept for it, moved by `shift` (dx, dy) mm."""
    width, height = art_size(file)
    scale = icon.size / max(width, height, 1e-9)
    w, h = width * scale, height * scale
    # centred across, standing on the baseline (the square's bottom)
    return ArtPlacement(file, icon.x + shift[0] + (icon.size - w) / 2, icon.y + shift[1] + icon.size - h, w, h)
