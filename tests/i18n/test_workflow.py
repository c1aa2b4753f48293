"""The translator's workflow on a copy of the real game: status, stubs, fallback, pseudo-locale."""

from __future__ import annotations

import shutil

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.i18n.pseudo import _KEEP, pseudo_text
from tests.conftest import CONTENT

GAME = "christmas-round"


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    shutil.copytree(CONTENT / GAME, tmp_path / "content" / GAME)
    shutil.copytree(CONTENT.parent / "templates", tmp_path / "templates")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "content" / GAME


def pnp(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


def test_status_counts_translated_missing_and_unused_keys(workspace):
    clean = pnp("i18n", "status", GAME)
    assert clean.exit_code == 0
    assert "christmas-round      en          293/293        0       0" in clean.output
    en = workspace / "i18n" / "en.yaml"
    text = en.read_text()
    en.write_text(text.replace('    teddy:\n      name: "Teddy bear"\n', "    teddy:\n      name: \"\"\n")
                  .replace('  deck:\n', '  deck:\n    old_name: "Leftover"\n'))
    result = pnp("i18n", "status", GAME)
    assert result.exit_code == 1
    assert "christmas-round      en          292/293        1       1" in result.output
    assert "gifts.teddy.name" in result.output and "deck.old_name" in result.output


def test_a_new_language_from_a_stub_with_plural_forms_for_it(workspace):
    result = pnp("i18n", "stub", GAME, "--lang", "ru")
    assert result.exit_code == 0 and "293 key(s) added" in result.output
    data = yaml.safe_load((workspace / "i18n" / "ru.yaml").read_text())["ru"]
    assert data["gifts"]["teddy"]["name"] == ""
    assert set(data["helpers"]["timing"]["snowflakes"]) == {"one", "few", "many", "other"}
    assert '# bg: Плюшено мече' in (workspace / "i18n" / "ru.yaml").read_text()
    game = workspace / "game.yaml"
    game.write_text(game.read_text().replace("languages: [bg, en]", "languages: [bg, en, ru]"))
    check = pnp("check", GAME, "--lang", "ru", "--edition", "free")
    assert check.exit_code == 1
    assert "missing translation key 'gifts.teddy.name' for language 'ru' (in content/christmas-round/i18n/ru.yaml)" \
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
    text = text.replace('    hint: ""  # bg: Доставете в {icon:house} къща,\\nкоято иска този подарък.\n', "")
    start = text.index("  team:\n")
    end = text.index("  board:\n")
    text = text[:start] + text[end:]
    ru.write_text(text)
    result = pnp("i18n", "stub", GAME, "--lang", "ru")
    assert result.exit_code == 0 and "7 key(s) added" in result.output, result.output
    after = ru.read_text()
    assert '      # translator: a soft toy bear\n      name: "Плюшевый мишка"\n' in after
    data = yaml.safe_load(after)["ru"]
    assert data["gifts"]["teddy"]["name"] == "Плюшевый мишка"
    assert data["gifts"]["hint"] == ""
    assert set(data["team"]) == {"title", "intro", "players", "easy", "medium", "hard"}
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
