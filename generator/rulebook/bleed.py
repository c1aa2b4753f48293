"""A rulebook page with bleed, for a print shop: what runs to the page's edge runs on past it.

The home rulebook is drawn to its page edge (the cover's background and band, the back cover's ground):
cut at the trim by a shop, such a page needs its colour to go on into the bleed or a hair of white shows.
A shape that touches an edge of the page is drawn that much further; nothing else moves (the text keeps its
margins inside the trim).
"""

from __future__ import annotations

from dataclasses import replace

from generator.components.piece import Face, Item, Shape

EDGE = 0.01       # mm: a shape this close to the page's edge is drawn to it


def bled(face: Face, bleed: float) -> Face:
    """The page as a face with `bleed` mm of bleed: its edge-touching shapes drawn on into it."""
    items = tuple(_extended(item, face.width, face.height, bleed) for item in face.items)
    return Face(face.key + " bleed", face.width, face.height, bleed, items, face.shape, face.spaces, face.loops)


def _extended(item: Item, width: float, height: float, bleed: float) -> Item:
    if not isinstance(item, Shape) or type(item).__name__ not in ("Rect",):
        return item
    x, y, w, h = item.x, item.y, item.w, item.h
    left, top = x <= EDGE, y <= EDGE
    right, bottom = x + w >= width - EDGE, y + h >= height - EDGE
    if not (left or top or right or bottom):
        return item
    x0, y0 = x - bleed if left else x, y - bleed if top else y
    x1, y1 = x + w + bleed if right else x + w, y + h + bleed if bottom else y + h
    return replace(item, x=x0, y=y0, w=x1 - x0, h=y1 - y0)
