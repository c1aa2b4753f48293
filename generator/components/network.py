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
from generator.components.nesting import nested_template_problem
from generator.components.piece import ArtPlacement, Ellipse, Group, Item, Polygon
from generator.components.shapes import is_point_list
from generator.components.subject import Subject, box_colour, resolve_file

ROUTE_KINDS = ("land", "water", "border")
MAX_ROUTE_LENGTH = 100      # segments in one route (the longest real one: 8)
MAX_VIA = 20                # bend points of one route
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
    for (ax, ay), (bx, by) in zip(curve, curve[1:]):
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
    items: list[Item] = _outline(call, to_mm)
    nodes = call.require(spec.nodes)
    node_template = ctx.source.templates.resolve(spec.node_template)
    if not isinstance(nodes, list) or node_template is None:
        if node_template is None and ctx.once("node-template", call.template.id, name):
            ctx.problems.add(call.mark, f"box '{name}': unknown node_template '{spec.node_template}'")
        return items
    cycle = nested_template_problem(ctx, spec.node_template)
    if cycle is not None:
        if ctx.once("node-cycle", call.template.id, name):
            ctx.problems.add(call.mark, f"box '{name}': {cycle}", "a node template cannot draw a map of itself")
        return items
    places = _places(call)
    if places is False:
        return items        # said once; every node and route would only repeat it
    where: dict[str, tuple[float, float]] = {}
    node_items: list[Item] = []
    size = node_template.model.size
    for index, node in enumerate(nodes):
        node = _node(call, index, node, places)
        if node is None or not _new_node(call, index, node, where):
            continue
        cx, cy = where[node["id"]] = to_mm(node["lon"], node["lat"])
        node_mark = subject.field_mark(spec.nodes[1:], index)
        node_subject = Subject(f"{subject.label}, node {node['id']}", node, lambda *_p, _m=node_mark: _m)
        face = draw(node_template, node_subject, f"{call.face_key}/{name}/node/{node['id']}")
        node_items.append(Group(cx - size.width / 2, cy - size.height / 2, size.width, size.height,
                                size.width, size.height, 0, face.items))
    if spec.routes:
        items.extend(_routes(call, _Map(where, to_mm, max(size.width, size.height) / 2)))
    return items + node_items


class _Map(NamedTuple):
    """The laid-out map routes are drawn on: node positions (mm), the projection, the room nodes take."""

    where: dict[str, tuple[float, float]]
    to_mm: Callable[[float, float], tuple[float, float]]
    clearance: float          # mm kept free at each end of a route (half a node)


def _outline(call: BoxCall, to_mm) -> list[Item]:
    """The outline's polygon (none without one; a bad one reported)."""
    spec = call.box.network
    if not spec.outline:
        return []
    outline = call.require(spec.outline)
    if is_point_list(outline, 180):
        return [Polygon(0, 0, 0, 0, fill=call.colour(spec.outline_fill),
                      stroke=call.colour(spec.outline_stroke), stroke_width=0.6,
                      points=tuple(to_mm(lon, lat) for lon, lat in outline))]
    if outline is not None:
        call.ctx.problems.add(call.where(spec.outline), "an outline is a list of 3 or more "
                              "[lon, lat] points (numbers of degrees)")
    return []


def _node(call: BoxCall, index: int, node, places) -> dict | None:
    """A node with its place's fields (its own win), or None when it is unusable (reported)."""
    spec, subject = call.box.network, call.subject
    node_mark = subject.field_mark(spec.nodes[1:], index)
    if places is not None:
        node = {"id": node} if isinstance(node, str) else node
        place = places.get(node.get("id")) if isinstance(node, dict) else None
        if isinstance(node, dict) and "lon" not in node and "lat" not in node:
            if place is None:
                call.ctx.problems.add(node_mark, f"{subject.label}: node {index + 1}: no place '{node.get('id')}' "
                                      f"in '{spec.places}'", f"places: {', '.join(sorted(places)) or 'none'}")
                return None
            node = {**place, **node}
    if not (isinstance(node, dict) and isinstance(node.get("id"), str)
            and all(_degrees(node.get(k), limit) for k, limit in (("lon", 180), ("lat", 90)))):
        call.ctx.problems.add(node_mark, f"{subject.label}: node {index + 1} needs id, lon and lat",
                              "lon from -180 to 180 and lat from -90 to 90, in degrees")
        return None
    return node


def _new_node(call: BoxCall, index: int, node: dict, where: dict) -> bool:
    """False for a node whose id an earlier node has (reported)."""
    if node["id"] in where:
        call.ctx.problems.add(call.subject.field_mark(call.box.network.nodes[1:], index),
                              f"{call.subject.label}: duplicate node id '{node['id']}'")
        return False
    return True


def _places(call: BoxCall) -> dict[str, dict] | None | bool:
    """The network's named places by id; None when it has none; False when they are unusable (reported)."""
    spec = call.box.network
    if not spec.places:
        return None
    places = call.require(spec.places)
    if not isinstance(places, list) or not all(isinstance(place, dict) and isinstance(place.get("id"), str)
                                               for place in places):
        if places is not None and call.once("places", spec.places):
            call.ctx.problems.add(call.where(spec.places), "places are a list of {id, lon, lat, ...}",
                                  "write each place as {id: name, lon: 27.56, lat: 53.9, ...}")
        return False
    return {place["id"]: place for place in places}


