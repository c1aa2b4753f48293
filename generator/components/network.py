"""A `network` box: a map with an outline, nodes at geographic positions and routes between them.

Positions are longitude/latitude, fitted into the box (longitude scaled by the
cosine of the middle latitude, so the map keeps its shape). A route of length n
is drawn as n segments in its colour along the line between its nodes, or along
a bent line through its `via` points (a long route following a river). Marks sit
in white discs on the segments: the colour's symbol on every segment (`symbols`,
so that colours are told apart without their hue), the border icon instead of
the symbol on the middle segment of a border route (that segment is paid with
the ticket), and the water icon beside the symbol on every segment of a water
route. Several routes between the same two nodes run side by side.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Callable, NamedTuple

from generator.components.box_call import BoxCall, DrawTemplate
from generator.components.cells import CellPlace
from generator.components.nesting import nested_template_problem
from generator.components.piece import ArtPlacement, Ellipse, Group, Item, Polygon
from generator.components.subject import Subject, box_colour, resolve_file
from generator.content.payloads import ABSENT, MapData, Route, parse_map

MARK_SHARE = 0.76           # a mark's disc: this share of the segment's width (room for its ink ring)


def project(projection, frame):
    """lon/lat → mm in the frame, the bounds fitted and centred."""
    x, y, w, h = frame
    middle = math.radians((projection.north + projection.south) / 2)
    span_x = (projection.east - projection.west) * math.cos(middle)
    span_y = projection.north - projection.south
    scale = min(w / span_x, h / span_y)
    left = x + (w - span_x * scale) / 2
    top = y + (h - span_y * scale) / 2

    def to_mm(lon: float, lat: float) -> tuple[float, float]:
        return left + (lon - projection.west) * math.cos(middle) * scale, top + (projection.north - lat) * scale
    return to_mm


class Lane(NamedTuple):
    """How a route's segments are drawn: their width and the gap between them (mm), and how far the
    route runs beside the line between its nodes (routes between the same two nodes run side by side)."""

    width: float
    gap: float
    offset: float = 0.0


def segment_polygons(a, b, length: int, clearance: float, lane: Lane):
    """The corners of `length` segments between points a and b, leaving `clearance` at each end."""
    width, gap, offset = lane
    (ax, ay), (bx, by) = a, b
    distance = math.hypot(bx - ax, by - ay)
    if distance == 0:
        return None
    ux, uy = (bx - ax) / distance, (by - ay) / distance
    nx, ny = -uy, ux
    room = distance - 2 * clearance
    size = (room - gap * (length + 1)) / length
    if size <= 0:
        return None
    polygons = []
    for index in range(length):
        start = clearance + gap + index * (size + gap)
        sx, sy = ax + ux * start + nx * offset, ay + uy * start + ny * offset
        ex, ey = sx + ux * size, sy + uy * size
        half_x, half_y = nx * width / 2, ny * width / 2
        polygons.append(((sx + half_x, sy + half_y), (ex + half_x, ey + half_y),
                         (ex - half_x, ey - half_y), (sx - half_x, sy - half_y)))
    return polygons


def chain_segments(points, length: int, clearance: float, lane: Lane):
    """`length` equal segments along a smooth curve through `points` (the ends are nodes: `clearance` left there).

    Two points give the straight line of `segment_polygons`. Through more, the line is a
    Catmull-Rom curve (it passes through every point); each segment is the straight chord
    between its two ends on the curve, so segments stay rectangles of one length. Returns
    the segments' corners, or None when they do not fit.
    """
    if len(points) == 2:
        return segment_polygons(points[0], points[1], length, clearance, lane)
    width, gap, offset = lane
    curve = _smooth_curve(points)
    walked = [0.0]
    for (ax, ay), (bx, by) in zip(curve, curve[1:], strict=False):
        walked.append(walked[-1] + math.hypot(bx - ax, by - ay))
    size = (walked[-1] - 2 * clearance - gap * (length + 1)) / length
    if size <= 0:
        return None
    polygons = []
    for index in range(length):
        begin = clearance + gap + index * (size + gap)
        (sx, sy), (ex, ey) = _point_at(curve, walked, begin), _point_at(curve, walked, begin + size)
        chord = math.hypot(ex - sx, ey - sy)
        nx, ny = -(ey - sy) / chord, (ex - sx) / chord
        sx, sy, ex, ey = sx + nx * offset, sy + ny * offset, ex + nx * offset, ey + ny * offset
        half_x, half_y = nx * width / 2, ny * width / 2
        polygons.append(((sx + half_x, sy + half_y), (ex + half_x, ey + half_y),
                         (ex - half_x, ey - half_y), (sx - half_x, sy - half_y)))
    return polygons


CURVE_STEPS = 24            # points per stretch between two given points


def _smooth_curve(points):
    """A centripetal-free (uniform) Catmull-Rom curve through the points, as a fine polyline."""
    padded = [points[0], *points, points[-1]]
    curve = [points[0]]
    for i in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[i - 1], padded[i], padded[i + 1], padded[i + 2]
        for step in range(1, CURVE_STEPS + 1):
            t = step / CURVE_STEPS
            curve.append(tuple(0.5 * (2 * p1[k] + (p2[k] - p0[k]) * t + (2 * p0[k] - 5 * p1[k] + 4 * p2[k] - p3[k])
                                      * t * t + (3 * p1[k] - p0[k] - 3 * p2[k] + p3[k]) * t * t * t)
                               for k in (0, 1)))
    return curve


def _point_at(curve, walked, distance):
    """The point `distance` mm along the polyline (`walked`: the length up to each of its points)."""
    for index in range(1, len(curve)):
        if walked[index] >= distance or index == len(curve) - 1:
            stretch = walked[index] - walked[index - 1]
            t = 0.0 if stretch == 0 else (distance - walked[index - 1]) / stretch
            (ax, ay), (bx, by) = curve[index - 1], curve[index]
            return ax + (bx - ax) * t, ay + (by - ay) * t
    return curve[-1]


def layout_network(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """The map: its outline, then the routes, then the nodes (each its node template) on top."""
    spec, ctx, subject, name = call.box.network, call.ctx, call.subject, call.name
    to_mm = project(spec.projection, call.frame)
    data, issues = parse_map(spec, lambda reference: _read(call, reference))
    for reference, issue in issues:        # found when the game was read (payload_check): said once
        call.report(reference, issue)
    items: list[Item] = _outline(call, data.outline, to_mm)
    node_template = ctx.templates.resolve(spec.node_template)
    if node_template is None:
        if ctx.once("node-template", call.template.id, name):
            ctx.problems.add(call.mark, f"box '{name}': unknown node_template '{spec.node_template}'")
        return items
    if not data.nodes:
        return items
    cycle = nested_template_problem(ctx, spec.node_template)
    if cycle is not None:
        if ctx.once("node-cycle", call.template.id, name):
            ctx.problems.add(call.mark, f"box '{name}': {cycle}", "a node template cannot draw a map of itself")
        return items
    where: dict[str, tuple[float, float]] = {}
    node_items: list[Item] = []
    size = node_template.size
    places = call.places[name] = []         # the nodes as the face's spaces ('map.minsk'), in their order
    for index, node in data.nodes:
        cx, cy = where[node.id] = to_mm(node.lon, node.lat)
        node_mark = subject.field_mark(spec.nodes[1:], index)
        node_subject = Subject(f"{subject.label}, node {node.id}", dict(node.fields), lambda *_p, _m=node_mark: _m)
        face = draw(node_template, node_subject, f"{call.face_key}/{name}/node/{node.id}")
        node_items.append(Group(cx - size.width / 2, cy - size.height / 2, size.width, size.height,
                                size.width, size.height, 0, face.items))
        places.append(CellPlace(cx - size.width / 2, cy - size.height / 2, size.width, size.height, 0, id=node.id,
                                inner=face.spaces, inner_size=(size.width, size.height)))
    if spec.routes:
        items.extend(_routes(call, data, _Map(where, to_mm, max(size.width, size.height) / 2)))
    return items + node_items


def _read(call: BoxCall, reference: str):
    """A network's '@field' (missing: reported, and read as absent)."""
    value = call.require(reference)
    return ABSENT if value is None else value


