"""The rulebook's figures and callouts as blocks of the page flow (pages.py).

A figure is a face of the game's own (a card, a board: its display list in a Group, framed by a thin
line) or an art file, with its captions under it. A row of card figures stands side by side and moves
whole; a board or art figure shrinks, down to a share of its width, to stand in the room left at a
page's foot, else it waits for the next page (floating past the text after it). A callout is a tinted,
framed box of blocks that moves whole (only one taller than a page splits between its blocks).
"""

from __future__ import annotations

from pathlib import Path

from generator.components.piece import ArtPlacement, Face, Group, Item, Rect
from generator.render.art import art_size
from generator.rulebook.pages import Block, stack_height, stack_items
from generator.units import pt_to_mm

FRAME_COLOUR, FRAME_WIDTH = "#b9ad9b", 0.4       # the line around a drawn face (pt)
CREAM, RED = "#f6ecd9", "#a31621"                 # a callout's paper and frame
CALLOUT_FRAME = 0.8                              # pt
CALLOUT_PADDING = (6.0, 7.0, 4.0, 7.0)           # pt: top, right, bottom, left
ROW_PADDING = 2.0                                # pt, left and right of each figure in a row


class Drawn:
    """A face or an art file drawn at a width (mm), its height in proportion."""

    def __init__(self, width: float, height: float):
        self.width, self.height = width, height

    def items(self, x: float, y: float, scale: float = 1.0) -> list[Item]:
        raise NotImplementedError


class FaceDrawing(Drawn):
    """A card or board drawn from the game's own definitions, framed by a thin line."""

    def __init__(self, face: Face, width: float):
        super().__init__(width, face.height * width / face.width)
        self.face = face

    def items(self, x: float, y: float, scale: float = 1.0) -> list[Item]:
        w, h, face = self.width * scale, self.height * scale, self.face
        return [Group(x, y, w, h, face.width, face.height, 0, face.items),
                Rect(x, y, w, h, stroke=FRAME_COLOUR, stroke_width=pt_to_mm(FRAME_WIDTH))]


class ArtDrawing(Drawn):
    """An art file drawn at a width."""

    def __init__(self, path: Path, width: float):
        art_w, art_h = art_size(path)
        super().__init__(width, width * art_h / art_w)
        self.path = path

    def items(self, x: float, y: float, scale: float = 1.0) -> list[Item]:
        return [ArtPlacement(self.path, x, y, self.width * scale, self.height * scale)]


class ShrinkingFigure(Block):
    """A figure (a board, art) and its captions, kept together, centred: drawn at its width where it fits,
    else as large as the room left on the page allows down to a share `least` of that width (a page's foot
    filled rather than left empty), else on the next page (floating past the text after it)."""

    floats = True

    def __init__(self, drawn: Drawn, captions: list[Block], least: float):
        self.drawn, self.captions, self.least_share = drawn, captions, least
        self.space_after = captions[-1].space_after if captions else pt_to_mm(2.0)

    def _captions(self, width: float) -> float:
        height = 0.0
        for index, caption in enumerate(self.captions):
            height += caption.space_before + caption.height(width, 1e6)
            height += caption.space_after if index < len(self.captions) - 1 else 0.0
        return height

    def scale(self, width: float, room: float) -> float:
        """The share of its width it is drawn at with `room` left."""
        left = room - self._captions(width)
        height = self.drawn.height
        return 1.0 if height <= left + 1e-6 else max(self.least_share, left / height)

    def height(self, width: float, room: float) -> float:
        return self.drawn.height * self.scale(width, room) + self._captions(width)

    def split(self, width: float, room: float, fresh: bool) -> list[Block]:
        """Never in parts; but on a fresh page that it does not fit even at its least, it shrinks further
        (no page would take it whole)."""
        if not fresh or self.least_share == 0.0:
            return []
        return [ShrinkingFigure(self.drawn, self.captions, 0.0)]

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:
        captions = self._captions(width)
        scale = min(1.0, max(self.least_share, (height - captions) / self.drawn.height)) if self.drawn.height else 1
        items = self.drawn.items(x + (width - self.drawn.width * scale) / 2, y, scale)
        top = y + self.drawn.height * scale
        for index, caption in enumerate(self.captions):
            top += caption.space_before
            caption_height = caption.height(width, 1e6)
            items += caption.items(x, top, width, caption_height)
            top += caption_height + (caption.space_after if index < len(self.captions) - 1 else 0.0)
        return items


class FigureRow(Block):
    """Card figures side by side, each centred in its column with its captions under it; moves whole."""

    floats = True

    def __init__(self, figures: list[tuple[Drawn, list[Block]]], column: float, rtl: bool = False):
        self.figures, self.column, self.rtl = figures, column, rtl

    def _cell(self, drawn: Drawn, captions: list[Block]) -> float:
        inner = self.column - 2 * pt_to_mm(ROW_PADDING)
        return drawn.height + (captions[0].space_before if captions else 0.0) + stack_height(captions, inner)

    def height(self, width: float, room: float) -> float:
        return max((self._cell(drawn, captions) for drawn, captions in self.figures), default=0.0)

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:
        total = self.column * len(self.figures)
        x += (width - total) / 2
        padding = pt_to_mm(ROW_PADDING)
        inner = self.column - 2 * padding
        items: list[Item] = []
        for index, (drawn, captions) in enumerate(self.figures):
            # in a right-to-left book the first figure stands at the right
            slot = len(self.figures) - 1 - index if self.rtl else index
            left = x + slot * self.column + padding
            items += drawn.items(left + (inner - drawn.width) / 2, y)
            top = y + drawn.height + (captions[0].space_before if captions else 0.0)
            items += stack_items(captions, left, top, inner)
        return items


class CalloutBlock(Block):
    """A box of blocks on the callout's paper, framed: it moves whole (split between its blocks only where it is
    taller than a fresh page)."""

    def __init__(self, blocks: list[Block]):
        self.blocks = blocks

    def _inner(self, width: float) -> float:
        _, right, _, left = CALLOUT_PADDING
        return width - pt_to_mm(left + right)

    def height(self, width: float, room: float) -> float:
        top, _, bottom, _ = CALLOUT_PADDING
        return stack_height(self.blocks, self._inner(width)) + pt_to_mm(top + bottom)

    def least(self, width: float) -> float:
        return self.height(width, 1e6) + self.space_before

    def split(self, width: float, room: float, fresh: bool) -> list[Block]:
        """Whole on the next page; only a callout taller than a fresh page is split between its blocks."""
        if not fresh or len(self.blocks) < 2:
            return []
        top, _, bottom, _ = CALLOUT_PADDING
        inner, padding = self._inner(width), pt_to_mm(top + bottom)
        count = 1
        while count < len(self.blocks) and stack_height(self.blocks[:count + 1], inner) + padding <= room + 1e-6:
            count += 1
        head, tail = CalloutBlock(self.blocks[:count]), CalloutBlock(self.blocks[count:])
        head.space_before, tail.space_after = self.space_before, self.space_after
        return [head, tail]

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:
        top, _, _, left = CALLOUT_PADDING
        box: list[Item] = [Rect(x, y, width, height, fill=CREAM, stroke=RED, stroke_width=pt_to_mm(CALLOUT_FRAME))]
        return box + stack_items(self.blocks, x + pt_to_mm(left), y + pt_to_mm(top), self._inner(width))
