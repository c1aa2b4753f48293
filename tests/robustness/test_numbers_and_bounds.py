"""Numbers and counts in content: every one finite, in range and bounded, or one located message.

NaN, infinity and absurd sizes used to reach the PDF ('-nan', which viewers refuse) or
stop `pnp build` half-way with a traceback while `pnp check` said ok; counts of 10^9
ran out of memory. Each row changes one thing in the minimal game of
tests/test_content_errors.py and lists every problem line `pnp check` prints.
Cases that cost time or memory run in their own process (harness.run_pnp).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from generator.imposition.grid import GridSpec
from generator.units import length_in, parse_length
from tests.robustness.harness import run_pnp
from tests.test_content_errors import BASE_FILES, CARDS, edit, make_game, pnp, problem_lines

CARD = "templates/card.yaml"
RECT = '  frame: {kind: rect, x: 1, y: 1, width: 61, height: 86, stroke: ink, %s}\n'


def with_box(extra: str) -> dict[str, str]:
    """The card template with one more box: a rect frame carrying `extra` keys (line 11)."""
    return {CARD: BASE_FILES[CARD] + RECT % extra}


def with_card_fields(extra: str) -> dict[str, str]:
    """cards.yaml with more fields on the one card (line 9)."""
    return edit("cards.yaml", "fields: {name: cards.star,", f"fields: {{name: cards.star, {extra},")


RANGE_HINT = "lengths are millimetres unless a unit is given (63mm, 6.3cm, 2.5in, 9pt); check for a typo"

# (files, expected problem lines)
CHECK_CASES = [
    # --- lengths and positions: finite and in range
    pytest.param(edit(CARD, "x: 10, y: 10", "x: .nan, y: 10"),
                 ["g/templates/card.yaml:9:36: boxes.art.x: expected a position from -2,000 to 2,000 mm, got .nan"],
                 id="position-nan"),
    pytest.param(edit(CARD, "x: 10, y: 10", "x: 10, y: -.inf"),
                 ["g/templates/card.yaml:9:43: boxes.art.y: expected a position from -2,000 to 2,000 mm, got -.inf"],
                 id="position-minus-infinity"),
    pytest.param(edit(CARD, "width: 43", "width: .inf"),
                 ["g/templates/card.yaml:9:54: boxes.art.width: expected a length from 0 to 2,000 mm, got .inf"],
                 id="width-infinity"),
    pytest.param(edit(CARD, "width: 43", "width: -43"),
                 ["g/templates/card.yaml:9:54: boxes.art.width: expected a length from 0 to 2,000 mm, got -43"],
                 id="width-negative"),
    pytest.param(edit(CARD, "height: 40", "height: 3km"),
                 ["g/templates/card.yaml:9:66: boxes.art.height: expected a length such as 63mm, 2.5in or 9pt, "
                  "got '3km'"],
                 id="height-unknown-unit"),
    pytest.param(edit(CARD, "width: 63mm", "width: 1.0e+30"),
                 ["g/templates/card.yaml:1:15: size.width: expected a size above 0 and at most 1,000 mm, got 1e+30"],
                 id="size-1e30"),
    pytest.param(edit(CARD, "height: 88mm", "height: 0mm"),
                 ["g/templates/card.yaml:1:29: size.height: expected a size above 0 and at most 1,000 mm, "
                  "got '0mm'"],
                 id="size-zero"),
    pytest.param(edit(CARD, "bleed: 3mm", "bleed: 1m"),
                 ["g/templates/card.yaml:2:8: bleed: expected a length such as 63mm, 2.5in or 9pt, got '1m'"],
                 id="bleed-unknown-unit"),
    pytest.param(edit(CARD, "bleed: 3mm", "bleed: 10cm"),
                 ["g/templates/card.yaml:2:8: bleed: expected a length from 0 to 25 mm, got '10cm'"],
                 id="bleed-too-large"),
    pytest.param(edit(CARD, "safe: 4mm", "safe: -4mm"),
                 ["g/templates/card.yaml:3:7: safe: expected a length from 0 to 100 mm, got '-4mm'"],
                 id="safe-negative"),
    pytest.param(with_box("stroke_width: .nan"),
                 ["g/templates/card.yaml:11:85: boxes.frame.stroke_width: expected a length from 0 to 2,000 mm, "
                  "got .nan"],
                 id="stroke-width-nan"),
    pytest.param(with_box("stroke_width: [0, 0]"),
                 ["g/templates/card.yaml:11:85: boxes.frame.stroke_width: expected a length such as 63mm, 2.5in "
                  "or 9pt, got [0, 0]"],
                 id="stroke-width-a-list"),
    pytest.param(with_box("radius: .inf"),
                 ["g/templates/card.yaml:11:79: boxes.frame.radius: expected a length from 0 to 2,000 mm, got .inf"],
                 id="radius-infinity"),
    pytest.param(edit(CARD, "x: 10, y: 10,", "x: 10, y: 10, gap: .nan,"),
                 ["g/templates/card.yaml:9:52: boxes.art.gap: expected a length from 0 to 2,000 mm, got .nan"],
                 id="gap-nan"),
    pytest.param(edit(CARD, "y: 60,", "y: 60, padding: .inf,"),
                 ["g/templates/card.yaml:10:59: boxes.name.padding: expected a length from 0 to 2,000 mm, got .inf"],
                 id="padding-infinity"),
    # --- dash patterns ReportLab refuses while drawing
    pytest.param(with_box("dash: [0, 0]"),
                 ["g/templates/card.yaml:11:77: boxes.frame.dash: a dash pattern is up to 16 lengths from 0 to "
                  "2,000 mm, not all 0, got [0, 0]"],
                 id="dash-all-zero"),
    pytest.param(with_box("dash: [2, -1]"),
                 ["g/templates/card.yaml:11:77: boxes.frame.dash: a dash pattern is up to 16 lengths from 0 to "
                  "2,000 mm, not all 0, got [2, -1]"],
                 id="dash-negative"),
    pytest.param(with_box("dash: [2, .nan]"),
                 ["g/templates/card.yaml:11:77: boxes.frame.dash: a dash pattern is up to 16 lengths from 0 to "
                  "2,000 mm, not all 0, got [2, nan]"],
                 id="dash-nan"),
    # --- text styles
    pytest.param(edit(CARD, "size: 10pt", "size: .inf"),
                 ["g/templates/card.yaml:5:28: styles.body.size: expected a font size of at most 1,000 pt, got .inf"],
                 id="font-size-infinity"),
    pytest.param(edit(CARD, "size: 10pt", "size: 5000pt"),
                 ["g/templates/card.yaml:5:28: styles.body.size: expected a font size of at most 1,000 pt, "
                  "got '5000pt'"],
                 id="font-size-huge"),
    pytest.param(edit(CARD, "size: 10pt", "size: -10pt"),
                 ["g/templates/card.yaml:5:28: styles.body.size: expected a number greater than 0, got '-10pt'"],
                 id="font-size-negative"),
    pytest.param(edit(CARD, "min_size: 8pt", "min_size: .nan"),
                 ["g/templates/card.yaml:5:44: styles.body.min_size: expected a font size of at most 1,000 pt, "
                  "got .nan"],
                 id="min-font-size-nan"),
    pytest.param(edit(CARD, "color: ink}", "color: ink, leading: 0}"),
                 ["g/templates/card.yaml:5:70: styles.body.leading: expected a line height (a multiple of the size) "
                  "above 0 and at most 10, got 0.0"],
                 id="leading-zero"),
    pytest.param(edit(CARD, "color: ink}", "color: ink, halo: {color: ink, width: .nan}}"),
                 ["g/templates/card.yaml:5:87: styles.body.halo.width: expected a length of at most 2,000 mm, "
                  "got .nan"],
                 id="halo-width-nan"),
    # --- polygons, counts written in the template
    pytest.param({CARD: BASE_FILES[CARD] + (RECT % "points: [[0, 0], [.nan, 1], [2, 2]]").replace("rect", "polygon")},
                 ["g/templates/card.yaml:11:92: boxes.frame.points[1][0]: expected a coordinate in mm from "
                  "-2,000 to 2,000, got .nan"],
                 id="polygon-point-nan"),
    pytest.param(edit(CARD, 'art: "@art",', 'art: "@art", repeat: 1000000000,'),
                 ["g/templates/card.yaml:9:41: boxes.art.repeat: expected a number of copies of at most 1,000, "
                  "got 1,000,000,000"],
                 id="repeat-literal-1e9"),
    # --- values that only layout reads: fields
    pytest.param({**edit(CARD, 'art: "@art",', 'art: "@art", repeat: "@n",'), **with_card_fields("n: 1000000000")},
                 ["g/cards.yaml:9:39: deck cards, card star: repeat must be a whole number from 0 to 1,000, "
                  "got 1,000,000,000"],
                 id="repeat-field-1e9"),
    pytest.param({**edit(CARD, 'art: "@art",', 'art: "@art", repeat: 200,')},
                 ["g/templates/card.yaml:9:8: deck cards, card star: 200 copies of the art with a 1 mm gap do not "
                  "fit in box 'art' (43 × 40 mm)"],
                 id="repeat-does-not-fit"),
    pytest.param({CARD: BASE_FILES[CARD] + '  shape: {kind: polygon, x: 5, y: 5, width: 20, height: 20, '
                                           'points: "@shape", fill: ink}\n',

                  **with_card_fields("shape: [[0, 0], [10, .inf], [5, 8]]")},
                 ["g/cards.yaml:9:43: a polygon needs 3 or more points [x, y], in mm from -2,000 to 2,000"],
                 id="polygon-field-infinity"),
    # --- a box that can never be seen
    pytest.param(edit(CARD, "x: 10, y: 10", "x: 16.5cm, y: 10"),
                 ["g/templates/card.yaml:9:36: box 'art' lies entirely outside its 63 × 88 mm template "
                  "(and its 3 mm bleed), so it would never be drawn"],
                 id="box-off-the-card-x"),
    pytest.param(edit(CARD, "x: 5, y: 60", "x: 5, y: -20"),
                 ["g/templates/card.yaml:10:46: box 'name' lies entirely outside its 63 × 88 mm template "
                  "(and its 3 mm bleed), so it would never be drawn"],
                 id="box-off-the-card-y"),
    # --- pieces the paper cannot hold
    pytest.param(edit(CARD, "width: 63mm", "width: 63cm"),
                 ["g/templates/card.yaml:1:15: deck cards: a card is 630 × 88 mm and does not fit on a sheet of "
                  "A4 or Letter paper (at most 200.0 × 269.4 mm fits inside the printer's margins (5 mm))"],
                 id="card-larger-than-the-paper"),
    pytest.param(edit(CARD, "height: 88mm", "height: 280mm"),
                 ["g/templates/card.yaml:1:29: deck cards: a card is 63 × 280 mm and does not fit on a sheet of "
                  "Letter paper (at most 205.9 × 269.4 mm fits inside the printer's margins (5 mm))"],
                 id="card-taller-than-letter"),
    # --- many pieces from a few lines
    pytest.param({"cards.yaml": CARDS.replace("count: 2", "count: 10000") + CARDS.removeprefix("decks:\n").replace(
        "id: cards", "id: more").replace("count: 2", "count: 10000")},
                 ["g/cards.yaml:16:16: with these 10,000 copies, edition 'standard' would have 20,000 pieces or "
                  "more: at most 10,000 can be built"],
                 id="pieces-over-the-limit"),
]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from tmp_path so messages show paths such as g/cards.yaml."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("files", "expected"), CHECK_CASES)
def test_check_reports_numbers_out_of_range(in_tmp: Path, files: dict[str, str], expected: list[str]) -> None:
    make_game(in_tmp, files)
    result = pnp("check", "g")
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == expected, result.output


def test_out_of_range_lengths_say_what_to_do(in_tmp: Path) -> None:
    make_game(in_tmp, edit(CARD, "x: 10, y: 10", "x: .nan, y: 10"))
    assert f"    hint: {RANGE_HINT}" in pnp("check", "g").output.splitlines()


# ------------------------------------------------------------- what `pnp build` used to find half-way

BUILD_CASES = [
    pytest.param(edit(CARD, "width: 63mm", "width: 63cm"), (), "does not fit on a sheet of A4 or Letter",
                 id="card-larger-than-the-paper"),
    pytest.param(edit(CARD, "width: 63mm", "width: 150mm"), ("--layout", "gutterfold"),
                 "g/templates/card.yaml:1:15: deck cards: a card is 150 × 88 mm and does not fit on half a landscape "
                 "sheet of A4 or Letter paper (at most 130.7 × 200.0 mm fits inside the printer's margins (5 mm) for "
                 "--layout gutterfold)", id="card-wider-than-half-a-gutterfold-sheet"),
    pytest.param(edit(CARD, "x: 10, y: 10", "x: 16.5cm, y: 10"), (), "box 'art' lies entirely outside",
                 id="box-off-the-card"),
    pytest.param(with_box("dash: [0, 0]"), (), "boxes.frame.dash: a dash pattern", id="dash-all-zero"),
    pytest.param(edit(CARD, "width: 43", "width: .inf"), (), "boxes.art.width: expected a length",
                 id="width-infinity"),
    pytest.param({"pawns.yaml": "sets:\n  - id: p\n    name: deck.cards\n    template: card\n"
                                "    standee: {base: 60mm}\n    pawns:\n"
                                "      - {id: star, fields: {name: cards.star, art: art/star.svg}}\n"},
                 (), "g/templates/card.yaml:1:29: pawn set p: a pawn's standee (its 60 mm base twice) is "
                     "63 × 296 mm and "
                     "does not fit on a sheet of A4 or Letter paper (at most 200.0 × 269.4 mm fits inside the "
                     "printer's margins (5 mm))", id="standee-taller-than-the-paper"),
    pytest.param({"tokens.yaml": "sets:\n  - id: t\n    name: deck.cards\n    template: tok\n    back: tok\n"
                                 "    tokens:\n      - {id: a}\n",
                  "templates/tok.yaml": "size: {width: 250mm, height: 20mm}\nboxes:\n"
                                        "  r: {kind: rect, area: trim, stroke: '#000000'}\n"},
                 (), "g/templates/tok.yaml:1:15: token set t: a token is 250 × 20 mm and does not fit on a sheet of "
                     "A4 or Letter paper (at most 200.0 × 269.4 mm fits inside the printer's margins (5 mm))",
                 id="token-wider-than-the-paper"),
    pytest.param({"sheets.yaml": "sheets:\n  - id: s\n    name: deck.cards\n    template: sheet\n",
                  "templates/sheet.yaml": "size: {width: 300mm, height: 200mm}\nboxes:\n"
                                          "  r: {kind: rect, area: trim, stroke: '#000000'}\n"},
                 (), "g/sheets.yaml:4:15: sheet 's' is 300 × 200 mm; at most 196 × 266 mm fits A4 and Letter printers",
                 id="sheet-wider-than-the-paper"),
    pytest.param(edit(CARD, "width: 43", "width: 0"), (),
                 "g/templates/card.yaml:9:8: deck cards, card star: the art does not fit in box 'art' (0 × 40 mm)",
                 id="art-box-without-room"),
]


@pytest.mark.parametrize(("files", "options", "message"), BUILD_CASES)
def test_build_stops_before_writing(in_tmp: Path, files: dict[str, str], options: tuple[str, ...],
                                    message: str) -> None:
    """What only drawing used to find (a traceback half-way through the files) stops the build at once."""
    make_game(in_tmp, files)
    result = pnp("build", "g", "--out", "out", "--jobs", "1", *options)
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    assert "build failed: 1 error(s); nothing was written" in result.output
    assert not (in_tmp / "out").exists() or not [p for p in (in_tmp / "out").rglob("*") if p.is_file()]


def test_gutterfold_size_is_only_required_of_gutterfold_builds(in_tmp: Path) -> None:
    """A 150 mm card fits a duplex sheet: `pnp check` and a duplex build accept it."""
    make_game(in_tmp, edit(CARD, "width: 63mm", "width: 150mm"))
    assert pnp("check", "g").exit_code == 0
    result = pnp("build", "g", "--out", "out", "--jobs", "1", "--paper", "a4", "-q")
    assert result.exit_code == 0, result.output
    assert (in_tmp / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf").is_file()


# ------------------------------------------------------------- boards: cells, maps

BOARD_TEMPLATE = ("size: {width: 300mm, height: 300mm}\n"
                  "bleed: 3mm\n"
                  "boxes:\n"
                  '  legend: {kind: cells, cells: "@legend", cell_template: row, path: column, gap: 0, x: 10, y: 10, '
                  "width: 280, height: 280}\n")

ROW_TEMPLATE = """\
size: {width: 60mm, height: 8mm}
styles:
  body: {size: 9pt, min_size: 1pt}