class _Map(NamedTuple):
    """The laid-out map routes are drawn on: node positions (mm), the projection, the room nodes take."""

    where: dict[str, tuple[float, float]]
    to_mm: Callable[[float, float], tuple[float, float]]
    clearance: float          # mm kept free at each end of a route (half a node)


def _outline(call: BoxCall, outline, to_mm) -> list[Item]:
    """The outline's polygon (none without one)."""
    spec = call.box.network
    if not outline:
        return []
    return [Polygon(0, 0, 0, 0, fill=call.colour(spec.outline_fill, "network", "outline_fill"),
                    stroke=call.colour(spec.outline_stroke, "network", "outline_stroke"),
                    stroke_width=0.6, points=tuple(to_mm(lon, lat) for lon, lat in outline))]


def _routes(call: BoxCall, data: MapData, laid_out: _Map) -> list[Item]:
    """Every route's segments, and on top of them their marks (symbols, border and water icons)."""
    spec, ctx, subject = call.box.network, call.ctx, call.subject
    field = spec.routes[1:]
    pairs: dict[frozenset, list[int]] = defaultdict(list)
    for index, route in data.routes:
        pairs[frozenset((route.start, route.end))].append(index)
    icons = {kind: resolve_file(ctx, getattr(spec, f"{kind}_icon"), call.mark) if getattr(spec, f"{kind}_icon")
             else None for kind in ("border", "water")}
    symbols = _symbols(call, data.symbols)
    segments: list[Item] = []
    marks_on_top: list[Item] = []
    for index, route in data.routes:
        route_mark = subject.field_mark(field, index)
        siblings = pairs[frozenset((route.start, route.end))]
        lane = Lane(spec.segment_width, spec.gap,
                    (siblings.index(index) - (len(siblings) - 1) / 2) * (spec.segment_width + spec.gap))
        points = [laid_out.where[route.start], *(laid_out.to_mm(lon, lat) for lon, lat in route.via),
                  laid_out.where[route.end]]
        polygons = chain_segments(points, route.length, laid_out.clearance, lane)
        if polygons is None:
            ctx.problems.add(route_mark, f"{subject.label}: route {route.start}–{route.end} is too short for "
                             f"{route.length} segments", "move the nodes apart, bend the route through "
                             "`via` points or shorten it")
            continue
        colour = route.colour
        fill = "#ffffff" if colour == "white" else box_colour(colour, call.palette, subject, ctx, route_mark)
        dash = (1.2, 0.8) if route.kind == "water" else None
        for corners in polygons:
            segments.append(Polygon(0, 0, 0, 0, fill=fill, stroke=spec.segment_stroke, stroke_width=0.35,
                                    dash=dash, points=corners))
        symbol = _symbol_of(call, symbols, route, route_mark)
        marks_on_top += _segment_marks(polygons, symbol, icons.get(route.kind) if route.kind != "land" else None,
                                       route.kind, spec.segment_stroke)
    return segments + marks_on_top


