"""Where a board's tiles meet: seams placed off the board's words, spaces and icons (issue 29.1).

Once the tiles are glued, each seam is a cut edge across the whole board: a vertical seam at x
crosses everything whose extent along x holds x, from the board's top to its bottom. The tiler
(tiles.py) knows how many tiles each direction needs; within what the paper and the overlap allow,
this module chooses where their seams lie, by these wishes, the first the strongest:

1. cross no word, no named space (a group drawn on its own filled shape with words on it: a track
   cell, a labelled space) and no picture of ICON mm or more; then as few small marks, small icons and
   wordless spaces (a town's dot) as it can (`Obstacle.weight`); a seam along a space's edge (within
   SPACE_EDGE of it) does not cross the space — cutting along a cell's border is the best seam;
2. keep CLEARANCE from the nearest word, icon and mark (a hand-cut edge wanders by a millimetre);
3. the widest overlap the layout can keep (more to glue);
4. the nearest to the even division.

Where every position crosses something, the seam crossing the least is kept and each thing it
crosses is a `Crossing`: the build warns with them (targets.py) and the assembly map marks them.
Positions are tried every STEP mm; the seams of one direction are chosen together (a dynamic
programme over the positions: each tile's width is bounded by the paper).

Imposition stage: reads the laid-out board face (components) and the widths of its words (text).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from generator.components.affine import IDENTITY, Affine, group_affine
from generator.components.piece import ArtPlacement, Ellipse, Face, Group, Item, Rect, TextPlacement, walk
from generator.text.layout import run_words
from generator.units import pt_to_mm

STEP = 0.5              # mm between the positions tried
CLEARANCE = 3.0         # mm from a word, icon or mark beyond which a seam is as good as anywhere
TEXT_MARGIN = 0.5       # mm around a word's box a seam still counts as crossing it
SPACE_EDGE = 1.0        # mm inside a space's edge a seam still runs along that edge
SMALL = 1 / 3           # art or a group under this share of the board each way: an icon or a space, not a background
MARK = 20.0             # mm: a filled rectangle or ellipse at most this big each way is a mark (a town's dot)
SPACE_COVER = 0.8       # a group is a space when one filled shape of its own covers this share of it each way
ICON = 8.0              # mm: art this big either way is a picture a seam should not cut (smaller: a mark)
ASCENT, DESCENT = 0.8, 0.22   # a word's box above and below its baseline, in ems

# the wishes' weights along one direction: any crossing outweighs every clearance, any clearance the distance
CROSSING = 1_000_000.0           # a word or a named space crossed (a track cell, a labelled space)
MINOR = 0.01                     # of CROSSING: an icon, a mark or a space with no words crossed (a town's dot)
SHORT_OF_CLEARANCE = 1_000.0     # per mm
UNEVEN = 0.01                    # per mm from the even division


@dataclass(frozen=True)
class Obstacle:
    """What a seam should not cross: its kind ('word', 'space', 'icon' or 'mark'), what a message names
    it by (the word, the space's words, the art's file name) and its box on the board (mm, y down)."""

    kind: str
    name: str
    box: tuple[float, float, float, float]

    @property
    def weight(self) -> float:
        """What crossing it costs, in crossed words: a small icon or mark, or a space with no words, can still
        be told apart once a seam runs through it; a word cannot be read."""
        if self.kind == "word" or (self.kind == "space" and self.name):
            return 1.0
        if self.kind == "icon" and max(self.box[2] - self.box[0], self.box[3] - self.box[1]) >= ICON:
            return 1.0
        return MINOR

    @property
    def major(self) -> bool:
        """Whether crossing it is worth a warning: a word, a named space, an icon big enough to be a picture."""
        return self.weight == 1.0

    def span(self, axis: int) -> tuple[float, float]:
        """The open interval along the axis (0: x, 1: y) in which a seam crosses it."""
        low, high = self.box[axis], self.box[axis + 2]
        if self.kind == "space":
            return low + SPACE_EDGE, high - SPACE_EDGE
        if self.kind == "word":
            return low - TEXT_MARGIN, high + TEXT_MARGIN
        return low, high


@dataclass(frozen=True)
class Crossing:
    """A seam that could not avoid an obstacle: the seam's axis (0: a vertical seam at x = at, 1: a
    horizontal one at y = at), its place among its direction's seams (0: the first) and what it crosses."""

    axis: int
    at: float
    index: int
    obstacle: Obstacle


def board_obstacles(face: Face) -> tuple[Obstacle, ...]:
    """Every word, space, icon and mark on the face, with its box on the face."""
    found: list[Obstacle] = []
    _collect(face.items, IDENTITY, (face.width, face.height), found)
    return tuple(found)


