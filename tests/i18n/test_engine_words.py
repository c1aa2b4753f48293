"""pnp's own words in every language it ships (item 7 of issue 28): each engine catalog complete and well
formed (the English keys and placeholders, the CLDR plural forms babel gives the language, the markup, the
language's typography, a PO export msgfmt accepts); the rulebook's "Contents" and footer "Rules" in the
book's language, read back from the PDF; `pnp i18n status` naming the engine words a language pnp lacks
would print in English; a game's own catalog winning over any engine word."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import yaml

from generator.content.yaml_source import load_yaml
from generator.errors import Problems
from generator.i18n.catalog import catalog_from_document, required_plural_forms
from generator.i18n.engine_catalogs import ENGINE_CATALOGS, engine_languages
from generator.i18n.engine_text import (RULEBOOK_KEYS, engine_catalog, engine_language, engine_word, fact_word,
                                        kit_word, lacking_keys)
from generator.i18n.po import write_po
from generator.i18n.translation_units import build_units
from tests.pdf_probe import open_pdf, page_text
from tests.test_content_errors import make_game, pnp

PLACEHOLDER = re.compile(r"\{(\w+)\}")
# the languages board games are most often published in (issue 28): pnp must speak every one of them
PUBLISHED_IN = ("en", "de", "fr", "es", "it", "pt", "pt-BR", "nl", "pl", "cs", "sk", "hu", "ro", "bg", "ru", "uk",
                "el", "tr", "sv", "da", "nb", "fi", "et", "lt", "ja", "zh", "zh-Hant", "ko", "ar", "he", "hi", "th",
                "vi", "id", "ka")


def _read(lang: str):
    problems = Problems()
    document = load_yaml(ENGINE_CATALOGS / f"{lang}.yaml", problems)
    assert document is not None, [str(problem) for problem in problems.errors]
    catalog = catalog_from_document(document, lang, problems)
    assert not problems.errors, [str(problem) for problem in problems.errors]
    return catalog


def _texts(entry) -> list[str]:
    return [entry.text or ""] if entry.plural is None else list(entry.plural.values())


def test_pnp_speaks_at_least_the_thirty_languages_board_games_are_published_in():
    assert set(PUBLISHED_IN) <= set(engine_languages()), sorted(set(PUBLISHED_IN) - set(engine_languages()))
    assert len(engine_languages()) >= 30


@pytest.mark.parametrize("lang", engine_languages())
def test_each_catalog_has_the_english_keys_placeholders_markup_and_the_plural_forms_babel_gives(lang):
    raw = yaml.safe_load((ENGINE_CATALOGS / f"{lang}.yaml").read_text(encoding="utf-8"))   # plain YAML too
    assert list(raw) == [lang]
    catalog, english = _read(lang), _read("en")
    assert list(catalog.entries) == list(english.entries)
    for key, entry in catalog.entries.items():
        source = english.entries[key]
        wanted = sorted(PLACEHOLDER.findall(_texts(source)[-1]))
        assert (entry.plural is None) == (source.plural is None), (lang, key)
        if entry.plural is not None:
            # exactly the categories the language has: a missing one falls back, a stray one is never chosen
            assert set(entry.plural) == required_plural_forms(lang), (lang, key, sorted(entry.plural))
        for text in _texts(entry):
            assert text and text == text.strip() and "  " not in text, (lang, key, text)
            assert sorted(PLACEHOLDER.findall(text)) == wanted, (lang, key, text)
            assert text.count("**") == _texts(source)[0].count("**"), (lang, key, text)      # the **bold** kept
            assert '"' not in text and "'" not in text, (lang, key, text)     # the language's own quotes
            assert "{" not in PLACEHOLDER.sub("", text) and "}" not in PLACEHOLDER.sub("", text), (lang, key, text)
    # the option the sheet names is typed on a command line: "X,Y" stays as the user types it
    assert "{option} X,Y" in catalog.entries["calibration.instructions"].text


@pytest.mark.parametrize("lang", [lang for lang in engine_languages() if lang != "en"])
def test_no_catalog_leaves_english_words_behind(lang):
    english = _read("en").entries
    catalog = _read(lang).entries
    # a text left as the English one is a word a reader of the language would see untranslated (but the
    # scale bar's "50 mm · 100 %" is numbers and units, which German, Swedish … write as English does)
    same = [key for key in catalog if key != "kit.scale_bar" and _texts(catalog[key]) == _texts(english[key])]
    assert not same, (lang, same)


def test_french_sets_a_space_before_its_double_punctuation():
    for key, entry in _read("fr").entries.items():
        for text in _texts(entry):
            assert not re.search(r"[^\s][:;!?»]", PLACEHOLDER.sub("x", text).replace("X,Y", "")), (key, text)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
@pytest.mark.parametrize("lang", [lang for lang in engine_languages() if lang != "en"])
def test_a_po_export_of_each_catalog_passes_msgfmt_check(lang, tmp_path):
    units = build_units(engine_catalog("en"), engine_catalog(lang), lang, {}, lambda stack: "", {})
    po = tmp_path / f"pnp.{lang}.po"
    po.write_bytes(write_po(units, "pnp", "en", lang))
    result = subprocess.run(["msgfmt", "-c", "-o", str(tmp_path / "pnp.mo"), str(po)], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    text = po.read_text(encoding="utf-8")
    assert text.count('msgctxt "') == len(engine_catalog("en").entries)
    assert 'msgstr ""\n\n' not in text.split("\n\n", 1)[1]        # every unit translated


@pytest.mark.parametrize("code, catalog", [("zh-TW", "zh-Hant"), ("zh-hk", "zh-Hant"), ("zh-Hans", "zh"),
                                           ("zh-CN", "zh"), ("pt-br", "pt-BR"), ("pt-AO", "pt"), ("no", "nb"),
                                           ("nn", "nb"), ("de-AT", "de"), ("iw", "he"), ("en-GB", "en"),
                                           ("eo", None), ("cy", None)])
def test_a_language_code_finds_the_catalog_that_speaks_for_it(code, catalog):
    assert engine_language(code) == catalog
    assert engine_catalog(code).lang == (catalog or "en")


def test_the_words_are_the_languages_own_and_plurals_follow_the_count():
    assert fact_word("cs", "game.players", {"players": "2–4"}) == "2–4 hráči"          # few
    assert fact_word("cs", "game.players", {"players": "2–5"}) == "2–5 hráčů"          # other
    assert fact_word("sl", "game.players", {"players": "2"}) == "2 igralca"            # two
    assert fact_word("lv", "game.players", {"players": "2–10"}) == "2–10 spēlētāju"    # zero
    assert fact_word("ar", "game.players", {"players": "2–4"}) == "عدد اللاعبين: 2–4"
    assert fact_word("ja", "game.players", {"players": "2–4"}) == "プレイ人数：2–4人"
    assert fact_word("ro", "game.players", {"players": "2–20"}) == "2–20 de jucători"  # other
    assert engine_word("pt-BR", "rules.toc") == "Sumário" and engine_word("pt", "rules.toc") == "Índice"
    assert engine_word("zh-TW", "kit.printing") == "列印說明" and engine_word("zh", "kit.printing") == "打印说明"
    assert kit_word("tr", "kit.step.scale").startswith("%100 ")                        # Turkish: "%100"
    assert engine_word("fr", "kit.step.card_stock", {"pages": "3–4"}) == "Pages 3–4 : papier cartonné (160–220 g/m²)."


# ------------------------------------------------------------------ games: the rulebook, status, overrides

GAME = """\
id: g
title: game.title
languages: [{langs}]
editions:
  standard: {{name: game.edition, players: "2–6"}}
fonts:
  body: [nunito, inter]
"""

RULES = """\
rulebook:
  cover:
    title: game.title
  sections:
    - heading: rules.heading
      blocks:
        - paragraph: rules.text
"""

WORDS = {"pl": ("Gra w śnieżki", "Standardowa", "Talia", "Gwiazda", "Przygotowanie", "Każdy gracz dobiera kartę."),
         "el": ("Χιονοπόλεμος", "Βασική", "Τράπουλα", "Αστέρι", "Προετοιμασία", "Κάθε παίκτης τραβάει μια κάρτα."),
         "cy": ("Ymladd peli eira", "Safonol", "Pecyn", "Seren", "Paratoi", "Mae pob chwaraewr yn tynnu cerdyn.")}


def _catalog(lang: str, extra: str = "") -> str:
    title, edition, deck, star, heading, text = WORDS[lang]
    return (f'{lang}:\n  game:\n    title: "{title}"\n    edition: "{edition}"\n  deck:\n    cards: "{deck}"\n'
            f'  cards:\n    star: "{star}"\n  rules:\n    heading: "{heading}"\n    text: "{text}"\n{extra}')


def _game(tmp_path, langs: tuple[str, ...], extra: dict[str, str] | None = None, rules: bool = True):
    files = {"game.yaml": GAME.format(langs=", ".join(langs)), "i18n/en.yaml": "en: {}\n"}
    files.update({f"i18n/{lang}.yaml": _catalog(lang, (extra or {}).get(lang, "")) for lang in langs})
    if rules:
        files["rules.yaml"] = RULES
    folder = make_game(tmp_path, files)
    (folder / "i18n" / "en.yaml").unlink()
    return folder


def _rulebook_pages(tmp_path, folder, lang: str) -> list[str]:
    out = tmp_path / "out"
    result = pnp("build", str(folder), "--lang", lang, "--paper", "a4", "--out", str(out), "--only", "rules",
                 "--jobs", "1", "-q")
    assert result.exit_code == 0, result.output
    document = open_pdf(out / "g" / "standard" / lang / "a4" / "rules.pdf")
    return [" ".join(page_text(document, index).replace("\u00ad", "").split()) for index in range(len(document))]


def test_a_polish_and_a_greek_rulebook_print_their_contents_and_footer_in_their_language(tmp_path):
    folder = _game(tmp_path, ("pl", "el"))
    for lang, contents, footer, players in (("pl", "Spis treści", "Instrukcja", "Liczba graczy: 2–6"),
                                            ("el", "Περιεχόμενα", "Κανόνες", "2–6 παίκτες")):
        pages = _rulebook_pages(tmp_path, folder, lang)
        title, edition, *_ = WORDS[lang]
        text = " ".join(pages)
        assert players in pages[0], (lang, pages[0])                 # the cover's facts
        assert contents in pages[1], (lang, pages[1])                # the contents page's heading
        assert f"{title} · {footer} · {edition}" in text, (lang, text)   # the footer
        assert "Contents" not in text and "Rules" not in text and "players" not in text, (lang, text)


def test_a_games_catalog_says_the_rulebooks_words_its_own_way(tmp_path):
    folder = _game(tmp_path, ("pl",), {"pl": '    toc: "Co w instrukcji"\n    title: "Zasady gry"\n'})
    text = " ".join(_rulebook_pages(tmp_path, folder, "pl"))
    assert "Co w instrukcji" in text and "Gra w śnieżki · Zasady gry · Standardowa" in text, text
    assert "Spis treści" not in text and "Instrukcja" not in text


def _status(folder, *options: str) -> list[str]:
    result = pnp("i18n", "status", str(folder), *options)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def _listed(lines: list[str], lang: str) -> list[str]:
    start = next(index for index, line in enumerate(lines) if line.startswith(f"g {lang} — pnp's words shown in"))
    keys = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        keys.append(line.strip())
    return keys


def test_status_names_the_engine_words_a_welsh_game_would_print_in_english_and_its_overrides_win(tmp_path):
    folder = _game(tmp_path, ("cy", "pl"), {"cy": '    toc: "Cynnwys"\n  kit:\n    title: "pecyn i’w argraffu"\n',
                                            "pl": '    toc: "Co w środku"\n  kit:\n    title: "do druku"\n'})
    lines = _status(folder)
    rows = {line.split()[1]: line.split() for line in lines[1:3]}
    shown = len(lacking_keys("cy", tuple(engine_catalog("en").entries)))       # every key: pnp has no Welsh
    assert shown == len(engine_catalog("en").entries)
    keys = _listed(lines, "cy")
    # the kit's and the cover's words, the rulebook's footer; not the two the Welsh catalog says itself
    assert "kit.contents" in keys and "kit.step.scale" in keys and "game.players" in keys and "rules.title" in keys
    assert "rules.toc" not in keys and "kit.title" not in keys
    assert not any(key.startswith("calibration.") for key in keys)        # pnp calibrate's words, not the game's
    total = len(keys) + 2
    assert rows["cy"][-2:] == [f"2/{total}", "en"], rows["cy"]
    assert rows["pl"][-1] == f"2/{total}", rows["pl"]                     # pnp speaks Polish: nothing listed
    assert not any(line.startswith("g pl — pnp's words") for line in lines)
    assert "A game's catalog overrides any of pnp's words under the same key." in lines[-1]
    assert set(RULEBOOK_KEYS) <= {"rules.toc", "rules.title"}


def test_a_leaflet_shows_no_contents_heading_and_a_game_without_rules_neither_word(tmp_path):
    folder = _game(tmp_path, ("cy",), rules=False)
    keys = _listed(_status(folder), "cy")
    assert "kit.contents" in keys and not any(key.startswith("rules.") for key in keys)
    leaflet = _game(tmp_path / "leaflet", ("cy",))
    (leaflet / "rules.yaml").write_text(RULES.replace("rulebook:\n", "rulebook:\n  leaflet: true\n"), encoding="utf-8")
    keys = _listed(_status(leaflet), "cy")
    assert "rules.title" in keys and "rules.toc" not in keys


@pytest.mark.parametrize("lang", ["ar", "fa", "he"])
def test_a_right_to_left_calibration_sheet_prints_the_command_as_it_is_typed(lang, tmp_path):
    # inside a right-to-left line the bidi algorithm would carry the option's leading "--" to its far end
    # ("back-offset X,Y--"): the command stands on a line of its own, which reads left to right
    assert "\n{option} X,Y" in engine_catalog(lang).entries["calibration.instructions"].text
    result = pnp("calibrate", "--lang", lang, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    text = open_pdf(tmp_path / f"calibration-a4-long-edge-{lang}.pdf")[0].get_textpage().get_text_range()
    assert "\n--back-offset X,Y\n" in text.replace("\r\n", "\n"), text[-200:]       # read back in its order
