"""n-up card sheets: fronts in a centred grid with crop marks, each followed by its backs page.

Pieces of another size (a large token after the small ones) continue in a band
below a part-filled grid when a row of them fits there.

Backs are placed mirror-wise so they land behind their fronts after duplex
printing: long-edge flip mirrors columns, short-edge flip mirrors rows. The
artwork is never mirrored, only positions. Backs run past the grid by their
bleed so a printer that registers the back side a few mm off still covers it.

The printable area: home printers print nothing in the outer 4–5 mm of a sheet,
so every crop mark, label and scale bar stays inside the paper's `margin` (5 mm
unless asked); only bleed art may run into it. Crop marks are fitted to the room
each side of a grid leaves (shorter, closer), and where a side leaves too little
(3 × 3 poker cards on Letter) the cuts they guide are marked in the gutters
between the cards instead. The scale bar goes under the grid, or up the left
margin beside the first row when there is no room under it.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Callable, NamedTuple, Sequence

from generator.caches import cached
from generator.components.piece import ArtPlacement, Face, Group, Item, Line, PieceCopy, Shape, TextPlacement
from generator.imposition.sheet import Page, Placement
from generator.print_facts import FOLD_DASH, FOLD_GUTTER, MARK_WIDTH, PRINTABLE_MARGIN, printable_area
from generator.text.layout import GlyphRun

CROP_MARK_WIDTH = MARK_WIDTH
SCALE_BAR = 50.0   # mm
MIN_MARK = 2.0              # mm: a crop mark shorter than this is no guide
MIN_MARK_OFFSET = 0.5       # mm: the closest a crop mark starts to the grid
FULL_BLEED_GAP = 2.0        # mm between full-bleed pieces: each keeps 1 mm of its own bleed either side of a cut
GUTTER_HALO = 0.6           # mm: the white line under a mark drawn over bleed art in a gutter
MIN_GUTTER_MARK = 1.0       # mm: a gutter's mark reaches at least this far either side of its middle
# mm: fronts bleed at least this far past every outer trim (Letter's top and bottom rows once had 0.7 mm),
# inside the printable margin; crop marks start past it, or the cuts are marked in the gutters
MIN_OUTER_BLEED = 2.0
MARK_CLEARANCE = 0.5        # mm between the fronts' outer bleed and a crop mark


@dataclass(frozen=True)
class GridSpec:
    """How pieces of one size go on a sheet: paper and piece size (mm), the gap, the duplex flip, and
    where crop marks and bleed may go."""

    paper: tuple[float, float]
    card: tuple[float, float]
    gap: float = 0.0
    row_gap: float | None = None         # between rows, where it differs from `gap` (fitted_rows)
    duplex: str = "long-edge"            # or 'short-edge'
    margin: float = PRINTABLE_MARGIN     # every mark stays this far inside the paper's edge
    mark_offset: float = 2.5             # crop marks start this far outside the grid (past the bleed)...
    mark_length: float = 5.0             # ...and are this long
    front_outer_bleed: float = MIN_OUTER_BLEED   # fronts reach past the grid's outer edge (< mark_offset)
    back_outer_bleed: float = 3.0        # backs reach further, for misregistered duplex
    back_offset: tuple[float, float] = (0.0, 0.0)   # mm right and down: corrects a printer's constant error
    columns: int | None = None           # at most this many columns and rows (standees.py): a block smaller
    rows: int | None = None              # than the sheet holds, centred on it like a full grid
    # boxes (x0, y0, x1, y1 in page mm) nothing of the fronts may enter: a print-and-cut machine's registration
    # marks with their clearance and the paper outside the printer's margin (cut.py, CutMachine.keep_out)
    keep_out: tuple[tuple[float, float, float, float], ...] = ()

    def __post_init__(self) -> None:
        # cards laid over each other would be cut apart wrongly; the command line refuses such a gap
        if not (self.gap >= 0 and math.isfinite(self.gap)):
            raise ValueError(f"a grid's gap must be 0 mm or more, got {self.gap!r}")

    @property
    def gap_y(self) -> float:
        """The gap between rows."""
        return self.gap if self.row_gap is None else self.row_gap


@dataclass(frozen=True)
class GridGeometry:
    """A grid of `columns` × `rows` cells on a sheet, its top-left corner at (left, top) mm."""

    columns: int
    rows: int
    left: float
    top: float

    def cell(self, spec: GridSpec, row: int, column: int) -> tuple[float, float]:
        return (self.left + column * (spec.card[0] + spec.gap), self.top + row * (spec.card[1] + spec.gap_y))

    def size(self, spec: GridSpec) -> tuple[float, float]:
        return (self.columns * spec.card[0] + (self.columns - 1) * spec.gap,
                self.rows * spec.card[1] + (self.rows - 1) * spec.gap_y)


def grid_geometry(spec: GridSpec) -> GridGeometry:
    """As many cards as fit inside the printable margins, the grid centred on the paper."""
    paper_w, paper_h = spec.paper
    card_w, card_h = spec.card
    usable_w, usable_h = paper_w - 2 * spec.margin, paper_h - 2 * spec.margin
    columns = min(int((usable_w + spec.gap) // (card_w + spec.gap)), spec.columns or 10**6)
    rows = min(int((usable_h + spec.gap_y) // (card_h + spec.gap_y)), spec.rows or 10**6)
    if columns < 1 or rows < 1:   # layout reports such pieces (piece_fits) before anything is imposed
        raise ValueError(f"a {card_w:g} × {card_h:g} mm card does not fit on {paper_w:g} × {paper_h:g} mm paper")
    grid_w = columns * card_w + (columns - 1) * spec.gap
    grid_h = rows * card_h + (rows - 1) * spec.gap_y
    return GridGeometry(columns, rows, (paper_w - grid_w) / 2, (paper_h - grid_h) / 2)


# Between two bands of pieces on one sheet: room for both bands' crop marks (2.5 + 5 mm each) and air.
BAND_GAP = 16.0


@dataclass(frozen=True)
class MarkFit:
    """Where a side's crop marks go: `offset` mm out from the grid, `length` mm long."""

    offset: float
    length: float


