"""Page-break rules of the rulebook's flow, as platypus flowables: what may end or start a page.

- A table never leaves fewer than MIN_ROWS body rows (or its header alone) on either side of a break:
  it splits where both sides keep MIN_ROWS, or moves whole to the next page.
- A heading never ends a page: headings (and anything else kept with what follows, like a FAQ question)
  travel with the start of the next block — two lines of a paragraph, a table's header and first rows,
  a whole figure or callout. Platypus' own keepWithNext cannot do this: it will not bundle a heading with
  a KeepTogether (a figure, a callout), and bundling with a long table moves the whole table.
"""

from __future__ import annotations

from typing import Callable

from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, NextPageTemplate, PageBreak, Table
from reportlab.platypus.tableofcontents import TableOfContents

from generator.rulebook.set_text import NO_SPLIT_BELOW

MIN_ROWS = 2          # body rows a table keeps on each side of a page break
MIN_LINES = 2         # lines of a paragraph that must follow a heading on its page
PART_ROWS = 100       # rows a table's part holds at least: a table this short is one ReportLab table, split
#                       by ReportLab itself (every shipped table; a page holds 10-40 rows)


class KeptTable(Table):
    """A table that splits only where both parts keep MIN_ROWS body rows (the header repeats)."""

    _measured_width: float | None = None

    def measure(self, available_width: float, available_height: float) -> None:
        """Its rows' heights and its columns' widths at this width, worked out once: they do not depend on
        the height (every row is measured), and platypus asks a table to wrap and then to split."""
        if self._measured_width != available_width:
            self._calc(available_width, available_height)
            self._measured_width = available_width

    def wrap(self, available_width, available_height):
        self.measure(available_width, available_height)
        self.availWidth = available_width
        return self._width, self._height

    def split(self, available_width, available_height):
        self.measure(available_width, available_height)
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
        self.measure(available_width, 1e6)
        head = self.repeatRows if isinstance(self.repeatRows, int) else max(self.repeatRows) + 1
        rows = len(self._rowHeights)
        shown = rows if rows - head < 2 * MIN_ROWS else head + MIN_ROWS
        return sum(self._rowHeights[:shown]) + self.getSpaceBefore()


class PagedTable(Flowable):
    """A table of any length, set a page at a time: each page's part is a KeptTable of the header and the
    rows that page takes (with MIN_ROWS more, so the split rule sees what it would see in the whole table),
    and PART_ROWS at least. ReportLab splits a table by copying, re-styling and re-measuring every row left
    at every page break: a 5,000-row table took 85 s. A table whose rows left all fit in one part is that
    part, split by ReportLab as before."""

    hAlign = "CENTER"       # a Table's own default, so a part stands where the table stood

    def __init__(self, header: list, rows: list, make: Callable[[list, int], KeptTable], start: int = 0,
                 hint: int = PART_ROWS):
        super().__init__()
        self.header, self.rows, self.make, self.start = header, rows, make, start
        self.hint = hint            # rows to try first: the last part's count
        self._part: KeptTable | None = None      # the last part set, at this width, up to body row _end
        self._part_width, self._end = 0.0, 0

    def _set(self, first: int, end: int) -> KeptTable:
        """Body rows first to end (with the header) as one ReportLab table, with the table's space above if
        they start it and below if they end it."""
        part = self.make(self.header + self.rows[first:end], first)
        if first == 0 and hasattr(self, "spaceBefore"):
            part.spaceBefore = self.spaceBefore
        if end == len(self.rows) and hasattr(self, "spaceAfter"):
            part.spaceAfter = self.spaceAfter
        part.canv = getattr(self, "canv", None)
        return part

    def _covers(self, part: KeptTable, end: int, height: float) -> bool:
        """Whether a part splits at this height as the whole rest of the table would: it is the rest, or
        MIN_ROWS rows follow the first that does not fit."""
        return end == len(self.rows) or part._getFirstPossibleSplitRowPosition(height) + MIN_ROWS <= len(
            part._rowHeights)

    def _window(self, width: float, height: float) -> tuple[KeptTable, int]:
        """The part for this room, and where its rows end: twice as many rows until it covers it."""
        if self._part is not None and self._part_width == width and self._covers(self._part, self._end, height):
            return self._part, self._end
        count = max(self.hint, PART_ROWS)
        while True:
            end = min(self.start + count, len(self.rows))
            part = self._set(self.start, end)
            part.measure(width, height)
            if self._covers(part, end, height):
                break
            count *= 2
        self._part, self._part_width, self._end = part, width, end
        return part, end

    def wrap(self, available_width, available_height):
        part, _ = self._window(available_width, available_height)
        self.width, self.height = part.wrap(available_width, available_height)
        return self.width, self.height

    def split(self, available_width, available_height):
        part, end = self._window(available_width, available_height)
        part._frame = getattr(self, "_frame", None)
        parts = part.split(available_width, available_height)
        if end == len(self.rows) or len(parts) != 2:
            return parts             # the rest of the table (or nothing fits here): ReportLab's own parts
        head = parts[0]
        shown = len(head._cellvalues) - len(self.header)
        tail = PagedTable(self.header, self.rows, self.make, self.start + shown, hint=shown + MIN_ROWS + 1)
        if hasattr(self, "spaceAfter"):
            tail.spaceAfter = self.spaceAfter
        return [head, tail]

    def first_part_height(self, available_width: float) -> float:
        """The least of the rest of this table that may stand at a page's end (KeptTable.first_part_height)."""
        part = self._set(self.start, min(self.start + 2 * MIN_ROWS, len(self.rows)))
        return part.first_part_height(available_width)

    def draw(self):
        # the part draws in this flowable's place, with no state of its own pushed (the same bytes as the
        # part drawn by the frame itself)
        self._part._drawOn(self.canv)


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
    if isinstance(flowable, (KeptTable, PagedTable)):
        return flowable.first_part_height(available_width)
    _, height = flowable.wrapOn(canvas, available_width, available_height)
    if isinstance(flowable, KeepTogether):
        # its wrap answers a huge height on purpose (to be asked to split): the real one is its content's
        height = flowable._H
    lines = getattr(flowable, "_lines", None)
    style = getattr(flowable, "style", None)
    if callable(lines) and style is not None and hasattr(style, "leading"):
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
    return not isinstance(flowable, (CondPageBreak, NextPageTemplate, PageBreak, TableOfContents))