boxes:
  bg: {kind: rect, area: trim, fill: "@color"}
  name: {kind: text, text: "@name", x: 1, y: 1, width: 58, height: 6, style: body}
"""


def board_files(legend: str, row_boxes: str = "", **more: str) -> dict[str, str]:
    """The minimal game with a board whose legend (board.yaml line 8) is drawn by `cells` of template row."""
    return {"board.yaml": "boards:\n  - id: b\n    name: deck.cards\n    template: board\n"
                          "    cell_types:\n      star: {name: cards.star, color: '#ffcc00'}\n"
                          f"    fields:\n      legend: {legend}\n",
            "templates/board.yaml": BOARD_TEMPLATE, "templates/row.yaml": ROW_TEMPLATE + row_boxes, **more}


def stars(count: int) -> str:
    return "[" + ", ".join(["star"] * count) + "]"


DOT = {"templates/dot.yaml": "size: {width: 2mm, height: 2mm}\nboxes:\n  d: {kind: ellipse, area: trim, fill: ink}\n"
                             "palette: {ink: '#000000'}\n"}

BOARD_CASES = [
    pytest.param(board_files("1000000000"),
                 ["g/board.yaml:8:15: board b: 'legend': a number of cells runs from 1 to 2,000, got 1,000,000,000"],
                 id="cells-1e9"),
    pytest.param(board_files("{count: 1000000000, at: {0: star}}"),
                 ["g/board.yaml:8:15: board b: 'legend': count must be a whole number of cells from 1 to 2,000, "
                  "got 1,000,000,000"],
                 id="cells-count-1e9"),
    pytest.param(board_files(stars(10_000)),
                 ["g/board.yaml:8:15: board b: 'legend': 10,000 cells; at most 2,000 fit a face"],
                 id="cells-10000-listed"),
    pytest.param(board_files(stars(2), "  inner: {kind: cells, cells: 2, cell_template: row, "
                                       "x: 0, y: 0, width: 60, height: 8}\n"),
                 ["g/templates/row.yaml:7:49: box 'inner': template 'row' would contain itself (row → row) "
                  "and never end"],
                 id="cell-template-contains-itself"),
    pytest.param(board_files(stars(100), "  inner: {kind: cells, cells: 100, cell_template: dot, gap: 0, "
                                         "x: 0, y: 0, width: 60, height: 8}\n", **DOT),
                 ["g/templates/row.yaml:7:10: board b, legend cell 20: box 'inner' brings the face to more than "
                  "the 2,000 cells a face may hold (cells inside cells count too)"],
                 id="cells-inside-cells-over-the-limit"),
    pytest.param({**board_files(stars(30)), "templates/board.yaml": BOARD_TEMPLATE.replace("gap: 0", "gap: 10")},
                 ["g/templates/board.yaml:4:11: box 'legend': 30 cells with a 10 mm gap do not fit in a "
                  "280 × 280 mm box"],
                 id="cells-with-no-room"),
    pytest.param({**board_files(stars(2)), "templates/board.yaml": BOARD_TEMPLATE.replace(
        'cells: "@legend",', "cells: 5000000000,")},
                 ["g/templates/board.yaml:4:32: boxes.legend.cells: expected a number of cells of at most 2,000, "
                  "got 5,000,000,000"],
                 id="cells-literal-5e9"),
]


@pytest.mark.parametrize(("files", "expected"), BOARD_CASES)
def test_check_bounds_cells(in_tmp: Path, files: dict[str, str], expected: list[str]) -> None:
    make_game(in_tmp, files)
    result = pnp("check", "g")
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == expected, result.output


MAP_TEMPLATE = """\
size: {width: 300mm, height: 200mm}
boxes:
  map:
    kind: network
    x: 10
    y: 10
    width: 280
    height: 180
    network: {nodes: "@nodes", routes: "@routes", node_template: dot, projection: %s}
