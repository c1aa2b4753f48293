"""n-up card sheets: fronts in a centred grid with crop marks, each followed by its backs page.

Pieces of another size (a large token after the small ones) continue in a band
below a part-filled grid when a row of them fits there.

Backs are placed mirror-wise so they land behind their fronts after duplex
printing: long-edge flip mirrors columns, short-edge flip mirrors rows. The
artwork is never mirrored, only positions. Backs run past the grid by their
bleed so a printer that registers the back side a few mm off still covers it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import groupby
from typing import Callable, Sequence

from generator.components.piece import Face, Item, PieceCopy, Shape, TextPlacement
from generator.imposition.sheet import Page, Placement
from generator.text.layout import GlyphRun
from generator.units import pt_to_mm

CROP_MARK_WIDTH = pt_to_mm(0.25)
SCALE_BAR = 50.0   # mm


@dataclass(frozen=True)
class GridSpec:
    paper: tuple[float, float]
    card: tuple[float, float]
    gap: float = 0.0
    duplex: str = "long-edge"            # or 'short-edge'
    min_margin: float = 6.35             # printers cannot print the outer 4–5 mm
    mark_offset: float = 2.0             # crop marks start this far outside the grid...
    mark_length: float = 5.0             # ...and are this long
    front_outer_bleed: float = 1.5       # fronts reach past the grid's outer edge (< mark_offset)
    back_outer_bleed: float = 3.0        # backs reach further, for misregistered duplex
    back_offset: tuple[float, float] = (0.0, 0.0)   # mm right and down: corrects a printer's constant error

    def __post_init__(self) -> None:
        # cards laid over each other would be cut apart wrongly; the command line refuses such a gap
        if not (self.gap >= 0 and math.isfinite(self.gap)):
            raise ValueError(f"a grid's gap must be 0 mm or more, got {self.gap!r}")


@dataclass(frozen=True)
class GridGeometry:
    columns: int
    rows: int
    left: float
    top: float

    def cell(self, spec: GridSpec, row: int, column: int) -> tuple[float, float]:
        return (self.left + column * (spec.card[0] + spec.gap), self.top + row * (spec.card[1] + spec.gap))

    def size(self, spec: GridSpec) -> tuple[float, float]:
        return (self.columns * spec.card[0] + (self.columns - 1) * spec.gap,
                self.rows * spec.card[1] + (self.rows - 1) * spec.gap)


def printable_area(paper: tuple[float, float], layout: str = "duplex",
                   min_margin: float = GridSpec.min_margin) -> tuple[float, float]:
    """The largest piece (width, height) a sheet of this paper holds: inside the printer's margins,
    or for the gutterfold layout inside one half of the landscape sheet."""
    if layout == "gutterfold":
        width, height = max(paper), min(paper)
        return (width - 2 * min_margin - FOLD_GUTTER) / 2, height - 2 * min_margin
    return paper[0] - 2 * min_margin, paper[1] - 2 * min_margin


def piece_fits(piece: tuple[float, float], paper: tuple[float, float], layout: str = "duplex") -> bool:
    """Whether at least one piece of this size goes on a sheet (the same sums the layouts do)."""
    room_w, room_h = printable_area(paper, layout)
    return room_w // piece[0] >= 1 and room_h // piece[1] >= 1


def grid_geometry(spec: GridSpec) -> GridGeometry:
    """As many cards as fit inside the printable margins, the grid centred on the paper."""
    paper_w, paper_h = spec.paper
    card_w, card_h = spec.card
    usable_w, usable_h = paper_w - 2 * spec.min_margin, paper_h - 2 * spec.min_margin
    columns = int((usable_w + spec.gap) // (card_w + spec.gap))
    rows = int((usable_h + spec.gap) // (card_h + spec.gap))
    if columns < 1 or rows < 1:   # layout reports such pieces (piece_fits) before anything is imposed
        raise ValueError(f"a {card_w:g} × {card_h:g} mm card does not fit on {paper_w:g} × {paper_h:g} mm paper")
    grid_w = columns * card_w + (columns - 1) * spec.gap
    grid_h = rows * card_h + (rows - 1) * spec.gap
    return GridGeometry(columns, rows, (paper_w - grid_w) / 2, (paper_h - grid_h) / 2)


# Between two bands of pieces on one sheet: room for both bands' crop marks (2 + 5 mm each) and air.
BAND_GAP = 16.0


@dataclass
class _Band:
    """One size's grid on a sheet: its rows hold `copies` (the last row maybe part-filled)."""

    spec: GridSpec
    geometry: GridGeometry
    copies: list[PieceCopy]

    @property
    def held(self) -> GridGeometry:
        """The part of the grid its copies fill (a part-filled band's marks go round these only)."""
        columns = self.geometry.columns
        return GridGeometry(min(len(self.copies), columns), -(-len(self.copies) // columns),
                            self.geometry.left, self.geometry.top)

    @property
    def bottom(self) -> float:
        return self.geometry.top + self.held.size(self.spec)[1]


def impose_mixed(copies: Sequence[PieceCopy], paper: tuple[float, float], caption=None, label: str = "pieces",
                 **grid_options) -> list[Page]:
    """Pieces of several sizes (tokens of 26 and 15 mm) in order, each size in its own grid.

    A size that starts where the previous one left a sheet part-filled goes in a band
    below it when it fits: a lone large token does not take a sheet (and its back) of
    its own. Backs are placed at the mirror image of their fronts on the page.
    """
    sheets: list[list[_Band]] = []
    for run in _runs_of_one_size(copies):
        spec = GridSpec(paper, (run[0].front.width, run[0].front.height), **grid_options)
        full = grid_geometry(spec)
        remaining = list(run)
        while remaining:
            band = _band_below(sheets[-1][-1], spec, full, remaining) if sheets else None
            if band is None:
                band = _Band(spec, full, remaining[:full.columns * full.rows])
                sheets.append([])
            sheets[-1].append(band)
            remaining = remaining[len(band.copies):]
    pages: list[Page] = []
    for number, bands in enumerate(sheets, start=1):
        fronts, backs, marks = [], [], []
        for band in bands:
            band_fronts, band_backs = _placements(band)
            fronts += band_fronts
            backs += band_backs
            marks += crop_marks(band.spec, band.held)
        if number == 1:
            last = bands[-1]
            marks += scale_bar(last.spec, last.held, caption)
        pages.append(Page(*paper, tuple(fronts), tuple(marks), label=f"{label} fronts {number}"))
        if backs:
            pages.append(Page(*paper, tuple(backs), label=f"{label} backs {number}"))
    return pages


def _runs_of_one_size(copies: Sequence[PieceCopy]) -> list[list[PieceCopy]]:
    return [list(run) for _, run in groupby(copies, key=lambda copy: (copy.front.width, copy.front.height))]


def _band_below(above: _Band, spec: GridSpec, full: GridGeometry, copies: list[PieceCopy]) -> _Band | None:
    """A band of these pieces under `above`, inside the printable margin, or None if no row fits."""
    top = above.bottom + BAND_GAP
    room = spec.paper[1] - spec.min_margin - top
    rows = int((room + spec.gap) // (spec.card[1] + spec.gap))
    if rows < 1:
        return None
    geometry = GridGeometry(full.columns, rows, full.left, top)
    return _Band(spec, geometry, copies[:full.columns * rows])


def _placements(band: _Band) -> tuple[list[Placement], list[Placement]]:
    """Fronts in the band's cells; each back at its front's mirror image across the page's
    flip axis (long edge: left–right, short edge: top–bottom), moved by the back offset."""
    spec, geometry = band.spec, band.geometry
    paper_w, paper_h = spec.paper
    card_w, card_h = spec.card
    dx, dy = spec.back_offset
    fronts, backs = [], []
    for index, copy in enumerate(band.copies):
        row, column = divmod(index, geometry.columns)
        x, y = geometry.cell(spec, row, column)
        fronts.append(Placement(copy.front, x, y, _clip(spec, geometry, row, column, spec.front_outer_bleed)))
        if copy.back is None:
            continue
        cx, cy, cw, ch = _clip(spec, geometry, row, column, spec.back_outer_bleed)
        if spec.duplex == "short-edge":
            bx, by, clip = x, paper_h - y - card_h, (cx, paper_h - cy - ch, cw, ch)
        else:
            bx, by, clip = paper_w - x - card_w, y, (paper_w - cx - cw, cy, cw, ch)
        backs.append(Placement(copy.back, bx + dx, by + dy, (clip[0] + dx, clip[1] + dy, clip[2], clip[3])))
    return fronts, backs


def _clip(spec: GridSpec, geometry: GridGeometry, row: int, column: int, outer: float):
    """The cell, grown into half of any gap and by `outer` on the grid's outer edges."""
    x, y = geometry.cell(spec, row, column)
    inner = spec.gap / 2
    left = outer if column == 0 else inner
    right = outer if column == geometry.columns - 1 else inner
    top = outer if row == 0 else inner
    bottom = outer if row == geometry.rows - 1 else inner
    return (x - left, y - top, spec.card[0] + left + right, spec.card[1] + top + bottom)


def crop_marks(spec: GridSpec, geometry: GridGeometry) -> list[Shape]:
    """Short lines outside the grid, in line with every cut."""
    grid_w, grid_h = geometry.size(spec)
    xs = sorted({geometry.left + c * (spec.card[0] + spec.gap) for c in range(geometry.columns)}
                | {geometry.left + c * (spec.card[0] + spec.gap) + spec.card[0] for c in range(geometry.columns)})
    ys = sorted({geometry.top + r * (spec.card[1] + spec.gap) for r in range(geometry.rows)}
                | {geometry.top + r * (spec.card[1] + spec.gap) + spec.card[1] for r in range(geometry.rows)})
    near, far = spec.mark_offset, spec.mark_offset + spec.mark_length
    marks = []
    for x in xs:
        marks.append(_line(x, geometry.top - far, 0, spec.mark_length))
        marks.append(_line(x, geometry.top + grid_h + near, 0, spec.mark_length))
    for y in ys:
        marks.append(_line(geometry.left - far, y, spec.mark_length, 0))
        marks.append(_line(geometry.left + grid_w + near, y, spec.mark_length, 0))
    return marks


def _line(x: float, y: float, w: float, h: float) -> Shape:
    return Shape("line", x, y, w, h, stroke="#000000", stroke_width=CROP_MARK_WIDTH)


def scale_bar(spec: GridSpec, geometry: GridGeometry,
              caption: Callable[[str, float], tuple[GlyphRun, ...]] | None) -> list[Item]:
    """A 50 mm bar under the first column, between the crop marks, to check 100 % printing."""
    grid_w, grid_h = geometry.size(spec)
    if spec.card[0] >= SCALE_BAR + 6:   # between the crop marks under the first column
        y = geometry.top + grid_h + spec.mark_offset + 1.2
        x = geometry.left + (spec.card[0] - SCALE_BAR) / 2
        label_x = geometry.left + spec.card[0] + spec.gap + 2.0
    else:                              # narrow pieces: below the crop marks
        y = geometry.top + grid_h + spec.mark_offset + spec.mark_length + 2.5
        x = geometry.left
        label_x = x + SCALE_BAR + 3.0
    items = scale_bar_items(x, y, None)
    if caption is not None:
        items.append(TextPlacement(label_x, y - 1.8, caption("50 mm · 100 %", 6.0)))
    return items


def scale_bar_items(x: float, y: float, caption) -> list[Item]:
    """A 50 mm bar with ticks every 10 mm, its left end at (x, y); labelled when caption is given."""
    tick = 1.6
    items: list[Item] = [_line(x, y, SCALE_BAR, 0), _line(x, y - tick / 2, 0, tick),
                         _line(x + SCALE_BAR, y - tick / 2, 0, tick)]
    for step in range(10, 50, 10):
        items.append(_line(x + step, y - tick / 4, 0, tick / 2))
    if caption is not None:
        items.append(TextPlacement(x + SCALE_BAR + 3.0, y - 1.8, caption("50 mm · 100 %", 6.0)))
    return items


FOLD_GUTTER = 8.0      # mm between the fronts' half and the backs' half: room to fold and glue


def impose_gutterfold(copies: Sequence[PieceCopy], paper: tuple[float, float],
                      back_of: Callable[[PieceCopy], Face | None] = lambda copy: copy.back,
                      caption=None, label: str = "cards", min_margin: float = 6.35) -> list[Page]:
    """Fronts and backs side by side on a landscape sheet, folded along a dashed line between them.

    For card stock that will not go through a duplex printer: fold the sheet in
    half along the line, glue, then cut along the crop marks. The backs are the
    fronts' mirror image across the fold, like long-edge duplex. Pieces of another
    size start sheets of their own.
    """
    pages: list[Page] = []
    for run in _runs_of_one_size(copies):
        pages += _gutterfold_sheets(run, paper, back_of, caption, label, min_margin, first=len(pages) + 1)
    return pages


def _gutterfold_sheets(copies: Sequence[PieceCopy], paper: tuple[float, float],
                       back_of: Callable[[PieceCopy], Face | None], caption, label: str, min_margin: float,
                       first: int) -> list[Page]:
    """Gutterfold sheets of pieces of one size, numbered from `first` (the scale bar goes on sheet 1)."""
    width, height = max(paper), min(paper)                # landscape
    card_w, card_h = copies[0].front.width, copies[0].front.height
    half, room_h = printable_area(paper, "gutterfold", min_margin)
    columns, rows = int(half // card_w), int(room_h // card_h)
    if columns < 1 or rows < 1:   # layout reports such pieces (piece_fits) before anything is imposed
        raise ValueError(f"a {card_w:g} × {card_h:g} mm piece does not fit half a {width:g} × {height:g} mm sheet")
    fold = width / 2
    left = fold - FOLD_GUTTER / 2 - columns * card_w
    top = (height - rows * card_h) / 2
    spec = GridSpec((width, height), (card_w, card_h))
    geometry = GridGeometry(columns, rows, left, top)
    pages: list[Page] = []
    per_page = columns * rows
    for sheet, start in enumerate(range(0, len(copies), per_page)):
        placements = []
        for index, copy in enumerate(copies[start:start + per_page]):
            row, column = divmod(index, columns)
            x, y = geometry.cell(spec, row, column)
            placements.append(Placement(copy.front, x, y, _clip(spec, geometry, row, column, spec.front_outer_bleed)))
            back = back_of(copy)
            if back is not None:
                mirrored = 2 * fold - x - card_w          # across the fold
                clip = _clip(spec, geometry, row, column, spec.back_outer_bleed)
                mirrored_clip = (2 * fold - clip[0] - clip[2], clip[1], clip[2], clip[3])
                placements.append(Placement(back, mirrored, y, mirrored_clip))
        grid_right = left + columns * card_w
        # the marks right of the fronts would fall under the backs: the left, top and bottom ones suffice
        marks: list[Item] = [mark for mark in crop_marks(spec, geometry) if not (mark.h == 0 and mark.x > grid_right)]
        marks.append(Shape("line", fold, top - 6, 0, rows * card_h + 12, stroke="#000000",
                           stroke_width=CROP_MARK_WIDTH, dash=(3.0, 2.0)))
        if first + sheet == 1:
            marks.extend(scale_bar(spec, geometry, caption))
        pages.append(Page(width, height, tuple(placements), tuple(marks),
                          label=f"{label} gutterfold {first + sheet}"))
    return pages