def fit_marks(spec: GridSpec, room: float) -> MarkFit | None:
    """Crop marks fitted to the `room` (mm) between a grid's edge and the printable area's edge:
    the usual 2.5 mm away and up to 5 mm long, closer and shorter where room is short but never on the
    fronts' outer bleed, None where not even a short mark fits (the cuts are then marked in the gutters)."""
    if room >= spec.mark_offset + MIN_MARK:
        return MarkFit(spec.mark_offset, min(spec.mark_length, room - spec.mark_offset))
    closest = max(MIN_MARK_OFFSET, min(spec.front_outer_bleed, room) + MARK_CLEARANCE)
    if room - MIN_MARK >= closest:
        return MarkFit(room - MIN_MARK, MIN_MARK)
    return None


@dataclass(frozen=True)
class Sides:
    """Four lengths, one per side of a grid."""

    top: float
    right: float
    bottom: float
    left: float


def margin_room(spec: GridSpec, geometry: GridGeometry) -> Sides:
    """Room from each edge of the grid to the printable area's edge."""
    grid_w, grid_h = geometry.size(spec)
    paper_w, paper_h = spec.paper
    return Sides(geometry.top - spec.margin, paper_w - spec.margin - geometry.left - grid_w,
                 paper_h - spec.margin - geometry.top - grid_h, geometry.left - spec.margin)


def _outer_bleed(spec: GridSpec, room: Sides, outer: float) -> Sides:
    """How far fronts reach past the grid's outer edges: `outer` where the room allows, never into the
    printable margin (only backs, which must cover a misregistered flip, reach into it); the crop
    marks keep clear of it (fit_marks), or the side's cuts are marked in the gutters."""
    def side(space: float) -> float:
        return max(0.0, min(outer, space))
    return Sides(side(room.top), side(room.right), side(room.bottom), side(room.left))


def fitted_rows(spec: GridSpec) -> GridSpec:
    """The spec with its rows closer together where the gap between them would leave the top and bottom
    rows less than their outer bleed inside the printable margin (3 × 3 poker cards 2 mm apart on Letter:
    0.7 mm; with rows 0.7 mm apart, 2 mm), keeping as many rows; unchanged where no gap gives that."""
    if spec.row_gap is not None or spec.gap <= 0:
        return spec
    geometry = grid_geometry(spec)
    if geometry.rows < 2:
        return spec
    usable = spec.paper[1] - 2 * spec.margin - 2 * spec.front_outer_bleed
    wanted = (usable - geometry.rows * spec.card[1]) / (geometry.rows - 1)
    if wanted >= spec.gap or wanted < 0:
        return spec
    return replace(spec, row_gap=math.floor(wanted * 100 + 1e-6) / 100)      # (to a hundredth, down)


