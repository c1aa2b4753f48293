"""You Must See This (ru, en): the content guarantees of issue 15, measured on the laid-out faces.

Colour symbols on every coloured route segment (told apart without hue), the seed's 8 white
segments Turov–Mozyr, excursion maps whose numbered dots never overlap, and the network
features behind them (bent routes, symbols) on a small made-up game.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from generator.build import BuildOptions
from generator.targets import layout_targets, load_games
from generator.components.network import Lane, chain_segments, point_in_polygon
from generator.components.piece import ArtPlacement, Group, Shape, TextPlacement
from generator.errors import Problems
from generator.text.fonts import FontLibrary
from tests.conftest import CONTENT

GAME = CONTENT / "must-see-belarus"


@pytest.fixture(scope="module")
def belarus():
    problems = Problems()
    sources = load_games([GAME], problems)
    assert not problems.errors, [str(p) for p in problems.errors]
    targets = layout_targets(sources, BuildOptions(languages=("en",)), problems, FontLibrary())
    assert not problems.errors, [str(p) for p in problems.errors]
    return sources[0], targets[0]


def _placed(items, dx=0.0, dy=0.0, scale=1.0):
    """Every shape and art of a face in face coordinates (groups here are unrotated)."""
    for item in items:
        if isinstance(item, Group):
            sx = item.w / item.width
            yield from _placed(item.items, dx + item.x * scale, dy + item.y * scale, scale * sx)
        elif isinstance(item, (Shape, ArtPlacement)):
            yield item, dx, dy, scale
        elif isinstance(item, TextPlacement):
            yield item, dx, dy, scale


def _network_items(face):
    return [item for item, dx, dy, scale in _placed(face.items) if dx == 0 and dy == 0 and scale == 1]


def test_every_segment_of_a_coloured_route_carries_its_colours_symbol(belarus):
    source, target = belarus
    board = source.boards.boards[0]
    symbols = {row["color"]: (GAME / row["symbol"]).resolve() for row in board.fields["colours"] if "symbol" in row}
    ticket = (GAME / "art/icons/ticket.svg").resolve()
    wave = (GAME / "art/icons/wave.svg").resolve()
    palette = {name: value.lower() for name, value in source.game.palette.items()}
    by_fill = {palette[name]: name for name in symbols}
    items = _network_items(target.boards[0].face)
    segments = [s for s in items if isinstance(s, Shape) and s.kind == "polygon" and s.points
                and len(s.points) == 4 and s.stroke == "#2b2220"]
    art = [a for a in items if isinstance(a, ArtPlacement)]
    routes = board.fields["routes"]
    assert len(segments) == sum(route["length"] for route in routes)

    def inside(segment):
        return [a.file.resolve() for a in art if point_in_polygon((a.x + a.w / 2, a.y + a.h / 2), list(segment.points))]

    carrying = Counter()
    for segment in segments:
        marks = inside(segment)
        colour = by_fill.get((segment.fill or "").lower())
        if colour is None:                                  # white: any one colour, no symbol
            assert symbols.keys().isdisjoint(m for m in marks), segment
            continue
        if marks == [ticket]:                               # the border passage's ticket segment
            carrying[colour, "ticket"] += 1
            continue
        assert symbols[colour] in marks, (colour, segment.points[0])
        carrying[colour, "symbol"] += 1
        if segment.dash:                                    # water: the wave on every segment too
            assert wave in marks
    for colour in symbols:
        of_colour = [r for r in routes if r.get("color") == colour]
        borders = sum(1 for r in of_colour if r.get("kind") == "border")
        assert carrying[colour, "symbol"] == sum(r["length"] for r in of_colour) - borders, colour
        assert carrying[colour, "ticket"] == borders, colour


def test_six_colours_each_have_a_symbol_that_differs_from_the_others(belarus):
    source, _ = belarus
    board = source.boards.boards[0]
    symbols = [row["symbol"] for row in board.fields["colours"] if "symbol" in row]
    route_colours = {r["color"] for r in board.fields["routes"]} - {"white"}
    assert len(symbols) == len(set(symbols)) == len(route_colours) == 6
    cards = {card.fields["color"]: card.fields.get("emblem") for card in source.pieces["cards"].sets[0].cards}
    for row in board.fields["colours"]:
        if "symbol" in row:
            assert cards[row["color"]] == row["symbol"]     # the card and the route show one symbol


def test_turov_mozyr_is_the_seeds_8_white_segments(belarus):
    source, _ = belarus
    routes = source.boards.boards[0].fields["routes"]
    route = next(r for r in routes if {r["from"], r["to"]} == {"turov", "mozyr"})
    assert route["length"] == 8 and route["color"] == "white"
    assert [8, 21] in source.boards.boards[0].fields["scoring"]


def test_a_bent_route_has_equal_segments_that_leave_the_nodes_clear():
    points = [(0.0, 0.0), (20.0, 40.0), (60.0, 40.0), (80.0, 0.0)]
    polygons = chain_segments(points, 8, 7, Lane(7, 1.2))
    lengths = [math.hypot(p[1][0] - p[0][0], p[1][1] - p[0][1]) for p in polygons]
    assert len(polygons) == 8 and max(lengths) - min(lengths) < 0.3
    for polygon in polygons:
        for x, y in polygon:
            assert math.hypot(x, y) > 7 - 3.6 and math.hypot(x - 80, y) > 7 - 3.6
    assert chain_segments(points, 100, 7, Lane(7, 1.2)) is None          # 100 do not fit


def _mini(root: Path, routes: str, symbols: str) -> Path:
    game = root / "mini"
    files = {
        "game.yaml": "id: mini\ntitle: t\nlanguages: [en]\neditions: {standard: {name: t}}\n",
        "i18n/en.yaml": 'en:\n  t: "Mini"\n  b: "Board"\n',
        "art/a.svg": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                      '<circle cx="5" cy="5" r="4"/></svg>'),
        "board.yaml": "boards:\n  - id: board\n    name: b\n    template: map\n    fields:\n"
                      "      nodes:\n        - {id: a, lon: 24.0, lat: 53.0}\n        - {id: b, lon: 30.0, lat: 53.0}\n"
                      "      routes:\n" + "".join(f"        {line}\n" for line in routes.splitlines())
                      + f"      symbols: {symbols}\n",
        "templates/map.yaml": textwrap.dedent("""\
            size: {width: 300mm, height: 200mm}
            palette: {red: "#d32f2f", blue: "#1d3f8a"}
            boxes:
              map:
                kind: network
                x: 10
                y: 10
                width: 280
                height: 180
                network: {nodes: "@nodes", routes: "@routes", symbols: "@symbols", node_template: node,
                          projection: {west: 23, east: 31, south: 51, north: 55}}
            """),
        "templates/node.yaml": "size: {width: 10mm, height: 10mm}\nboxes:\n  d: {kind: ellipse, area: trim}\n",
    }
    for name, text in files.items():
        path = game / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return game


def _problems(game: Path) -> list[str]:
    problems = Problems()
    sources = load_games([game], problems)
    layout_targets(sources, BuildOptions(), problems, FontLibrary())
    return [str(p) for p in problems.errors]


def test_a_colour_without_a_symbol_and_a_bad_via_are_located_errors(tmp_path):
    game = _mini(tmp_path, "- {from: a, to: b, length: 3, color: blue}\n"
                           "- {from: a, to: b, length: 3, color: red, via: [[27, 99]]}",
                 "[{color: red, symbol: art/a.svg}]")
    messages = _problems(game)
    assert any("board.yaml:10:" in m and "colour 'blue' has no symbol in '@symbols'" in m for m in messages), messages
    assert any("board.yaml:11:" in m and "via must be a list of at most 20 [lon, lat] points" in m
               for m in messages), messages


def test_symbols_and_a_bent_route_on_a_made_up_map(tmp_path):
    game = _mini(tmp_path, "- {from: a, to: b, length: 5, color: red, via: [[27, 52]]}\n"
                           "- {from: a, to: b, length: 2, color: white}",
                 "[{color: red, symbol: art/a.svg}, {color: white}]")
    problems = Problems()
    sources = load_games([game], problems)
    targets = layout_targets(sources, BuildOptions(), problems, FontLibrary())
    assert not problems.errors, [str(p) for p in problems.errors]
    items = list(targets[0].boards[0].face.items)
    red = [s for s in items if isinstance(s, Shape) and s.kind == "polygon" and s.fill == "#d32f2f"]
    marks = [a for a in items if isinstance(a, ArtPlacement) and a.file.name == "a.svg"]
    assert len(red) == 5 and len(marks) == 5
    # the bent route dips south of the straight line between the nodes (both at latitude 53)
    white = [s for s in items if isinstance(s, Shape) and s.kind == "polygon" and s.fill == "#ffffff"]
    assert len(white) == 2
    assert max(y for s in red for _, y in s.points) > max(y for s in white for _, y in s.points) + 20


def test_the_numbered_discs_of_an_excursion_map_never_overlap(belarus):
    source, target = belarus
    faces = {copy.card: copy.front for laid in target.sets["cards"] if laid.id == "excursions"
             for copy in laid.copies}
    assert len(faces) == 29
    moved = 0
    for card_id, face in faces.items():
        stops = [item for item in face.items if isinstance(item, Group) and item.width == 12 and item.height == 12]
        discs, pins = [], []
        for stop in stops:
            for shape in stop.items:
                if isinstance(shape, Shape) and shape.kind == "ellipse":
                    centre = (stop.x + shape.x + shape.w / 2, stop.y + shape.y + shape.h / 2)
                    (discs if shape.w > 3 else pins).append(centre)
            if any(isinstance(s, Shape) and s.kind == "ellipse" and s.w < 3 for s in stop.items):
                moved += 1
            else:                                   # an unmoved disc sits on the place itself
                pins.append((stop.x + 6, stop.y + 6))
        assert len(discs) == len(stops) >= 2, card_id
        for i, a in enumerate(discs):
            for b in discs[i + 1:]:
                assert math.dist(a, b) >= 3.2 + 0.35, (card_id, a, b)       # discs and their white rings
            for pin in pins:
                if math.dist(a, pin) > 0.01:
                    assert math.dist(a, pin) >= 1.6 + 0.65, (card_id, a, pin)   # no disc hides another place
    assert moved >= 10                              # the close pairs (Mir–Nesvizh …) were moved apart
