"""A `cells` box: one template repeated for each cell of a list, placed along a path.

The engine computes every position — around the box's edge for a board's
loop track, or in a row or a column — so a designer only writes the order of
the cells. Loop cells turn to face their side of the table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from generator.components.box_call import BoxCall, DrawTemplate
from generator.components.nesting import nested_template_problem, take_cells
from generator.components.piece import Curve, Group, Item, Pen
from generator.components.subject import Subject
from generator.content.payloads import field_name, parse_cells, path_count_problem
from generator.content.schema import MAX_CELLS

SIDE_ROTATION = MappingProxyType({"top": 180, "right": 270, "bottom": 0, "left": 90})
START_CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")


@dataclass(frozen=True)
class CellPlace:
    x: float
    y: float
    w: float
    h: float
    rotation: int
    side: str = ""          # for loop cells: the edge of the box they lie on
    id: str = ""            # the cell's `id` field (a network's node id), naming it as a space besides its number
    inner: tuple[tuple[str, float, float, float, float], ...] = ()   # its own face's spaces, in that face's mm
    inner_size: tuple[float, float] = (0.0, 0.0)                     # its own face's width and height

    def inner_edge(self, frame) -> tuple[float, float]:
        """The middle of the cell's edge that faces the inside of the loop."""
        cx, cy = self.x + self.w / 2, self.y + self.h / 2
        return {"top": (cx, self.y + self.h), "bottom": (cx, self.y), "left": (self.x + self.w, cy),
                "right": (self.x, cy)}.get(self.side, (cx, cy))


class PathError(ValueError):
    """The cells cannot be placed on that path; the message says why."""


def row_places(frame, count: int, gap: float, vertical: bool = False) -> list[CellPlace]:
    """Equal cells side by side (or one under another), `gap` mm apart, filling the frame."""
    x, y, w, h = frame
    length = h if vertical else w
    size = (length - gap * (count - 1)) / count
    if size <= 0 or (w if vertical else h) <= 0:
        raise PathError(f"{count} cells with a {gap:g} mm gap do not fit in a {w:g} × {h:g} mm box")
    if vertical:
        return [CellPlace(x, y + i * (size + gap), w, size, 0) for i in range(count)]
    return [CellPlace(x + i * (size + gap), y, size, h, 0) for i in range(count)]


def rows_places(frame, rows: list[int], gap: float) -> list[CellPlace]:
    """Square cells in centred rows, top down: rows [1, 2, 3] is a little tree."""
    x, y, w, h = frame
    widest = max(rows)
    size = min((w - gap * (widest - 1)) / widest, (h - gap * (len(rows) - 1)) / len(rows))
    if size <= 0:
        raise PathError(f"rows of up to {widest} cells with a {gap:g} mm gap do not fit in a {w:g} × {h:g} mm box")
    top = y + (h - (len(rows) * size + (len(rows) - 1) * gap)) / 2
    places = []
    for number, count in enumerate(rows):
        left = x + (w - (count * size + (count - 1) * gap)) / 2
        for index in range(count):
            places.append(CellPlace(left + index * (size + gap), top + number * (size + gap), size, size, 0))
    return places


def loop_places(frame, count: int, start: str = "top-left", facing: str = "outside") -> list[CellPlace]:
    """Cells clockwise around the frame's edge, corners included, from the `start` corner."""
    x, y, w, h = frame
    if count < 4 or count % 2:
        raise PathError(f"a loop needs an even number of at least 4 cells, got {count}")
    if w <= 0 or h <= 0:
        raise PathError(f"{count} cells cannot go round a {w:g} × {h:g} mm box")
    per_edge = 2 * (w + h) / (count + 4)           # the cell size that closes the loop
    across = max(2, round(w / per_edge))           # cells along the top edge, corners included
    down = (count + 4) // 2 - across               # cells along a side edge, corners included
    if down < 2:
        raise PathError(f"{count} cells cannot go round a {w:g} × {h:g} mm box")
    cw, ch = w / across, h / down
    places: list[tuple[float, float, str]] = []
    places += [(x + i * cw, y, "top") for i in range(across)]
    places += [(x + w - cw, y + j * ch, "right") for j in range(1, down)]
    places += [(x + i * cw, y + h - ch, "bottom") for i in range(across - 2, -1, -1)]
    places += [(x, y + j * ch, "left") for j in range(down - 2, 0, -1)]
    corners = {"top-left": 0, "top-right": across - 1, "bottom-right": across + down - 2,
               "bottom-left": 2 * across + down - 3}
    first = corners[start]
    ordered = places[first:] + places[:first]
    turn = {"outside": 0, "inside": 180, "up": None}[facing]
    return [CellPlace(px, py, cw, ch, 0 if turn is None else (SIDE_ROTATION[side] + turn) % 360, side)
            for px, py, side in ordered]


