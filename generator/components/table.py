"""A table box: a header row and rows of one-line cells, set at one common size that fits.

Cells are set by the engine's layout like any text, inline icons included: a
column is as wide as its widest cell measures, icons counted at their set size.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.components.piece import Item, Line, Pen, Rect
from generator.components.text_placement import ArtSize, placed_text
from generator.text.layout import SetStyle, fit_text, line_width
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter
from generator.units import pt_to_mm

CELL_PADDING = 0.8   # mm left and right of a cell's text


@dataclass(frozen=True)
class TableText:
    """A table's words and looks: the header's and the rows' cells (text), their styles, the header's
    and every other row's fill, and the pen of its rules (no colour: no rules)."""

    header: list[str]
    rows: list[list[str]]
    style: SetStyle
    head_style: SetStyle
    fills: tuple[str | None, str | None]
    rules: Pen


def fit_table(table: TableText, frame, setter: TextSetter, art_size: ArtSize) -> tuple[list[Item], bool, float]:
    """Shapes and text for the table; whether it fits; how many mm it misses by."""
    header, rows, style, head_style, fills = table.header, table.rows, table.style, table.head_style, table.fills
    stroke, stroke_width = table.rules.colour, table.rules.width
    x, y, w, h = frame
    lines = ([header] if header else []) + rows
    if not lines:
        return [], True, 0.0
    columns = max(len(line) for line in lines)
    natural = [0.0] * columns      # mm per point of size, widest cell of each column
    for number, line in enumerate(lines):
        cell_style = head_style if header and number == 0 else style
        for index, cell in enumerate(line):
            one_point = replace(cell_style, size=1.0, min_size=1.0)
            natural[index] = max(natural[index], line_width(parse_rich_text(cell), one_point, setter))
    total = sum(natural) or 1.0
    room = w - 2 * CELL_PADDING * columns
    widths = [CELL_PADDING * 2 + room * share / total for share in natural]
    row_height = h / len(lines)
    size = min(style.size, room / total, row_height / pt_to_mm(style.leading))
    fits = size >= style.min_size - 1e-6
    overflow = 0.0 if fits else (style.min_size - size) * total
    size = max(size, style.min_size)

    items: list[Item] = []
    for number in range(len(lines)):
        fill = fills[0] if header and number == 0 else (fills[1] if number % 2 == (0 if header else 1) else None)
        if fill:
            items.append(Rect(x, y + number * row_height, w, row_height, fill=fill))
    for number, line in enumerate(lines):
        cell_style = head_style if header and number == 0 else style
        cell_style = replace(cell_style, size=size, min_size=size, align="center", valign="middle")
        left = x
        for index, cell in enumerate(line):
            layout = fit_text(parse_rich_text(cell), widths[index], row_height, cell_style, setter)
            items.append(placed_text(layout, left, y + number * row_height, art_size))
            left += widths[index]
    if stroke:
        items.append(Rect(x, y, w, h, stroke=stroke, stroke_width=stroke_width))
        for number in range(1, len(lines)):
            items.append(Line(x, y + number * row_height, w, 0, stroke=stroke, stroke_width=stroke_width))
        left = x
        for width in widths[:-1]:
            left += width
            items.append(Line(left, y, 0, h, stroke=stroke, stroke_width=stroke_width))
    return items, fits, overflow

