"""Inline icons as art, measured by the render stage: the placement of generator.components.text_placement
with art sizes read by generator.render.art, for the stages above layout (the rulebook, covers)."""

from __future__ import annotations

from pathlib import Path

from generator.components import text_placement
from generator.components.piece import ArtPlacement, TextPlacement
from generator.render.art import art_size
from generator.text.layout import InlineIcon, TextLayout


def placed_text(layout: TextLayout, x: float, y: float) -> TextPlacement:
    """A set text whose box starts at (x, y) mm: its glyph runs and its icons' art."""
    return text_placement.placed_text(layout, x, y, art_size)


def inline_art(layout: TextLayout, x: float, y: float) -> tuple[ArtPlacement, ...]:
    """The art of a set text's icons, for text whose box starts at (x, y) mm."""
    return text_placement.inline_art(layout, x, y, art_size)


def icon_art(file: Path, icon: InlineIcon, dx: float = 0.0, dy: float = 0.0) -> ArtPlacement:
    """The art of an inline icon in the square the layout kept for it, moved by (dx, dy) mm."""
    return text_placement.icon_art(file, icon, art_size, (dx, dy))