def face_spaces(places: dict[str, list[CellPlace]]) -> tuple[tuple[str, float, float, float, float], ...]:
    """The named spaces of a face from its cells boxes' places (faces.py): each cell by its number and its
    id, and the spaces of each cell's own face below its name ('players.2/trees.3'), all in the face's mm."""
    spaces: list[tuple[str, float, float, float, float]] = []
    for box, box_places in places.items():
        for number, place in enumerate(box_places, 1):
            names = [f"{box}.{number}"] + ([f"{box}.{place.id}"] if place.id else [])
            for name in names:
                spaces.append((name, place.x, place.y, place.w, place.h))
            if not place.inner:
                continue
            turned = place.rotation % 180 == 90
            across, down = (place.h, place.w) if turned else (place.w, place.h)
            sx, sy = across / place.inner_size[0], down / place.inner_size[1]
            for inner, x, y, w, h in place.inner:
                frame = rotate_region(place, x * sx, y * sy, w * sx, h * sy)
                spaces += [(f"{name}/{inner}", *frame) for name in names]
    return tuple(spaces)


def link_curves(places: list[CellPlace], fields: list[dict[str, Any]], link_type: str, frame,
                pen: Pen) -> list[Item]:
    """Join the cells of one type in pairs (1st–2nd, 3rd–4th…) with a curve from inner edge to inner edge.

    Cells on neighbouring sides are joined round the inside corner between them,
    hugging the track; others by a curve bowing towards the centre.
    """
    linked = [place for place, cell in zip(places, fields, strict=False) if cell.get("type") == link_type]
    x, y, w, h = frame
    centre = (x + w / 2, y + h / 2)
    curves: list[Item] = []
    for first, second in zip(linked[::2], linked[1::2], strict=False):
        (ax, ay), (bx, by) = first.inner_edge(frame), second.inner_edge(frame)
        sides = {first.side, second.side}
        if len(sides) == 2 and sides & {"top", "bottom"} and sides & {"left", "right"}:
            control = (ax, by) if first.side in ("left", "right") else (bx, ay)
        else:
            mx, my = (ax + bx) / 2, (ay + by) / 2
            control = (mx + (centre[0] - mx) * 0.35, my + (centre[1] - my) * 0.35)
        curves.append(Curve(ax, ay, bx - ax, by - ay, stroke=pen.colour or "#000000",
                            stroke_width=pen.width, dash=pen.dash, control=control))
    return curves


def group_for(place: CellPlace, items: tuple[Item, ...], width: float, height: float) -> Group:
    return Group(place.x, place.y, place.w, place.h, width, height, place.rotation, items)


def rotate_region(place: CellPlace, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """Where a rectangle given in a cell's own reading frame lies on the face (x, y, w, h).

    The cell's content is turned clockwise by its rotation about its centre; so is
    anything placed relative to it.
    """
    turned = place.rotation % 180 == 90
    local_w, local_h = (place.h, place.w) if turned else (place.w, place.h)
    corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
    mapped = [_to_face(place, local_w, local_h, u, v) for u, v in corners]
    xs, ys = [p[0] for p in mapped], [p[1] for p in mapped]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _to_face(place: CellPlace, local_w: float, local_h: float, u: float, v: float) -> tuple[float, float]:
    if place.rotation == 90:
        return place.x + local_h - v, place.y + u
    if place.rotation == 180:
        return place.x + local_w - u, place.y + local_h - v
    if place.rotation == 270:
        return place.x + v, place.y + local_w - u
    return place.x + u, place.y + v


def layout_cells(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """A `cells` box: its cell template drawn for each cell of the list, placed along the box's path."""
    box, ctx, subject, name = call.box, call.ctx, call.subject, call.name
    entries = call.require(box.cells)
    if entries is None:
        return []
    field = field_name(box.cells, "cells")
    cells, issues = parse_cells(entries, field, subject.cell_types)
    for issue in issues:            # found when the game was read (payload_check): said once
        call.report(box.cells, issue)
    if cells is None:
        return []
    cell_template = ctx.templates.resolve(box.cell_template)
    if cell_template is None:
        if ctx.once("cell-template", call.template.id, name):
            ctx.problems.add(call.mark, f"box '{name}' needs a cell_template (a known template id)",
                             f"known templates: {', '.join(sorted(ctx.templates.files))}")
        return []
    if not _room_for_cells(call, len(cells)):
        return []
    fields = [{**subject.fields, "index": index + 1, "position": index, **cell} for index, cell in enumerate(cells)]
    places = _places(call, len(fields))
    if places is None:
        return []
    call.places[name] = places
    items: list[Item] = []
    if box.link:
        pen = Pen(call.colour(box.stroke, "stroke"), box.stroke_width, tuple(box.dash) if box.dash else None)
        items.extend(link_curves(places, fields, box.link, call.frame, pen))
    size = cell_template.size
    for index, (place, cell) in enumerate(zip(places, fields, strict=False)):
        cell_subject = Subject(f"{subject.label}, {field} cell {index + 1}", cell,
                               lambda *_path, _index=index: subject.field_mark(field, _index), subject.cell_types)
        face = draw(cell_template, cell_subject, f"{call.face_key}/{name}/{index}")
        items.append(group_for(place, face.items, size.width, size.height))
        cell_id = cell.get("id")
        if face.spaces or isinstance(cell_id, str):
            places[index] = replace(place, id=cell_id if isinstance(cell_id, str) else "", inner=face.spaces,
                                    inner_size=(size.width, size.height))
    return items


def _places(call: BoxCall, count: int) -> list[CellPlace] | None:
    """Where the box's path puts `count` cells, or None when they do not fit (reported)."""
    box = call.box
    try:
        problem = path_count_problem(box.path, box.rows, count)
        if problem is not None:
            raise PathError(problem)
        if box.path == "loop":
            return loop_places(call.frame, count, box.start, box.facing)
        if box.path == "rows":
            return rows_places(call.frame, box.rows, box.gap)
        return row_places(call.frame, count, box.gap, vertical=box.path == "column")
    except PathError as error:
        call.ctx.problems.add(call.mark, f"box '{call.name}': {error}")
        return None


def _room_for_cells(call: BoxCall, count: int) -> bool:
    """Whether `count` more cells keep the face within MAX_CELLS and its cell template within itself."""
    box, ctx, name = call.box, call.ctx, call.name
    cycle = nested_template_problem(ctx, box.cell_template)
    if cycle is not None:
        if ctx.once("cell-cycle", call.template.id, name):
            ctx.problems.add(call.key_mark("cell_template"), f"box '{name}': {cycle}",
                             "a cell template cannot draw cells of itself")
        return False
    if not take_cells(ctx, count):
        if ctx.once("cells-limit", call.template.id, name):     # once: every cell of an outer box hits it
            ctx.problems.add(call.where(box.cells),
                             f"{call.subject.label}: box '{name}' brings the face to more than the {MAX_CELLS:,} "
                             "cells a face may hold (cells inside cells count too)",
                             "a real board's longest track has about 100 cells; check the counts")
        return False
    return True
