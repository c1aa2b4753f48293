"""General component kinds on a small made-up game: a map network, a sheet of tree grids."""
# ruff: noqa: E501 - the games' YAML is written as a designer writes it: one box a line, however long

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.targets import layout_targets, load_games
from generator.components.cells import rows_places
from generator.components.network import Lane, point_in_polygon, project, segment_polygons
from generator.components.piece import Group, Shape, walk
from generator.content.schema import Projection
from generator.errors import Problems
from generator.text.fonts import FontLibrary
from tests.pdf_probe import open_pdf, page_size_mm

STAR = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
        '<circle cx="5" cy="5" r="4" fill="#fc0"/></svg>')


def make_game(root: Path) -> Path:
    game = root / "content" / "mini"
    files = {
        "game.yaml": "id: mini\ntitle: t\nlanguages: [en]\neditions: {standard: {name: t}}\n",
        "i18n/en.yaml": 'en:\n  t: "Mini"\n  b: "Board"\n  s: "Sheet"\n  n: {a: "Alpha", b: "Beta", c: "Gamma"}\n',
        "art/star.svg": STAR,
        "board.yaml": textwrap.dedent("""\
            boards:
              - id: board
                name: b
                template: map
                cell_types: {start: {}, coffee: {}}
                fields:
                  nodes:
                    - {id: a, name: n.a, lon: 24.0, lat: 53.0}
                    - {id: b, name: n.b, lon: 28.0, lat: 55.0}
                    - {id: c, name: n.c, lon: 30.0, lat: 52.5}
                  routes:
                    - {from: a, to: b, length: 4, color: red}
                    - {from: a, to: b, length: 4, color: white}
                    - {from: b, to: c, length: 3, color: white, kind: water}
                    - {from: a, to: c, length: 5, color: red, kind: border}
                  outline: [[23, 51.5], [32, 51.5], [32, 56], [23, 56]]
                  score: {count: 20, at: {0: start, 5: coffee}}
            """),
        "templates/map.yaml": textwrap.dedent("""\
            size: {width: 300mm, height: 220mm}
            bleed: 3mm
            palette: {red: "#d32f2f", land: "#e8f0d8", ink: "#222222"}
            boxes:
              score: {kind: cells, cells: "@score", cell_template: score, path: loop, x: 0, y: 0, width: 300, height: 220}
              map:
                kind: network
                x: 30
                y: 30
                width: 240
                height: 160
                network: {nodes: "@nodes", routes: "@routes", outline: "@outline", node_template: node,
                          projection: {west: 23, east: 32, south: 51.5, north: 56}, segment_width: 5mm, gap: 1mm,
                          outline_fill: land, outline_stroke: ink, border_icon: art/star.svg}
            """),
        "templates/node.yaml": textwrap.dedent("""\
            size: {width: 12mm, height: 12mm}
            boxes:
              dot: {kind: ellipse, area: trim, fill: "#ffffff", stroke: "#222222", stroke_width: 0.5}
            """),
        "templates/score.yaml": textwrap.dedent("""\
            size: {width: 10mm, height: 10mm}
            styles: {n: {size: 7pt, min_size: 5pt, align: center, valign: middle}}
            boxes:
              box: {kind: rect, area: trim, stroke: "#222222"}
              number: {kind: text, literal: "@position", x: 0, y: 0, width: 10, height: 10, style: n}
            """),
        "sheets.yaml": "sheets:\n  - {id: sheet, name: s, template: sheet}\n",
        "templates/sheet.yaml": textwrap.dedent("""\
            size: {width: 190mm, height: 260mm}
            boxes:
              players: {kind: cells, cells: 5, cell_template: player, path: column, gap: 2, x: 0, y: 0, width: 190, height: 260}
            """),
        "templates/player.yaml": textwrap.dedent("""\
            size: {width: 190mm, height: 50.4mm}
            boxes:
              frame: {kind: rect, area: trim, stroke: "#222222"}
              tree: {kind: cells, cells: 6, cell_template: cell, path: rows, rows: [1, 2, 3], gap: 0.5, x: 5, y: 5, width: 40, height: 40}
            """),
        "templates/cell.yaml": "size: {width: 8mm, height: 8mm}\nboxes:\n"
                               "  c: {kind: rect, area: trim, stroke: \"#222222\"}\n",
    }
    for name, text in files.items():
        path = game / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return game


def _target(game: Path):
    problems = Problems()
    sources = load_games([game], problems)
    targets = layout_targets(sources, BuildOptions(), problems, FontLibrary())
    assert not problems.errors, [str(p) for p in problems.errors]
    return targets[0]


