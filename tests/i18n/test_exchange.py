"""`pnp i18n export` / `import`: XLIFF and PO with context, size limits, plurals and screenshots, and back.

A tiny game (one card, a plural, an untranslated key, comments in the catalog)
isolates each behaviour; the shipped games prove the lossless round trip for
bg, ru, hu, ka and en.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import polib
import pytest
import yaml
from PIL import Image

from generator.errors import Problems
from generator.i18n.exchange import export_catalog, import_catalog
from generator.targets import load_games
from tests.i18n.tiny_games import write_game
from tests.test_content_errors import pnp

REPO = Path(__file__).resolve().parents[2]

GAME = """\
id: g
title: game.title
languages: [en, ru]
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
        count: 1
        fields: {name: cards.star, rule: cards.gain, n: 3}
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
    gain:
      one: "Gain {count} star"
      other: "Gain {count} stars"
"""

RU = """\
# Test game — ru
ru:
  game:
    title: "Тестовая игра"  # keep it short
    edition: "Стандарт"

  deck:
    cards: ""  # en: Cards
  cards:
    star: 'Звезда'
    gain:
      one: "Получите {count} звезду"
      few: "Получите {count} звезды"
      many: "Получите {count} звёзд"
      other: "Получите {count} звезды"
"""

CARD = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  body: {font: body, size: 10pt, min_size: 8pt, color: "#222222"}
boxes:
  paper: {kind: rect, area: bleed, fill: "#f4ecd8"}
  name: {kind: text, text: "@name", x: 5, y: 60, width: 53, height: 10, style: body}
  rule: {kind: text, text: "@rule", count: "@n", x: 5, y: 72, width: 53, height: 8, style: body}
"""

BACK = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
boxes:
  paper: {kind: rect, area: bleed, fill: "#335577"}
"""

FILES = {"game.yaml": GAME, "cards.yaml": CARDS, "i18n/en.yaml": EN, "i18n/ru.yaml": RU,
         "templates/card.yaml": CARD, "templates/back.yaml": BACK}


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tiny game in tmp_path/g; the tests run from tmp_path (messages show g/...)."""
    return write_game(tmp_path, monkeypatch, FILES)


def room(width_mm: float, height_mm: float, min_size: float, leading: float = 1.2) -> tuple[int, int]:
    """Width in points and lines at the minimum size, worked out from the template's own numbers."""
    return math.floor(width_mm / 25.4 * 72), math.floor(height_mm / (min_size * leading * 25.4 / 72))


def xliff_units(file: Path):
    from generator.i18n.xliff import _classes
    return {unit.xmlelement.get("id"): unit for unit in _classes().parsefile(str(file)).units}


def test_xliff_has_a_unit_per_key_with_context_limit_plurals_and_screenshot(game: Path) -> None:
    result = pnp("i18n", "export", "g", "--lang", "ru", "--format", "xliff", "--out", "x")
    assert result.exit_code == 0, result.output
    assert "x/g.ru.xlf: 5 units (4 translated, 1 to translate), 2 with a size limit" in result.output
    text = Path("x/g.ru.xlf").read_text(encoding="utf-8")
    assert 'xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"' in text
    assert "document:1.1" not in text
    units = xliff_units(Path("x/g.ru.xlf"))
    assert list(units) == ["game.title", "game.edition", "deck.cards", "cards.star", "cards.gain"]
    star = units["cards.star"]
    width, lines = room(53, 10, 8)
    assert (star.xmlelement.get("maxwidth"), star.xmlelement.get("size-unit")) == (str(width), "point")
    assert star.xmlelement.get("font") == "Nunito-Regular;8;normal"   # weblate-flags: test_xliff_strict.py
    notes = star.getnotes()
    assert "box 'name' of template 'card' on deck cards, card star" in notes
    assert "Screenshot: g.ru.screens/cards.star.png" in notes
    assert (str(star.source), str(star.target)) == ("Star", "Звезда")
    assert units["deck.cards"].xmlelement.find("{*}target") is None      # untranslated: no target at all
    gain = units["cards.gain"]
    assert gain.hasplural() and [str(s) for s in gain.target.strings] == [
        "Получите {count} звезду", "Получите {count} звезды", "Получите {count} звёзд", "Получите {count} звезды"]
    assert "Keep exactly: {count}" in gain.getnotes()
    # the screenshot: the box (53 × 10 mm and 1.5 mm around it at 200 dpi), outlined in red, words in it
    picture = Image.open("x/g.ru.screens/cards.star.png").convert("RGB")
    assert abs(picture.width - 56 * 200 / 25.4) <= 3 and abs(picture.height - 13 * 200 / 25.4) <= 3
    pixels = [picture.getpixel((x, y)) for y in range(picture.height) for x in range(picture.width)]
    assert sum(1 for r, g, b in pixels if r > 200 and g < 60 and b < 90) > 2 * picture.width   # the outline
    assert sum(1 for r, g, b in pixels if r < 80 and g < 80 and b < 80) > 60                    # "Star"