def reaches_into_bleed(face: Face) -> bool:
    """Whether a face's art or filled shapes run past its trim (a full-bleed piece: a mis-cut shows
    whatever lies beside it)."""
    reach = min(face.bleed, 1.0) / 2
    if reach <= 0:
        return False
    for item in face.items:
        if isinstance(item, Shape):
            if item.fill is None or item.kind == "line":
                continue
        elif not isinstance(item, ArtPlacement):
            continue
        if (item.x < -reach or item.y < -reach or item.x + item.w > face.width + reach
                or item.y + item.h > face.height + reach):
            return True
    return False


def default_gap(copies: Sequence[PieceCopy]) -> float:
    """The gap a run of pieces gets unless one is asked for: full-bleed fronts are kept apart so that
    a 0.5 mm mis-cut shows the piece's own bleed, never its neighbour's colour; others abut."""
    return FULL_BLEED_GAP if any(reaches_into_bleed(copy.front) for copy in copies) else 0.0


@dataclass(repr=False, eq=False)     # a sheet's working part, never printed or compared
class _Band:
    """One size's grid on a sheet: its rows hold `copies` (the last row maybe part-filled)."""

    spec: GridSpec
    geometry: GridGeometry
    copies: list[PieceCopy]
    room: Sides | None = None     # set once the sheet's bands are known
    butted: bool = False          # butted chits: the fronts' bleed on the held block's outer edges only

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
                 gap: float | None = None, bar_label: str = "", butted: frozenset[str] = frozenset(),
                 **grid_options) -> list[Page]:
    """Pieces of several sizes (tokens of 26 and 15 mm) in order, each size in its own grid.

    A size that starts where the previous one left a sheet part-filled goes in a band
    below it when it fits: a lone large token does not take a sheet (and its back) of
    its own. Backs are placed at the mirror image of their fronts on the page. With no
    `gap`, each size's run gets `default_gap` (apart when full-bleed, abutting otherwise). The first
    sheet's scale bar is labelled `bar_label` (the language's kit.scale_bar), set by `caption`.
    The sets named in `butted` (a token set's `butted`) are runs of their own, their pieces touching
    whatever the gap (butted chits: one cut between two neighbours, each front clipped to its trim
    there, the bleed on the block's outer edges only, crop marks where each shared cut line leaves it).
    """
    sheets: list[list[_Band]] = []
    for run in _runs_of_one_size(copies, butted):
        run_gap = 0.0 if run[0].deck in butted else default_gap(run) if gap is None else gap
        spec = GridSpec(paper, (run[0].front.width, run[0].front.height), gap=run_gap, **grid_options)
        if gap is None:               # the default gap gives way to the outer bleed (Letter's rows)
            spec = fitted_rows(spec)
        full = grid_geometry(spec)
        if run[0].deck in butted:     # no mark inside the block: room for them on every side
            spec, full = _rows_of_whole_pieces(*_marked_round(spec, full), run)
        remaining = list(run)
        while remaining:
            band = _band_below(sheets[-1][-1], spec, full, remaining) if sheets else None
            if band is None:
                band = _Band(spec, full, remaining[:full.columns * full.rows])
                sheets.append([])
            band.butted = run[0].deck in butted
            sheets[-1].append(band)
            remaining = remaining[len(band.copies):]
    pages: list[Page] = []
    for number, bands in enumerate(sheets, start=1):
        _share_room(bands)
        bar = (caption, bar_label) if number == 1 else None
        fronts, backs, marks = _drawn(bands, bar)
        move = keep_out_move(bands[0].spec.keep_out, [_clip_box(front) for front in fronts] +
                             [box for box in map(item_box, marks) if box is not None], paper)
        if move != (0.0, 0.0):
            # the whole sheet moves, its marks and bleed fitted as they were: each band's room stays
            for band in bands:
                band.geometry = replace(band.geometry, left=band.geometry.left + move[0],
                                        top=band.geometry.top + move[1])
            fronts, backs, marks = _drawn(bands, bar)
        pages.append(Page(*paper, tuple(fronts), tuple(marks), label=f"{label} fronts {number}"))
        if backs:
            pages.append(Page(*paper, tuple(backs), label=f"{label} backs {number}"))
    return pages


