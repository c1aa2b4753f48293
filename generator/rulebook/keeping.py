"""Page-break rules of the rulebook's flow, as platypus flowables: what may end or start a page.

- A table never leaves fewer than MIN_ROWS body rows (or its header alone) on either side of a break:
  it splits where both sides keep MIN_ROWS, or moves whole to the next page.
- A heading never ends a page: headings (and anything else kept with what follows, like a FAQ question)
  travel with the start of the next block — two lines of a paragraph, a table's header and first rows,
  a whole figure or callout. Platypus' own keepWithNext cannot do this: it will not bundle a heading with
  a KeepTogether (a figure, a callout), and bundling with a long table moves the whole table.
"""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether, Table

MIN_ROWS = 2          # body rows a table keeps on each side of a page break
MIN_LINES = 2         # lines of a paragraph that must follow a heading on its page


class KeptTable(Table):
    """A table that splits only where both parts keep MIN_ROWS body rows (the header repeats)."""

    def split(self, available_width, available_height):
        self._calc(available_width, available_height)
        head = self.repeatRows if isinstance(self.repeatRows, int) else max(self.repeatRows) + 1
        rows = len(self._rowHeights)
        body = rows - head
        first = self._getFirstPossibleSplitRowPosition(available_height)    # the first row not fitting
        if first >= rows:
            return [self]
        if body < 2 * MIN_ROWS or first - head < MIN_ROWS:
            frame = getattr(self, "_frame", None)
            if frame is not None and getattr(frame, "_atTop", False):
                return super().split(available_width, available_height)   # a fresh page: no better one comes
            return []                 # too short to split, or too little room here: the table moves
        cut = min(first, rows - MIN_ROWS)
        parts = self._splitRows(sum(self._rowHeights[:cut]) + 0.01)
        for part in parts:
            part.__class__ = KeptTable    # the tail keeps the rule when it breaks again
        return parts

    def first_part_height(self, available_width: float) -> float:
        """The least of this table that may stand at a page's end: its header and MIN_ROWS rows (or all)."""
        self._calc(available_width, 1e6)
        head = self.repeatRows if isinstance(self.repeatRows, int) else max(self.repeatRows) + 1
        rows = len(self._rowHeights)
        shown = rows if rows - head < 2 * MIN_ROWS else head + MIN_ROWS
        return sum(self._rowHeights[:shown]) + self.getSpaceBefore()


class KeptWithNext(Flowable):
    """Flowables kept with the start of the one after them: all go on this page if the kept ones and the
    least part of the next fit, else all move to the next page (unless this page is a fresh one)."""

    def __init__(self, kept: list[Flowable], following: Flowable):
        super().__init__()
        self.kept, self.following = kept, following
        for flowable in kept:
            flowable.keepWithNext = False     # this flowable keeps them now; platypus must not bundle again

    def wrap(self, available_width, available_height):
        # always more than the room: platypus then asks split(), which decides (and never draws this whole)
        self.width, self.height = available_width, available_height + 1
        return self.width, self.height

    def split(self, available_width, available_height):
        needed = 0.0
        for flowable in self.kept:
            _, height = flowable.wrapOn(self.canv, available_width, available_height)
            needed += height + flowable.getSpaceBefore() + flowable.getSpaceAfter()
        needed += least_height(self.following, self.canv, available_width, available_height)
        frame = getattr(self, "_frame", None)
        fresh_page = frame is not None and getattr(frame, "_atTop", False)
        if needed <= available_height + 1e-6 or fresh_page:
            return list(self.kept) + [self.following]
        return []

    def draw(self):      # never drawn: split() always hands platypus the parts
        pass


def least_height(flowable: Flowable, canvas, available_width: float, available_height: float) -> float:
    """How much of a flowable must stand on a page with whatever is kept with it (points)."""
    if isinstance(flowable, KeptTable):
        return flowable.first_part_height(available_width)
    _, height = flowable.wrapOn(canvas, available_width, available_height)
    if isinstance(flowable, KeepTogether):
        # its wrap answers a huge height on purpose (to be asked to split): the real one is its content's
        height = flowable._H
    lines = getattr(flowable, "_lines", None)
    style = getattr(flowable, "style", None)
    if callable(lines) and style is not None and hasattr(style, "leading"):
        from generator.rulebook.flow import NO_SPLIT_BELOW
        total = lines() - flowable.first if flowable.last is None else flowable.last - flowable.first
        if total >= NO_SPLIT_BELOW:            # a paragraph long enough to split: two lines follow
            height = MIN_LINES * style.leading
    return height + flowable.getSpaceBefore()


def keep_with_next(story: list[Flowable]) -> list[Flowable]:
    """The story with every run of keepWithNext flowables joined to the flowable after it."""
    result: list[Flowable] = []
    kept: list[Flowable] = []
    for flowable in story:
        if getattr(flowable, "keepWithNext", False) and _content(flowable):
            kept.append(flowable)
            continue
        if kept and _content(flowable):
            result.append(KeptWithNext(kept, flowable))
        else:
            result.extend(kept)
            result.append(flowable)
        kept = []
    result.extend(kept)
    return result


def _content(flowable: Flowable) -> bool:
    """Whether a flowable prints something (not a page break, template switch or conditional break) and may be
    wrapped (a table of contents must stay in the story itself, where the second pass looks for it)."""
    from reportlab.platypus import CondPageBreak, NextPageTemplate, PageBreak
    from reportlab.platypus.tableofcontents import TableOfContents
    return not isinstance(flowable, (CondPageBreak, NextPageTemplate, PageBreak, TableOfContents))