def test_po_has_plural_forms_flags_and_references(game: Path) -> None:
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "po", "--out", "x").exit_code == 0
    catalog = polib.pofile("x/g.ru.po")
    assert catalog.metadata["Plural-Forms"].startswith("nplurals=4;")
    entries = {entry.msgctxt: entry for entry in catalog}
    assert len(entries) == 5
    gain = entries["cards.gain"]
    assert (gain.msgid, gain.msgid_plural) == ("Gain {count} star", "Gain {count} stars")
    assert len(gain.msgstr_plural) == 4 and "python-brace-format" in gain.flags
    width, lines = room(53, 8, 8)
    assert f"max-size:{math.floor(width * 96 / 72)}:{lines}" in gain.flags      # Weblate's pixels (96 dpi)
    fields_line = next(number for number, line in enumerate(CARDS.splitlines(), 1) if "fields:" in line)
    assert ("cards.yaml", str(fields_line)) in entries["cards.star"].occurrences
    assert entries["deck.cards"].msgstr == ""


def test_import_writes_only_the_changed_values_in_place(game: Path) -> None:
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "po", "--out", "x").exit_code == 0
    catalog = polib.pofile("x/g.ru.po")
    for entry in catalog:
        if entry.msgctxt == "deck.cards":
            entry.msgstr = "Карты"
        if entry.msgctxt == "cards.gain":
            entry.msgstr_plural[2] = "Получите {count} звёздочек"
    catalog.save("x/g.ru.po")
    result = pnp("i18n", "import", "g", "x/g.ru.po")
    assert result.exit_code == 0, result.output
    assert "g/i18n/ru.yaml: 2 translation(s) written, 3 unchanged" in result.output
    after = (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")
    assert after == RU.replace('cards: ""  # en: Cards', 'cards: "Карты"  # en: Cards') \
                      .replace('"Получите {count} звёзд"', '"Получите {count} звёздочек"')


def test_import_adds_a_missing_key_as_stub_does(game: Path) -> None:
    (game / "i18n" / "ru.yaml").write_text(RU.replace("    star: 'Звезда'\n", ""), encoding="utf-8")
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "xliff", "--out", "x").exit_code == 0
    text = Path("x/g.ru.xlf").read_text(encoding="utf-8")
    assert text.count("<source>Star</source>\n") == 1
    Path("x/g.ru.xlf").write_text(text.replace("<source>Star</source>\n",
                                               "<source>Star</source>\n        <target>Звезда</target>\n"),
                                  encoding="utf-8")
    result = pnp("i18n", "import", "g", "x/g.ru.xlf")
    assert result.exit_code == 0, result.output
    after = (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")
    assert '    star: "Звезда"  # en: Star\n' in after and "# keep it short" in after
    assert yaml.safe_load(after)["ru"]["cards"]["star"] == "Звезда"


def test_the_writer_adds_a_plural_form_the_mapping_lacks(tmp_path: Path) -> None:
    from generator.content.yaml_source import parse_yaml
    from generator.i18n.catalog import catalog_from_document
    from generator.i18n.catalog_writer import write_values
    problems = Problems()
    source = catalog_from_document(parse_yaml(EN, tmp_path / "en.yaml", problems), "en", problems)
    text = RU.replace('      many: "Получите {count} звёзд"\n', "")
    forms = {"one": "Получите {count} звезду", "few": "Получите {count} звезды", "many": "Получите {count} звёзд",
             "other": "Получите {count} звезды"}
    written = write_values(text, tmp_path / "ru.yaml", "ru", {"cards.gain": forms}, source, {"cards.gain"})
    assert written == RU.replace('      many: "Получите {count} звёзд"\n', "").replace(
        '      other: "Получите {count} звезды"\n', '      other: "Получите {count} звезды"\n'
                                                    '      many: "Получите {count} звёзд"\n')


def test_placeholders_that_differ_are_refused_and_nothing_is_written(game: Path) -> None:
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "po", "--out", "x").exit_code == 0
    catalog = polib.pofile("x/g.ru.po")
    entry = next(entry for entry in catalog if entry.msgctxt == "cards.gain")
    entry.msgstr_plural[1] = "Получите {counts} звезды"
    catalog.save("x/g.ru.po")
    line = next(entry.linenum for entry in polib.pofile("x/g.ru.po") if entry.msgctxt == "cards.gain")
    result = pnp("i18n", "import", "g", "x/g.ru.po")
    assert result.exit_code == 1
    assert (f"x/g.ru.po:{line}:1: unit 'cards.gain' (form 'few'): placeholders differ from the source: "
            "not in the source {counts}") in result.output
    assert "nothing imported" in result.output
    assert (game / "i18n" / "ru.yaml").read_text(encoding="utf-8") == RU


