"""Typed payloads: the field data boxes consume, parsed from a subject's field into frozen values.

A `cells` box reads a list of cells (or a number, or {count, at}); a `network` box reads
nodes, places, routes, an outline and colour symbols; a polygon box may read its points and a
table box its rows. Which payload a field holds is known from the box that reads it ('@routes'
in a network's `routes`). One parser per payload, shared by the check when the game is read
(payload_check.py) and by layout, which takes the typed value: a bad route is found by
`pnp check` before anything is laid out, and said in one place, in one wording.

A parser returns the typed value and its Issues; an issue says where inside the field it
lies and what is wrong, in the words that follow the subject's label ('board m: route 1: …').
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from generator.content.schema import MAX_CELLS
from generator.units import MAX_LENGTH

ROUTE_KINDS = ("land", "water", "border")
MAX_ROUTE_LENGTH = 100      # segments in one route (the longest real one: 8)
MAX_VIA = 20                # bend points of one route
CELLS_FORMS = "expected a list of cells, a number, or {count: N, at: {...}}"


@dataclass(frozen=True)
class Issue:
    """One problem in a field's value: the field, where inside it (() for the whole value, (3,) for its
    4th entry), the message, a hint, and whether the message follows the subject's label."""

    field: str
    path: tuple[int, ...]
    message: str
    hint: str = ""
    labelled: bool = True

    def text(self, label: str) -> str:
        return f"{label}: {self.message}" if self.labelled else self.message


Point = tuple[float, float]
CellFields = Mapping[str, Any]      # a cell's own fields (its type's, then its own), drawn by the cell template


@dataclass(frozen=True)
class Node:
    """A map node: its id, its position in degrees, and the fields its node template reads (its place's
    fields under its own)."""

    id: str
    lon: float
    lat: float
    fields: Mapping[str, Any]


@dataclass(frozen=True)
class Route:
    """A route of `length` segments between two nodes, bent through `via` points ([lon, lat])."""

    start: str
    end: str
    length: int
    colour: str
    kind: str                       # land, water or border
    via: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Symbol:
    """A route colour's symbol: the art drawn on its segments (None: the colour has no symbol, as a legend's
    white row)."""

    colour: str
    art: str | None


def field_name(reference: Any, default: str) -> str:
    """The field a box value names ('@routes' → 'routes'), or `default` for a value written in the box."""
    return reference[1:] if isinstance(reference, str) and reference.startswith("@") else default


# ---------------------------------------------------------------- numbers

def is_number_within(value: Any, limit: float) -> bool:
    """A finite number (not a bool) from -limit to limit."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and abs(value) <= limit)


def is_point_list(points: Any, limit: float) -> bool:
    """3 or more [x, y] pairs of finite numbers within ±limit (polygon corners, map outlines)."""
    return isinstance(points, list) and len(points) >= 3 and all(
        isinstance(p, list) and len(p) == 2 and all(is_number_within(v, limit) for v in p) for p in points)


# ---------------------------------------------------------------- polygons and tables

def parse_points(value: Any, field: str) -> tuple[tuple[Point, ...] | None, list[Issue]]:
    """A polygon's corners [x, y] in mm."""
    if not is_point_list(value, MAX_LENGTH):
        return None, [Issue(field, (), f"a polygon needs 3 or more points [x, y], in mm from -{MAX_LENGTH:,g} to "
                            f"{MAX_LENGTH:,g}", "such as points: [[0, 0], [10, 0], [5, 8]]", labelled=False)]
    return tuple((float(x), float(y)) for x, y in value), []


def parse_rows(value: Any, field: str) -> tuple[tuple[tuple[Any, ...], ...] | None, list[Issue]]:
    """A table's rows: lists of cells, each a word, a translation key or a number."""
    if not isinstance(value, list):
        return None, [Issue(field, (), "a table must be a list of rows (lists)", labelled=False)]
    issues = []
    for number, row in enumerate(value):
        if not isinstance(row, list):
            issues.append(Issue(field, (number,), "a table must be a list of rows (lists)",
                                f"write row {number + 1} as a list: [a, b, c]", labelled=False))
            continue
        for column, cell in enumerate(row):
            if isinstance(cell, (dict, list)):
                issues.append(Issue(field, (number, column),
                                    f"'{field}' row {number + 1}, cell {column + 1}: a table cell is a word, a "
                                    f"translation key or a number, got {_shown(cell)}",
                                    "quote it if it holds a comma or a colon"))
    return (None if issues else tuple(tuple(row) for row in value)), issues


# ---------------------------------------------------------------- cells

def parse_cells(value: Any, field: str, cell_types: Mapping[str, Mapping[str, Any]]
                ) -> tuple[tuple[CellFields, ...] | None, list[Issue]]:
    """A cells field: a list of cells, a number of plain cells, or {count: N, at: {position: cell}}; each
    cell a type id, {type: id, ...own fields}, plain fields, or a number (its `value`)."""
    entries = _expand_cells(value)
    if isinstance(entries, str):
        return None, [Issue(field, (), f"'{field}': {entries}")]
    cells: list[CellFields] = []
    issues = []
    for index, entry in enumerate(entries):
        resolved = cell_fields(entry, cell_types)
        if isinstance(resolved, str):
            issues.append(Issue(field, (index,), f"cell {index + 1} of '{field}': {resolved}",
                                f"cell types: {', '.join(cell_types) or 'none'}"))
            resolved = {}
        cells.append(resolved)
    return tuple(cells), issues


