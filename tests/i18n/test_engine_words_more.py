"""pnp's words where it still printed English, measured on tiny games' PDFs: the scale bar's label in the
language's own way of writing units and percent ("%100" in Turkish), a game's own label, `pnp calibrate
--lang` reading a code as a build does (zh-TW, pt-br, no, iw), and `pnp i18n stub` giving a translator the
engine's words for a language pnp has no catalog of."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.i18n.engine_text import engine_word
from generator.scaffold import scaffold
from tests.pdf_probe import open_pdf, pdftotext

MM = 25.4 / 72


def _pnp(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def _game(tmp_path, lang: str, extra: dict | None = None):
    """A `pnp new` game in `lang`, its catalog merged with `extra` (dotted keys)."""
    folder = scaffold(tmp_path, "g", lang=lang)
    file = folder / "i18n" / f"{lang}.yaml"
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    for dotted, value in (extra or {}).items():
        node = data[lang]
        *parents, last = dotted.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return folder


def _cards(folder, tmp_path, lang: str, only: str = "cards"):
    out = tmp_path / "out"
    result = _pnp("build", str(folder), "--only", only, "--paper", "a4", "--out", str(out), "-q", "--jobs", "1")
    assert result.exit_code == 0, result.output
    return out / "g" / "standard" / lang / "a4" / f"{only}.pdf"


def _pdftotext(path) -> str:
    """Page one's text as pdftotext reads it."""
    return pdftotext(path, "-f", "1", "-l", "1")


def _char_left_mm(path, char_index_of) -> tuple[float, float]:
    """The left edge (mm) of the character `char_index_of(text)` picks on page 1, and the page's width."""
    page = open_pdf(path)[0]
    textpage = page.get_textpage()
    index = char_index_of(textpage.get_text_range())
    assert index >= 0
    return textpage.get_charbox(index)[0] * MM, page.get_width() * MM


# ---- 1. the scale bar's label ----------------------------------------------------------------------

def test_the_turkish_card_sheet_labels_its_bar_the_turkish_way_and_the_english_one_as_before(tmp_path):
    turkish = _pdftotext(_cards(_game(tmp_path / "tr", "tr"), tmp_path / "tr", "tr"))
    assert "50 mm · %100" in turkish and "100 %" not in turkish
    english = _pdftotext(_cards(_game(tmp_path / "en", "en"), tmp_path / "en", "en"))
    assert "50 mm · 100 %" in english and "%100" not in english


def test_every_catalog_says_the_bar_with_its_own_units_and_french_keeps_its_spaces_unbroken():
    assert engine_word("en", "kit.scale_bar") == "50 mm · 100 %"        # the label every English file had
    assert engine_word("tr", "kit.scale_bar") == "50 mm · %100"
    assert engine_word("fr", "kit.scale_bar") == "50\u00a0mm · 100\u00a0%"
    assert engine_word("ru", "kit.scale_bar") == "50 мм · 100 %"
    assert engine_word("ar", "kit.scale_bar") == "50 مم · 100%"
    assert engine_word("de-AT", "kit.scale_bar") == "50 mm · 100 %"


def test_a_right_to_left_label_starts_where_the_english_one_does_beside_the_bar(tmp_path):
    english, width = _char_left_mm(_cards(_game(tmp_path / "en", "en"), tmp_path / "en", "en"),
                                   lambda text: text.find("50 mm"))
    # set right to left, "%100 · مم 50" from the left: the percent sign is its leftmost glyph
    arabic, _ = _char_left_mm(_cards(_game(tmp_path / "ar", "ar"), tmp_path / "ar", "ar"),
                              lambda text: text.find("%"))
    assert abs(arabic - english) < 0.8, (arabic, english)       # not flush right in a 200 mm box, off the page
    assert english < width - 30


def test_a_games_catalog_says_the_bar_its_own_way_on_the_cards_and_the_kit(tmp_path):
    folder = _game(tmp_path, "en", {"kit.scale_bar": "Measure me: 50 mm"})
    assert "Measure me: 50 mm" in _pdftotext(_cards(folder, tmp_path, "en"))
    kit = _pdftotext(_cards(folder, tmp_path, "en", only="kit"))
    assert "Measure me: 50 mm" in kit and "100 %" not in kit.split("Measure me")[1]