def _symbol_of(call: BoxCall, symbols, route: Route, route_mark):
    """The art marking a route of this colour (None for white routes, or when there are no symbols)."""
    colour = route.colour
    if symbols is None or colour == "white":
        return None
    symbol = symbols.get(colour, False)
    if symbol is False:
        spec = call.box.network
        call.ctx.problems.add(route_mark, f"{call.subject.label}: route {route.start}–{route.end}: colour "
                              f"'{colour}' has no symbol in '{spec.symbols}'",
                              f"add {{color: {colour}, symbol: art/….svg}} to '{spec.symbols}'")
        return None
    return symbol


def _symbols(call: BoxCall, entries) -> dict[str, object] | None:
    """Route colour → its symbol's art file (None where the file was refused, reported); None without symbols."""
    spec, subject = call.box.network, call.subject
    if entries is None:
        return None
    field = spec.symbols[1:]
    return {symbol.colour: resolve_file(call.ctx, symbol.art, subject.field_mark(field, index))
            for index, symbol in entries if symbol.art}


def _segment_marks(polygons, symbol, kind_icon, kind: str, stroke: str) -> list[Item]:
    """The discs on a route's segments: its colour symbol on each; a border's icon on the middle one instead;
    a water route's icon beside the symbol on each (the seed marks every water segment)."""
    marks: list[Item] = []
    middle = (len(polygons) - 1) // 2
    for index, corners in enumerate(polygons):
        (x1, y1), (x2, y2), (x3, y3), (x4, y4) = corners
        centre = ((x1 + x2 + x3 + x4) / 4, (y1 + y2 + y3 + y4) / 4)
        length = math.hypot(x2 - x1, y2 - y1)
        width = math.hypot(x4 - x1, y4 - y1)
        along = ((x2 - x1) / length, (y2 - y1) / length) if length else (1.0, 0.0)
        if kind == "border" and kind_icon is not None and index == middle:
            art = [kind_icon]
        elif kind == "water" and kind_icon is not None:
            art = [symbol, kind_icon] if symbol else [kind_icon]
        else:
            art = [symbol] if symbol else []
        diameter = min(width * MARK_SHARE, (length - 0.6 * (len(art) + 1)) / max(len(art), 1))
        if not art or diameter <= 1:
            continue
        step = diameter + 0.6
        for slot, file in enumerate(art):
            shift = (slot - (len(art) - 1) / 2) * step
            cx, cy = centre[0] + along[0] * shift, centre[1] + along[1] * shift
            marks.append(Ellipse(cx - diameter / 2, cy - diameter / 2, diameter, diameter,
                               fill="#ffffff", stroke=stroke, stroke_width=0.25))
            if file is not None:
                inner = diameter * 0.78
                marks.append(ArtPlacement(file, cx - inner / 2, cy - inner / 2, inner, inner))
    return marks


def point_in_polygon(point, polygon) -> bool:
    """Ray casting: is (x, y) inside the polygon of (x, y) corners?"""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside
