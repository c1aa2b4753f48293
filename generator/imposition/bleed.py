"""More bleed than a face was drawn with, for a print shop: what runs to the face's edge runs on past it.

The home rulebook is drawn to its page edge (the cover's background and band, the back cover's ground), and a
board or token to its template's bleed (3 mm, where a US shop asks ⅛ in): cut at the trim by a shop, such a face
needs its colour to go on into the shop's bleed or a hair of white shows. A shape that reaches the face's edge
(its bleed's, or the trim's where it has none) is drawn on to the new edge; nothing else moves (text keeps its
margins inside the trim, and art that stops at the old edge is what preflight then says).
"""

from __future__ import annotations

from dataclasses import replace

from generator.components.piece import Face, Item, Rect

EDGE = 0.01       # mm: a shape this close to the page's edge is drawn to it


def bled(face: Face, bleed: float) -> Face:
    """The face with `bleed` mm of bleed (no less than its own): its edge-reaching rectangles drawn on into it."""
    if bleed <= face.bleed:
        return face
    items = tuple(_extended(item, face, bleed) for item in face.items)
    # (its key kept: a print-shop file holds the bled face only, and its PNGs are found by the pieces' keys)
    return Face(face.key, face.width, face.height, bleed, items, face.shape, face.spaces, face.loops)


def _extended(item: Item, face: Face, bleed: float) -> Item:
    if not isinstance(item, Rect):
        return item
    old, more = face.bleed, bleed - face.bleed
    x, y, w, h = item.x, item.y, item.w, item.h
    left, top = x <= -old + EDGE, y <= -old + EDGE
    right, bottom = x + w >= face.width + old - EDGE, y + h >= face.height + old - EDGE
    if not (left or top or right or bottom):
        return item
    x0, y0 = x - more if left else x, y - more if top else y
    x1, y1 = x + w + more if right else x + w, y + h + more if bottom else y + h
    return replace(item, x=x0, y=y0, w=x1 - x0, h=y1 - y0)