def test_an_overflowing_string_is_reported_at_its_unit(game: Path) -> None:
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "po", "--out", "x").exit_code == 0
    catalog = polib.pofile("x/g.ru.po")
    entry = next(entry for entry in catalog if entry.msgctxt == "cards.star")
    entry.msgstr = "Очень длинное название звезды, которое никак не поместится в две строки на этой маленькой карте"
    catalog.save("x/g.ru.po")
    line = entry.linenum if entry.linenum else next(e.linenum for e in polib.pofile("x/g.ru.po")
                                                     if e.msgctxt == "cards.star")
    result = pnp("i18n", "import", "g", "x/g.ru.po")
    assert result.exit_code == 0, result.output
    assert (f"x/g.ru.po:{line}:1: warning: unit 'cards.star' does not fit box 'name' of template 'card' "
            "(deck cards, card star)") in result.output
    assert "Очень длинное" in (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")


def test_fuzzy_and_untranslated_units_are_reported_not_imported(game: Path) -> None:
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "po", "--out", "x").exit_code == 0
    catalog = polib.pofile("x/g.ru.po")
    entry = next(entry for entry in catalog if entry.msgctxt == "game.title")
    entry.msgstr, entry.flags = "Другое название", entry.flags + ["fuzzy"]
    catalog.save("x/g.ru.po")
    result = pnp("i18n", "import", "g", "x/g.ru.po")
    assert result.exit_code == 0, result.output
    assert "1 untranslated (not imported): deck.cards" in result.output
    assert "1 fuzzy, waiting for review (not imported): game.title" in result.output
    assert (game / "i18n" / "ru.yaml").read_text(encoding="utf-8") == RU


