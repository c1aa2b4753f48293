"""The colour-vision check of `pnp check --preflight`: pieces that differ only by colour, seen as the three
dichromacies see them, reported at the piece where it is written — and not reported once something else
tells them apart, or once game.yaml defends them.

Each case is a tiny deck of two cards drawn from one template whose only difference is a colour (a field,
or a recoloured copy of one SVG); the built cards are then preflighted as a user would.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.colour_vision import TOO_CLOSE, difference
from tests.test_content_errors import BACK_TEMPLATE, EN, GAME, make_game, pnp, problem_lines

CARDS = """\
decks:
  - id: cards
    name: deck.cards
    template: card
    back: back
    cards:
      - {id: first, fields: {colour: "FIRST", name: game.title}}
      - {id: second, fields: {colour: "SECOND", name: cards.star}}
"""

PLAIN = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
boxes:
  ground: {kind: rect, area: bleed, fill: "#ffffff"}
  disc: {kind: ellipse, x: 16, y: 24, width: 31, height: 31, fill: "@colour"}
"""

NAMED = PLAIN + '  name: {kind: text, text: "@name", x: 6, y: 64, width: 51, height: 10}\n'

RED, GREEN, BLUE, ORANGE = "#d62828", "#2e9e44", "#1f5fbf", "#f07d16"


def _preflight(tmp_path: Path, files: dict[str, str]) -> tuple[int, list[str], str]:
    folder = make_game(tmp_path, files)
    out = tmp_path / "out"
    built = pnp("build", str(folder), "--only", "cards", "--paper", "a4", "-q", "--out", str(out))
    assert built.exit_code == 0, built.output
    result = pnp("check", str(folder), "--preflight", "--paper", "a4", "--out", str(out))
    return result.exit_code, problem_lines(result.output), result.output


def _deck(first: str, second: str) -> dict[str, str]:
    return {"cards.yaml": CARDS.replace("FIRST", first).replace("SECOND", second)}


def test_the_views_see_red_and_green_apart_only_with_normal_vision() -> None:
    assert difference(RED, GREEN, "normal vision") > 5 * TOO_CLOSE
    assert difference(RED, GREEN, "deuteranopia") < TOO_CLOSE
    assert all(difference(BLUE, ORANGE, view) > 3 * TOO_CLOSE
               for view in ("normal vision", "protanopia", "deuteranopia", "tritanopia"))


def test_two_cards_that_only_red_and_green_tell_apart_are_a_warning_at_the_first_card(tmp_path: Path) -> None:
    code, lines, output = _preflight(tmp_path, {**_deck(RED, GREEN), "templates/card.yaml": PLAIN})
    warned = [line for line in lines if "differ only by colour" in line]
    assert len(warned) == 1, output
    cards = tmp_path / "g" / "cards.yaml"
    assert warned[0].startswith(f"{cards}:7:9: warning: card set 'cards': 'first' and 'second' differ only by "
                                "colour (template 'card'), and deuteranopia sees #d62828 and #2e9e44 ΔE00 ")
    assert "told_apart" in output                   # the hint says how to defend a pair
    assert code == 0                                # a warning: the files themselves are sound
    assert "1 warning(s) of pieces only colour tells apart, 0 pair(s) accepted" in output


def test_colours_every_eye_tells_apart_are_not_reported(tmp_path: Path) -> None:
    _, lines, output = _preflight(tmp_path, {**_deck(BLUE, ORANGE), "templates/card.yaml": PLAIN})
    assert not [line for line in lines if "differ only by colour" in line], output


def test_a_printed_name_tells_the_cards_apart(tmp_path: Path) -> None:
    _, lines, output = _preflight(tmp_path, {**_deck(RED, GREEN), "templates/card.yaml": NAMED})
    assert not [line for line in lines if "differ only by colour" in line], output
    assert "0 warning(s) of pieces only colour tells apart" in output


def test_recoloured_copies_of_one_drawing_differ_only_by_colour(tmp_path: Path) -> None:
    drawing = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
               '<path d="M5 0 L10 10 L0 10 Z" fill="{}" stroke="#000000"/></svg>\n')
    template = PLAIN.replace('disc: {kind: ellipse', 'disc: {kind: art, art: "@colour"').replace(
        ', fill: "@colour"}', "}")
    files = {**_deck("art/red.svg", "art/green.svg"), "templates/card.yaml": template,
             "art/red.svg": drawing.format(RED), "art/green.svg": drawing.format(GREEN)}
    _, lines, output = _preflight(tmp_path, files)
    assert len([line for line in lines if "differ only by colour" in line and "deuteranopia" in line]) == 1, output
    # another drawing is another piece, whatever its colours
    files["art/green.svg"] = drawing.replace("M5 0", "M0 0").format(GREEN)
    _, lines, output = _preflight(tmp_path / "other", files)
    assert not [line for line in lines if "differ only by colour" in line], output


