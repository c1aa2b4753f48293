"""pnp's own words as catalogs shipped with the package: complete in every language, plural by CLDR, read on
first use, overridden by a game's catalog, counted by `pnp i18n status` — measured on tiny games' kit.pdf."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.content.yaml_source import load_yaml
from generator.errors import Problems
from generator.i18n.catalog import catalog_from_document
from generator.i18n.engine_catalogs import ENGINE_CATALOGS, engine_languages
from generator.i18n.engine_text import GAME_PREFIXES, calibration_instructions, engine_catalog, fact_word, kit_word
from generator.scaffold import scaffold
from tests.pdf_probe import open_pdf

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _texts(entry) -> list[str]:
    return [entry.text] if entry.plural is None else list(entry.plural.values())


@pytest.mark.parametrize("lang", engine_languages())
def test_each_engine_catalog_reads_cleanly_with_every_key_and_placeholder_of_the_english_one(lang):
    problems = Problems()
    file = ENGINE_CATALOGS / f"{lang}.yaml"
    catalog = catalog_from_document(load_yaml(file, problems), lang, problems)
    assert not problems.errors, [str(problem) for problem in problems.errors]   # CLDR forms of the language
    english = engine_catalog("en").entries
    assert list(catalog.entries) == list(english)
    for key, entry in catalog.entries.items():
        wanted = {name for text in _texts(english[key]) for name in PLACEHOLDER.findall(text)}
        for text in _texts(entry):
            assert text and set(PLACEHOLDER.findall(text)) == wanted, (lang, key, text)


def test_the_languages_are_the_shipped_files_and_calibrate_offers_them():
    assert {"bg", "de", "en", "fr", "hu", "ka", "ru"} <= set(engine_languages()) and len(engine_languages()) >= 30
    result = CliRunner().invoke(main, ["calibrate", "--lang", "eo"])
    assert result.exit_code == 2 and "'bg', 'ca', 'cs'" in result.output


def test_players_take_the_plural_form_of_the_ranges_last_number():
    assert fact_word("ru", "game.players", {"players": "2–4"}) == "2–4 игрока"        # few
    assert fact_word("ru", "game.players", {"players": "1–5"}) == "1–5 игроков"       # many
    assert fact_word("ru", "game.players", {"players": "2–21"}) == "2–21 игрок"       # one
    assert fact_word("en", "game.players", {"players": "1"}) == "1 player"
    assert fact_word("en", "game.players", {"players": "2–6"}) == "2–6 players"
    assert fact_word("fr", "game.players", {"players": "solo"}) == "solo joueurs"     # no number: 'other'


def test_a_language_pnp_does_not_speak_gets_english_and_a_regional_one_its_languages_words():
    assert kit_word("eo", "kit.title") == "Print-and-play kit"
    assert kit_word("de-AT", "kit.title") == "Print-and-Play-Set"
    assert kit_word("en", "kit.warning") == ""                  # a key pnp leaves to the game
    assert "langen Kante" in calibration_instructions("de", "long-edge")
    assert "short edge" in calibration_instructions("en", "short-edge") and "--back-offset X,Y" in \
        calibration_instructions("en", "short-edge")


def test_the_cli_starts_without_reading_a_catalog_or_babel():
    probe = ("import sys, generator.cli, generator.i18n.engine_text; from generator.caches import active; "
             "print(active().sizes().get('i18n.engine_catalog', 0), 'babel' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["0", "False"]


def _game(tmp_path, lang: str, extra: dict | None = None):
    """A `pnp new` game in `lang`, its catalog merged with `extra` (nested keys)."""
    folder = scaffold(tmp_path, "g", lang=lang)
    catalog_file = folder / "i18n" / f"{lang}.yaml"
    data = yaml.safe_load(catalog_file.read_text(encoding="utf-8"))
    for dotted, value in (extra or {}).items():
        node = data[lang]
        *parents, last = dotted.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    catalog_file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return folder


def _kit_text(folder, tmp_path, lang: str) -> str:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(folder), "--only", "kit", "--paper", "a4", "--out", str(out),
                                       "-q", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    page = open_pdf(out / "g" / "standard" / lang / "a4" / "kit.pdf")[0]
    return " ".join(page.get_textpage().get_text_range().split())


def test_the_kit_prints_the_engines_russian_words_with_the_plural_players(tmp_path):
    text = _kit_text(_game(tmp_path, "ru"), tmp_path, "ru")
    assert text.startswith("G — набор для печати Standard edition · 2–4 игрока Состав игры")
    assert "Печатайте с двух сторон, с переворотом по длинному краю" in text and "Как печатать" in text


def test_a_games_catalog_overrides_engine_words_and_its_plural_players_get_the_count(tmp_path):
    folder = _game(tmp_path, "ru", {"kit.title": "Комплект", "kit.step.cut": "Режьте ножницами.",
                                    "game.players": {"one": "{players} игрок!", "few": "{players} игрока!",
                                                     "many": "{players} игроков!", "other": "{players} игрока!"}})
    text = _kit_text(folder, tmp_path, "ru")
    assert "G — Комплект" in text and "набор для печати" not in text
    assert "2–4 игрока!" in text and "Режьте ножницами." in text and "Режьте по меткам" not in text
    status = CliRunner().invoke(main, ["i18n", "status", str(folder), "--brief"])
    assert status.exit_code == 0, status.output
    assert status.output.splitlines()[1].split() == ["g", "ru", "10/10", "0", "0", "3/27"]


def test_status_lists_the_engine_words_a_game_in_a_language_pnp_lacks_would_show_in_english(tmp_path):
    folder = _game(tmp_path, "eo", {"kit.title": "Presebla ludo"})
    assert "Print-and-play kit" not in _kit_text(folder, tmp_path, "eo")
    assert "How to print" in _kit_text(folder, tmp_path, "eo")
    status = CliRunner().invoke(main, ["i18n", "status", str(folder)])
    assert status.exit_code == 0, status.output
    lines = status.output.splitlines()
    assert lines[1].split() == ["g", "eo", "8/8", "0", "0", "1/27", "en"]
    listed = lines[lines.index(next(line for line in lines if "shown in English" in line)) + 1:]
    keys = [line.strip() for line in listed if line.startswith("  ")]
    assert keys[:4] == ["kit.contents", "kit.printing", "kit.rulebook", "kit.step.scale"] and "game.players" in keys
    assert "kit.title" not in keys and len(keys) == 26
    assert all(key.startswith(GAME_PREFIXES) for key in keys)
