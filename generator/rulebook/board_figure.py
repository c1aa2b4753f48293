"""A board figure drawn from its scene (board_scene.py): the region of the board at a scale, the pieces standing
on their spaces, the moves as arrows through the spaces' centres with each space entered numbered, the spaces
ringed and the numbered markers whose notes stand under the figure.

The board is the board's own display list (only its items that reach into the region: a word outside it is
neither drawn nor read back), clipped to the region; what the figure adds is drawn over it in the page's
millimetres, so an arrow, a number or a ring is as legible in a close-up as in a whole board.
"""

from __future__ import annotations

import math
from typing import Callable

from generator.components.piece import (ArtPlacement, Curve, Ellipse, Face, Group, Item, Line, Polygon, Rect, Shape,
                                        TextPlacement)
from generator.rulebook.board_scene import Arrow, BoardScene, Frame, Point
from generator.rulebook.figures import FRAME_COLOUR, FRAME_WIDTH, Drawn
from generator.text.layout import run_width
from generator.units import pt_to_mm

# Label: (text, size in pt, weight, colour, centre x, centre y on the page) → the text's items, centred there
Label = Callable[[str, float, str, str, float, float], list[Item]]

INK, PAPER, RED = "#2b2220", "#ffffff", "#a31621"
PENCIL = "#6f7a86"                       # a space filled in by a player's pencil
LINE, CASING = 0.7, 1.6                  # mm: an arrow's line and the white line under it
HEAD_LENGTH, HEAD_WIDTH = 2.8, 2.6       # mm
DASH = (1.6, 1.0)                        # mm
STEP_DISC, STEP_SIZE = 3.8, 6.5          # mm across, pt: a numbered step
MARKER_DISC, MARKER_SIZE = 4.8, 7.5      # mm, pt: a numbered marker
RING = 0.8                               # mm: a highlighted space's ring
OVERVIEW_SHARE, OVERVIEW_LEAST = 0.26, 18.0     # a close-up's overview: this share of the figure, at least (mm)
OVERVIEW_INSET = 1.6                     # mm from the figure's edges


