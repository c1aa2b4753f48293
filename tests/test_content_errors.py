"""Bad content and the exact, located messages a user reads from `pnp check` and `pnp build`.

Every row of CASES changes one thing in a minimal valid game and lists, in order,
every problem line `pnp check` must print (hints and the summary line aside).
The table is the documentation of what users see: read it before changing a message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli import main
from generator.content.game import load_game
from generator.errors import Problems

# ------------------------------------------------------------- a minimal valid game
# Line numbers in the expected messages below count lines of these texts.

GAME = """\
id: g
title: game.title
languages: [en]
editions:
  standard: {name: game.edition}
fonts:
  body: [nunito, inter]
"""

CARDS = """\
decks:
  - id: cards
    name: deck.cards
    template: card
    back: back
    cards:
      - id: star
        count: 2
        fields: {name: cards.star, art: art/star.svg}
"""

EN = """\
en:
  game:
    title: "Test game"
    edition: "Standard"
  deck:
    cards: "Cards"
  cards:
    star: "Star"
"""

CARD_TEMPLATE = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  body: {font: body, size: 10pt, min_size: 8pt, color: ink}
palette:
  ink: "#222222"
boxes:
  art: {kind: art, art: "@art", x: 10, y: 10, width: 43, height: 40}
  name: {kind: text, text: "@name", x: 5, y: 60, width: 53, height: 10, style: body}
"""

BACK_TEMPLATE = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
boxes:
  name: {kind: text, text: "@deck", x: 5, y: 40, width: 53, height: 10}