def test_routes_are_chains_of_as_many_segments_as_their_length(tmp_path):
    face = _target(make_game(tmp_path)).boards[0].face
    polygons = [item for item in walk(face.items) if isinstance(item, Shape) and item.kind == "polygon"]
    segments = [p for p in polygons if len(p.points) == 4 and p.stroke == "#2b2220"]
    assert len(segments) == 4 + 4 + 3 + 5
    assert len([p for p in polygons if len(p.points) == 4 and p.fill == "#d32f2f"]) == 4 + 5
    assert len([s for s in segments if s.dash]) == 3                    # the water route


def test_parallel_routes_do_not_overlap_and_segments_leave_the_nodes_clear():
    first = segment_polygons((0, 0), (100, 0), 4, 6, Lane(5, 1, offset=-3))
    second = segment_polygons((0, 0), (100, 0), 4, 6, Lane(5, 1, offset=3))
    assert max(y for poly in first for _, y in poly) <= min(y for poly in second for _, y in poly) + 1e-9
    assert min(x for poly in first for x, _ in poly) >= 6 and max(x for poly in first for x, _ in poly) <= 94


def test_nodes_sit_inside_the_outline_at_their_projected_places():
    to_mm = project(Projection(west=23, east=32, south=51.5, north=56), (30, 30, 240, 160))
    outline = [to_mm(lon, lat) for lon, lat in [[23, 51.5], [32, 51.5], [32, 56], [23, 56]]]
    assert point_in_polygon(to_mm(28, 54), outline) and not point_in_polygon(to_mm(33, 54), outline)
    west, _ = to_mm(23, 54)
    east, _ = to_mm(32, 54)
    _, north = to_mm(28, 56)
    _, south = to_mm(28, 51.5)
    assert (east - west) / (south - north) == pytest.approx(9 * 0.5925 / 4.5, rel=0.01)   # aspect kept


def test_score_track_cells_number_from_zero_and_sheet_trees_are_rows(tmp_path):
    target = _target(make_game(tmp_path))
    face = target.boards[0].face
    numbers = [run.text for item in walk(face.items) if hasattr(item, "runs") for run in item.runs]
    assert numbers[:3] == ["0", "1", "2"] and "19" in numbers
    places = rows_places((0, 0, 40, 40), [1, 2, 3], 0.5)
    assert [round(p.y, 3) for p in places] == [round(places[0].y, 3)] + [round(places[1].y, 3)] * 2 + \
        [round(places[3].y, 3)] * 3
    sheet = target.sheets[0].face
    players = [item for item in sheet.items if isinstance(item, Group)]
    assert len(players) == 5
    assert all(sum(isinstance(i, Group) for i in player.items) == 6 for player in players)


def test_sheets_pdf_has_the_copies_asked_for(tmp_path):
    game = make_game(tmp_path)
    build([game], BuildOptions(out=tmp_path / "out", papers=("letter",), copies=3, print_shop=False))
    document = open_pdf(tmp_path / "out" / "mini" / "standard" / "en" / "letter" / "sheets.pdf")
    assert len(document) == 3 and page_size_mm(document, 0) == pytest.approx((215.9, 279.4), abs=0.05)


def test_network_nodes_can_name_places_and_take_their_position(tmp_path):
    """A small map of stops ('b', {id: c}) placed where the board's places are; an unknown id is located."""
    game = make_game(tmp_path)
    board = (game / "board.yaml").read_text()
    board = board.replace("fields:\n", "fields:\n      stops: [b, {id: c}]\n", 1)
    template = (game / "templates" / "map.yaml").read_text().replace(
        "boxes:\n", "boxes:\n  stops:\n    kind: network\n    x: 30\n    y: 30\n    width: 240\n    height: 160\n"
                    "    network: {nodes: \"@stops\", places: \"@nodes\", node_template: node,\n"
                    "              projection: {west: 23, east: 32, south: 51.5, north: 56}}\n", 1)
    (game / "board.yaml").write_text(board)
    (game / "templates" / "map.yaml").write_text(template)
    face = _target(game).boards[0].face
    to_mm = project(Projection(west=23, east=32, south=51.5, north=56), (30, 30, 240, 160))
    groups = [item for item in face.items if isinstance(item, Group) and item.w == 12]
    centres = {(round(g.x + 6, 3), round(g.y + 6, 3)) for g in groups}
    for lon, lat in ((28.0, 55.0), (30.0, 52.5)):                      # b and c, drawn by both networks
        x, y = to_mm(lon, lat)
        assert (round(x, 3), round(y, 3)) in centres
    assert len(groups) == 3 + 2
    (game / "board.yaml").write_text(board.replace("stops: [b, {id: c}]", "stops: [b, zeta]"))
    problems = Problems()
    layout_targets(load_games([game], problems), BuildOptions(), problems, FontLibrary())
    message, = [str(problem) for problem in problems.errors]
    assert "board.yaml:7:18" in message and "node 2: no place 'zeta' in '@nodes'" in message