class BoardFigureDrawing(Drawn):
    """The scene's region of the board at a width (mm on the page), framed by a thin line."""

    def __init__(self, board: Face, scene: BoardScene, width: float, label: Label):
        region = scene.region
        super().__init__(width, region[3] * width / region[2])
        self.board, self.scene, self.label = board, scene, label
        self.board_items = _reaching(board.items, region, (board.width, board.height))

    def items(self, x: float, y: float, scale: float = 1.0) -> list[Item]:
        rx, ry, rw, rh = self.scene.region
        w, h = self.width * scale, self.height * scale
        s = w / rw                                     # page mm per board mm

        def at(point: Point) -> Point:                 # on the figure, mm from its top-left
            return (point[0] - rx) * s, (point[1] - ry) * s

        def frame(of: Frame) -> Frame:
            left, top = at((of[0], of[1]))
            return left, top, of[2] * s, of[3] * s

        board = Group(-rx * s, -ry * s, self.board.width * s, self.board.height * s, self.board.width,
                      self.board.height, 0, self.board_items)
        drawn: list[Item] = [board]
        for mark in self.scene.marks:           # a cell coloured in: graphite, inside the cell's own lines
            fx, fy, fw, fh = frame(mark)
            inset = min(fw, fh) * 0.12
            drawn.append(Rect(fx + inset, fy + inset, fw - 2 * inset, fh - 2 * inset, fill=PENCIL,
                              radius=inset))
        for ring in self.scene.highlights:
            fx, fy, fw, fh = frame(ring)
            drawn.append(Rect(fx + RING / 2, fy + RING / 2, fw - RING, fh - RING, stroke=RED, stroke_width=RING,
                              radius=RING))
        standing = {piece.space: frame(piece.frame) for piece in self.scene.pieces}
        for arrow in self.scene.arrows:
            ends = (standing.get(arrow.spaces[0]), standing.get(arrow.spaces[-1])) if arrow.spaces else (None, None)
            drawn += arrow_items([at(_centre(space)) for space in arrow.spaces], arrow, ends)
        for piece in self.scene.pieces:
            px, py, pw, ph = frame(piece.frame)
            part = piece.part
            face = Group(-part[0], -part[1], piece.face.width, piece.face.height, piece.face.width,
                         piece.face.height, 0, piece.face.items)
            # a piece is a miniature (a pawn's name some 2 pt high): drawn, not read back as the page's words
            drawn.append(Group(px, py, pw, ph, part[2], part[3], 0, (face,), read=False))
        for arrow in self.scene.arrows:
            if arrow.steps:
                for number, space in enumerate(arrow.spaces[1:], 1):
                    sx, sy, sw, sh = frame(space)
                    # on a space a piece stands on, at its bottom left corner, clear of the piece
                    centre = (sx + STEP_DISC / 2 + 0.3, sy + sh - STEP_DISC / 2 - 0.3) if space in standing \
                        else at(_centre(space))
                    drawn += self._disc(centre, str(number), STEP_DISC, STEP_SIZE, PAPER, arrow.colour or INK)
        for number, marker in enumerate(self.scene.markers, 1):
            fx, fy, fw, fh = frame(marker)
            # at the space's top right corner, clear of a piece standing in its middle
            centre = (fx + fw - MARKER_DISC / 2, fy + MARKER_DISC / 2)
            drawn += self._disc(centre, str(number), MARKER_DISC, MARKER_SIZE, RED, PAPER, ring=PAPER)
        if self.scene.overview:
            drawn += self._overview(w, h)
        # one group, clipped to the figure: what reaches past the region (a long move's arrow) stops at its edge
        return [Group(x, y, w, h, w, h, 0, tuple(drawn)),
                Rect(x, y, w, h, stroke=FRAME_COLOUR, stroke_width=pt_to_mm(FRAME_WIDTH))]

    def _overview(self, w: float, h: float) -> list[Item]:
        """The whole board, small, in the scene's corner of the figure (w × h mm), the region framed in red on it:
        where a close-up lies. A miniature: drawn, its words not read back."""
        board = self.board
        across = max(OVERVIEW_LEAST, min(w, h * board.width / board.height) * OVERVIEW_SHARE)
        down = across * board.height / board.width
        corner = self.scene.overview or "top-right"
        left = OVERVIEW_INSET if corner.endswith("left") else w - across - OVERVIEW_INSET
        top = OVERVIEW_INSET if corner.startswith("top") else h - down - OVERVIEW_INSET
        s = across / board.width
        rx, ry, rw, rh = self.scene.region
        return [Rect(left - 0.6, top - 0.6, across + 1.2, down + 1.2, fill=PAPER, stroke=INK, stroke_width=0.25),
                Group(left, top, across, down, board.width, board.height, 0, board.items, read=False),
                Rect(left + rx * s, top + ry * s, max(rw * s, 0.8), max(rh * s, 0.8), stroke=RED,
                     stroke_width=0.5)]

    def _disc(self, centre: Point, text: str, across: float, size: float, fill: str, ink: str,
              ring: str | None = None) -> list[Item]:
        cx, cy = centre
        disc = Ellipse(cx - across / 2, cy - across / 2, across, across, fill=fill, stroke=ring or ink,
                       stroke_width=0.3)
        return [disc, *self.label(text, size, "black", ink if ring is None else ring, cx, cy)]


def arrow_items(points: list[Point], arrow: Arrow, pieces: tuple[Frame | None, Frame | None]) -> list[Item]:
    """The arrow through the points on the page: a white casing under an ink line, its head short of the last
    point by a step's disc (which is drawn over that point) or at the edge of the piece standing there, a
    dashed or bowed arrow as a jump."""
    colour = arrow.colour or INK
    dash = DASH if arrow.dashed else None
    if len(points) < 2:
        return []
    first, last = pieces
    gap = _to_edge(last, points[-1], points[-2]) if last else STEP_DISC / 2 if arrow.steps else 0.8
    start_gap = _to_edge(first, points[0], points[1]) if first else gap
    if len(points) == 2 and arrow.bend:
        (ax, ay), (bx, by) = points
        length = math.hypot(bx - ax, by - ay)
        control = ((ax + bx) / 2 - (by - ay) * arrow.bend, (ay + by) / 2 + (bx - ax) * arrow.bend)
        start = _towards((ax, ay), control, start_gap) if arrow.both_ends else (ax, ay)
        end = _towards((bx, by), control, gap)
        if length <= 2 * gap:
            return []
        items: list[Item] = []
        for width, paint, line_dash in ((CASING, PAPER, None), (LINE, colour, dash)):
            items.append(Curve(start[0], start[1], end[0] - start[0], end[1] - start[1], stroke=paint,
                               stroke_width=width, dash=line_dash, control=control))
        items += _head(control, end, colour)
        if arrow.both_ends:
            items += _head(control, start, colour)
        return items
    path = list(points)
    path[-1] = _towards(path[-1], path[-2], gap)
    if arrow.both_ends:
        path[0] = _towards(path[0], path[1], start_gap)
    tip_base = _towards(path[-1], path[-2], HEAD_LENGTH * 0.6)      # the line ends inside the head
    lines = list(zip(path[:-1], path[1:-1] + [tip_base], strict=True))
    items = []
    for width, paint, line_dash in ((CASING, PAPER, None), (LINE, colour, dash)):
        for (ax, ay), (bx, by) in lines:
            items.append(Line(ax, ay, bx - ax, by - ay, stroke=paint, stroke_width=width, dash=line_dash))
        for jx, jy in path[1:-1]:           # the corners, rounded: a butt-ended line leaves a notch there
            items.append(Ellipse(jx - width / 2, jy - width / 2, width, width, fill=paint))
    items += _head(path[-2], path[-1], colour)
    if arrow.both_ends:
        items += _head(path[1], path[0], colour)
    return items