def test_a_pair_game_yaml_defends_is_said_as_accepted_with_its_reason(tmp_path: Path) -> None:
    defended = GAME + 'told_apart:\n  - {set: cards, because: "the red card is dealt face down"}\n'
    _, lines, output = _preflight(tmp_path, {**_deck(RED, GREEN), "templates/card.yaml": PLAIN,
                                             "game.yaml": defended})
    assert not [line for line in lines if "warning" in line and "differ only by colour" in line], output
    accepted = [line for line in output.splitlines() if ": accepted: " in line]
    assert len(accepted) == 1 and accepted[0].endswith("told apart: the red card is dealt face down"), output
    assert "0 warning(s) of pieces only colour tells apart, 1 pair(s) accepted" in output


@pytest.mark.parametrize("entry, message", [
    ('{set: pawns, because: "x"}', "told_apart names set 'pawns', which this edition does not have"),
])
def test_a_defence_of_nothing_is_a_located_warning(tmp_path: Path, entry: str, message: str) -> None:
    _, lines, output = _preflight(tmp_path, {**_deck(RED, GREEN), "templates/card.yaml": PLAIN,
                                             "game.yaml": GAME + f"told_apart:\n  - {entry}\n"})
    game = tmp_path / "g" / "game.yaml"
    assert f"{game}:9:5: warning: {message}" in lines, output


@pytest.mark.parametrize("entry, message", [
    ('{because: "x"}', "told_apart[0]: name one set or one board"),
    ('{set: cards, board: b, because: "x"}', "told_apart[0]: name one set or one board"),
    ("{set: cards}", "told_apart[0].because: required key is missing"),
])
def test_a_defence_must_name_one_thing_and_why(tmp_path: Path, entry: str, message: str) -> None:
    folder = make_game(tmp_path, {"game.yaml": GAME + f"told_apart:\n  - {entry}\n", **_deck(RED, GREEN),
                                  "templates/card.yaml": PLAIN})
    result = pnp("check", str(folder))
    assert result.exit_code == 1
    assert any(line.startswith(f"{folder / 'game.yaml'}:9:") and message in line
               for line in problem_lines(result.output)), result.output


def test_the_back_and_catalog_are_the_minimal_games() -> None:      # (what the cases above build on)
    assert "deck.cards" in CARDS and "cards:" in EN and "@deck" in BACK_TEMPLATE


BOARD = """\
boards:
  - id: main
    name: game.title
    template: board
    fields: {spaces: [red, green, red, green]}
    cell_types:
      red: {tint: "#d62828"}
      green: {tint: "#2e9e44"}
"""

BOARD_TEMPLATE = """\
size: {width: 150mm, height: 60mm}
boxes:
  track: {kind: cells, cells: "@spaces", cell_template: space, path: row, x: 10, y: 10, width: 130, height: 30}
"""

SPACE_TEMPLATE = """\
size: {width: 30mm, height: 30mm}
boxes:
  ground: {kind: rect, area: trim, fill: "@tint", stroke: "#222222"}
"""


def _board_preflight(tmp_path: Path, game: str = GAME) -> tuple[list[str], str]:
    folder = make_game(tmp_path, {"board.yaml": BOARD, "templates/board.yaml": BOARD_TEMPLATE,
                                  "templates/space.yaml": SPACE_TEMPLATE, "game.yaml": game})
    out = tmp_path / "out"
    built = pnp("build", str(folder), "--only", "board", "--paper", "a4", "-q", "--out", str(out))
    assert built.exit_code == 0, built.output
    result = pnp("check", str(folder), "--preflight", "--paper", "a4", "--out", str(out))
    return problem_lines(result.output), result.output


def test_spaces_of_a_board_that_only_colour_tells_apart_are_a_warning_at_the_board(tmp_path: Path) -> None:
    lines, output = _board_preflight(tmp_path)
    board = tmp_path / "g" / "board.yaml"
    assert [line for line in lines if "differ only by colour" in line] == [
        f"{board}:2:5: warning: board 'main', cells box 'track': 'track.1' and 'track.2' differ only by colour "
        "(template 'board'), and deuteranopia sees #d62828 and #2e9e44 "
        "ΔE00 6.8 apart (less than 10)"], output


def test_a_board_game_yaml_defends_is_accepted(tmp_path: Path) -> None:
    lines, output = _board_preflight(tmp_path, GAME + 'told_apart:\n  - {board: main, because: "sides"}\n')
    assert not [line for line in lines if "warning" in line and "differ only by colour" in line], output
    assert "1 pair(s) accepted" in output