def _routes(call: BoxCall, laid_out: _Map) -> list[Item]:
    """Every route's segments, and on top of them their marks (symbols, border and water icons)."""
    spec, ctx, subject = call.box.network, call.ctx, call.subject
    routes = call.require(spec.routes)
    if not isinstance(routes, list):
        return []
    field = spec.routes[1:]
    pairs: dict[frozenset, list[int]] = defaultdict(list)
    for index, route in enumerate(routes):
        if isinstance(route, dict):
            pairs[frozenset((route.get("from"), route.get("to")))].append(index)
    icons = {kind: resolve_file(ctx, getattr(spec, f"{kind}_icon"), call.mark) if getattr(spec, f"{kind}_icon")
             else None for kind in ("border", "water")}
    symbols = _symbols(call)
    segments: list[Item] = []
    marks_on_top: list[Item] = []
    for index, route in enumerate(routes):
        route_mark = subject.field_mark(field, index)
        problem = _route_problem(route, laid_out.where)
        if problem:
            ctx.problems.add(route_mark, f"{subject.label}: route {index + 1}: {problem}")
            continue
        siblings = pairs[frozenset((route["from"], route["to"]))]
        lane = Lane(spec.segment_width, spec.gap,
                    (siblings.index(index) - (len(siblings) - 1) / 2) * (spec.segment_width + spec.gap))
        points = [laid_out.where[route["from"]], *(laid_out.to_mm(lon, lat) for lon, lat in route.get("via") or ()),
                  laid_out.where[route["to"]]]
        polygons = chain_segments(points, route["length"], laid_out.clearance, lane)
        if polygons is None:
            ctx.problems.add(route_mark, f"{subject.label}: route {route['from']}–{route['to']} is too short for "
                             f"{route['length']} segments", "move the nodes apart, bend the route through "
                             "`via` points or shorten it")
            continue
        colour = route.get("color", "white")
        fill = "#ffffff" if colour == "white" else box_colour(colour, call.palette, subject, ctx, route_mark)
        kind = route.get("kind", "land")
        dash = (1.2, 0.8) if kind == "water" else None
        for corners in polygons:
            segments.append(Polygon(0, 0, 0, 0, fill=fill, stroke=spec.segment_stroke, stroke_width=0.35,
                                  dash=dash, points=corners))
        symbol = _symbol_of(call, symbols, colour, route, route_mark)
        marks_on_top += _segment_marks(polygons, symbol, icons.get(kind) if kind != "land" else None, kind,
                                       spec.segment_stroke)
    return segments + marks_on_top


def _symbol_of(call: BoxCall, symbols, colour: str, route: dict, route_mark):
    """The art marking a route of this colour (None for white routes, or when there are no symbols)."""
    if symbols is None or colour == "white":
        return None
    symbol = symbols.get(colour, False)
    if symbol is False:
        spec = call.box.network
        call.ctx.problems.add(route_mark, f"{call.subject.label}: route {route['from']}–{route['to']}: colour "
                              f"'{colour}' has no symbol in '{spec.symbols}'",
                              f"add {{color: {colour}, symbol: art/….svg}} to '{spec.symbols}'")
        return None
    return symbol


def _symbols(call: BoxCall) -> dict[str, object] | None:
    """Route colour → its symbol's art file (None where the file was refused, reported); None without symbols."""
    spec, subject = call.box.network, call.subject
    if not spec.symbols:
        return None
    entries = call.require(spec.symbols)
    if not isinstance(entries, list) or not all(isinstance(entry, dict) and isinstance(entry.get("color"), str)
                                                for entry in entries):
        if entries is not None and call.once("symbols", spec.symbols):
            call.ctx.problems.add(call.where(spec.symbols), "symbols are a list of {color, symbol}",
                                  "write each as {color: green, symbol: art/green.svg} (an entry without symbol is "
                                  "skipped, as a legend's white row)")
        return None
    field = spec.symbols[1:]
    symbols: dict[str, object] = {}
    for index, entry in enumerate(entries):
        if entry.get("symbol"):
            symbols[entry["color"]] = resolve_file(call.ctx, str(entry["symbol"]), subject.field_mark(field, index))
    return symbols


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


def _route_problem(route, where) -> str | None:
    if not isinstance(route, dict):
        return "a route is {from, to, length, color, kind}"
    for end in ("from", "to"):
        if route.get(end) not in where:
            return f"unknown node '{route.get(end)}'"
    length = route.get("length")
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_ROUTE_LENGTH:
        return f"length must be a whole number of segments from 1 to {MAX_ROUTE_LENGTH}, got {length!r}"
    via = route.get("via")
    if via is not None and not (isinstance(via, list) and len(via) <= MAX_VIA and all(
            isinstance(point, list) and len(point) == 2 and _degrees(point[0], 180) and _degrees(point[1], 90)
            for point in via)):
        shown = repr(via)
        return (f"via must be a list of at most {MAX_VIA} [lon, lat] points (degrees), "
                f"got {shown if len(shown) <= 60 else shown[:57] + '...'}")
    if route.get("kind", "land") not in ROUTE_KINDS:
        return f"kind must be one of {', '.join(ROUTE_KINDS)}, got {route.get('kind')!r}"
    return None


def _degrees(value, limit: float) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and abs(value) <= limit)


def point_in_polygon(point, polygon) -> bool:
    """Ray casting: is (x, y) inside the polygon of (x, y) corners?"""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside
