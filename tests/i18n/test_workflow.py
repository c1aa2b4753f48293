"""The translator's workflow on a small game of the real workflow's shape: status, stubs, fallback,
pseudo-locale.

The game (GAME_FILES) has what the workflow reads in a shipped game — a source language that is not
English (bg, then en), nested sections, a plural text, a card only one edition has and a box its source
text just fits — in 13 keys instead of christmas-round's 293: `pnp i18n status` lays out every file of a
game to count the engine's words it prints, a second a call for christmas-round, a tenth of that here.
"""

from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.i18n.pseudo import _KEEP, pseudo_text

GAME = "wf"

_TEMPLATE_HEAD = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  body: {font: body, size: 10pt, min_size: 8pt, color: ink}
  small: {font: body, size: 8pt, min_size: 8pt, color: ink}
palette:
  ink: "#222222"
boxes:
"""

GAME_FILES = {
    "game.yaml": """\
id: wf
title: game.title
languages: [bg, en]
editions:
  free: {name: game.free}
  full: {name: game.full}
fonts:
  body: [nunito, inter]
""",
    "cards.yaml": """\
decks:
  - id: gifts
    name: deck.gifts
    template: gift
    back: back
    cards:
      - {id: teddy, count: 2, fields: {name: gifts.teddy.name, rule: gifts.hint, art: art/star.svg}}
  - id: helpers
    name: deck.helpers
    template: helper
    back: back
    cards:
      - {id: bear, count: 1, fields: {name: team.title, rule: team.intro, timing: helpers.timing.snowflakes,
                                      snowflakes: 3}}
  - id: surprises
    name: deck.surprises
    template: surprise
    back: back
    cards:
      - {id: tailwind, count: {full: 1}, fields: {name: surprises.tailwind}}
""",
    "templates/gift.yaml": _TEMPLATE_HEAD + """\
  art: {kind: art, art: "@art", x: 10, y: 10, width: 43, height: 30}
  name: {kind: text, text: "@name", x: 5, y: 45, width: 53, height: 10, style: body}
  rule: {kind: text, text: "@rule", x: 5, y: 58, width: 53, height: 20, style: body}
""",
    "templates/helper.yaml": _TEMPLATE_HEAD + """\
  name: {kind: text, text: "@name", x: 5, y: 10, width: 53, height: 10, style: body}
  rule: {kind: text, text: "@rule", x: 5, y: 25, width: 53, height: 20, style: body}
  timing: {kind: text, text: "@timing", count: "@snowflakes", x: 5, y: 50, width: 53, height: 10, style: body}
""",
    # the reminder's one line fits the source text (and English) in 33 mm, not a text 40 % longer
    "templates/surprise.yaml": _TEMPLATE_HEAD + """\
  name: {kind: text, text: "@name", x: 5, y: 10, width: 53, height: 10, style: body}
  reminder: {kind: text, text: surprises.reminder, x: 5.5, y: 70, width: 33, height: 4, style: small}
""",
    "templates/back.yaml": """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
boxes:
  name: {kind: text, text: "@deck", x: 5, y: 40, width: 53, height: 10}
""",
    "art/star.svg": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
                     '<rect width="10" height="10" fill="#c00"/></svg>\n'),
    "i18n/bg.yaml": """\
bg:
  game:
    title: "Работилница"
    free: "Безплатно"
    full: "Пълно"
  deck:
    gifts: "Подаръци"
    helpers: "Помощници"
    surprises: "Изненади"
  gifts:
    teddy:
      name: "Плюшено мече"
    hint: "Доставете в къща,\\nкоято иска този подарък."
  team:
    title: "Отбор"
    intro: "Играйте заедно."
  helpers:
    timing:
      snowflakes:
        one: "{count} снежинка"
        other: "{count} снежинки"
  surprises:
    tailwind: "Попътен вятър"
    reminder: "Прочетете я на глас."
""",
    "i18n/en.yaml": """\
en:
  game:
    title: "Workshop"
    free: "Free"
    full: "Full"
  deck:
    gifts: "Gifts"
    helpers: "Helpers"
    surprises: "Surprises"
  gifts:
    teddy:
      name: "Teddy bear"
    hint: "Deliver to a house\\nthat wants this gift."
  team:
    title: "Team"
    intro: "Play together."
  helpers:
    timing:
      snowflakes:
        one: "{count} snowflake"
        other: "{count} snowflakes"
  surprises:
    tailwind: "Tailwind"
    reminder: "Read it aloud."
