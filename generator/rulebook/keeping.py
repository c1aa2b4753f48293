"""Page-break rules of the rulebook's flow: what may end or start a page.

- A heading never ends a page: headings (and anything else kept with what follows, like a FAQ question)
  travel with the start of the next block — two lines of a paragraph, a table's header and first rows,
  a whole figure or callout (each block's `least`).
- A paragraph that ends with a colon introduces what follows it (a table, a list, a figure): it is kept with
  that block's start like a heading, a long one splitting so that its last two lines go with it.
- A paragraph of fewer than four lines never splits; a longer one leaves two lines on each side
  (set_text.TextBlock). A table leaves MIN_ROWS body rows on each side, its header repeated
  (tables.TableBlock).
"""

from __future__ import annotations

from generator.components.piece import Item
from generator.rulebook.pages import Block, PageBreak


class KeptWithNext(Block):
    """Blocks kept with the start of the one after them: all go on this page if the kept ones and the
    least part of the next fit, else all move to the next page (unless this page is a fresh one)."""

    def __init__(self, kept: list[Block], following: Block):
        self.kept, self.following = kept, following     # its own space is none: the kept blocks bring theirs

    def height(self, width: float, room: float) -> float:
        # always more than the room: the paginator then asks split(), which decides
        return room + 1.0

    def split(self, width: float, room: float, fresh: bool) -> list[Block]:
        heights = [block.height(width, room) + block.space_before + block.space_after for block in self.kept]
        if sum(heights) + self.following.least(width) <= room + 1e-6 or fresh:
            return list(self.kept) + [self.following]
        # a long lead-in ("… as follows:") splits as any paragraph does, its last lines going with what it
        # introduces (a heading before it stays with the lines under it)
        *before, last = self.kept
        if last.lead_in:
            parts = last.split(width, room - sum(heights[:-1]) - last.space_before, False)
            if len(parts) == 2:
                head, tail = parts
                tail.lead_in = True
                return list(before) + [head, KeptWithNext([tail], self.following)]
        return []

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:     # never placed whole
        return []


def keep_with_next(story: list[Block]) -> list[Block]:
    """The story with every run of blocks kept with the next joined to the block after it."""
    result: list[Block] = []
    kept: list[Block] = []
    for block in story:
        if block.keep_with_next and not isinstance(block, PageBreak):
            kept.append(block)
            continue
        if kept and not isinstance(block, PageBreak):
            result.append(KeptWithNext(kept, block))
        else:
            result.extend(kept)
            result.append(block)
        kept = []
    result.extend(kept)
    return result