@pytest.mark.parametrize("name, text, expected", [
    ("g.ru.xlf", '<?xml version="1.0"?>\n<xliff version="1.2">\n  <file>\n', "x/g.ru.xlf:4:1: not well-formed XML"),
    ("g.ru.po", 'msgid "a"\nmsgstr "b"\nmsgid\n', "x/g.ru.po:"),
    ("g.ru.po", 'msgctxt "cards.nope"\nmsgid "x"\nmsgstr "y"\n',
     "x/g.ru.po:1:1: unit 'cards.nope' is not a key of the source catalog"),
])
def test_a_bad_file_is_reported_where_it_is_wrong(game: Path, name: str, text: str, expected: str) -> None:
    Path("x").mkdir()
    Path("x", name).write_text(text, encoding="utf-8")
    result = pnp("i18n", "import", "g", f"x/{name}", "--lang", "ru")
    assert result.exit_code == 1
    assert expected in result.output, result.output
    assert (game / "i18n" / "ru.yaml").read_text(encoding="utf-8") == RU


SHIPPED = [("christmas-round", ("bg", "en")), ("christmas-trees", ("ru", "en")),
           ("must-see-belarus", ("ru", "en")), ("sorry", ("ka", "en")), ("twelve-days", ("hu", "en"))]


@pytest.mark.parametrize("name, languages", SHIPPED)
def test_an_unchanged_round_trip_leaves_the_shipped_catalogs_byte_identical(tmp_path: Path, name: str,
                                                                             languages: tuple[str, ...]) -> None:
    folder = tmp_path / name
    shutil.copytree(REPO / "content" / name, folder)
    before = {path.name: path.read_bytes() for path in (folder / "i18n").glob("*.yaml")}
    problems = Problems()
    source = load_games([folder], problems)[0]
    keys = len(source.catalogs[source.source_language].entries)
    for lang in languages:
        for fmt in ("xliff", "po"):
            exported = export_catalog(source, lang, fmt, tmp_path / "x", problems, screenshots=False)
            assert exported is not None and exported.units == keys, problems.items
            assert exported.limited > 0                   # card, token and board texts carry a size limit
            if lang == source.source_language:      # refused: it would replace the source texts
                refused = Problems()
                assert import_catalog(source, exported.file, None, refused) is None
                assert "is the game's source language" in refused.errors[0].message
                continue
            imported = import_catalog(source, exported.file, None, problems)
            assert imported is not None, [str(problem) for problem in problems.errors]
            assert (imported.changed, imported.unchanged, imported.written) == (0, exported.translated, False)
    assert not problems.errors, [str(problem) for problem in problems.errors]
    assert {path.name: path.read_bytes() for path in (folder / "i18n").glob("*.yaml")} == before


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (gettext, libxml2-utils)")
    return found


def test_exported_files_pass_the_real_tools(game: Path) -> None:
    """gettext's msgfmt -c (header, plural forms, python-brace-format), msgcat and msgmerge read the PO
    file as written; xmllint reads the XLIFF file; a text with U+2028 inside stays one PO line."""
    import subprocess
    (game / "i18n" / "ru.yaml").write_text(RU.replace("'Звезда'", '"Зве\\u2028зда"'), encoding="utf-8")
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "po", "--out", "x").exit_code == 0
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "xliff", "--out", "x").exit_code == 0
    for command in ([_tool("msgfmt"), "-c", "-o", "/dev/null", "x/g.ru.po"],
                    [_tool("msgcat"), "x/g.ru.po", "-o", "/dev/null"],
                    [_tool("msgmerge"), "-q", "x/g.ru.po", "x/g.ru.po", "-o", "/dev/null"],
                    [_tool("xmllint"), "--noout", "x/g.ru.xlf"]):
        done = subprocess.run(command, capture_output=True, text=True)
        assert done.returncode == 0 and "error" not in done.stderr, (command, done.stderr)
    from generator.i18n.po import read_po
    units = {unit.key: unit for unit in read_po(Path("x/g.ru.po").read_bytes()).units}
    assert units["cards.star"].texts == ("Зве\u2028зда",)