def _to_edge(piece: Frame, centre: Point, towards: Point) -> float:
    """How far from the space's centre, going towards the point, the edge of the piece standing there lies
    (and a little more: the head touches the piece, not its art)."""
    dx, dy = towards[0] - centre[0], towards[1] - centre[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = abs(dx) / length, abs(dy) / length
    half_w, half_h = piece[2] / 2, piece[3] / 2
    return min(half_w / ux if ux > 1e-9 else math.inf, half_h / uy if uy > 1e-9 else math.inf) + 0.4


def _centre(frame: Frame) -> Point:
    return frame[0] + frame[2] / 2, frame[1] + frame[3] / 2


def _towards(point: Point, other: Point, distance: float) -> Point:
    """The point `distance` mm from `point` towards `other`."""
    dx, dy = other[0] - point[0], other[1] - point[1]
    length = math.hypot(dx, dy) or 1.0
    return point[0] + dx * distance / length, point[1] + dy * distance / length


def _head(before: Point, tip: Point, colour: str) -> list[Shape]:
    dx, dy = tip[0] - before[0], tip[1] - before[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    bx, by = tip[0] - ux * HEAD_LENGTH, tip[1] - uy * HEAD_LENGTH
    half = HEAD_WIDTH / 2
    corners = (tip, (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half))
    return [Polygon(0, 0, 0, 0, fill=colour, stroke=PAPER, stroke_width=0.25, points=corners)]


def _reaching(items: tuple[Item, ...], region: Frame, size: tuple[float, float]) -> tuple[Item, ...]:
    """The items that reach into the region (by their frames): the rest would be clipped away, and their
    words read back from the page as if printed. One that the region's edge cuts is drawn, cut, but its words
    are not read (a word half shown is not the page's word, and its letters lie beyond the figure)."""
    width, height = size
    reaching: list[Item] = []
    for item in items:
        extent = _extent(item)
        if not _overlaps(extent, region):
            continue
        if extent is None or _inside(extent, region):
            reaching.append(item)
        else:
            reaching.append(Group(0.0, 0.0, width, height, width, height, 0, (item,), read=False))
    return tuple(reaching)


def _inside(extent: Frame, region: Frame) -> bool:
    x, y, w, h = extent
    rx, ry, rw, rh = region
    return x >= rx - 0.01 and y >= ry - 0.01 and x + w <= rx + rw + 0.01 and y + h <= ry + rh + 0.01


def _extent(item: Item) -> Frame | None:
    """An item's frame on its face; None where it cannot be told cheaply (kept)."""
    if isinstance(item, Polygon):
        if not item.points:
            return None
        xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
    if isinstance(item, (Line, Curve)):
        return min(item.x, item.x + item.w), min(item.y, item.y + item.h), abs(item.w), abs(item.h)
    if isinstance(item, (Shape, Group, ArtPlacement)):
        return item.x, item.y, item.w, item.h
    if isinstance(item, TextPlacement):
        if not item.runs:
            return None
        left = min(run.x for run in item.runs)
        right = max(run.x + run_width(run) for run in item.runs)
        top = min(run.baseline - pt_to_mm(run.size) for run in item.runs)
        bottom = max(run.baseline + pt_to_mm(run.size) * 0.3 for run in item.runs)
        return item.x + left, item.y + top, right - left, bottom - top
    return None


def _overlaps(extent: Frame | None, region: Frame) -> bool:
    if extent is None:
        return True
    x, y, w, h = extent
    rx, ry, rw, rh = region
    return x <= rx + rw and x + w >= rx and y <= ry + rh and y + h >= ry
