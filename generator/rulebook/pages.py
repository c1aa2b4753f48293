"""The rulebook's paginator: blocks measured at the text's width, placed down page frames.

A Block (a paragraph's lines, a table, a figure, a callout, a contents entry) says how tall it is in the
room left, how it splits there, the least of it that must stand with what is kept with it, and the
display-list items it draws. `paginate` places a story of blocks as a frame does: the space between two
blocks is the larger of the first's space after and the second's space before (the two overlap, as in
ReportLab's frames), the space before dropped at a page's top; a block that
does not fit is asked to split (its parts take its place: the head fits, the tail goes on), else it moves
to the next page — or, on a fresh page where no better place comes, stands there anyway. A figure that
does not fit the room left floats: the paragraph after it is set first, filling the page's foot, and the
figure tops the next page. Millimetres, y down, from the frame's top-left.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from generator.components.piece import Item

FUZZ = 1e-6


class Block:
    """Something the paginator places: the defaults are a block that never splits."""

    space_before: float = 0.0
    space_after: float = 0.0
    keep_with_next: bool = False    # a heading: it travels with the start of the next block
    lead_in: bool = False           # a paragraph ending with a colon: kept with what it introduces
    floats: bool = False            # a figure: text after it may fill the page's foot first
    passes_figures: bool = False    # running text: it may be set before a figure that floats
    toc_text: str = ""              # a heading the contents list

    def height(self, width: float, room: float) -> float:
        """Its height (mm) at this width, with `room` left on the page (a figure shrinks to fit it)."""
        raise NotImplementedError

    def split(self, width: float, room: float, fresh: bool) -> list[Block]:
        """Blocks to place in its stead, the first fitting `room`; [] where it cannot split here. `fresh`: the
        page holds nothing yet (no better place follows)."""
        return []

    def least(self, width: float) -> float:
        """How much of it must stand on a page with what is kept with it, its space before included."""
        return self.height(width, 1e6) + self.space_before

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:
        """Its display-list items, its top-left at (x, y) mm on the page, placed `height` tall."""
        raise NotImplementedError


class PageBreak(Block):
    """The next block starts a page (unless the page holds nothing yet)."""

    def height(self, width: float, room: float) -> float:
        return 0.0

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:
        return []


@dataclass(frozen=True)
class Frame:
    """Where a page's blocks go: mm from the page's top-left."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Placed:
    """A block placed on a page: its top-left (mm on the page) and the height it was placed at."""

    block: Block
    x: float
    y: float
    width: float
    height: float


@dataclass
class Pagination:
    """The pages' placed blocks, and how full the last page's frame is (0–1)."""

    pages: list[list[Placed]] = field(default_factory=list)
    last_fill: float = 0.0
    _pages_of: dict[int, int] = field(default_factory=dict)

    def page_of(self, block: Block) -> int:
        """The page (from 0) a block was placed on (a heading's, for the contents); -1 if none."""
        if len(self._pages_of) != sum(len(page) for page in self.pages):
            self._pages_of = {id(placed.block): number for number, page in enumerate(self.pages)
                              for placed in page}
        return self._pages_of.get(id(block), -1)


def paginate(story: Iterable[Block], frame: Frame, first_page: list[Placed] | None = None) -> Pagination:
    """The story placed down frames, a page after another (`first_page`: what the first page already holds)."""
    queue = deque(story)
    result = Pagination()
    page: list[Placed] = list(first_page or [])
    used = 0.0                    # mm of the frame taken, from its top (the last block's space after included)
    after = 0.0                   # the last block's space after
    fresh = True
    while queue:
        block = queue.popleft()
        if isinstance(block, PageBreak):
            if page or not fresh:
                result.pages.append(page)
                page, used, after, fresh = [], 0.0, 0.0, True
            continue
        if block.floats and queue and queue[0].passes_figures and not fresh:
            if _floats_past(block, queue[0], frame, used, after):
                following = queue.popleft()
                queue.appendleft(block)
                block = following
        space = 0.0 if fresh else max(block.space_before - after, 0.0)
        room = frame.height - used - space
        height = block.height(frame.width, room)
        if height <= room + FUZZ:
            page.append(Placed(block, frame.x, frame.y + used + space, frame.width, height))
            used += space + height + block.space_after
            after, fresh = block.space_after, False
            continue
        parts = block.split(frame.width, room, fresh)
        if parts:
            queue.extendleft(reversed(parts))
            continue
        if fresh:                 # nothing better comes: it stands here, whatever it takes
            page.append(Placed(block, frame.x, frame.y, frame.width, height))
            used = height + block.space_after
            after, fresh = block.space_after, False
            continue
        result.pages.append(page)
        page, used, after, fresh = [], 0.0, 0.0, True
        queue.appendleft(block)
    result.pages.append(page)
    result.last_fill = min(1.0, used / frame.height) if frame.height > 0 else 0.0
    return result


def _floats_past(figure: Block, text: Block, frame: Frame, used: float, after: float) -> bool:
    """Whether the text after a figure that does not fit the room left is set first: only if some of the
    text stays on this page (else the figure tops the next page as it is)."""
    room = frame.height - used - max(figure.space_before - after, 0.0)
    if figure.height(frame.width, room) <= room + FUZZ:
        return False
    room = frame.height - used - max(text.space_before - after, 0.0)
    return text.height(frame.width, room) <= room + FUZZ or bool(text.split(frame.width, room, False))


def stack_height(blocks: list[Block], width: float) -> float:
    """The height of blocks set one under another (a cell's, a callout's): the spaces between them, not
    the first's space before nor the last's after."""
    total = 0.0
    for index, block in enumerate(blocks):
        total += block.height(width, 1e6)
        if index:
            total += blocks[index - 1].space_after + block.space_before
    return total


def stack_items(blocks: list[Block], x: float, y: float, width: float) -> list[Item]:
    """The items of blocks set one under another from (x, y), spaced as stack_height measures them."""
    items: list[Item] = []
    for index, block in enumerate(blocks):
        if index:
            y += blocks[index - 1].space_after + block.space_before
        height = block.height(width, 1e6)
        items += block.items(x, y, width, height)
        y += height
    return items