def _collect(items: Sequence[Item], affine: Affine, board: tuple[float, float], found: list[Obstacle]) -> None:
    for item in items:
        if isinstance(item, TextPlacement):
            found.extend(_words(item, affine))
            for icon in item.icons:
                found.append(Obstacle("icon", icon.file.name, _box(affine, icon.x, icon.y, icon.w, icon.h)))
        elif isinstance(item, ArtPlacement):
            box = _box(affine, item.x, item.y, item.w, item.h)
            if _small(box, board):
                found.append(Obstacle("icon", item.file.name, box))
        elif isinstance(item, Group):
            frame = _box(affine, item.x, item.y, item.w, item.h)
            if item.rotation % 90 or _is_space(item):      # (a group turned by other than quarter turns: as a whole)
                if _small(frame, board):
                    found.append(Obstacle("space", _words_of(item.items), frame))
            else:
                _collect(item.items, group_affine(item).then(affine), board, found)
        elif isinstance(item, (Rect, Ellipse)) and item.fill:
            box = _box(affine, item.x, item.y, item.w, item.h)
            if box[2] - box[0] <= MARK and box[3] - box[1] <= MARK:
                found.append(Obstacle("mark", "", box))


def _small(box: tuple[float, float, float, float], board: tuple[float, float]) -> bool:
    return box[2] - box[0] < board[0] * SMALL and box[3] - box[1] < board[1] * SMALL


def _is_space(group: Group) -> bool:
    """Whether the group is drawn on a filled shape of its own that covers it: a cell, a town."""
    return any(isinstance(item, (Rect, Ellipse)) and item.fill
               and item.w >= group.width * SPACE_COVER and item.h >= group.height * SPACE_COVER
               for item in group.items)


def _words_of(items: Sequence[Item]) -> str:
    return " ".join(run.text.strip() for item in walk(tuple(items)) if isinstance(item, TextPlacement)
                    for run in item.runs if run.text.strip())


