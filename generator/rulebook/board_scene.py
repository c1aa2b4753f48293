"""A board figure's scene: the region of the board it shows, the pieces on its spaces, the moves between them,
the spaces ringed and the numbered markers, resolved from rules.yaml against the laid-out board.

Spaces are named as the board's face names them (Face.spaces: 'track.5', 'red_safety.2', 'map.minsk'), so a
figure stays true when the board changes: a space moved moves its pawn, a pawn's new art is the figure's art.
Everything here is in the board's millimetres; figures.py scales it onto the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

from generator.components.piece import Face
from generator.components.pieces import LaidOutSet
from generator.content.rules_schema import Figure as FigureSpec
from generator.content.rules_schema import Move
from generator.errors import SourceMark

Frame = tuple[float, float, float, float]       # x, y, w, h (mm on the board)
Point = tuple[float, float]

PIECE_SHARE = 0.9          # a piece stands in this share of its space (several on one space share it)
STANDEE_FRONT = "front"    # the space of a standee's face that is the pawn's own figure (standee.py)


@dataclass(frozen=True)
class PlacedPiece:
    """A piece's face (or its `front` part: a standee's figure) drawn into a frame of the board."""

    face: Face
    part: Frame                  # the part of the face drawn (mm on the face)
    frame: Frame                 # where on the board
    space: Frame                 # the space it stands on


@dataclass(frozen=True)
class Arrow:
    spaces: tuple[Frame, ...]    # the spaces it goes through, in order (it runs through their centres)
    steps: bool                  # number the spaces entered, 1, 2, …
    dashed: bool
    both_ends: bool
    bend: float                  # a two-point arrow bowed sideways by this share of its length
    colour: str | None           # None: the rulebook's ink


@dataclass(frozen=True)
class BoardScene:
    region: Frame
    pieces: tuple[PlacedPiece, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    highlights: tuple[Frame, ...] = ()
    markers: tuple[Frame, ...] = ()          # numbered 1, 2, … in order; their notes are the figure's
    notes: tuple[str, ...] = ()
    marks: tuple[Frame, ...] = ()            # spaces filled in with a pencil
    overview: str | None = None              # the corner of the figure that shows the whole board, or None


@dataclass
class SceneReader:
    """What resolving a scene reads from the resolver: the board's face, the game's pieces, words and colours,
    and where each key of the figure is written (a problem is told there)."""

    board: Face
    board_id: str
    sets: dict[str, list[LaidOutSet]]
    words: Callable[..., str]                  # (key, *path) → the text, checked
    colour: Callable[[str, SourceMark], str | None]
    mark: Callable[..., SourceMark]            # (*path inside the figure) → where it is written
    problem: Callable[[SourceMark, str, str], None]

    def space(self, name: str, *path) -> Frame | None:
        frame = self.board.space(name)
        if frame is None:
            self.problem(self.mark(*path), f"board '{self.board_id}' has no space '{name}'", self._spaces_hint())
        return frame

    def _spaces_hint(self) -> str:
        boxes = sorted({name.split(".", 1)[0] for name, *_ in self.board.spaces if "/" not in name})
        if not boxes:
            return "the board has no cells or network box: name a region by x, y, width and height instead"
        return ("name a space by its cells box and number from 1 ('track.5'), or its id; the board's boxes: "
                + ", ".join(boxes))


def has_scene(spec: FigureSpec) -> bool:
    return bool(spec.region or spec.pieces or spec.moves or spec.highlight or spec.callouts or spec.marks
                or spec.overview)


def board_scene(spec: FigureSpec, reader: SceneReader) -> BoardScene | None:
    """The scene of a board figure, or None where its region cannot be told (reported)."""
    region = _region(spec, reader)
    if region is None:
        return None
    pieces = _pieces(spec, reader)
    arrows = tuple(arrow for index, move in enumerate(spec.moves) if (arrow := _arrow(move, index, reader)))
    highlights = tuple(frame for index, name in enumerate(spec.highlight)
                       if (frame := reader.space(name, "highlight", index)) is not None)
    markers, notes = [], []
    for index, marker in enumerate(spec.callouts):
        frame = reader.space(marker.on, "callouts", index, "on")
        if frame is not None:
            markers.append(frame)
            notes.append(reader.words(marker.text, "callouts", index, "text"))
    marks = tuple(frame for index, name in enumerate(spec.marks)
                  if (frame := reader.space(name, "marks", index)) is not None)
    return BoardScene(region, pieces, arrows, highlights, tuple(markers), tuple(notes), marks, spec.overview)


def _region(spec: FigureSpec, reader: SceneReader) -> Frame | None:
    board, region = reader.board, spec.region
    whole = (0.0, 0.0, board.width, board.height)
    if region is None:
        return whole
    corners = (region.x, region.y, region.width, region.height)
    if region.spaces and any(value is not None for value in corners):
        reader.problem(reader.mark("region"), "a region is either spaces or x, y, width and height, not both",
                       "keep one of the two")
        return None
    if not region.spaces:
        if any(value is None for value in corners):
            reader.problem(reader.mark("region"), "a region needs spaces, or all of x, y, width and height",
                           "write spaces: [track.1, track.5], or the rectangle in mm from the board's top-left")
            return None
        x, y, w, h = (float(value) for value in corners)     # type: ignore[arg-type]
        return _within(reader, (x, y, w, h), whole)
    frames = [frame for index, name in enumerate(region.spaces)
              if (frame := reader.space(name, "region", "spaces", index)) is not None]
    if not frames:
        return None
    margin = region.margin
    left, top = min(f[0] for f in frames) - margin, min(f[1] for f in frames) - margin
    right, bottom = max(f[0] + f[2] for f in frames) + margin, max(f[1] + f[3] for f in frames) + margin
    return _within(reader, (left, top, right - left, bottom - top), whole)


def _within(reader: SceneReader, frame: Frame, whole: Frame) -> Frame | None:
    """The frame cut to the board's trim; None where nothing of it is on the board (reported)."""
    x, y, w, h = frame
    left, top = max(x, whole[0]), max(y, whole[1])
    right, bottom = min(x + w, whole[2]), min(y + h, whole[3])
    if right - left <= 0 or bottom - top <= 0:
        reader.problem(reader.mark("region"), f"the region lies outside the {whole[2]:g} × {whole[3]:g} mm board",
                       "x and y are mm from the board's top-left corner")
        return None
    return left, top, right - left, bottom - top