def _drawn(bands: list[_Band], bar: tuple | None) -> tuple[list[Placement], list[Placement], list[Item]]:
    """A sheet's fronts, backs and marks (its crop marks; the scale bar when `bar` gives its caption and label)."""
    fronts, backs, marks = [], [], []
    for band in bands:
        band_fronts, band_backs = _placements(band)
        fronts += band_fronts
        backs += band_backs
        marks += crop_marks(band.spec, band.held, band.room)
    if bar is not None:
        last = bands[-1]
        marks += scale_bar(last.spec, last.held, bar[0], last.room, bar[1])
    return fronts, backs, marks


Box = tuple[float, float, float, float]


def _clip_box(placement: Placement) -> Box:
    x, y, w, h = placement.clip
    return (x, y, x + w, y + h)


def item_box(item: Item) -> Box | None:
    """The box (x0, y0, x1, y1, page mm) a sheet's mark, bar or label inks: a shape's with half its stroke
    round it (a line's butt ends stop at its ends), a group's frame, a text's runs at a generous 0.6 em a
    character and an em above the baseline; None for what a sheet's marks never hold."""
    if isinstance(item, Shape):
        half = item.stroke_width / 2 if item.stroke else 0.0
        x0, x1 = sorted((item.x, item.x + item.w))
        y0, y1 = sorted((item.y, item.y + item.h))
        across_x = half if item.kind != "line" or item.w == 0 else 0.0
        across_y = half if item.kind != "line" or item.h == 0 else 0.0
        return (x0 - across_x, y0 - across_y, x1 + across_x, y1 + across_y)
    if isinstance(item, Group):
        return (item.x, item.y, item.x + item.w, item.y + item.h)
    if isinstance(item, TextPlacement) and item.runs:
        boxes = [(item.x + run.x, item.y + run.baseline - em, item.x + run.x + 0.6 * em * len(run.text),
                  item.y + run.baseline + 0.3 * em) for run in item.runs for em in (run.size * 25.4 / 72,)]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return None


def _overlaps(box: Box, other: Box, dx: float = 0.0, dy: float = 0.0) -> bool:
    """Whether `box` moved by (dx, dy) overlaps `other` (touching is not overlapping)."""
    near = 1e-9
    return (box[0] + dx < other[2] - near and other[0] < box[2] + dx - near
            and box[1] + dy < other[3] - near and other[1] < box[3] + dy - near)


def keep_out_move(keep_out: Sequence[Box], boxes: Sequence[Box], paper: tuple[float, float]) -> tuple[float, float]:
    """The least move (mm right, mm down) that takes all of a sheet's `boxes` out of every `keep_out` box and
    leaves them on the paper: (0, 0) when none is in one, or when no move clears them all (the registration
    checks then say so).

    A box is in a corner's mark zone when the grid reaches within 1 mm of the machine's border on both sides
    there (Silhouette: its 16 mm border, 17 mm to a mark's clearance); moving the sheet that far towards the
    corner without a mark clears all three. The moves tried take a box out of a zone, for every box that close
    to one, least first; the paper outside the printer's margin is a keep-out box too, so no move takes ink off
    the printable area."""
    hits = [(box, zone) for box in boxes for zone in keep_out if _overlaps(box, zone)]
    if not hits:
        return (0.0, 0.0)
    reach = max(min(abs(way) for way in _exits(box, zone)) for box, zone in hits) + 1e-6
    near = [(box, zone) for box in boxes for zone in keep_out
            if _overlaps(box, (zone[0] - reach, zone[1] - reach, zone[2] + reach, zone[3] + reach))]
    xs = {0.0} | {way for box, zone in near for way in _exits(box, zone)[:2]}
    ys = {0.0} | {way for box, zone in near for way in _exits(box, zone)[2:]}
    left, top = -min(box[0] for box in boxes), -min(box[1] for box in boxes)
    right, bottom = paper[0] - max(box[2] for box in boxes), paper[1] - max(box[3] for box in boxes)
    for dx, dy in sorted(((dx, dy) for dx in xs for dy in ys if left <= dx <= right and top <= dy <= bottom),
                         key=lambda move: (abs(move[0]) + abs(move[1]), move)):
        if not any(_overlaps(box, zone, dx, dy) for box in boxes for zone in keep_out):
            return (dx, dy)
    return (0.0, 0.0)


