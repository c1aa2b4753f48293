"""Inline icons as art: an icon set in text becomes an art placement standing on the text's baseline.

The layout gives each icon a square the height of ICON_EM × the size, bottom on
the baseline; the art is fitted into that square keeping its proportions and
drawn as vector art (the same form as the art's every other use in the PDF).
Every text the engine places on a face — text boxes, table cells, the kit's
first page — is placed by `placed_text`, so an icon is drawn wherever its text is.
"""

from __future__ import annotations

from pathlib import Path

from generator.components.piece import ArtPlacement, TextPlacement
from generator.render.art import art_size
from generator.text.layout import InlineIcon, TextLayout


def placed_text(layout: TextLayout, x: float, y: float) -> TextPlacement:
    """A set text whose box starts at (x, y) mm: its glyph runs and its icons' art."""
    return TextPlacement(x, y, layout.runs, inline_art(layout, x, y))


def inline_art(layout: TextLayout, x: float, y: float) -> tuple[ArtPlacement, ...]:
    """The art of a set text's icons, for text whose box starts at (x, y) mm."""
    return tuple(icon_art(icon.file, icon, x, y) for icon in layout.icons if icon.file is not None)


def icon_art(file: Path, icon: InlineIcon, dx: float = 0.0, dy: float = 0.0) -> ArtPlacement:
    """The art of an inline icon in the square the layout kept for it, moved by (dx, dy) mm."""
    width, height = art_size(file)
    scale = icon.size / max(width, height, 1e-9)
    w, h = width * scale, height * scale
    # centred across, standing on the baseline (the square's bottom)
    return ArtPlacement(file, icon.x + dx + (icon.size - w) / 2, icon.y + dy + icon.size - h, w, h)