def _pieces(spec: FigureSpec, reader: SceneReader) -> tuple[PlacedPiece, ...]:
    """Each piece on its space; pieces on one space stand side by side in it."""
    found: list[tuple[Face, Frame, Frame]] = []       # face, its part, its space
    for index, placed in enumerate(spec.pieces):
        where = reader.mark("pieces", index, "piece")
        face = piece_face(placed.piece, reader.sets, partial(reader.problem, where))
        space = reader.space(placed.on, "pieces", index, "on")
        if face is not None and space is not None:
            found.append((face, face.space(STANDEE_FRONT) or (0.0, 0.0, face.width, face.height), space))
    pieces = []
    for face, part, space in found:
        sharing = [other for other in found if other[2] == space]
        share, slot = len(sharing), next(i for i, other in enumerate(sharing) if other[0] is face and other[1] == part)
        x, y, w, h = space
        room_w, room_h = w * PIECE_SHARE / share, h * PIECE_SHARE
        scale = min(room_w / part[2], room_h / part[3])
        pw, ph = part[2] * scale, part[3] * scale
        left = x + w * (1 - PIECE_SHARE) / 2 + slot * room_w + (room_w - pw) / 2
        pieces.append(PlacedPiece(face, part, (left, y + (h - ph) / 2, pw, ph), space))
    return tuple(pieces)


def piece_face(name: str, sets: dict[str, list[LaidOutSet]], report: Callable[[str, str], None]) -> Face | None:
    """The front of the piece named 'set/piece' (a card, a token, a pawn's standee), or None (reported)."""
    set_id, _, piece_id = name.partition("/")
    for laid_out_sets in sets.values():
        for laid_out in laid_out_sets:
            if laid_out.id != set_id:
                continue
            for copy in laid_out.copies:
                if copy.card == piece_id:
                    return copy.front
    known = sorted(f"{laid_out.id}/{copy.card}" for of_kind in sets.values() for laid_out in of_kind
                   for copy in laid_out.copies[:1])
    report(f"no piece '{name}' in this edition",
           "write set/piece with ids of the game's YAML" + (f", e.g. {known[0]}" if known else ""))
    return None


def _arrow(move: Move, index: int, reader: SceneReader) -> Arrow | None:
    frames = []
    for step, name in enumerate(move.along):
        frame = reader.space(name, "moves", index, "along", step)
        if frame is None:
            return None
        frames.append((name, frame))
    if move.jump:
        spaces = tuple(frame for _, frame in frames)
    else:
        names = [frames[0][0]]
        for (start, _), (end, _) in zip(frames, frames[1:], strict=False):
            names += _cells_between(start, end, move.backward, reader)
        spaces = tuple(frame for name in names if (frame := reader.board.space(name)) is not None)
    colour = reader.colour(move.colour, reader.mark("moves", index, "colour")) if move.colour else None
    return Arrow(spaces, move.steps and not move.jump, move.dashed, move.both_ends, move.bend if move.jump else 0.0,
                 colour)


def _cells_between(start: str, end: str, backward: bool, reader: SceneReader) -> list[str]:
    """The spaces a move from `start` enters on its way to `end`, `end` included: where both are numbered cells
    of one box, the cells between them (round a loop forward, or backward, past its last cell where it must;
    along a row or a column towards `end`), else `end` alone."""
    first, second = _numbered(start), _numbered(end)
    if first is None or second is None or first[0] != second[0]:
        return [end]
    box = first[0]
    if box not in reader.board.loops:
        step = 1 if second[1] > first[1] else -1
        return [f"{box}.{number}" for number in range(first[1] + step, second[1] + step, step)]
    count = _cell_count(reader.board, box)
    step = -1 if backward else 1
    names: list[str] = []
    number = first[1]
    while number != second[1] and len(names) < count:
        number = (number - 1 + step) % count + 1
        names.append(f"{box}.{number}")
    return names


def _numbered(name: str) -> tuple[str, int] | None:
    """('track', 5) for 'track.5' (a cell of the face's own box, by number)."""
    box, _, number = name.rpartition(".")
    return (box, int(number)) if box and "/" not in name and number.isdigit() else None


def _cell_count(board: Face, box: str) -> int:
    return sum(1 for name, *_ in board.spaces if (numbered := _numbered(name)) is not None and numbered[0] == box)