def _exits(box: Box, zone: Box) -> tuple[float, float, float, float]:
    """The moves that take `box` just out of `zone`: right, left, down, up."""
    return (zone[2] - box[0], zone[0] - box[2], zone[3] - box[1], zone[1] - box[3])


def _share_room(bands: list[_Band]) -> None:
    """Each band's room for marks: to the printable area's edges, and half the space to a band beside it."""
    for index, band in enumerate(bands):
        room = margin_room(band.spec, band.held)
        if index > 0:
            room = replace(room, top=(band.geometry.top - bands[index - 1].bottom) / 2)
        if index < len(bands) - 1:
            room = replace(room, bottom=(bands[index + 1].geometry.top - band.bottom) / 2)
        band.room = room


def _marked_round(spec: GridSpec, full: GridGeometry) -> tuple[GridSpec, GridGeometry]:
    """A butted block's grid with room for crop marks on all four sides: a column or a row fewer where a
    full sheet leaves a side without (its cuts would be marked inside the block, across the pieces)."""
    while True:
        room = margin_room(spec, full)
        fits = [fit_marks(spec, getattr(room, side)) for side in ("top", "right", "bottom", "left")]
        if all(fits) or (full.columns <= 1 and full.rows <= 1):
            return spec, full
        narrower = full.columns - 1 if not (fits[1] and fits[3]) and full.columns > 1 else full.columns
        shorter = full.rows - 1 if not (fits[0] and fits[2]) and full.rows > 1 else full.rows
        if (narrower, shorter) == (full.columns, full.rows):
            return spec, full
        spec = replace(spec, columns=narrower, rows=shorter)
        full = grid_geometry(spec)