"""

STAR_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
            '<rect width="10" height="10" fill="#c00"/></svg>\n')

BASE_FILES = {
    "game.yaml": GAME,
    "cards.yaml": CARDS,
    "i18n/en.yaml": EN,
    "templates/card.yaml": CARD_TEMPLATE,
    "templates/back.yaml": BACK_TEMPLATE,
    "art/star.svg": STAR_SVG,
}


def make_game(tmp_path: Path, files: dict[str, str]) -> Path:
    """Write the minimal game to tmp_path/g, then the given files over it; return the folder."""
    folder = tmp_path / "g"
    for name, text in {**BASE_FILES, **files}.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def edit(file: str, old: str, new: str) -> dict[str, str]:
    """One file of the minimal game with `old` replaced by `new` (which must be there)."""
    text = BASE_FILES[file]
    assert old in text, f"{old!r} is not in the minimal {file}"
    return {file: text.replace(old, new, 1)}


def pnp(*args: str) -> Result:
    """Run the real command line; whatever the content, the user never sees a traceback."""
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def problem_lines(output: str) -> list[str]:
    """The `file:line:col: message` lines of the output, without hints and the summary."""
    return [line for line in output.splitlines()
            if line and not line.startswith("    hint:") and not line.endswith(" warning(s)")
            and not line.startswith("build failed:")]


# ------------------------------------------------------------- the table

TOO_LONG = "A very long name for a very small star card " * 4

CASES = [
    # --- YAML itself
    pytest.param(
        edit("game.yaml", "[en]", "[en"),
        ["g/game.yaml:4:9: YAML syntax: did not find expected ',' or ']' (in the list opened at line 3, column 12)"],
        id="yaml-unclosed-bracket"),
    pytest.param(
        edit("cards.yaml", "art: art/star.svg}", "art: [art/star.svg}"),
        ["g/cards.yaml:9:54: YAML syntax: did not find expected ',' or ']' (in the list opened at line 9, column 41)"],
        id="yaml-mismatched-bracket"),
    pytest.param(
        edit("i18n/en.yaml", '"Star"', '"Star'),
        ["g/i18n/en.yaml:9:1: YAML syntax: found unexpected end of stream "
         "(in the quoted text opened at line 8, column 11)"],
        id="yaml-unclosed-quote"),
    pytest.param(
        edit("cards.yaml", "        count: 2", "\tcount: 2"),
        ["g/cards.yaml:8:1: YAML syntax: found a tab character that violates indentation"],
        id="yaml-tab-indentation"),
    pytest.param(
        edit("cards.yaml", "        count: 2", "         count: 2"),
        ["g/cards.yaml:8:15: YAML syntax: mapping values are not allowed in this context"],
        id="yaml-bad-indentation"),
    pytest.param(
        edit("cards.yaml", "count: 2", "count: 2\n        count: 3"),
        ["g/cards.yaml:9:9: duplicate key 'count' (first at line 8)"],
        id="duplicate-key"),
    pytest.param(
        {"cards.yaml": "- just\n- a list\n"},
        ["g/cards.yaml:1:1: (top level): expected a mapping of keys (key: value), got ['just', 'a list']"],
        id="file-not-a-mapping"),
    # --- cards.yaml against the schema
    pytest.param(
        edit("cards.yaml", "count: 2", "cout: 2"),
        ["g/cards.yaml:8:9: decks[0].cards[0].cout: unknown key"],
        id="unknown-key-typo"),
    pytest.param(
        edit("cards.yaml", "count: 2", 'count: "three"'),
        ["g/cards.yaml:8:16: decks[0].cards[0].count: expected a positive whole number, got 'three'"],
        id="count-not-a-number"),
    pytest.param(
        edit("cards.yaml", "count: 2", "count: 0"),
        ["g/cards.yaml:8:16: decks[0].cards[0].count: expected a positive whole number, got 0"],
        id="count-zero"),
    pytest.param(
        edit("cards.yaml", "count: 2", "count: -2"),
        ["g/cards.yaml:8:16: decks[0].cards[0].count: expected a positive whole number, got -2"],
        id="count-negative"),
    pytest.param(
        edit("cards.yaml", "count: 2", "count: 2.5"),
        ["g/cards.yaml:8:16: decks[0].cards[0].count: expected a positive whole number, got 2.5"],
        id="count-fraction"),
    pytest.param(
        edit("cards.yaml", "count: 2", "count: {standard: 0}"),
        ["g/cards.yaml:8:27: decks[0].cards[0].count.standard: expected a positive whole number, got 0"],
        id="count-per-edition-zero"),
    pytest.param(
        edit("cards.yaml", "    template: card\n", ""),
        ["g/cards.yaml:2:5: decks[0].template: required key is missing"],
        id="missing-required-key"),
    pytest.param(
        edit("cards.yaml", "id: star", "id: Star!"),
        ["g/cards.yaml:7:13: decks[0].cards[0].id: 'Star!' is not a valid identifier"],
        id="bad-card-id"),
    pytest.param(
        edit("cards.yaml", "id: star", "id: 7"),
        ["g/cards.yaml:7:13: decks[0].cards[0].id: expected text, got 7"],
        id="card-id-a-number"),
    pytest.param(
        edit("game.yaml", "[nunito, inter]", "nunito"),
        ["g/game.yaml:7:9: fonts.body: expected a list such as [a, b], got 'nunito'"],
        id="font-stack-not-a-list"),
    pytest.param(
        edit("game.yaml", "[en]", "[english]"),
        ["g/game.yaml:3:13: languages[0]: 'english' is not a language code"],
        id="bad-language-code"),
    # --- what the schema cannot see
    pytest.param(
        edit("cards.yaml", "fields: {name: cards.star, art: art/star.svg}\n",
             "fields: {name: cards.star, art: art/star.svg}\n      - id: star\n"),
        ["g/cards.yaml:10:13: duplicate card id 'star' in deck 'cards'"],
        id="duplicate-card-id"),
    pytest.param(
        {"cards.yaml": CARDS + CARDS.removeprefix("decks:\n")},
        ["g/cards.yaml:10:9: duplicate deck id 'cards'"],
        id="duplicate-deck-id"),
    pytest.param(
        edit("cards.yaml", "count: 2", "count: {deluxe: 2}"),
        ["g/cards.yaml:8:17: unknown edition 'deluxe' in card 'star'"],
        id="unknown-edition-in-count"),
    pytest.param(
        edit("cards.yaml", "count: 2", "count: 2\n        editions: [standard, deluxe]"),
        ["g/cards.yaml:9:30: unknown edition 'deluxe' in card 'star'"],
        id="unknown-edition-in-editions"),
    # --- templates
    pytest.param(
        edit("cards.yaml", "template: card", "template: cardd"),
        ["g/cards.yaml:4:15: unknown template 'cardd'"],
        id="unknown-template"),
    pytest.param(
        {**edit("cards.yaml", "template: card", "template: a"),
         "templates/a.yaml": "extends: b\n", "templates/b.yaml": "extends: a\n"},
        ["g/templates/b.yaml:1:10: template cycle: a → b → a"],
        id="template-extends-cycle"),
    pytest.param(
        {"templates/card.yaml": "extends: poker\n" + CARD_TEMPLATE},
        ["g/templates/card.yaml:1:10: unknown parent template 'poker'"],
        id="template-unknown-parent"),
    pytest.param(
        {"templates/card.yaml": "extends: 5\n" + CARD_TEMPLATE},
        ["g/templates/card.yaml:1:10: extends: expected a template id or a list of them, got 5"],
        id="template-extends-not-a-name"),
    pytest.param(
        edit("templates/back.yaml", "size: {width: 63mm, height: 88mm}\n", ""),
        ["g/templates/back.yaml:1:1: template 'back' has no size, and neither has any template it extends"],
        id="template-without-size"),
    pytest.param(
        {"templates/back.yaml": "- size\n- boxes\n"},
        ["g/templates/back.yaml:1:1: a template must be a mapping of keys, got ['size', 'boxes']"],
        id="template-not-a-mapping"),
    pytest.param(
        edit("templates/card.yaml", "size: 10pt", "size: 0pt"),
        ["g/templates/card.yaml:5:28: styles.body.size: expected a number greater than 0, got '0pt'"],
        id="font-size-zero"),
    pytest.param(
        edit("templates/card.yaml", "color: ink", "color: inkk"),
        ["g/templates/card.yaml:5:56: unknown colour 'inkk'"],
        id="unknown-colour-name"),
    pytest.param(
        edit("templates/card.yaml", '"#222222"', '"#zzzzzz"'),
        ["g/templates/card.yaml:7:8: palette.ink: '#zzzzzz' is not a colour: '#' takes six hex digits (0-9, a-f)"],
        id="colour-not-hex"),
    pytest.param(
        edit("templates/card.yaml", "font: body", "font: bodyy"),
        ["g/templates/card.yaml:5:16: unknown font 'bodyy'"],
        id="unknown-font-stack"),
    pytest.param(
        edit("game.yaml", "[nunito, inter]", "[nunito, intr]"),
        ["g/game.yaml:7:18: unknown font family 'intr' in font stack 'body'"],
        id="unknown-font-family-in-stack"),
    # --- translations
    pytest.param(
        edit("i18n/en.yaml", '  cards:\n    star: "Star"\n', ""),
        ["g/cards.yaml:9:24: missing translation key 'cards.star' for language 'en' (in g/i18n/en.yaml)"],
        id="missing-translation-key"),
    pytest.param(
        edit("i18n/en.yaml", "en:", "eng:"),
        ["g/i18n/en.yaml:1:1: a catalog must have exactly one root key, 'en:', found 'eng:'"],
        id="catalog-root-not-the-language"),
    pytest.param(
        {"i18n/en.yaml": "en:\n"},
        ["g/i18n/en.yaml:1:4: 'en:' must hold the catalog's keys, got None"],
        id="catalog-empty-root"),
    pytest.param(
        edit("i18n/en.yaml", '"Star"', '"Star 中"'),
        ["g/i18n/en.yaml:8:11: language 'en': no font of the stack (nunito, inter) has the CJK character "
         "'中' U+4E2D, used in 'cards.star' (deck cards, card star)"],
        id="glyph-missing-cjk"),
    pytest.param(
        edit("i18n/en.yaml", '"Star"', '"Star \U0001F600"'),
        ["g/i18n/en.yaml:8:11: language 'en': no font of the stack (nunito, inter) has the symbol or punctuation "
         "mark '\U0001F600' U+1F600, used in 'cards.star' (deck cards, card star)"],
        id="glyph-missing-emoji"),
    pytest.param(
        edit("i18n/en.yaml", '"Star"', f'"{TOO_LONG}"'),
        ["g/i18n/en.yaml:8:11: text does not fit: game g, edition standard, language en, deck cards, "
         "card star, key 'cards.star': 6.9 mm too long at the minimum size 8 pt"],
        id="text-too-long"),
    # --- art
    pytest.param(
        edit("cards.yaml", "art/star.svg", "art/moon.svg"),
        ["g/cards.yaml:9:41: file not found: art/moon.svg"],
        id="missing-art-file"),
    pytest.param(
        edit("cards.yaml", "art/star.svg", "../../etc/passwd"),
        ["g/cards.yaml:9:41: '../../etc/passwd' is outside the game folder"],
        id="art-outside-folder-passwd"),
    pytest.param(
        {**edit("cards.yaml", "art/star.svg", "../x.svg"), "../x.svg": STAR_SVG},
        ["g/cards.yaml:9:41: '../x.svg' is outside the game folder"],
        id="art-outside-folder-sibling"),
    pytest.param(
        edit("templates/card.yaml", 'style: body}', 'style: body, editions: [deluxe]}'),
        ["g/templates/card.yaml:10:9: box 'name' names unknown edition(s) deluxe"],
        id="box-unknown-edition"),
    pytest.param(
        {**edit("templates/card.yaml", 'style: body}', 'style: body, count: "@art"}')},
        ["g/cards.yaml:9:41: deck cards, card star: count for plural text must be a whole number, "
         "got 'art/star.svg'"],
        id="plural-count-not-a-number"),
    # --- conditions and text halos
    pytest.param(
        edit("templates/card.yaml", 'style: body}', 'style: body, when: {kind: star}}'),
        ["g/templates/card.yaml:10:9: box 'name': a condition names fields as '@kind', not 'kind'"],
        id="condition-without-at"),
    pytest.param(
        edit("templates/card.yaml", 'style: body}', 'style: body, unless: [star]}'),
        ["g/templates/card.yaml:10:94: boxes.name.unless: a condition is '@field' or {'@field': value} "
         "(or a list of values), got ['star']"],
        id="condition-a-list"),
    pytest.param(
        edit("templates/card.yaml", 'style: body}', 'style: body, when: {"@kind": {a: 1}}}'),
        ["g/templates/card.yaml:10:102: boxes.name.when.@kind: a condition is '@field' or {'@field': value} "
         "(or a list of values), got {'a': 1}"],
        id="condition-value-a-mapping"),
    pytest.param(
        edit("templates/card.yaml", "color: ink}", "color: ink, halo: {color: ink, width: -1}}"),
        ["g/templates/card.yaml:5:87: styles.body.halo.width: expected a number greater than 0.0, got -1.0"],
        id="halo-negative-width"),
    pytest.param(
        edit("templates/card.yaml", "color: ink}", "color: ink, halo: {color: glow}}"),
        ["g/templates/card.yaml:5:75: unknown colour 'glow'"],
        id="halo-unknown-colour"),
    # --- colours written as cmyk(...) and text sizes (issue 26: these passed check and failed the build)
    pytest.param(
        edit("templates/card.yaml", "color: ink}", 'color: "cmyk(1.2.3, 0, 0, 0)"}'),
        ["g/templates/card.yaml:5:56: styles.body.color: 'cmyk(1.2.3, 0, 0, 0)' is not a colour: "
         "its cyan, '1.2.3', is not a number from 0 to 100"],
        id="cmyk-two-points"),
    pytest.param(
        edit("templates/card.yaml", '"#222222"', '"cmyk(., ., ., .)"'),
        ["g/templates/card.yaml:7:8: palette.ink: 'cmyk(., ., ., .)' is not a colour: "
         "its cyan, '.', is not a number from 0 to 100"],
        id="cmyk-dots"),
    pytest.param(
        edit("game.yaml", "fonts:", 'palette:\n  red: "cmyk(0, 200, 0, 0)"\nfonts:'),
        ["g/game.yaml:7:8: palette.red: 'cmyk(0, 200, 0, 0)' is not a colour: its magenta is 200 %, "
         "and an ink goes from 0 to 100 %"],
        id="cmyk-over-100"),
    pytest.param(
        edit("templates/card.yaml", '"#222222"', '"cmyk(10, 20, 30)"'),
        ["g/templates/card.yaml:7:8: palette.ink: 'cmyk(10, 20, 30)' is not a colour: "
         "cmyk takes four inks (cyan, magenta, yellow, black), not 3"],
        id="cmyk-three-inks"),
    pytest.param(
        {**edit("templates/card.yaml", "boxes:", 'boxes:\n  band: {kind: rect, width: 5, height: 5, fill: "@tint"}'),
         **edit("cards.yaml", "art: art/star.svg}", 'art: art/star.svg, tint: "cmyk(0, 0, 0, 101)"}')},
        ["g/cards.yaml:9:61: 'cmyk(0, 0, 0, 101)' is not a colour: its black is 101 %, "
         "and an ink goes from 0 to 100 %"],
        id="cmyk-from-a-field"),
    pytest.param(
        edit("templates/card.yaml", "min_size: 8pt", "min_size: 12pt"),
        ["g/templates/card.yaml:5:44: styles.body.min_size: min_size 12 pt is larger than its size, 10 pt: "
         "text shrinks from its size down to min_size"],
        id="min-size-above-size"),
    pytest.param(
        edit("templates/card.yaml", "size: 10pt, min_size: 8pt", "min_size: 12pt"),
        ["g/templates/card.yaml:5:32: styles.body.min_size: min_size 12 pt is larger than the default size, 9 pt: "
         "text shrinks from its size down to min_size"],
        id="min-size-above-default-size"),
    pytest.param(
        edit("templates/card.yaml", "boxes:", 'boxes:\n  band: {kind: rect, width: 5, height: 5, fill: "@tint"}'),
        ["g/templates/card.yaml:9:49: deck cards, card star: has no field 'tint', used by the fill of box 'band' "
         "(its fields: art, deck, id, name)"],
        id="fill-from-a-missing-field"),
    # --- several problems in one run: all are reported
    pytest.param(
        {**edit("cards.yaml", "count: 2", "cout: 2"), **edit("i18n/en.yaml", '"Standard"', '"Standard')},
        ["g/i18n/en.yaml:6:13: YAML syntax: did not find expected key",
         "g/cards.yaml:8:9: decks[0].cards[0].cout: unknown key"],
        id="two-errors-two-files"),
]


# ------------------------------------------------------------- field payloads (checked when the game is read)
# A box that reads a field as data ('@track' in a cells box, '@routes' in a map) fixes the field's type:
# a bad value is reported at the value, once, by `pnp check` before any layout.

DOT_TEMPLATE = "size: {width: 4mm, height: 4mm}\nboxes:\n  d: {kind: ellipse, area: trim, fill: '#000000'}\n"


def card_payload(box: str, fields: str) -> dict[str, str]:
    """The minimal game whose card template has one more box (card.yaml line 11) and whose card one more
    field (cards.yaml line 9, after `art`)."""
    return {"templates/card.yaml": CARD_TEMPLATE + f"  data: {box}\n",
            "templates/dot.yaml": DOT_TEMPLATE,
            **edit("cards.yaml", "art: art/star.svg}", f"art: art/star.svg, {fields}}}")}


def map_board(nodes: str, routes: str, extra: str = "") -> dict[str, str]:
    """A board whose template is a map of `nodes` and `routes` (board.yaml lines 6 and 7)."""
    return {"board.yaml": "boards:\n  - id: m\n    name: deck.cards\n    template: map\n"
                          f"    fields:\n      nodes: {nodes}\n      routes: {routes}\n{extra}",
            "templates/map.yaml": "size: {width: 200mm, height: 150mm}\nboxes:\n  map:\n    kind: network\n"
                                  "    area: trim\n    network: {nodes: '@nodes', routes: '@routes', "
                                  "node_template: dot,"
                                  " projection: {west: 23, east: 32, south: 51.5, north: 56}}\n",
            "templates/dot.yaml": DOT_TEMPLATE}


NODES = "[{id: a, lon: 24, lat: 52}, {id: b, lon: 30, lat: 55}]"

PAYLOAD_CASES = [
    pytest.param(
        map_board(NODES, "[{from: a, to: b, length: 0}]"),
        ["g/board.yaml:7:16: board m: route 1: length must be a whole number of segments from 1 to 100, got 0"],
        id="route-length-zero"),
    pytest.param(
        map_board(NODES, "[{from: a, to: b, length: 2}, {from: a, to: c, length: 2}]"),
        ["g/board.yaml:7:45: board m: route 2: unknown node 'c'"],
        id="route-unknown-node"),
    pytest.param(
        map_board(NODES, "[{from: a, to: b, length: 2, kind: river}]"),
        ["g/board.yaml:7:16: board m: route 1: kind must be one of land, water, border, got 'river'"],
        id="route-unknown-kind"),
    pytest.param(
        map_board(NODES, "[{from: a, to: b, length: 2, via: [[27, 99]]}]"),
        ["g/board.yaml:7:16: board m: route 1: via must be a list of at most 20 [lon, lat] points (degrees), "
         "got [[27, 99]]"],
        id="route-via-off-the-globe"),
    pytest.param(
        map_board(NODES, "{from: a, to: b}"),
        ["g/board.yaml:7:15: board m: 'routes': routes are a list of {from, to, length, color, kind}"],
        id="routes-not-a-list"),
    pytest.param(
        map_board("[{id: a, lon: 24, lat: 52}, {id: a, lon: 30, lat: 55}]", "[]"),
        ["g/board.yaml:6:42: board m: duplicate node id 'a'"],
        id="node-id-twice"),
    pytest.param(
        card_payload("{kind: cells, cells: '@track', cell_template: dot, x: 5, y: 75, width: 53, height: 5}",
                     "track: [1, [2], 3]"),
        ["g/cards.yaml:9:66: deck cards, card star: cell 2 of 'track': a cell must be a type id or a mapping "
         "of fields, got [2]"],
        id="cells-entry-a-list"),
    pytest.param(
        card_payload("{kind: cells, cells: '@track', cell_template: dot, x: 5, y: 75, width: 53, height: 5}",
                     "track: {count: 4, at: {9: start}}"),
        ["g/cards.yaml:9:62: deck cards, card star: 'track': 'at' positions run from 0 to 3, got 9"],
        id="cells-at-outside-the-count"),
    pytest.param(
        card_payload("{kind: cells, cells: '@track', cell_template: dot, x: 5, y: 75, width: 53, height: 5}",
                     "track: [start]"),
        ["g/cards.yaml:9:63: deck cards, card star: cell 1 of 'track': unknown cell type 'start'"],
        id="cells-unknown-type"),
    pytest.param(
        card_payload("{kind: polygon, points: '@shape', x: 5, y: 75, width: 10, height: 10, fill: ink}",
                     "shape: [[0, 0], [10, 0], [5]]"),
        ["g/cards.yaml:9:62: a polygon needs 3 or more points [x, y], in mm from -2,000 to 2,000"],
        id="polygon-point-not-a-pair"),
    pytest.param(
        card_payload("{kind: table, table: '@rows', x: 5, y: 72, width: 53, height: 12, style: body}",
                     "rows: [[1, 2], 3]"),
        ["g/cards.yaml:9:70: a table must be a list of rows (lists)"],
        id="table-row-not-a-list"),
    pytest.param(
        card_payload("{kind: table, table: '@rows', x: 5, y: 72, width: 53, height: 12, style: body}",
                     "rows: [[1, {a: 2}]]"),
        ["g/cards.yaml:9:66: deck cards, card star: 'rows' row 1, cell 2: a table cell is a word, a translation "
         "key or a number, got {'a': 2}"],
        id="table-cell-a-mapping"),
]


@pytest.mark.parametrize(("files", "expected"), PAYLOAD_CASES)
def test_check_reports_bad_payloads(in_tmp: Path, files: dict[str, str], expected: list[str]) -> None:
    make_game(in_tmp, files)
    result = pnp("check", "g")
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == expected, result.output
    assert f"{len(expected)} error(s), 0 warning(s)" in result.output


@pytest.mark.parametrize(("files", "expected"), PAYLOAD_CASES)
def test_bad_payloads_are_found_when_the_game_is_read(in_tmp: Path, files: dict[str, str],
                                                      expected: list[str]) -> None:
    """Reading the game finds them: no layout has run (clean_games then lays out nothing of the game)."""
    problems = Problems()
    assert load_game(make_game(in_tmp, files), problems) is not None
    assert [f"{problem.mark}: {problem.message}" for problem in problems.errors] == expected


def test_good_payloads_check_clean(in_tmp: Path) -> None:
    """The same boxes with well-formed fields: no message (the checks above are about the values)."""
    make_game(in_tmp, {**map_board(NODES, "[{from: a, to: b, length: 2, kind: water, via: [[27, 54]]}]"),
                       **card_payload("{kind: cells, cells: '@track', cell_template: dot, x: 5, y: 75, width: 53, "
                                      "height: 5}", "track: {count: 4, at: {0: {value: 1}, '2': 7}}")})
    result = pnp("check", "g")
    assert result.exit_code == 0, result.output


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from tmp_path so messages show paths such as g/cards.yaml."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_minimal_game_checks_clean(in_tmp: Path) -> None:
    make_game(in_tmp, {})
    result = pnp("check", "g")
    assert result.exit_code == 0, result.output
    assert result.output == "ok (0 warning(s))\n"


@pytest.mark.parametrize(("files", "expected"), CASES)
def test_check_reports_bad_content(in_tmp: Path, files: dict[str, str], expected: list[str]) -> None:
    make_game(in_tmp, files)
    result = pnp("check", "g")
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == expected, result.output
    assert f"{len(expected)} error(s), 0 warning(s)" in result.output


# ------------------------------------------------------------- beyond the table

@pytest.mark.parametrize("word", ["no", "yes", "on", "off", "n", "12:30", "0123"])
def test_yaml_1_1_words_stay_text(in_tmp: Path, word: str) -> None:
    """A translator's `no` (or a time 12:30) is text, not False (or 750)."""
    folder = make_game(in_tmp, edit("i18n/en.yaml", '"Star"', word))
    result = pnp("check", "g")
    assert result.exit_code == 0, result.output
    source = load_game(folder, Problems())
    assert source is not None
    assert source.catalogs["en"].entries["cards.star"].text == word


