"""A `network` box: a map with an outline, nodes at geographic positions and routes between them.

Positions are longitude/latitude, fitted into the box (longitude scaled by the
cosine of the middle latitude, so the map keeps its shape). A route of length n
is drawn as n segments along the straight line between its nodes, in its
colour; border routes carry an icon at their middle, water routes another.
Several routes between the same two nodes run side by side.
"""

from __future__ import annotations

import math
from collections import defaultdict

from generator.components.piece import ArtPlacement, Group, Item, Shape

ROUTE_KINDS = ("land", "water", "border")
MAX_ROUTE_LENGTH = 100      # segments in one route (the longest real one: 6)


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


def segment_polygons(a, b, length: int, clearance: float, width: float, gap: float, offset: float = 0.0):
    """The corners of `length` segments between points a and b, leaving `clearance` at each end."""
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


def layout_network(box, frame, template, subject, ctx, mark, name, key) -> list[Item]:
    # imported here: faces imports this module
    from generator.components.faces import is_point_list, layout_face, nested_template_problem
    from generator.components.subject import Subject, box_colour as _colour, reference_mark as _reference_mark
    from generator.components.subject import require as _require, resolve_file
    spec = box.network
    palette = template.model.palette
    to_mm = project(spec.projection, frame)
    items: list[Item] = []
    if spec.outline:
        outline = _require(spec.outline, subject, ctx, mark, name)
        if is_point_list(outline, 180):
            items.append(Shape("polygon", 0, 0, 0, 0, fill=_colour(spec.outline_fill, palette, subject, ctx, mark),
                               stroke=_colour(spec.outline_stroke, palette, subject, ctx, mark), stroke_width=0.6,
                               points=tuple(to_mm(lon, lat) for lon, lat in outline)))
        elif outline is not None:
            ctx.problems.add(_reference_mark(spec.outline, subject, mark), "an outline is a list of 3 or more "
                             "[lon, lat] points (numbers of degrees)")
    nodes = _require(spec.nodes, subject, ctx, mark, name)
    node_template = ctx.source.templates.resolve(spec.node_template)
    if not isinstance(nodes, list) or node_template is None:
        if node_template is None and ctx.once("node-template", template.id, name):
            ctx.problems.add(mark, f"box '{name}': unknown node_template '{spec.node_template}'")
        return items
    cycle = nested_template_problem(ctx, spec.node_template)
    if cycle is not None:
        if ctx.once("node-cycle", template.id, name):
            ctx.problems.add(mark, f"box '{name}': {cycle}", "a node template cannot draw a map of itself")
        return items
    field = spec.nodes[1:]
    places = _places(spec, subject, ctx, mark, name, _require, _reference_mark)
    if places is False:
        return items        # said once; every node and route would only repeat it
    where: dict[str, tuple[float, float]] = {}
    node_items: list[Item] = []
    size = node_template.model.size
    for index, node in enumerate(nodes):
        node_mark = subject.field_mark(field, index)
        if places is not None:
            node = {"id": node} if isinstance(node, str) else node
            place = places.get(node.get("id")) if isinstance(node, dict) else None
            if isinstance(node, dict) and "lon" not in node and "lat" not in node:
                if place is None:
                    ctx.problems.add(node_mark, f"{subject.label}: node {index + 1}: no place '{node.get('id')}' "
                                     f"in '{spec.places}'", f"places: {', '.join(sorted(places)) or 'none'}")
                    continue
                node = {**place, **node}
        if not (isinstance(node, dict) and isinstance(node.get("id"), str)
                and all(_degrees(node.get(k), limit) for k, limit in (("lon", 180), ("lat", 90)))):
            ctx.problems.add(node_mark, f"{subject.label}: node {index + 1} needs id, lon and lat",
                             "lon from -180 to 180 and lat from -90 to 90, in degrees")
            continue
        if node["id"] in where:
            ctx.problems.add(node_mark, f"{subject.label}: duplicate node id '{node['id']}'")
            continue
        cx, cy = to_mm(node["lon"], node["lat"])
        where[node["id"]] = (cx, cy)
        node_subject = Subject(f"{subject.label}, node {node['id']}", node, lambda *_p, _m=node_mark: _m)
        face = layout_face(node_template, node_subject, ctx, f"{key}/{name}/node/{node['id']}")
        node_items.append(Group(cx - size.width / 2, cy - size.height / 2, size.width, size.height,
                                size.width, size.height, 0, face.items))
    if spec.routes:
        items.extend(_routes(spec, subject, ctx, mark, name, where, max(size.width, size.height) / 2, palette,
                             _require, _colour, resolve_file))
    return items + node_items