def _rows_of_whole_pieces(spec: GridSpec, full: GridGeometry,
                          run: Sequence[PieceCopy]) -> tuple[GridSpec, GridGeometry]:
    """A butted block whose pieces all come in the same number of copies, a row's worth or less: as many
    columns as hold whole pieces' copies (10 a row for 50 markers of 5 colours, not 13), so a row never
    mixes one piece's copies with the next piece's (a colour is cut from its own row)."""
    counts = Counter(copy.card for copy in run)
    per_piece = set(counts.values())
    if len(per_piece) != 1:
        return spec, full
    copies = per_piece.pop()
    if copies < 2 or copies > full.columns or full.columns % copies == 0:
        return spec, full
    spec = replace(spec, columns=copies * (full.columns // copies))
    return spec, grid_geometry(spec)


def _runs_of_one_size(copies: Sequence[PieceCopy], butted: frozenset[str] = frozenset()) -> list[list[PieceCopy]]:
    """The pieces in runs of one size (and, for a butted set, of that set alone), in order."""
    return [list(run) for _, run in groupby(copies, key=lambda copy: (copy.front.width, copy.front.height,
                                                                      copy.deck if copy.deck in butted else None))]


def _band_below(above: _Band, spec: GridSpec, full: GridGeometry, copies: list[PieceCopy]) -> _Band | None:
    """A band of these pieces under `above`, inside the printable margin, or None if no row fits."""
    top = above.bottom + BAND_GAP
    room = spec.paper[1] - spec.margin - top
    rows = int((room + spec.gap_y) // (spec.card[1] + spec.gap_y))
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
    room = band.room or margin_room(spec, band.held)
    front_outer = _outer_bleed(spec, room, spec.front_outer_bleed)
    back_outer = Sides(*(spec.back_outer_bleed,) * 4)
    # a butted block's outer edges are those of the cells it fills: its last row's foot, and the
    # ragged edge a part-filled last row leaves (the cells above it, the last chit's right side)
    edges = band.held if band.butted else geometry
    fronts, backs = [], []
    for index, copy in enumerate(band.copies):
        row, column = divmod(index, geometry.columns)
        x, y = geometry.cell(spec, row, column)
        clip = _clip(spec, edges, row, column, front_outer)
        if band.butted:
            clip = _ragged_edge(clip, edges, index, len(band.copies), spec.front_outer_bleed)
        fronts.append(Placement(copy.front, x, y, clip))
        if copy.back is None:
            continue
        cx, cy, cw, ch = _clip(spec, edges, row, column, back_outer)
        if band.butted:
            cx, cy, cw, ch = _ragged_edge((cx, cy, cw, ch), edges, index, len(band.copies), spec.back_outer_bleed)
        if spec.duplex == "short-edge":
            bx, by, clip = x, paper_h - y - card_h, (cx, paper_h - cy - ch, cw, ch)
        else:
            bx, by, clip = paper_w - x - card_w, y, (paper_w - cx - cw, cy, cw, ch)
        backs.append(Placement(copy.back, bx + dx, by + dy, (clip[0] + dx, clip[1] + dy, clip[2], clip[3])))
    return fronts, backs


def _ragged_edge(clip: tuple[float, float, float, float], held: GridGeometry, index: int, count: int,
                 bleed: float) -> tuple[float, float, float, float]:
    """A butted chit's clip grown by `bleed` where it borders an empty cell of its block (a part-filled last
    row: the chits above its empty cells, and its last chit's right side), an outer edge cut like the rest."""
    x, y, w, h = clip
    row, column = divmod(index, held.columns)
    if index == count - 1 and column < held.columns - 1:
        w += bleed
    if row == held.rows - 2 and index + held.columns >= count:
        h += bleed
    return (x, y, w, h)


def _clip(spec: GridSpec, geometry: GridGeometry, row: int, column: int, outer: Sides):
    """The cell, grown into half of any gap (each piece's own bleed) and by `outer` on the grid's outer edges."""
    x, y = geometry.cell(spec, row, column)
    inner, inner_y = spec.gap / 2, spec.gap_y / 2
    left = outer.left if column == 0 else inner
    right = outer.right if column == geometry.columns - 1 else inner
    top = outer.top if row == 0 else inner_y
    bottom = outer.bottom if row == geometry.rows - 1 else inner_y
    return (x - left, y - top, spec.card[0] + left + right, spec.card[1] + top + bottom)


def crop_marks(spec: GridSpec, geometry: GridGeometry, room: Sides | None = None) -> list[Item]:
    """Short lines in line with every cut: outside the grid, fitted to the room inside the printable
    area; the cuts of a side without room are marked in the gutters between the pieces instead."""
    return list(_crop_marks(spec, geometry, room))


class _MarkFits(NamedTuple):
    """The crop marks fitted to each side's room (None: no room for marks on that side)."""

    top: MarkFit | None
    right: MarkFit | None
    bottom: MarkFit | None
    left: MarkFit | None


@cached("imposition.crop_marks", maxsize=64)
def _crop_marks(spec: GridSpec, geometry: GridGeometry, room: Sides | None) -> tuple[Item, ...]:
    # the same marks, the same objects, on every full sheet of a deck: made once (and the drawing
    # stage tells equal items apart by identity first)
    room = room or margin_room(spec, geometry)
    grid_w, grid_h = geometry.size(spec)
    xs = sorted({geometry.left + c * (spec.card[0] + spec.gap) for c in range(geometry.columns)}
                | {geometry.left + c * (spec.card[0] + spec.gap) + spec.card[0] for c in range(geometry.columns)})
    ys = sorted({geometry.top + r * (spec.card[1] + spec.gap_y) for r in range(geometry.rows)}
                | {geometry.top + r * (spec.card[1] + spec.gap_y) + spec.card[1] for r in range(geometry.rows)})
    fits = _MarkFits(*(fit_marks(spec, getattr(room, side)) for side in ("top", "right", "bottom", "left")))
    marks: list[Item] = []
    for x in xs:
        if fits.top:
            marks.append(_line(x, geometry.top - fits.top.offset - fits.top.length, 0, fits.top.length))
        if fits.bottom:
            marks.append(_line(x, geometry.top + grid_h + fits.bottom.offset, 0, fits.bottom.length))
    for y in ys:
        if fits.left:
            marks.append(_line(geometry.left - fits.left.offset - fits.left.length, y, fits.left.length, 0))
        if fits.right:
            marks.append(_line(geometry.left + grid_w + fits.right.offset, y, fits.right.length, 0))
    if not (fits.top and fits.bottom):       # the column cuts, between the rows
        marks += _gutter_marks(xs, _gutters(geometry.top, spec.card[1], spec.gap_y, geometry.rows), vertical=True)
    if not (fits.left and fits.right):       # the row cuts, between the columns
        marks += _gutter_marks(ys, _gutters(geometry.left, spec.card[0], spec.gap, geometry.columns), vertical=False)
    return tuple(marks)


def _gutters(start: float, size: float, gap: float, count: int) -> list[tuple[float, float]]:
    """(from, to) of each gutter between `count` pieces; at least 1 mm either side of the gutter's middle
    (a mark across a 0.7 mm gutter would be too short to see)."""
    gutters = []
    for index in range(1, count):
        end = start + index * (size + gap) - gap
        middle = end + gap / 2
        gutters.append((end, end + gap) if gap >= 2 * MIN_GUTTER_MARK else
                       (middle - MIN_GUTTER_MARK, middle + MIN_GUTTER_MARK))
    return gutters


def _gutter_marks(cuts: list[float], gutters: list[tuple[float, float]], vertical: bool) -> list[Item]:
    """A mark across each gutter in line with each cut: black on a white line, over any bleed art."""
    marks: list[Item] = []
    for low, high in gutters:
        for cut in cuts:
            for colour, width in (("#ffffff", GUTTER_HALO), ("#000000", CROP_MARK_WIDTH)):
                shape = (Line(cut, low, 0, high - low, stroke=colour, stroke_width=width) if vertical
                         else Line(low, cut, high - low, 0, stroke=colour, stroke_width=width))
                marks.append(shape)
    return marks


def _line(x: float, y: float, w: float, h: float) -> Line:
    return Line(x, y, w, h, stroke="#000000", stroke_width=CROP_MARK_WIDTH)


BAR_TICK = 1.6          # mm: the ticks at the bar's ends
BAR_HEIGHT = 4.2        # mm from the caption's top to the ticks' bottom, the bar's line 2.6 mm down
BAR_CAPTION = 18.0      # mm for the label ("50 mm · 100 %", kit.scale_bar) at 6 pt beside the bar
BAR_LABEL_SIZE = 6.0    # pt


def scale_bar(spec: GridSpec, geometry: GridGeometry,
              caption: Callable[[str, float], tuple[GlyphRun, ...]] | None, room: Sides | None = None,
              label: str = "") -> list[Item]:
    """A 50 mm bar to check 100 % printing, inside the printable area: under the first column between its
    crop marks, or below them for narrow pieces, or else up the left margin beside the first row; labelled
    `label` (the language's words for it) when there is a `caption` to set it."""
    room = room or margin_room(spec, geometry)
    grid_w, grid_h = geometry.size(spec)
    bottom = geometry.top + grid_h
    below = fit_marks(spec, room.bottom)
    clear = max(below.offset if below else 0.0, spec.front_outer_bleed) + 0.4   # past the fronts' bleed
    if spec.card[0] >= SCALE_BAR + 6 and room.bottom >= clear + BAR_HEIGHT:   # between the marks
        y = bottom + clear + BAR_HEIGHT - BAR_TICK / 2
        x = geometry.left + (spec.card[0] - SCALE_BAR) / 2
        label_x = geometry.left + spec.card[0] + spec.gap + 2.0
        return _bar(x, y, label_x, caption, label)
    under_marks = (below.offset + below.length if below else 0.0) + 1.0
    if room.bottom >= under_marks + BAR_HEIGHT:                       # narrow pieces: below the crop marks
        y = bottom + under_marks + BAR_HEIGHT - BAR_TICK / 2
        return _bar(geometry.left, y, geometry.left + SCALE_BAR + 3.0, caption, label)
    length = SCALE_BAR + 3.0 + BAR_CAPTION
    # up the left margin, beside row one, clear of the fronts' bleed (Letter's narrow margin: the
    # ticks ran into the first column's bleed; with its 2 mm bleed 4.25 mm are left for the 4.2 mm bar)
    left = room.left - min(spec.front_outer_bleed, room.left) - 0.2
    if left >= BAR_HEIGHT and spec.card[1] >= length + 4:
        own = _bar(0.0, BAR_HEIGHT - BAR_TICK / 2, SCALE_BAR + 3.0, caption, label)
        x = spec.margin + (left - BAR_HEIGHT) / 2
        y = geometry.top + (spec.card[1] + length) / 2 - length
        return [Group(x, y, BAR_HEIGHT, length, length, BAR_HEIGHT, 270, tuple(own))]
    y = bottom + (room.bottom + BAR_HEIGHT) / 2 - BAR_TICK / 2         # the room there is, however little
    return _bar(geometry.left, y, geometry.left + SCALE_BAR + 3.0, caption, label)


def _bar(x: float, y: float, label_x: float, caption, label: str) -> list[Item]:
    items = scale_bar_items(x, y, None)
    if caption is not None and label:
        items.append(label_beside_bar(label_x, y, caption, label))
    return items


def scale_bar_items(x: float, y: float, caption, label: str = "") -> list[Item]:
    """A 50 mm bar with ticks every 10 mm, its left end at (x, y); labelled `label` (the language's
    kit.scale_bar, "50 mm · 100 %") right of it when a caption is given to set it."""
    tick = BAR_TICK
    items: list[Item] = [_line(x, y, SCALE_BAR, 0), _line(x, y - tick / 2, 0, tick),
                         _line(x + SCALE_BAR, y - tick / 2, 0, tick)]
    for step in range(10, 50, 10):
        items.append(_line(x + step, y - tick / 4, 0, tick / 2))
    if caption is not None and label:
        items.append(label_beside_bar(x + SCALE_BAR + 3.0, y, caption, label))
    return items


def label_beside_bar(x: float, y: float, caption, label: str) -> TextPlacement:
    """The bar's label starting at `x` beside a bar at height `y`, whatever its direction: a right-to-left
    label ("50 مم · 100%") comes flush right in the caption's width, and is moved back to `x`."""
    runs = caption(label, BAR_LABEL_SIZE)
    start = min((run.x for run in runs), default=0.0)
    return TextPlacement(x - start if start > 0 else x, y - 1.8, runs)




def impose_gutterfold(copies: Sequence[PieceCopy], paper: tuple[float, float],
                      back_of: Callable[[PieceCopy], Face | None] = lambda copy: copy.back,
                      caption=None, label: str = "cards", min_margin: float = PRINTABLE_MARGIN,
                      bar_label: str = "") -> list[Page]:
    """Fronts and backs side by side on a landscape sheet, folded along a dashed line between them.

    For card stock that will not go through a duplex printer: fold the sheet in
    half along the line, glue, then cut along the crop marks. The backs are the
    fronts' mirror image across the fold, like long-edge duplex. Pieces of another
    size start sheets of their own. Marks stay inside `min_margin` of the paper's edge. The first sheet's
    scale bar is labelled `bar_label`.
    """
    pages: list[Page] = []
    for run in _runs_of_one_size(copies):
        pages += _gutterfold_sheets(run, paper, back_of, caption, label, min_margin, first=len(pages) + 1,
                                    bar_label=bar_label)
    return pages


def _gutterfold_sheets(copies: Sequence[PieceCopy], paper: tuple[float, float],
                       back_of: Callable[[PieceCopy], Face | None], caption, label: str, min_margin: float,
                       first: int, bar_label: str = "") -> list[Page]:
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
    spec = GridSpec((width, height), (card_w, card_h), margin=min_margin)
    geometry = GridGeometry(columns, rows, left, top)
    # right of the fronts lies the fold gutter: the marks there would fall under the backs
    room = replace(margin_room(spec, geometry), right=0.0)
    front_outer = _outer_bleed(spec, room, spec.front_outer_bleed)
    back_outer = Sides(*(spec.back_outer_bleed,) * 4)
    pages: list[Page] = []
    per_page = columns * rows
    for sheet, start in enumerate(range(0, len(copies), per_page)):
        placements = []
        for index, copy in enumerate(copies[start:start + per_page]):
            row, column = divmod(index, columns)
            x, y = geometry.cell(spec, row, column)
            placements.append(Placement(copy.front, x, y, _clip(spec, geometry, row, column, front_outer)))
            back = back_of(copy)
            if back is not None:
                mirrored = 2 * fold - x - card_w          # across the fold
                clip = _clip(spec, geometry, row, column, back_outer)
                mirrored_clip = (2 * fold - clip[0] - clip[2], clip[1], clip[2], clip[3])
                placements.append(Placement(back, mirrored, y, mirrored_clip))
        marks: list[Item] = [mark for mark in crop_marks(spec, geometry, room)
                             if not (isinstance(mark, Shape) and mark.h == 0 and mark.x > left + columns * card_w)]
        reach = min(6.0, top - min_margin)          # the fold line into the margins, not past them
        marks.append(Line(fold, top - reach, 0, rows * card_h + 2 * reach, stroke="#000000",
                           stroke_width=CROP_MARK_WIDTH, dash=FOLD_DASH))
        if first + sheet == 1:
            marks.extend(scale_bar(spec, geometry, caption, room, bar_label))
        pages.append(Page(width, height, tuple(placements), tuple(marks),
                          label=f"{label} gutterfold {first + sheet}"))
    return pages