def test_language_no_is_norwegian(in_tmp: Path) -> None:
    """`languages: [en, no]` and a catalog rooted at `no:` mean Norwegian, not False."""
    make_game(in_tmp, {**edit("game.yaml", "[en]", "[en, no]"),
                       "i18n/no.yaml": EN.replace("en:", "no:", 1).replace('"Star"', "Stjerne")})
    result = pnp("check", "g")
    assert result.exit_code == 0, result.output


def test_unknown_game_is_a_usage_error(in_tmp: Path) -> None:
    result = pnp("check", "nosuchgame")
    assert result.exit_code == 2
    assert ("Error: no game 'nosuchgame': not a folder with game.yaml, nor a game under content/ "
            "(games there: none)") in result.output


def test_build_with_content_error_writes_nothing(in_tmp: Path) -> None:
    make_game(in_tmp, edit("cards.yaml", "count: 2", "cout: 2"))
    earlier = in_tmp / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf"
    earlier.parent.mkdir(parents=True)
    earlier.write_bytes(b"%PDF- a good build from before")
    result = pnp("build", "g", "--out", "out")
    assert result.exit_code == 1, result.output
    assert "g/cards.yaml:8:9: decks[0].cards[0].cout: unknown key" in result.output.splitlines()
    assert "build failed: 1 error(s); nothing was written" in result.output
    assert earlier.read_bytes() == b"%PDF- a good build from before"
    assert [p for p in (in_tmp / "out").rglob("*") if p.is_file()] == [earlier]