def _box(affine: Affine, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    corners = [affine(x, y), affine(x + w, y), affine(x, y + h), affine(x + w, y + h)]
    xs, ys = [corner[0] for corner in corners], [corner[1] for corner in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _words(placement: TextPlacement, affine: Affine) -> list[Obstacle]:
    """The boxes of a text's words (its runs cut at their spaces, measured as shaped)."""
    words = []
    for run in placement.runs:
        em = pt_to_mm(run.size)
        top = placement.y + run.baseline - ASCENT * em
        for text, start, width in run_words(run):
            words.append(Obstacle("word", text, _box(affine, placement.x + run.x + start, top, width,
                                                     (ASCENT + DESCENT) * em)))
    return words


# ------------------------------------------------------------------ choosing the seams

@dataclass(frozen=True)
class SeamChoice:
    """The seams along one direction (mm from the board's start) and how good they are: the obstacles
    they cross, and the mm they lie short of CLEARANCE from words, icons and marks, summed."""

    seams: tuple[float, ...]
    crossings: tuple[Crossing, ...]
    short: float

    @property
    def crossed(self) -> float:
        """The crossings' weight: crossed words, counted as Obstacle.weight counts them."""
        return sum(crossing.obstacle.weight for crossing in self.crossings)


class SeamCosts:
    """What each seam position costs along each axis, for a board's obstacles or for those of one band of
    it (a row's vertical seams see only the row's): worked out once per band and kept, since the tiler
    tries many overlaps and shapes over the same bands."""

    def __init__(self, obstacles: Sequence[Obstacle], board: tuple[float, float]) -> None:
        self.obstacles = tuple(obstacles)
        self.board = board
        self._kept: dict[tuple[int, float, float], tuple[list[Obstacle], list[float], list[float]]] = {}

    def along(self, axis: int, low: float = -math.inf,
              high: float = math.inf) -> tuple[list[Obstacle], list[float], list[float]]:
        """The obstacles a seam along `axis` between `low` and `high` across it meets (`within`), each
        position's crossed weight and its mm short of clearance (_position_costs)."""
        key = (axis, low, high)
        if key not in self._kept:
            own = within(self.obstacles, axis, low, high)
            self._kept[key] = (own, *_position_costs(int(self.board[axis] / STEP), own, axis))
        return self._kept[key]


def place_seams(length: float, usable: float, count: int, overlap: float, costs: SeamCosts, axis: int,
                low: float = -math.inf, high: float = math.inf) -> SeamChoice | None:
    """The best `count - 1` seams across a board `length` mm long whose tiles, each showing its part and
    an `overlap` mm strip beyond each inner seam, fit `usable` mm (the seams running from `low` to `high`
    across: costs.along); None when they cannot fit."""
    if count == 1:
        return SeamChoice((), (), 0.0)
    positions = int(length / STEP)
    obstacles, crossed, short = costs.along(axis, low, high)
    cost = [CROSSING * c + SHORT_OF_CLEARANCE * s for c, s in zip(crossed, short, strict=True)]
    widest = int((usable - 2 * overlap) / STEP + 1e-9)     # seam to seam, in positions
    narrowest = max(1, math.ceil(overlap / STEP))
    first = int((usable - overlap) / STEP + 1e-9)           # the first tile: the board's edge to its seam
    last = math.ceil((length - usable + overlap) / STEP - 1e-9)     # the last tile: its seam to the edge
    # each seam's own costs: the position's, and how far it lies from the seam's even division
    costs_of = [[value + UNEVEN * abs(k * STEP - length * (seam + 1) / count) for k, value in enumerate(cost)]
                for seam in range(count - 1)]
    chosen = _cheapest_path(positions, costs_of, widest, narrowest, first, last)
    if chosen is None:
        return None
    seams = tuple(k * STEP for k in chosen)
    crossings = tuple(Crossing(axis, seam, index, obstacle) for index, seam in enumerate(seams)
                      for obstacle in obstacles if obstacle.span(axis)[0] < seam < obstacle.span(axis)[1])
    return SeamChoice(seams, crossings, sum(short[k] for k in chosen))


def within(obstacles: Sequence[Obstacle], axis: int, low: float, high: float) -> list[Obstacle]:
    """The obstacles a seam along `axis` between `low` and `high` across it can cross: those reaching
    into that stretch (a row's own vertical seams run only from its top seam to its bottom one)."""
    other = 1 - axis
    return [obstacle for obstacle in obstacles if obstacle.box[other] < high and obstacle.box[other + 2] > low]


def seam_window(length: float, usable: float, count: int, overlap: float, seam: int) -> tuple[float, float]:
    """Where seam number `seam` (0-based) of `count - 1` can lie at all (mm), whatever the others do."""
    step = usable - 2 * overlap
    low = length - (usable - overlap) - (count - 2 - seam) * step
    high = (usable - overlap) + seam * step
    return max(low, 0.0), min(high, length)


def _position_costs(positions: int, obstacles: Sequence[Obstacle], axis: int) -> tuple[list[float], list[float]]:
    """Each position's obstacles crossed (their weight), and the mm it lies closer than CLEARANCE to the nearest word,
    icon or mark."""
    opened = [0.0] * (positions + 2)      # a difference array: + weight where a span opens, - weight past its end
    short = [0.0] * (positions + 1)
    reach = int(CLEARANCE / STEP)
    for obstacle in obstacles:
        low, high = obstacle.span(axis)
        first, last = math.floor(low / STEP) + 1, math.ceil(high / STEP) - 1     # strictly inside
        if first <= last and last >= 0 and first <= positions:
            opened[max(first, 0)] += obstacle.weight
            opened[min(last, positions) + 1] -= obstacle.weight
        if obstacle.kind == "space":
            continue
        for k in range(max(0, first - reach), min(positions, last + reach) + 1):
            if first <= k <= last:
                continue
            distance = low - k * STEP if k < first else k * STEP - high
            short[k] = max(short[k], CLEARANCE - max(distance, 0.0))
    crossed, running = [], 0.0
    for k in range(positions + 1):
        running += opened[k]
        crossed.append(round(running, 9))       # (weights of a third summed and taken away: no residue)
    return crossed, short


def _cheapest_path(positions: int, costs: list[list[float]], widest: int, narrowest: int, first: int,
                   last: int) -> list[int] | None:
    """Positions 0 < k_1 < … < k_n < positions (n = len(costs)) minimising the sum of costs[i][k_i], with
    k_1 ≤ first, narrowest ≤ k_i - k_(i-1) ≤ widest and k_n ≥ last; None if there are none."""
    infinity = math.inf
    best = [costs[0][k] if 0 < k <= first else infinity for k in range(positions + 1)]
    back: list[list[int]] = []
    for seam in range(1, len(costs)):
        cost = costs[seam]
        previous, window, here, came = best, deque[int](), [infinity] * (positions + 1), [-1] * (positions + 1)
        for k in range(positions + 1):
            # the window of predecessors k' with narrowest ≤ k - k' ≤ widest, its cheapest at the front
            entering = k - narrowest
            if entering >= 0:
                while window and previous[window[-1]] >= previous[entering]:
                    window.pop()
                window.append(entering)
            while window and window[0] < k - widest:
                window.popleft()
            if window and previous[window[0]] < infinity and k < positions:
                here[k] = previous[window[0]] + cost[k]
                came[k] = window[0]
        back.append(came)
        best = here
    last_candidates = [k for k in range(max(last, 1), positions) if best[k] < infinity]
    if not last_candidates:
        return None
    k = min(last_candidates, key=lambda candidate: (best[candidate], candidate))
    path = [k]
    for came in reversed(back):
        k = came[k]
        path.append(k)
    return path[::-1]