def test_the_calibration_sheet_labels_its_bar_in_its_language(tmp_path):
    result = _pnp("calibrate", "--lang", "tr", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "50 mm · %100" in _pdftotext(tmp_path / "calibration-a4-long-edge-tr.pdf")


# ---- 2. pnp calibrate --lang reads a code as a build does -----------------------------------------

@pytest.mark.parametrize(("typed", "catalog", "word"), [
    ("zh-TW", "zh-Hant", "列印"), ("pt-br", "pt-BR", "Imprima"), ("no", "nb", "Skriv ut"), ("iw", "he", "להדפיס"),
    ("de-AT", "de", "Drucken"), ("FR", "fr", "Imprimez"), ("en-GB", "en", "Print both pages")])
def test_calibrate_takes_the_codes_a_build_takes(tmp_path, typed, catalog, word):
    result = _pnp("calibrate", "--lang", typed, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    name = "calibration-a4-long-edge" + ("" if catalog == "en" else f"-{catalog}") + ".pdf"
    assert result.output.strip() == f"wrote {tmp_path / name}"
    page = open_pdf(tmp_path / name)[0]
    assert word in page.get_textpage().get_text_range()


def test_calibrate_refuses_a_language_pnp_has_no_words_for_naming_the_choices(tmp_path):
    result = _pnp("calibrate", "--lang", "eo", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "Invalid value for '--lang'" in result.output and "'eo'" in result.output
    assert "'bg', 'ca', 'cs'" in result.output and "'zh-Hant'" in result.output and "zh-TW" in result.output
    assert not list(tmp_path.iterdir())
    odd = _pnp("calibrate", "--lang", "../../x", "--out", str(tmp_path))
    assert odd.exit_code == 2 and "'../../x'" in odd.output and not list(tmp_path.iterdir())


# ---- 3. pnp i18n stub gives a language pnp lacks the engine's words --------------------------------

def _translate_stub(file, special: dict[str, str]) -> None:
    """Fill every empty value of a stub as a translator would: `special` words by key name, else 'Eo ' and
    the English text beside it (placeholders kept)."""
    def fill(match: re.Match) -> str:
        text = special.get(match.group(2), "Eo " + match.group(3))
        return f"{match.group(1)}{match.group(2)}: {json.dumps(text, ensure_ascii=False)}"
    text = file.read_text(encoding="utf-8")
    file.write_text(re.sub(r'^(\s*)([\w-]+): ""  # en: (.*)$', fill, text, flags=re.M), encoding="utf-8")


def test_a_stub_of_a_language_pnp_lacks_holds_the_engines_words_to_translate_and_then_they_print(tmp_path):
    folder = _game(tmp_path, "en")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("languages: [en]", "languages: [en, eo]"),
                         encoding="utf-8")
    result = _pnp("i18n", "stub", str(folder), "--lang", "eo")
    assert result.exit_code == 0, result.output
    assert "34 key(s) added, 27 of them pnp's own words, which it has none of in eo" in result.output
    stub = (folder / "i18n" / "eo.yaml").read_text(encoding="utf-8")
    assert '\n  kit:\n    title: ""  # en: Print-and-play kit\n' in stub
    assert '    scale_bar: ""  # en: 50 mm · 100 %\n' in stub
    assert '      card_stock: ""  # en: Pages {pages}: card stock (160–220 g/m²).\n' in stub
    # the players' words in Esperanto's plural forms, and the game's own keys as before
    assert '    players:\n      one: ""  # en: {players} player\n      other: ""  # en: {players} players\n' in stub
    assert '      name: ""  # en: First card\n' in stub
    # untranslated, they are a translator's to do, as the game's own keys are
    check = _pnp("check", str(folder))
    assert check.exit_code == 1 and "missing translation key 'kit.scale_bar' for language 'eo'" in check.output
    _translate_stub(folder / "i18n" / "eo.yaml", {"contents": "Enhavo", "scale_bar": "Mezuru: 50 mm · 100 %"})
    check = _pnp("check", str(folder))
    assert check.exit_code == 0, check.output
    kit = _pdftotext(_cards(folder, tmp_path, "eo", only="kit"))
    assert "Enhavo" in kit and "What’s inside" not in kit and "Eo How to print" in kit
    assert "Mezuru: 50 mm · 100 %" in kit
    assert "Mezuru: 50 mm · 100 %" in _pdftotext(_cards(folder, tmp_path, "eo"))
    status = _pnp("i18n", "status", str(folder), "--brief")
    assert status.exit_code == 0, status.output
    rows = [line.split() for line in status.output.splitlines()[1:]]
    assert rows == [["g", "en", "7/7", "0", "0", "0/27"], ["g", "eo", "34/34", "0", "0", "27/27"]]
    again = _pnp("i18n", "stub", str(folder), "--lang", "eo")
    assert again.output.startswith(f"{folder / 'i18n' / 'eo.yaml'}: 0 key(s) added\n")


def test_a_stub_completes_a_catalog_that_says_some_engine_words_already(tmp_path):
    folder = _game(tmp_path / "src", "en")
    (folder / "i18n" / "cy.yaml").write_text('cy:\n  kit:\n    title: "Pecyn argraffu"  # ours\n',
                                             encoding="utf-8")
    result = _pnp("i18n", "stub", str(folder), "--lang", "cy")
    assert result.exit_code == 0, result.output
    text = (folder / "i18n" / "cy.yaml").read_text(encoding="utf-8")
    assert '\ncy:\n  kit:\n    title: "Pecyn argraffu"  # ours\n    contents: ""  # en: What’s inside\n' in text
    assert text.count("title:") == 2                    # kit.title kept, game.title added
    data = yaml.safe_load(text)["cy"]
    assert data["kit"]["title"] == "Pecyn argraffu" and data["kit"]["scale_bar"] == ""
    # Welsh has six plural forms: the players' words get each of them
    assert set(data["game"]["players"]) == {"zero", "one", "two", "few", "many", "other"}


def test_a_stub_of_a_language_pnp_has_adds_none_of_its_words(tmp_path):
    folder = _game(tmp_path, "en")
    result = _pnp("i18n", "stub", str(folder), "--lang", "de")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{folder / 'i18n' / 'de.yaml'}: 7 key(s) added\n")
    data = yaml.safe_load((folder / "i18n" / "de.yaml").read_text(encoding="utf-8"))["de"]
    assert set(data) == {"game", "deck", "cards"} and set(data["game"]) == {"title", "edition"}
    regional = _pnp("i18n", "stub", str(folder), "--lang", "pt-BR")
    assert regional.exit_code == 0 and "pnp's own words" not in regional.output
