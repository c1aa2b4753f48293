"""game.yaml `fields`: data every component sees (a map outline the board and the cards both draw)."""

from __future__ import annotations

from generator.build import BuildOptions, check
from generator.targets import layout_targets, load_games
from generator.components.piece import Shape
from generator.errors import Problems
from generator.text.fonts import FontLibrary
from tests.components.test_conditions_and_halo import TEMPLATE, make_game

GAME = "id: conditions\ntitle: t\nlanguages: [en]\neditions: {standard: {name: t}}\n"


def _fills(game) -> dict[str, list[str]]:
    problems = Problems()
    target, = layout_targets(load_games([game], problems), BuildOptions(), problems, FontLibrary())
    assert not problems.errors, [str(p) for p in problems.errors]
    return {copy.card: [item.fill for item in copy.front.items if isinstance(item, Shape)]
            for copy in target.copies("cards")}


def test_cards_see_the_games_fields_and_their_own_fields_win(tmp_path):
    template = TEMPLATE.replace("bg: {kind: rect, area: trim, fill: night}",
                                'bg: {kind: rect, area: trim, fill: "@ground"}')
    game = make_game(tmp_path, template)
    (game / "game.yaml").write_text(GAME + "fields: {ground: red}\n")
    cards = (game / "cards.yaml").read_text().replace("{name: n.woods}", "{name: n.woods, ground: snow}")
    (game / "cards.yaml").write_text(cards)
    fills = _fills(game)
    assert fills["minsk"][0] == "#d32f2f" and fills["naroch"][0] == "#d32f2f"   # from game.yaml
    assert fills["woods"][0] == "#ffffff"                                       # its own field


def test_a_bad_game_field_is_reported_where_game_yaml_writes_it(tmp_path):
    template = TEMPLATE.replace("bg: {kind: rect, area: trim, fill: night}",
                                'bg: {kind: rect, area: trim, fill: "@ground"}')
    game = make_game(tmp_path, template)
    (game / "game.yaml").write_text(GAME + "fields:\n  ground: '#zzzzzz'\n")
    message, = {str(problem) for problem in check([game], BuildOptions()).errors}
    assert "game.yaml:6" in message and "'#zzzzzz' is not a colour" in message
