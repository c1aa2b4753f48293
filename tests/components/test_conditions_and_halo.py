"""Boxes shown by a field's value (`when: {'@kind': landmark}`, `unless:`) and text with a halo."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.build import BuildOptions, build, check
from generator.targets import layout_targets, load_games
from generator.components.piece import Shape, TextPlacement
from generator.errors import Problems
from generator.text.fonts import FontLibrary
from tests.pdf_probe import open_pdf

TEMPLATE = """\
size: {width: 63mm, height: 88mm}
palette: {night: "#000000", snow: "#ffffff", red: "#d32f2f"}
styles:
  name: {size: 24pt, color: night, align: center, valign: middle, halo: {color: snow, width: 0.8mm}}
boxes:
  bg: {kind: rect, area: trim, fill: night}
  city: {kind: rect, when: {"@kind": city}, x: 5, y: 5, width: 10, height: 10, fill: red}
  place: {kind: rect, when: {"@kind": [city, lake]}, x: 20, y: 5, width: 10, height: 10, fill: red}
  not_lake: {kind: rect, unless: {"@kind": lake}, x: 35, y: 5, width: 10, height: 10, fill: red}
  numbered: {kind: rect, when: {"@kind": city, "@size": 3}, x: 50, y: 5, width: 10, height: 10, fill: red}
  name: {kind: text, text: "@name", x: 4, y: 30, width: 55, height: 30, style: name}
"""


def make_game(root: Path, template: str = TEMPLATE) -> Path:
    game = root / "content" / "conditions"
    files = {
        "game.yaml": "id: conditions\ntitle: t\nlanguages: [en]\neditions: {standard: {name: t}}\n",
        "i18n/en.yaml": 'en:\n  t: "Conditions"\n  n: {minsk: "MINSK", naroch: "NAROCH", woods: "WOODS"}\n',
        "cards.yaml": textwrap.dedent("""\
            decks:
              - id: places
                name: t
                template: card
                back: back
                cards:
                  - {id: minsk, fields: {name: n.minsk, kind: city, size: 3}}
                  - {id: naroch, fields: {name: n.naroch, kind: lake, size: "3"}}
                  - {id: woods, fields: {name: n.woods}}
            """),
        "templates/card.yaml": template,
        "templates/back.yaml": "size: {width: 63mm, height: 88mm}\nboxes:\n"
                               "  bg: {kind: rect, area: trim, fill: '#000000'}\n",
    }
    for name, text in files.items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_text(text, encoding="utf-8")
    return game


def _red_boxes(game: Path) -> dict[str, list[float]]:
    problems = Problems()
    target, = layout_targets(load_games([game], problems), BuildOptions(), problems, FontLibrary())
    assert not problems.errors, [str(p) for p in problems.errors]
    return {copy.card: sorted(item.x for item in copy.front.items if isinstance(item, Shape) and item.fill == "#d32f2f")
            for copy in target.copies("cards")}


def test_boxes_show_by_field_value_one_of_several_all_fields_and_unless(tmp_path):
    shown = _red_boxes(make_game(tmp_path))
    assert shown == {
        "minsk": [5, 20, 35, 50],     # city; city or lake; not a lake; city of size 3
        "naroch": [20],               # a lake
        "woods": [35],                # no kind at all: only 'unless lake' holds
    }


def test_a_condition_without_at_is_a_located_error(tmp_path):
    game = make_game(tmp_path, TEMPLATE.replace('when: {"@kind": city}', "when: {kind: city}"))
    problems = check([game], BuildOptions())
    message, = [str(problem) for problem in problems.errors]
    assert "card.yaml:7" in message and "a condition names fields as '@kind', not 'kind'" in message


def test_halo_outlines_the_letters_in_its_colour(tmp_path):
    """Black letters on a black card: only the white halo makes them visible, right around each letter."""
    game = make_game(tmp_path)
    problems = Problems()
    target, = layout_targets(load_games([game], problems), BuildOptions(), problems, FontLibrary())
    runs = [run for item in target.copies("cards")[0].front.items if isinstance(item, TextPlacement)
            for run in item.runs]
    assert runs and all(run.halo == ("#ffffff", 0.8) for run in runs)
    build([game], BuildOptions(out=tmp_path / "out", papers=("a4",), kit=False, print_shop_png=False))
    page = open_pdf(tmp_path / "out" / "conditions" / "standard" / "en" / "print-shop" / "cards.pdf")[0]
    image = page.render(scale=300 / 72).to_pil().convert("L")
    def px(mm: float) -> int:
        return round(mm / 25.4 * 300)
    band = image.crop((px(3 + 4), px(3 + 30), px(3 + 59), px(3 + 60)))     # the name box, bleed 3 mm
    light = sum(band.histogram()[201:])
    assert light > 0.05 * band.width * band.height                          # the halo shows
    outside = image.crop((px(3 + 4), px(3 + 65), px(3 + 59), px(3 + 80)))   # under the name: no halo
    assert outside.getextrema()[1] < 60
    plain = make_game(tmp_path / "plain", TEMPLATE.replace(", halo: {color: snow, width: 0.8mm}", ""))
    build([plain], BuildOptions(out=tmp_path / "plain-out", papers=("a4",), kit=False, print_shop_png=False))
    plain_page = open_pdf(tmp_path / "plain-out" / "conditions" / "standard" / "en" / "print-shop" / "cards.pdf")[0]
    plain_band = plain_page.render(scale=300 / 72).to_pil().convert("L").crop((px(7), px(33), px(62), px(63)))
    assert plain_band.getextrema()[1] < 60                                   # without it: black on black


@pytest.mark.parametrize("value, expected", [(3, True), ("3", True), (True, False), (None, False)])
def test_condition_values_compare_as_written(value, expected):
    from generator.components.faces import _same
    assert _same(value, 3) is expected
