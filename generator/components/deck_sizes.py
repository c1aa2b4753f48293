"""One size per text box across a deck: texts fitted card by card, then the larger ones set again.

Layout fits every text on its own, as it always has; that fit measures each card's
text, so the size a deck's box needs is simply the smallest of those sizes (the
largest at which every card's text fits). When the deck is laid out, only the texts
fitted larger are set again, once each at that size, and the faces holding them get
the new placements. A deck (token set, pawn set) is one scope; a board or a sheet is
one scope with every cell and map node drawn on it.

Styles with `fit: each` are left alone: each text keeps the size it fits at.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from generator.components.piece import Face, Group, Item, TextPlacement
from generator.components.text_placement import ArtSize, inline_art
from generator.text.layout import SetStyle, TextLayout, fit_text
from generator.text.rich import Paragraph
from generator.text.setter import TextSetter

_OPEN = ("deck sizes", "open")   # ctx.memo: the scope texts are noted in while a deck is laid out
_ROUNDS = 3        # wrapping is not strictly monotonic in the size: a text may need a smaller one still
_SAME = 1e-9       # sizes come from one binary search: equal sizes are equal floats


class FittedText(NamedTuple):
    """A text fitted on its own in a box whose size the deck shares: what setting it again takes.

    (A named tuple: one is made per distinct text, and a frozen dataclass is slower to make.)"""

    paragraphs: tuple[Paragraph, ...]
    width: float                    # mm, inside the box's padding
    height: float
    style: SetStyle
    layout: TextLayout              # its own fit
    placement: TextPlacement        # the item the faces hold


@dataclass
class DeckSizes:
    """The texts of one deck (or board, or sheet) by box, and after settling, their replacements."""

    boxes: dict[tuple[str, str], dict[int, FittedText]] = field(default_factory=dict)
    replacements: dict[int, TextPlacement] = field(default_factory=dict)   # by id of the placement replaced
    sizes: dict[tuple[str, str], float] = field(default_factory=dict)      # the size each box was set at
    _faces: dict[int, tuple[Face, Face]] = field(default_factory=dict)
    _so_far: dict[tuple[str, str], float] = field(default_factory=dict)     # each box's smallest size yet

    def note(self, template_id: str, box_name: str, text: FittedText) -> None:
        """Count a text (each distinct placement once: copies of a card share one)."""
        texts = self.boxes.get((template_id, box_name))
        if texts is None:
            texts = self.boxes[(template_id, box_name)] = {}
        texts[id(text.placement)] = text
        size = text.layout.size
        if size < self._so_far.get((template_id, box_name), size + 1.0):
            self._so_far[(template_id, box_name)] = size

    def size_so_far(self, template_id: str, box_name: str) -> float | None:
        """The smallest size a text of the box was set at yet (None before its first text).

        The deck's size can only be this or smaller, so a further text that fits at it need
        not be fitted on its own first: a fit's size search finds the largest size of its grid
        that fits, and every text of a box searches the same grid, so a text that fits at this
        size (a point of that grid) would have been fitted no smaller. It is set at this size
        now, and again at the deck's size if that ends up smaller (settle)."""
        return self._so_far.get((template_id, box_name))

    def settle(self, setter: TextSetter, art_size: ArtSize) -> None:
        """Decide each box's size and set the texts fitted larger than it again."""
        for box, texts in self.boxes.items():
            self.sizes[box], replacements = _one_size(list(texts.values()), setter, art_size)
            self.replacements.update(replacements)

    def final(self, face: Face | None) -> Face | None:
        """The face with its texts at their deck's size (the same object if nothing changed)."""
        if face is None or not self.replacements:
            return face
        # faces are shared by the copies of a card: rewrite each once, and keep the sharing
        known = self._faces.get(id(face))
        if known is None:
            items = _replaced(face.items, self.replacements)
            known = self._faces[id(face)] = (face, face if items is face.items else replace(face, items=items))
        return known[1]


def open_scope(ctx) -> DeckSizes | None:
    """The scope texts laid out now belong to (None outside any deck: each text keeps its own fit)."""
    return ctx.memo.get(_OPEN)


@contextmanager
def one_size_per_deck(ctx):
    """Lay out a deck inside: its deck-wide boxes are settled on leaving; `final(face)` gives each
    face its texts at the deck's sizes. Inside an open scope (a board's cells) this adds nothing."""
    if ctx.memo.get(_OPEN) is not None:
        yield _PASS_THROUGH
        return
    scope = ctx.memo[_OPEN] = DeckSizes()
    try:
        yield scope
    finally:
        del ctx.memo[_OPEN]
    scope.settle(ctx.setter, ctx.art.size)


class _PassThrough(DeckSizes):
    def final(self, face: Face | None) -> Face | None:
        return face


_PASS_THROUGH = _PassThrough()


def _one_size(texts: list[FittedText], setter: TextSetter,
              art_size: ArtSize) -> tuple[float, dict[int, TextPlacement]]:
    """The largest size at which every text fits, and the texts fitted larger set again at it.

    A text that fit on its own but overflowed (fits False) sets the size to its minimum and
    keeps its own layout: its overflow was reported when it was fitted.
    """
    size = min([text.layout.size for text in texts])
    replacements: dict[int, TextPlacement] = {}
    for _ in range(_ROUNDS):
        replacements, smaller = {}, size
        styles: dict[int, tuple[SetStyle, SetStyle]] = {}     # a box's texts share their style: made once
        for text in texts:
            if text.layout.size <= size + _SAME:
                continue
            pair = styles.get(id(text.style))
            if pair is None:
                style = replace(text.style, size=size, min_size=min(size, text.style.min_size))
                pair = styles[id(text.style)] = (style, replace(style, min_size=size))
            style, at_size = pair
            again = fit_text(text.paragraphs, text.width, text.height, at_size, setter)
            if again.fits:
                replacements[id(text.placement)] = TextPlacement(text.placement.x, text.placement.y, again.runs,
                                                                     inline_art(again, text.placement.x,
                                                                                text.placement.y, art_size),
                                                                     again.readings)
            else:        # fits lower down only: a new round at that size
                smaller = min(smaller, fit_text(text.paragraphs, text.width, text.height, style, setter).size)
        if smaller >= size - _SAME:
            break
        size = smaller
    return size, replacements


def _replaced(items: tuple[Item, ...], replacements: dict[int, TextPlacement]) -> tuple[Item, ...]:
    """The items with placements swapped (the same tuple if none of them is replaced)."""
    changed = False
    result = []
    for item in items:
        new = item
        if isinstance(item, TextPlacement):
            new = replacements.get(id(item), item)
        elif isinstance(item, Group):
            inner = _replaced(item.items, replacements)
            if inner is not item.items:
                new = replace(item, items=inner)
        changed = changed or new is not item
        result.append(new)
    return tuple(result) if changed else items
