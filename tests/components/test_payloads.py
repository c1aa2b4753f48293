"""Field payloads: the typed values boxes read, parsed once (content/payloads.py), checked when the game
is read for every subject and everything drawn inside it (content/payload_check.py)."""

from __future__ import annotations

from pathlib import Path

from generator.content.game import load_game
from generator.content.payloads import (Node, Route, parse_cells, parse_map, parse_nodes, parse_points,
                                        parse_routes, parse_rows)
from generator.content.schema import Network
from generator.errors import Problems
from tests.test_content_errors import BASE_FILES, DOT_TEMPLATE, make_game


def test_routes_are_typed_and_keep_their_index() -> None:
    routes, issues = parse_routes([{"from": "a", "to": "b", "length": 2},
                                   {"from": "b", "to": "a", "length": 3, "color": "red", "kind": "water",
                                    "via": [[27, 54]]}], "routes", {"a", "b"})
    assert issues == []
    assert routes == ((0, Route("a", "b", 2, "white", "land")),
                      (1, Route("b", "a", 3, "red", "water", ((27.0, 54.0),))))


def test_a_bad_route_is_one_issue_at_its_entry_and_is_left_out() -> None:
    routes, issues = parse_routes([{"from": "a", "to": "b", "length": 2}, {"from": "a", "to": "b", "length": True},
                                   {"from": "a", "to": "b", "length": 1, "color": 7}], "routes", {"a", "b"})
    assert [index for index, _ in routes] == [0]
    assert [(issue.path, issue.text("board m")) for issue in issues] == [
        ((1,), "board m: route 2: length must be a whole number of segments from 1 to 100, got True"),
        ((2,), "board m: route 3: color must be a colour's name, got 7")]


def test_nodes_take_their_place_and_own_fields() -> None:
    places = {"minsk": {"id": "minsk", "lon": 27.5, "lat": 53.9, "name": "city.minsk"}}
    nodes, issues = parse_nodes(["minsk", {"id": "minsk", "side": "n"}, {"id": "nowhere"}], "stops", places, "@places")
    assert nodes[0] == (0, Node("minsk", 27.5, 53.9, places["minsk"]))
    assert [issue.text("card x") for issue in issues] == [
        "card x: duplicate node id 'minsk'", "card x: node 3: no place 'nowhere' in '@places'"]


def test_a_map_reads_each_payload_through_its_reference() -> None:
    network = Network(nodes="@nodes", routes="@routes", outline="@outline", node_template="dot",
                      projection={"west": 0, "east": 10, "south": 0, "north": 10})
    fields = {"nodes": [{"id": "a", "lon": 1, "lat": 1}, {"id": "b", "lon": 9, "lat": 9}],
              "routes": [{"from": "a", "to": "c", "length": 1}], "outline": [[0, 0], [10, 0]]}
    data, issues = parse_map(network, lambda reference: fields[reference[1:]])
    assert [node.id for _, node in data.nodes] == ["a", "b"] and data.routes == () and data.outline is None
    assert [(reference, issue.path) for reference, issue in issues] == [("@outline", ()), ("@routes", (0,))]


def test_cells_forms() -> None:
    types = {"start": {"name": "s"}}
    assert parse_cells(3, "track", types) == (({}, {}, {}), [])
    cells, issues = parse_cells({"count": 3, "at": {"1": "start", 2: {"type": "start", "x": 1}}}, "track", types)
    assert cells == ({}, {"name": "s", "type": "start"}, {"name": "s", "type": "start", "x": 1}) and issues == []
    assert parse_cells([5], "track", {})[0] == ({"value": 5},)
    assert parse_cells(True, "track", {})[1][0].message.endswith("a number, or {count: N, at: {...}}")


def test_points_and_rows() -> None:
    assert parse_points([[0, 0], [1, 0], [0, 1]], "shape") == (((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)), [])
    assert parse_points([[0, 0], [1, 0], [0, float("nan")]], "shape")[0] is None
    assert parse_rows([["a", 1], [2.5, True]], "rows") == ((("a", 1), (2.5, True)), [])
    assert [issue.path for issue in parse_rows([["a"], "b", [["c"]]], "rows")[1]] == [(1,), (2, 0)]


PLAYER = "size: {width: 60mm, height: 10mm}\nboxes:\n  trees: {kind: cells, cells: '@trees', cell_template: dot, " \
         "area: trim}\n"
SHEET = "size: {width: 100mm, height: 100mm}\nboxes:\n  players: {kind: cells, cells: '@players', " \
        "cell_template: player, path: column, area: trim}\n"


def test_cells_inside_cells_are_checked_when_the_game_is_read(tmp_path: Path) -> None:
    """A sheet's players, each a row of trees: a bad tree in the second player's row is found by reading the
    game, labelled with the cell it lies in and located at that player's entry."""
    sheets = ("sheets:\n  - id: s\n    name: deck.cards\n    template: sheet\n    fields:\n"
              "      players:\n        - {trees: 3}\n        - {trees: [1, [2]]}\n")
    folder = make_game(tmp_path, {"sheets.yaml": sheets, "templates/sheet.yaml": SHEET,
                                  "templates/player.yaml": PLAYER, "templates/dot.yaml": DOT_TEMPLATE})
    problems = Problems()
    load_game(folder, problems)
    assert [(str(p.mark).split("/")[-1], p.message) for p in problems.errors] == [
        ("sheets.yaml:8:11", "sheet s, players cell 2: cell 2 of 'trees': a cell must be a type id or a "
                             "mapping of fields, got [2]")]
    assert BASE_FILES     # the minimal game's own files stay as they are