def cell_fields(entry: Any, cell_types: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | str:
    """A cell's fields: a type id, {type: id, more...} or plain fields; a str is an error message."""
    if isinstance(entry, str):
        if entry not in cell_types:
            return f"unknown cell type '{entry}'"
        return {**cell_types[entry], "type": entry}
    if isinstance(entry, dict):
        kind = entry.get("type")
        if kind is not None and kind not in cell_types:
            return f"unknown cell type '{kind}'"
        return {**(cell_types[kind] if kind is not None else {}), **entry}
    if isinstance(entry, (int, float)) and not isinstance(entry, bool):
        return {"value": entry}
    return f"a cell must be a type id or a mapping of fields, got {entry!r}"


def path_count_problem(path: str, rows: list[int] | None, count: int) -> str | None:
    """Why `count` cells cannot go along a cells box's path whatever its size (a loop of 27), or None."""
    if path == "loop" and (count < 4 or count % 2):
        return f"a loop needs an even number of at least 4 cells, got {count}"
    if path == "rows" and (not rows or sum(rows) != count):
        return f"rows {rows} hold {sum(rows or [])} cells, the list has {count}"
    return None


def _expand_cells(entries: Any) -> list | str:
    """A cells field as a list of entries; a str says what is wrong with it."""
    if isinstance(entries, bool):
        return CELLS_FORMS
    if isinstance(entries, int):
        if not 1 <= entries <= MAX_CELLS:
            return f"a number of cells runs from 1 to {MAX_CELLS:,}, got {entries:,}"
        return [{} for _ in range(entries)]
    if isinstance(entries, dict) and "count" in entries and set(entries) <= {"count", "at"}:
        return _counted_cells(entries["count"], entries.get("at") or {})
    if isinstance(entries, list) and entries:
        return entries if len(entries) <= MAX_CELLS else f"{len(entries):,} cells; at most {MAX_CELLS:,} fit a face"
    return CELLS_FORMS


def _counted_cells(count: Any, at: Any) -> list | str:
    """{count: N, at: {position: entry}}: N plain cells, some of them given."""
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_CELLS:
        shown = f"{count:,}" if isinstance(count, int) and not isinstance(count, bool) else repr(count)
        return f"count must be a whole number of cells from 1 to {MAX_CELLS:,}, got {shown}"
    if not isinstance(at, dict):
        return f"'at' maps positions to cells, such as at: {{0: start}}, got {at!r}"
    cells: list = [{} for _ in range(count)]
    for position, entry in at.items():
        position = int(position) if isinstance(position, str) and position.isdigit() else position
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < count:
            return f"'at' positions run from 0 to {count - 1}, got {position!r}"
        cells[position] = entry
    return cells


# ---------------------------------------------------------------- maps

def parse_places(value: Any, field: str) -> tuple[dict[str, Mapping[str, Any]] | None, list[Issue]]:
    """A network's named places by id: a list of {id, lon, lat, ...fields}."""
    if not isinstance(value, list) or not all(isinstance(place, dict) and isinstance(place.get("id"), str)
                                              for place in value):
        return None, [Issue(field, (), "places are a list of {id, lon, lat, ...}",
                            "write each place as {id: name, lon: 27.56, lat: 53.9, ...}", labelled=False)]
    return {place["id"]: place for place in value}, []


def parse_nodes(value: Any, field: str, places: Mapping[str, Mapping[str, Any]] | None,
                places_reference: str | None) -> tuple[tuple[tuple[int, Node], ...], list[Issue]]:
    """A network's nodes, each with its index in the list: {id, lon, lat, ...}; with places, a node may be a
    place id or {id, ...own fields}. Unusable nodes are left out (each an issue); so are repeated ids."""
    if not isinstance(value, list):
        return (), [Issue(field, (), f"'{field}': nodes are a list of {{id, lon, lat, ...}}",
                          "write each node as {id: name, lon: 27.56, lat: 53.9}"
                          + (", or as the id of a place" if places is not None else ""))]
    nodes: list[tuple[int, Node]] = []
    issues: list[Issue] = []
    seen: set[str] = set()
    for index, entry in enumerate(value):
        node = _node(entry, index, places, places_reference)
        if not isinstance(node, Node):
            issues.append(Issue(field, (index,), *node))
        elif node.id in seen:
            issues.append(Issue(field, (index,), f"duplicate node id '{node.id}'"))
        else:
            seen.add(node.id)
            nodes.append((index, node))
    return tuple(nodes), issues


def _node(entry: Any, index: int, places, places_reference) -> Node | tuple[str, str]:
    """A node with its place's fields (its own win), or why it is unusable (message, hint)."""
    if places is not None:
        entry = {"id": entry} if isinstance(entry, str) else entry
        place = places.get(entry.get("id")) if isinstance(entry, dict) else None
        if isinstance(entry, dict) and "lon" not in entry and "lat" not in entry:
            if place is None:
                return (f"node {index + 1}: no place '{entry.get('id')}' in '{places_reference}'",
                        f"places: {', '.join(sorted(places)) or 'none'}")
            entry = {**place, **entry}
    if not (isinstance(entry, dict) and isinstance(entry.get("id"), str)
            and is_number_within(entry.get("lon"), 180) and is_number_within(entry.get("lat"), 90)):
        return f"node {index + 1} needs id, lon and lat", "lon from -180 to 180 and lat from -90 to 90, in degrees"
    return Node(entry["id"], entry["lon"], entry["lat"], entry)


def parse_routes(value: Any, field: str, node_ids: set[str]) -> tuple[tuple[tuple[int, Route], ...], list[Issue]]:
    """A network's routes, each with its index: {from, to, length, color, kind, via}; a route whose ends are not
    among `node_ids` (the usable nodes) is an issue."""
    if not isinstance(value, list):
        return (), [Issue(field, (), f"'{field}': routes are a list of {{from, to, length, color, kind}}",
                          "write each route as {from: a, to: b, length: 3, color: red}")]
    routes: list[tuple[int, Route]] = []
    issues: list[Issue] = []
    for index, entry in enumerate(value):
        problem = _route_problem(entry, node_ids)
        if problem is not None:
            issues.append(Issue(field, (index,), f"route {index + 1}: {problem}"))
            continue
        via = tuple((float(lon), float(lat)) for lon, lat in entry.get("via") or ())
        routes.append((index, Route(entry["from"], entry["to"], entry["length"], entry.get("color", "white"),
                                    entry.get("kind", "land"), via)))
    return tuple(routes), issues


def _route_problem(route: Any, node_ids: set[str]) -> str | None:
    if not isinstance(route, dict):
        return "a route is {from, to, length, color, kind}"
    for end in ("from", "to"):
        if route.get(end) not in node_ids:
            return f"unknown node '{route.get(end)}'"
    length = route.get("length")
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_ROUTE_LENGTH:
        return f"length must be a whole number of segments from 1 to {MAX_ROUTE_LENGTH}, got {length!r}"
    via = route.get("via")
    if via is not None and not (isinstance(via, list) and len(via) <= MAX_VIA and all(
            isinstance(point, list) and len(point) == 2 and is_number_within(point[0], 180)
            and is_number_within(point[1], 90) for point in via)):
        return f"via must be a list of at most {MAX_VIA} [lon, lat] points (degrees), got {_shown(via)}"
    if route.get("kind", "land") not in ROUTE_KINDS:
        return f"kind must be one of {', '.join(ROUTE_KINDS)}, got {route.get('kind')!r}"
    if not isinstance(route.get("color", "white"), str):
        return f"color must be a colour's name, got {route.get('color')!r}"
    return None


def parse_outline(value: Any, field: str) -> tuple[tuple[Point, ...] | None, list[Issue]]:
    """A map's outline: 3 or more [lon, lat] corners."""
    if not is_point_list(value, 180):
        return None, [Issue(field, (), "an outline is a list of 3 or more [lon, lat] points (numbers of degrees)",
                            labelled=False)]
    return tuple((lon, lat) for lon, lat in value), []


def parse_symbols(value: Any, field: str) -> tuple[tuple[tuple[int, Symbol], ...] | None, list[Issue]]:
    """Route colours' symbols, each with its index: a list of {color, symbol} (an entry without a symbol is
    a colour without one, as a legend's white row)."""
    if not isinstance(value, list) or not all(isinstance(entry, dict) and isinstance(entry.get("color"), str)
                                              for entry in value):
        return None, [Issue(field, (), "symbols are a list of {color, symbol}",
                            "write each as {color: green, symbol: art/green.svg} (an entry without symbol is "
                            "skipped, as a legend's white row)", labelled=False)]
    return tuple((index, Symbol(entry["color"], str(entry["symbol"]) if entry.get("symbol") else None))
                 for index, entry in enumerate(value)), []


ABSENT = object()     # what `read` answers for a field the subject does not have (said elsewhere, if at all)


@dataclass(frozen=True)
class MapData:
    """A network's payloads, typed: its usable nodes and routes (with their indexes in their lists), its
    outline and its colour symbols (None without them, or when unusable)."""

    nodes: tuple[tuple[int, Node], ...] = ()
    routes: tuple[tuple[int, Route], ...] = ()
    outline: tuple[Point, ...] | None = None
    symbols: tuple[tuple[int, Symbol], ...] | None = None


def parse_map(network: Any, read: Callable[[str], Any]) -> tuple[MapData, list[tuple[str, Issue]]]:
    """Every payload a network box reads (schema.Network: '@field' references), each value from
    `read(reference)`; issues come with the reference they were read through, in the order a reader
    meets them: outline, places, nodes, symbols, routes."""
    found: list[tuple[str, Issue]] = []

    def take(reference: str | None, parse, *more):
        value = read(reference) if reference else ABSENT
        if reference is None or value is ABSENT:
            return None
        parsed, issues = parse(value, field_name(reference, reference), *more)
        found.extend((reference, issue) for issue in issues)
        return parsed

    outline = take(network.outline, parse_outline)
    places = take(network.places, parse_places)
    if network.places and places is None:
        return MapData(outline=outline), found      # said once; every node and route would only repeat it
    nodes = take(network.nodes, parse_nodes, places, network.places) or ()
    symbols = take(network.symbols, parse_symbols)
    routes = take(network.routes, parse_routes, {node.id for _, node in nodes}) or ()
    return MapData(nodes, routes, outline, symbols), found


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."
