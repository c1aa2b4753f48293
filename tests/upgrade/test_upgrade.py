"""`pnp upgrade`: a tiny game written in format 1 (no format line, ':coin:' icon markup, 5.5 pt labels,
a key of another box kind, a min_size above its size) is checked, upgraded, checked and built as a
user would, and the files' text, the messages, the exit status and the PDF's text are read back."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner, Result

from generator.cli import main
from generator.upgrade import upgrade_command

GAME = """\
# yaml-language-server: $schema=../schemas/game.schema.json
id: g                      # the folder's name
title: game.title
languages: [en]
editions:
  standard: {name: game.edition}
icons: {coin: art/coin.svg}
"""

CARDS = """\
decks:
  - id: market
    name: deck.market
    template: card
    back: back
    cards:
      - {id: buy, fields: {rule: rules.buy, label: Pay :coin:.}}
      - id: sell
        fields: {rule: rules.sell, label: "Keep :coin:"}
"""

CARD = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  rule: {size: 9pt, min_size: 7pt}
  label: {size: 5.5pt}
  tiny: {size: 8pt, min_size: 12pt}
boxes:
  rule: {kind: text, text: "@rule", x: 6, y: 30, width: 51, height: 30, style: rule, fill: "#ff0000"}
  label:
    kind: text
    literal: "@label"
    x: 6
    y: 70
    width: 51
    height: 6
    style: label
    radius: 2          # a rect's key: format 1 took it and drew nothing
  tiny: {kind: text, literal: ":coin:, for x", x: 6, y: 78, width: 40, height: 6, style: tiny}
"""

BACK = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
boxes:
  fill: {kind: rect, area: bleed, fill: "#203040"}
"""

EN = ("en:\r\n"
      "  game:\r\n"
      "    title: Market   # the box title\r\n"
      "    edition: Standard\r\n"
      "  deck:\r\n"
      "    market: Market\r\n"
      "  rules:\r\n"
      "    buy: Pay 2 :coin:, then buy a card\r\n"
      "    sell: 'Gain 1 :coin:, or 2 :coin: at 10:30:00'\r\n")

COIN = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
        '<circle cx="5" cy="5" r="5" fill="#d4a017"/></svg>\n')

# the same card without format 1's two mistakes that format 2 refuses even unupgraded (a key of another
# box kind, a min_size above the size): what is left, the markup and the small labels, only warns
MARKUP_AND_SMALL_TEXT = (CARD.replace(', fill: "#ff0000"', "").replace("    radius: 2 ", "    # radius: 2 ")
                         .replace("min_size: 12pt", "min_size: 8pt"))

FILES = {"game.yaml": GAME, "cards.yaml": CARDS, "templates/card.yaml": CARD, "templates/back.yaml": BACK,
         "i18n/en.yaml": EN, "art/coin.svg": COIN}


@pytest.fixture
def old_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The format-1 game in tmp_path/g, outside the repository; commands run from tmp_path."""
    for name, text in FILES.items():
        path = tmp_path / "g" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "g"