""",
}


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    game = tmp_path / "content" / GAME
    for name, text in GAME_FILES.items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return game


def pnp(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


def test_status_counts_translated_missing_and_unused_keys(workspace):
    clean = pnp("i18n", "status", GAME)
    assert clean.exit_code == 0, clean.output
    assert "wf                   bg            13/13        0       0" in clean.output
    assert "wf                   en            13/13        0       0" in clean.output
    en = workspace / "i18n" / "en.yaml"
    text = en.read_text()
    en.write_text(text.replace('    teddy:\n      name: "Teddy bear"\n', "    teddy:\n      name: \"\"\n")
                  .replace('  deck:\n', '  deck:\n    old_name: "Leftover"\n'))
    result = pnp("i18n", "status", GAME)
    assert result.exit_code == 1
    assert "wf                   en            12/13        1       1" in result.output
    assert "gifts.teddy.name" in result.output and "deck.old_name" in result.output


def test_a_new_language_from_a_stub_with_plural_forms_for_it(workspace):
    result = pnp("i18n", "stub", GAME, "--lang", "ru")
    assert result.exit_code == 0 and "13 key(s) added" in result.output
    data = yaml.safe_load((workspace / "i18n" / "ru.yaml").read_text())["ru"]
    assert data["gifts"]["teddy"]["name"] == ""
    assert set(data["helpers"]["timing"]["snowflakes"]) == {"one", "few", "many", "other"}
    assert '# bg: Плюшено мече' in (workspace / "i18n" / "ru.yaml").read_text()
    game = workspace / "game.yaml"
    game.write_text(game.read_text().replace("languages: [bg, en]", "languages: [bg, en, ru]"))
    check = pnp("check", GAME, "--lang", "ru", "--edition", "free")
    assert check.exit_code == 1
    assert "missing translation key 'gifts.teddy.name' for language 'ru' (in content/wf/i18n/ru.yaml)" \
        in check.output
    built = pnp("build", GAME, "--lang", "ru", "--edition", "free", "--paper", "a4", "--only", "cards",
                "--allow-fallback")       # (the cards are where the key is printed; the other outputs add nothing)
    assert built.exit_code == 0, built.output
    assert "warning: missing translation key 'gifts.teddy.name' for language 'ru'" in built.output
    assert (workspace.parent.parent / "output" / GAME / "free" / "ru" / "a4" / "cards.pdf").exists()


def test_stub_completes_a_catalog_without_touching_what_is_there(workspace):
    pnp("i18n", "stub", GAME, "--lang", "ru")
    ru = workspace / "i18n" / "ru.yaml"
    text = ru.read_text()
    text = text.replace('    teddy:\n      name: ""  # bg: Плюшено мече\n',
                        '    teddy:\n      # translator: a soft toy bear\n      name: "Плюшевый мишка"\n')
    # a translator's file that lost a few keys, one of a whole section
    text = text.replace('    hint: ""  # bg: Доставете в къща,\\nкоято иска този подарък.\n', "")
    start = text.index("  team:\n")
    end = text.index("  helpers:\n")
    text = text[:start] + text[end:]
    ru.write_text(text)
    result = pnp("i18n", "stub", GAME, "--lang", "ru")
    assert result.exit_code == 0 and "3 key(s) added" in result.output, result.output
    after = ru.read_text()
    assert '      # translator: a soft toy bear\n      name: "Плюшевый мишка"\n' in after
    data = yaml.safe_load(after)["ru"]
    assert data["gifts"]["teddy"]["name"] == "Плюшевый мишка"
    assert data["gifts"]["hint"] == ""
    assert set(data["team"]) == {"title", "intro"}
    again = pnp("i18n", "stub", GAME, "--lang", "ru")
    assert "0 key(s) added" in again.output and ru.read_text() == after


def test_a_plural_missing_a_form_the_language_needs_is_an_error(workspace):
    pnp("i18n", "stub", GAME, "--lang", "ru")
    ru = workspace / "i18n" / "ru.yaml"
    ru.write_text(ru.read_text().replace('        few: ""  # bg: {count} снежинки\n', ""))
    game = workspace / "game.yaml"
    game.write_text(game.read_text().replace("languages: [bg, en]", "languages: [bg, en, ru]"))
    result = pnp("check", GAME, "--lang", "ru")
    assert "helpers.timing.snowflakes: plural forms missing for 'ru': few" in result.output


def test_pseudo_locale_keeps_markup_and_grows_the_text():
    text = "Move **3** spaces, {count} :star:\n- one item"
    pseudo = pseudo_text(text)
    assert "**3**" in pseudo and "{count}" in pseudo and ":star:" in pseudo and "\n- [" not in pseudo
    assert pseudo.startswith("[Móvé") and pseudo.endswith("]")
    def visible(words):
        return len(_KEEP.sub("", words))
    assert visible(pseudo) >= 1.35 * visible(text)       # about +40 % for the eye, markup aside


def test_pseudo_locale_shows_the_boxes_a_long_translation_would_overflow(workspace):
    check = pnp("check", GAME, "--lang", "qps-ploc", "--edition", "full")
    assert check.exit_code == 1
    assert "language qps-ploc, deck surprises, card tailwind, key 'surprises.reminder'" in check.output
    build = pnp("build", GAME, "--lang", "qps-ploc", "--edition", "full", "--paper", "a4", "--only", "cards")
    assert build.exit_code == 0, build.output
    assert "warning: text does not fit" in build.output
    assert (workspace.parent.parent / "output" / GAME / "full" / "qps-ploc" / "a4" / "cards.pdf").exists()
    assert pnp("check", GAME).exit_code == 0       # real languages check clean