def _places(spec, subject, ctx, mark, name, _require, _reference_mark) -> dict[str, dict] | None | bool:
    """The network's named places by id; None when it has none; False when they are unusable (reported)."""
    if not spec.places:
        return None
    places = _require(spec.places, subject, ctx, mark, name)
    if not isinstance(places, list) or not all(isinstance(place, dict) and isinstance(place.get("id"), str)
                                               for place in places):
        if places is not None and ctx.once("places", spec.places):
            ctx.problems.add(_reference_mark(spec.places, subject, mark), "places are a list of {id, lon, lat, ...}",
                             "write each place as {id: name, lon: 27.56, lat: 53.9, ...}")
        return False
    return {place["id"]: place for place in places}


def _routes(spec, subject, ctx, mark, name, where, clearance, palette, _require, _colour, resolve_file) -> list[Item]:
    routes = _require(spec.routes, subject, ctx, mark, name)
    if not isinstance(routes, list):
        return []
    field = spec.routes[1:]
    pairs: dict[frozenset, list[int]] = defaultdict(list)
    for index, route in enumerate(routes):
        if isinstance(route, dict):
            pairs[frozenset((route.get("from"), route.get("to")))].append(index)
    icons = {kind: resolve_file(ctx, getattr(spec, f"{kind}_icon"), mark) if getattr(spec, f"{kind}_icon") else None
             for kind in ("border", "water")}
    segments: list[Item] = []
    marks_on_top: list[Item] = []
    for index, route in enumerate(routes):
        route_mark = subject.field_mark(field, index)
        problem = _route_problem(route, where)
        if problem:
            ctx.problems.add(route_mark, f"{subject.label}: route {index + 1}: {problem}")
            continue
        siblings = pairs[frozenset((route["from"], route["to"]))]
        offset = (siblings.index(index) - (len(siblings) - 1) / 2) * (spec.segment_width + spec.gap)
        a, b = where[route["from"]], where[route["to"]]
        polygons = segment_polygons(a, b, route["length"], clearance, spec.segment_width, spec.gap, offset)
        if polygons is None:
            ctx.problems.add(route_mark, f"{subject.label}: route {route['from']}–{route['to']} is too short for "
                             f"{route['length']} segments", "move the nodes apart or shorten the route")
            continue
        colour = route.get("color", "white")
        fill = "#ffffff" if colour == "white" else _colour(colour, palette, subject, ctx, route_mark)
        kind = route.get("kind", "land")
        dash = (1.2, 0.8) if kind == "water" else None
        for corners in polygons:
            segments.append(Shape("polygon", 0, 0, 0, 0, fill=fill, stroke=spec.segment_stroke, stroke_width=0.35,
                                  dash=dash, points=corners))
        icon = icons.get(kind)
        if icon is not None:
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            half = spec.icon_size / 2
            marks_on_top.append(ArtPlacement(icon, mx - half, my - half, spec.icon_size, spec.icon_size))
    return segments + marks_on_top


def _route_problem(route, where) -> str | None:
    if not isinstance(route, dict):
        return "a route is {from, to, length, color, kind}"
    for end in ("from", "to"):
        if route.get(end) not in where:
            return f"unknown node '{route.get(end)}'"
    length = route.get("length")
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_ROUTE_LENGTH:
        return f"length must be a whole number of segments from 1 to {MAX_ROUTE_LENGTH}, got {length!r}"
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