"""


def map_files(projection: str = "{west: 23, east: 32, south: 51.5, north: 56}",
              nodes: str = "[{id: a, lon: 24, lat: 52}, {id: b, lon: 30, lat: 55}]",
              routes: str = "[{from: a, to: b, length: 3}]") -> dict[str, str]:
    return {"board.yaml": "boards:\n  - id: m\n    name: deck.cards\n    template: map\n"
                          f"    fields:\n      nodes: {nodes}\n      routes: {routes}\n",
            "templates/map.yaml": MAP_TEMPLATE % projection, **DOT}


MAP_CASES = [
    pytest.param(map_files(projection="{west: 23, east: 23, south: 51.5, north: 56}"),
                 ["g/templates/map.yaml:9:83: boxes.map.network.projection: the bounds must span some area: "
                  "west 23 < east 23 and south 51.5 < north 56"],
                 id="projection-without-width"),
    pytest.param(map_files(projection="{west: .nan, east: 32, south: 51.5, north: 56}"),
                 ["g/templates/map.yaml:9:90: boxes.map.network.projection.west: expected a longitude in degrees "
                  "from -180 to 180, got .nan"],
                 id="projection-nan"),
    pytest.param(map_files(nodes="[{id: a, lon: .nan, lat: 52}, {id: b, lon: 30, lat: 55}]",
                           routes="[{from: b, to: b2, length: 1}]"),
                 ["g/board.yaml:6:15: board m: node 1 needs id, lon and lat",
                  "g/board.yaml:7:16: board m: route 1: unknown node 'b2'"],
                 id="node-longitude-nan"),
    pytest.param(map_files(routes="[{from: a, to: b, length: 1000000000}]"),
                 ["g/board.yaml:7:16: board m: route 1: length must be a whole number of segments from 1 to 100, "
                  "got 1000000000"],
                 id="route-1e9-segments"),
]


@pytest.mark.parametrize(("files", "expected"), MAP_CASES)
def test_check_bounds_maps(in_tmp: Path, files: dict[str, str], expected: list[str]) -> None:
    make_game(in_tmp, files)
    result = pnp("check", "g")
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == expected, result.output


def test_a_rules_table_number_must_be_finite_and_its_widths_positive(in_tmp: Path) -> None:
    rules = ("rulebook:\n  cover: {title: game.title}\n  sections:\n    - heading: game.title\n      blocks:\n"
             "        - table: {widths: [1, 0], rows: [[1, .nan]]}\n")
    make_game(in_tmp, {"rules.yaml": rules})
    result = pnp("check", "g")
    assert problem_lines(result.output) == [
        "g/rules.yaml:6:31: rulebook.sections[0].blocks[0].table.widths[1]: expected a relative width above 0 "
        "and at most 1,000, got 0.0"], result.output
    make_game(in_tmp, {"rules.yaml": rules.replace("[1, 0]", "[1, 2]")})
    result = pnp("check", "g")
    assert problem_lines(result.output) == [
        "g/rules.yaml:6:42: a table cell number must be finite, got .nan"], result.output


# ------------------------------------------------------------- in their own process: time and memory

def test_huge_counts_end_quickly_in_one_message(tmp_path: Path) -> None:
    """Counts of 10^9 were killed at 24 GB; now each is one message, in well under the budget."""
    cases = {
        "cells": board_files("1000000000"),
        "count": board_files("{count: 1000000000, at: {0: star}}"),
        "repeat": {**edit(CARD, 'art: "@art",', 'art: "@art", repeat: "@n",'), **with_card_fields("n: 1000000000")},
        "pieces": {"cards.yaml": "decks:\n  - id: cards\n    name: deck.cards\n    template: card\n    back: back\n"
                                 "    cards:\n" + "".join(f"      - {{id: c{i}, count: 10000, fields: {{name: "
                                                         "cards.star, art: art/star.svg}}\n" for i in range(100))},
    }
    for name, files in cases.items():
        folder = make_game(tmp_path / name, files)
        run = run_pnp("build", str(folder), "--out", str(tmp_path / name / "out")).assert_clean(1)
        assert len(problem_lines(run.output)) == 1, run.output
        assert not (tmp_path / name / "out").exists()


def test_a_board_at_the_cell_limit_builds_within_budget(tmp_path: Path) -> None:
    """2,000 legend cells (20 times the longest real track), every file written: < 30 s, < 1 GiB."""
    folder = make_game(tmp_path, board_files(stars(2_000)))
    run = run_pnp("build", str(folder), "--out", str(tmp_path / "out"), "-q").assert_clean(0)
    assert (tmp_path / "out" / "g" / "standard" / "en" / "a4" / "board.pdf").is_file()
    print(f"2,000 cells: {run.seconds:.1f} s, {run.peak_bytes / 2**20:.0f} MiB")


# ------------------------------------------------------------- units and imposition on their own

@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "9" * 400])
def test_lengths_are_finite(value) -> None:
    with pytest.raises(ValueError, match="expected a finite length"):
        parse_length(value)


def test_length_ranges_say_their_bounds() -> None:
    validate = length_in(0, 25)
    assert validate("3mm") == 3.0
    with pytest.raises(ValueError, match=r"expected a length from 0 to 25 mm, got '3cm'"):
        validate("3cm")


@pytest.mark.parametrize("gap", [-1.0, math.nan])
def test_a_grid_cannot_lay_cards_over_each_other(gap: float) -> None:
    with pytest.raises(ValueError, match="gap must be 0 mm or more"):
        GridSpec((210.0, 297.0), (63.0, 88.0), gap=gap)
