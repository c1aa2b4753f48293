"""The rulebook's tables: column widths (every column at least as wide as its longest word) and the table
block the paginator places, split between rows with its header on every page.

rules.yaml gives a table's columns as shares of the text's width. A share can leave a column narrower
than a name it holds („Еленчето Рубинка" in a 1.2-share column of Bulgarian), and a name must not
break inside a word: such a column is widened to its longest word (and the edition badge, in a column
that carries one), the room taken from the columns that have more than their own longest word needs,
in proportion to what they can spare. Only running text wraps inside a cell, and only text longer than
two lines may hyphenate (set_text.SetParagraph).

A table splits only where both sides keep MIN_ROWS body rows (or moves whole to the next page); on a
fresh page, where no better place comes, it splits wherever it must. Its rows are measured once, so a
table of thousands of rows is split page after page in linear time.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate

from generator.components.piece import Item, Line, Rect
from generator.rulebook.pages import Block, stack_height, stack_items
from generator.rulebook.set_text import BADGE_SIZE, Book
from generator.text.layout import SetStyle, glue_paragraphs, line_width
from generator.text.rich import Fragment, Paragraph, parse_rich_text
from generator.text.setter import TextSetter
from generator.units import mm_to_pt, pt_to_mm

TABLE_PADDING = 3.5    # pt, left and right in every table cell
TOP_PADDING, BOTTOM_PADDING = 2.5, 3.0     # pt, above and below every cell's text
MIN_ROWS = 2           # body rows a table keeps on each side of a page break
GRID, GRID_WIDTH = "#c9b79c", 0.4          # the lines between cells (pt)
HEAD_FILL, SHADE = "#a31621", "#fbf6ec"    # the header row; every other body row


def words(text: str, style: SetStyle) -> list[Paragraph]:
    """Each unbreakable word of a rich text as a one-word paragraph: split at the spaces a line may break at
    (not at the no-break spaces the language's rules glue) and after a word's own hyphens."""
    found: list[Paragraph] = []
    for paragraph in glue_paragraphs(parse_rich_text(text), style.rules):
        word: list[Fragment] = []
        for fragment in paragraph.fragments:
            if fragment.icon:
                word.append(fragment)
                continue
            parts = fragment.text.replace("-", "-\n").replace(" ", "\n ").split("\n")
            for index, part in enumerate(parts):
                if index and (part.startswith(" ") or parts[index - 1].endswith("-")):
                    if word:
                        found.append(Paragraph(tuple(word)))
                    word = []
                part = part.lstrip(" ")
                if part:
                    word.append(Fragment(part, fragment.bold, fragment.italic))
        if word:
            found.append(Paragraph(tuple(word)))
    return found


def longest_word(text: str, style: SetStyle, setter: TextSetter) -> float:
    """The width (pt) of a text's widest unbreakable word, set in the style."""
    return max((mm_to_pt(line_width((word,), style, setter)) for word in words(text, style)), default=0.0)


def badge_width(badge: str, book: Book) -> float:
    """The edition badge's width (pt) on its own line in a cell."""
    return mm_to_pt(book.width(f"\u00a0{badge}\u00a0", BADGE_SIZE, "black")) + 1


def column_widths(shares: list[float], needs: list[float]) -> list[float]:
    """Widths (pt) from the designed widths `shares` (pt, summing to the text's width) where no column is
    narrower than its need (pt, padding included): what a narrow column lacks is taken from the others'
    spare width in proportion to it. If all the needs together exceed the width, each column gets its
    designed width's share of what the needs leave."""
    total = sum(shares)
    if sum(needs) > total:
        scale = total / sum(needs)
        return [need * scale for need in needs]
    lacking = sum(max(0.0, need - share) for share, need in zip(shares, needs, strict=False))
    if lacking <= 1e-9:
        return list(shares)
    spare = [max(0.0, share - need) for share, need in zip(shares, needs, strict=False)]
    available = sum(spare)
    return [need if need > share else share - lacking * room / available
            for share, need, room in zip(shares, needs, spare, strict=False)]


Cell = list[Block]     # a cell's paragraphs


class _Rows:
    """A table's rows measured once at their columns' widths (mm), shared by the parts it splits into."""

    def __init__(self, header: list[Cell] | None, rows: list[list[Cell]], widths: list[float]):
        self.header, self.rows, self.widths = header, rows, widths
        padding = pt_to_mm(TOP_PADDING + BOTTOM_PADDING)
        self.head_height = self._height(header) + padding if header else 0.0
        self.heights = [self._height(row) + padding for row in rows]
        self.tops = [0.0] + list(accumulate(self.heights))     # body row i spans tops[i] to tops[i + 1]

    def _height(self, row: list[Cell]) -> float:
        inner = pt_to_mm(2 * TABLE_PADDING)
        return max((stack_height(cell, width - inner) for cell, width in zip(row, self.widths, strict=False)),
                   default=0.0)


class TableBlock(Block):
    """Body rows start to end of a table, under its header."""

    def __init__(self, header: list[Cell] | None, rows: list[list[Cell]], widths: list[float], book: Book,
                 start: int = 0, end: int | None = None, measured: _Rows | None = None):
        self.header, self.rows, self.widths, self.book = header, rows, widths, book
        self.start, self.end = start, len(rows) if end is None else end
        self._measured = measured

    @property
    def measured(self) -> _Rows:
        if self._measured is None:
            self._measured = _Rows(self.header, self.rows, self.widths)
        return self._measured

    def _body(self, start: int, end: int) -> float:
        tops = self.measured.tops
        return tops[end] - tops[start]

    def height(self, width: float, room: float) -> float:
        return self.measured.head_height + self._body(self.start, self.end)

    def split(self, width: float, room: float, fresh: bool) -> list[Block]:
        measured = self.measured
        tops = measured.tops
        # body rows that fit under the header in the room
        fitting = bisect_right(tops, tops[self.start] + room - measured.head_height + 1e-6) - 1 - self.start
        body = self.end - self.start
        if fitting >= body:
            return []
        if body < 2 * MIN_ROWS or fitting < MIN_ROWS:
            if not fresh:
                return []              # too short to split, or too little room here: the table moves
            cut = self.start + max(fitting, 1)     # a fresh page: no better one comes
            if cut >= self.end:
                return []              # one row taller than the page: it stands here as it is
        else:
            cut = self.start + min(fitting, body - MIN_ROWS)
        head = TableBlock(self.header, self.rows, self.widths, self.book, self.start, cut, measured)
        tail = TableBlock(self.header, self.rows, self.widths, self.book, cut, self.end, measured)
        head.space_before, tail.space_after = self.space_before, self.space_after
        return [head, tail]

    def least(self, width: float) -> float:
        body = self.end - self.start
        shown = body if body < 2 * MIN_ROWS else MIN_ROWS
        return self.measured.head_height + self._body(self.start, self.start + shown) + self.space_before

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:
        measured, widths = self.measured, self.widths
        total = sum(widths)
        x += (width - total) / 2                  # centred, as a table stands
        # column lefts: left to right, or from the right in a right-to-left book
        lefts, at = [], 0.0
        for column in widths:
            lefts.append(total - at - column if self.book.rtl else at)
            at += column
        rows: list[tuple[list[Cell], float, str | None]] = []
        if self.header:
            rows.append((self.header, measured.head_height, HEAD_FILL))
        head = 1 if self.header else 0
        for index in range(self.start, self.end):
            rows.append((self.rows[index], measured.heights[index], SHADE if (index + head) % 2 == 0 else None))
        fills: list[Item] = []
        texts: list[Item] = []
        top = y
        inner, above = pt_to_mm(TABLE_PADDING), pt_to_mm(TOP_PADDING)
        for cells, row_height, fill in rows:
            if fill is not None:
                fills.append(Rect(x, top, total, row_height, fill=fill))
            for cell, left, column in zip(cells, lefts, widths, strict=False):
                texts += stack_items(cell, x + left + inner, top + above, column - 2 * inner)
            top += row_height
        pen = pt_to_mm(GRID_WIDTH)
        lines: list[Item] = []
        edge = y
        for _, row_height, _ in rows:
            lines.append(Line(x, edge, total, 0.0, stroke=GRID, stroke_width=pen))
            edge += row_height
        lines.append(Line(x, edge, total, 0.0, stroke=GRID, stroke_width=pen))
        for left in sorted(set(lefts + [total])):
            lines.append(Line(x + left, y, 0.0, edge - y, stroke=GRID, stroke_width=pen))
        return fills + texts + lines