def pnp(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


def upgrade(*args: str) -> Result:
    result = CliRunner().invoke(upgrade_command, list(args))
    assert "Traceback" not in result.output, result.output
    return result


def read(folder: Path, name: str) -> str:
    return (folder / name).read_bytes().decode("utf-8")


def test_an_old_game_checks_with_warnings_that_name_the_fix(old_game: Path) -> None:
    (old_game / "templates" / "card.yaml").write_text(MARKUP_AND_SMALL_TEXT, encoding="utf-8")
    result = pnp("check", "g")
    assert result.exit_code == 0, result.output     # a warning, not a stop
    assert "g/i18n/en.yaml:8:10: warning: :coin: in 'rules.buy' (en) is the icon markup of game format 1, " \
           "printed as the icon" in result.output
    assert "hint: write {icon:coin}, or run `pnp upgrade g` to rewrite the game in format 2" in result.output
    assert "g/cards.yaml:7:52: warning: ':coin:' in '@label' (en) is the icon markup of game format 1" \
        in result.output                                             # a field a literal box prints
    assert "g/templates/card.yaml:19:9: warning: ':coin:' in ':coin:, for x' (en) is the icon markup" \
        in result.output                                             # a literal written in the template
    assert "set at 5.5 pt (style 'label' of template 'card'): game format 1 had no 6 pt floor" in result.output


def test_upgrade_rewrites_the_files_as_text_and_says_each_change(old_game: Path) -> None:
    result = upgrade("g")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "g/game.yaml:2: (none) → format: 2  (the game is written in format 2 now)" in lines
    assert any(line.startswith("g/game.yaml:3: (none) → min_text_size: 5.5pt") for line in lines), lines
    assert "g/i18n/en.yaml:8: :coin: → {icon:coin}  (the icon markup of format 1)" in lines
    assert sum(line.startswith("g/i18n/en.yaml:9: :coin: → {icon:coin}") for line in lines) == 2
    assert "g/cards.yaml:7: :coin: → {icon:coin}  (the icon markup of format 1)" in lines
    assert 'g/cards.yaml:7: Pay :coin:. → "Pay {icon:coin}."  (quoted: YAML reads a plain value holding { ' \
           'otherwise)' in lines
    assert any(line.startswith('g/templates/card.yaml:9: fill: "#ff0000" → (removed)') for line in lines), lines
    assert any(line.startswith("g/templates/card.yaml:18: radius: 2 → (removed)") for line in lines), lines
    assert any(line.startswith("g/templates/card.yaml:7: 12pt → 8pt") for line in lines), lines
    assert lines[-1] == "upgraded g from format 1 to 2: 12 change(s) in 4 file(s)", lines

    assert read(old_game, "game.yaml") == GAME.replace(
        "id: g ", "format: 2\nmin_text_size: 5.5pt   # pnp upgrade: the game's smallest text (format 1 had no "
                  "6 pt floor)\nid: g ")
    # the catalog keeps its CRLF line endings, comment and quoting; '10:30:00' is not an icon
    assert read(old_game, "i18n/en.yaml") == EN.replace(":coin:", "{icon:coin}")
    assert "10:30:00" in read(old_game, "i18n/en.yaml")
    card = read(old_game, "templates/card.yaml")
    assert card == (CARD.replace(', fill: "#ff0000"}', "}")
                    .replace("    radius: 2          # a rect's key: format 1 took it and drew nothing\n", "")
                    .replace('":coin:, for x"', '"{icon:coin}, for x"')
                    .replace("min_size: 12pt", "min_size: 8pt"))
    # a plain value inside a {...} mapping would not read back with a brace in it: it is quoted
    assert read(old_game, "cards.yaml") == CARDS.replace("label: Pay :coin:.}", 'label: "Pay {icon:coin}."}') \
        .replace('"Keep :coin:"', '"Keep {icon:coin}"')


def test_after_the_upgrade_check_has_no_markup_message_and_the_build_prints_the_words(old_game: Path) -> None:
    assert upgrade("g").exit_code == 0
    result = pnp("check", "g")
    assert result.exit_code == 0, result.output
    assert "icon markup" not in result.output and "format 1" not in result.output
    # the labels stay at 5.5 pt, as the game chose: said on every check
    assert "set at 5.5 pt (style 'label' of template 'card'), as game.yaml min_text_size 5.5pt allows" in result.output

    build = pnp("build", "g", "--paper", "a4", "--out", "out", "-q")
    assert build.exit_code == 0, build.output
    pdf = pdfium.PdfDocument(str(old_game.parent / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf"))
    text = pdf[0].get_textpage().get_text_range()
    assert "Pay 2" in text and "then buy a card" in text and "coin" not in text and "{" not in text


def test_a_second_upgrade_changes_nothing(old_game: Path) -> None:
    assert upgrade("g").exit_code == 0
    before = {path: path.read_bytes() for path in old_game.rglob("*") if path.is_file()}
    again = upgrade("g")
    assert again.exit_code == 0
    assert again.output == "g: written in format 2, this pnp's: nothing to upgrade\n"
    assert {path: path.read_bytes() for path in old_game.rglob("*") if path.is_file()} == before


def test_dry_run_lists_the_changes_and_writes_nothing(old_game: Path) -> None:
    before = {path: path.read_bytes() for path in old_game.rglob("*") if path.is_file()}
    result = upgrade("g", "--dry-run")
    assert result.exit_code == 0
    assert "g/i18n/en.yaml:8: :coin: → {icon:coin}  (the icon markup of format 1)" in result.output
    assert result.output.splitlines()[-1] == \
        "would upgrade g from format 1 to 2: 12 change(s) in 4 file(s) (--dry-run: nothing written)"
    assert {path: path.read_bytes() for path in old_game.rglob("*") if path.is_file()} == before


def test_a_file_it_cannot_parse_stops_it_before_anything_is_written(old_game: Path) -> None:
    (old_game / "i18n" / "en.yaml").write_text("en:\n  rules:\n    buy: [Pay :coin:\n", encoding="utf-8")
    before = {path: path.read_bytes() for path in old_game.rglob("*") if path.is_file()}
    result = upgrade("g")
    assert result.exit_code == 1
    assert result.output.startswith("g/i18n/en.yaml:4:1: not valid YAML: "), result.output
    assert "nothing written" in result.output
    assert {path: path.read_bytes() for path in old_game.rglob("*") if path.is_file()} == before


def test_a_game_named_that_is_not_there_is_a_usage_error(old_game: Path) -> None:
    result = upgrade("nothere")
    assert result.exit_code == 2 and "no game 'nothere'" in result.output


def test_a_current_game_with_the_former_markup_is_an_error(old_game: Path) -> None:
    (old_game / "game.yaml").write_text("format: 2\n" + GAME, encoding="utf-8")
    (old_game / "templates" / "card.yaml").write_text(MARKUP_AND_SMALL_TEXT.replace("size: 5.5pt", "size: 6pt"),
                                                      encoding="utf-8")
    result = pnp("check", "g")
    assert result.exit_code == 1
    assert "g/i18n/en.yaml:8:10: ':coin:' in 'rules.buy' (en) is the former icon markup and would print as " \
           "written in a game of format 2" in result.output


def test_min_text_size_is_a_font_size_from_4_to_6_pt(old_game: Path) -> None:
    (old_game / "game.yaml").write_text("format: 2\nmin_text_size: 3pt\n" + GAME, encoding="utf-8")
    result = pnp("check", "g")
    assert result.exit_code == 1
    assert "g/game.yaml:2:16: min_text_size: expected a font size from 4 to 6 pt (it lowers the 6 pt floor of " \
           "game text), got 3 pt" in result.output
    assert "write a size from 4pt to 6pt, such as 5pt, or leave it out for the default" in result.output


def test_a_csv_sheets_text_columns_are_rewritten_too(old_game: Path) -> None:
    (old_game / "cards.yaml").write_text(
        "decks:\n  - {id: market, name: deck.market, template: card, back: back, cards_from: data/market.csv}\n",
        encoding="utf-8")
    sheet = "id,rule,label@en\r\nbuy,rules.buy,Pay :coin:\r\nsell,rules.sell,\"Keep :coin:, or 10:30:\"\r\n"
    (old_game / "data").mkdir()
    (old_game / "data" / "market.csv").write_bytes(sheet.encode("utf-8"))
    result = upgrade("g")
    assert result.exit_code == 0, result.output
    assert sum(line.startswith("g/data/market.csv:") for line in result.output.splitlines()) == 2, result.output
    assert (old_game / "data" / "market.csv").read_bytes().decode("utf-8") == sheet.replace(":coin:", "{icon:coin}")


def test_keys_of_another_kind_leave_a_flow_box_from_its_start_middle_or_end(old_game: Path) -> None:
    back = ("size: {width: 63mm, height: 88mm}\n"
            "boxes:\n"
            "  a: {style: x, kind: rect, area: bleed, fill: \"#203040\"}\n"
            "  b: {kind: rect, area: trim, padding: 1, stroke: \"#000000\"}\n"
            "  c: {kind: rect, area: safe, text: t.x}   # a comment stays\n"
            "  d:\n"
            "    kind: ellipse\n"
            "    network:\n"
            "      nodes: '@n'\n"
            "    area: trim\n")
    (old_game / "templates" / "back.yaml").write_text(back, encoding="utf-8")
    assert upgrade("g").exit_code == 0
    assert read(old_game, "templates/back.yaml") == (
        "size: {width: 63mm, height: 88mm}\n"
        "boxes:\n"
        "  a: {kind: rect, area: bleed, fill: \"#203040\"}\n"
        "  b: {kind: rect, area: trim, stroke: \"#000000\"}\n"
        "  c: {kind: rect, area: safe}   # a comment stays\n"
        "  d:\n"
        "    kind: ellipse\n"
        "    area: trim\n")
