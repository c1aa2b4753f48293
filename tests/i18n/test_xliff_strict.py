"""`pnp i18n export` XLIFF against OASIS's XLIFF 1.2 strict schema, read back by the tools that read it.

Every export of every shipped game (each of its languages, and Arabic, untranslated) and of a tiny
plural game (en, ru, ar's six forms) is validated with the schema vendored in tests/i18n/schemas, by
`xmllint --schema` where it is installed, else by the same libxml2 through lxml (no network either way:
the schema's import of xml.xsd resolves to the copy there). The file says its limits in XLIFF's own
attributes (maxwidth, maxheight, size-unit, font), a plural group's notes before its trans-units;
`--format xliff-weblate` adds Weblate's unqualified weblate-flags, which the strict schema refuses and
nothing else. A file written by the pnp of before (its weblate-flags, a group's notes after its
trans-units) still imports.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.errors import Problems
from generator.i18n.exchange import export_catalog
from generator.targets import load_games
from tests.i18n.tiny_games import write_game
from tests.test_content_errors import pnp

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = Path(__file__).resolve().parent / "schemas"
OLD_EXPORT = Path(__file__).resolve().parent / "data" / "g.ru.before-issue-33.xlf"
XLIFF = "urn:oasis:names:tc:xliff:document:1.2"
XML = "http://www.w3.org/XML/1998/namespace"
# the attributes the strict schema gives <trans-unit> and <group> that pnp writes (and nothing else)
STANDARD = {"id", "approved", "restype", "maxwidth", "maxheight", "size-unit", "font", f"{{{XML}}}space"}

GAME = {
    "game.yaml": """\
id: g
title: game.title
languages: [en, ru]
editions:
  standard: {name: game.edition}
fonts:
  body: [nunito, inter]
""",
    "cards.yaml": """\
decks:
  - id: cards
    name: deck.cards
    template: card
    back: back
    cards:
      - id: star
        count: 1
        fields: {name: cards.star, rule: cards.gain, n: 3}
""",
    "i18n/en.yaml": """\
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
""",
    "i18n/ru.yaml": """\
ru:
  game:
    title: "Тестовая игра"
    edition: "Стандарт"
  deck:
    cards: ""
  cards:
    star: "Звезда"
    gain:
      one: "Получите {count} звезду"
      few: "Получите {count} звезды"
      many: "Получите {count} звёзд"
      other: "Получите {count} звезды"
""",
    # the name in Black at a size that is no whole point (7.5), the rule on two lines in Regular
    "templates/card.yaml": """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  title: {font: body, size: 12pt, min_size: 7.5pt, weight: black, color: "#222222"}
  body: {font: body, size: 10pt, min_size: 8pt, color: "#222222"}
boxes:
  paper: {kind: rect, area: bleed, fill: "#f4ecd8"}
  name: {kind: text, text: "@name", x: 5, y: 60, width: 53, height: 10, style: title}
  rule: {kind: text, text: "@rule", count: "@n", x: 5, y: 72, width: 53, height: 8, style: body}
""",
    "templates/back.yaml": """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
boxes:
  paper: {kind: rect, area: bleed, fill: "#335577"}
""",
}

# Arabic's six plural forms (a catalog beside the game's languages: exported all the same)
AR = """\
ar:
  cards:
    star: "نجمة"
    gain: {zero: "لا نجوم", one: "نجمة واحدة", two: "نجمتان", few: "{count} نجوم", many: "{count} نجمة",
           other: "{count} نجمة"}
"""



@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tiny game in tmp_path/g; the tests run from tmp_path."""
    return write_game(tmp_path, monkeypatch, GAME)


def strict_errors(*files: Path) -> list[str]:
    """xmllint's complaints about the files against the XLIFF 1.2 strict schema ([] when they are valid);
    where xmllint is not installed, the same libxml2's through lxml (lxml_errors)."""
    if shutil.which("xmllint") is None:
        return lxml_errors(*files)
    env = dict(os.environ, XML_CATALOG_FILES=str(SCHEMAS / "catalog.xml"))
    run = subprocess.run(["xmllint", "--nonet", "--noout", "--schema", str(SCHEMAS / "xliff-core-1.2-strict.xsd"),
                          *map(str, files)], capture_output=True, text=True, env=env, timeout=120)
    output = run.stderr + run.stdout
    assert "Failed to locate a schema" not in output and "network" not in output, output    # xml.xsd read here
    assert sum(line.endswith(" validates") for line in output.splitlines()) + sum(
        line.endswith(" fails to validate") for line in output.splitlines()) == len(files), output
    return [line for line in output.splitlines() if "error" in line]


def lxml_errors(*files: Path) -> list[str]:
    """libxml2's complaints through lxml, the schema's import of xml.xsd answered from tests/i18n/schemas."""
    from lxml import etree

    class Here(etree.Resolver):
        def resolve(self, url, public_id, context):
            if url == "http://www.w3.org/2001/xml.xsd":
                return self.resolve_filename(str(SCHEMAS / "xml.xsd"), context)
            return None         # anything else: not found (no network)
    parser = etree.XMLParser(no_network=True)
    parser.resolvers.add(Here())
    schema = etree.XMLSchema(etree.parse(str(SCHEMAS / "xliff-core-1.2-strict.xsd"), parser))
    errors = []
    for file in files:
        if not schema.validate(etree.parse(str(file))):
            errors += [f"{file}:{error.line}: {error.message}" for error in schema.error_log]
    return errors


def tree(file: Path):
    from lxml import etree
    return etree.parse(str(file)).getroot()


def by_id(root) -> dict:
    return {node.get("id"): node for node in root.iter(f"{{{XLIFF}}}trans-unit", f"{{{XLIFF}}}group")}


def local(node) -> str:
    return node.tag.split("}")[1]


@pytest.mark.skipif(shutil.which("xmllint") is None, reason="xmllint (libxml2-utils) is not installed")
def test_lxml_says_what_xmllint_says(game: Path) -> None:
    """Where xmllint is missing the tests validate through lxml: the same verdict and the same complaints."""
    assert pnp("i18n", "export", "g", "--lang", "ru", "--out", "x").exit_code == 0
    assert strict_errors(Path("x/g.ru.xlf")) == lxml_errors(Path("x/g.ru.xlf")) == []
    said = [line.split(": ", 1)[1].split(" : ")[-1] for line in strict_errors(OLD_EXPORT)]
    assert said == [line.split(": ", 1)[1] for line in lxml_errors(OLD_EXPORT)] and said


def test_the_schema_check_fails_on_what_the_old_export_had(tmp_path: Path) -> None:
    """The check can fail: last month's file has an unqualified weblate-flags and a group's notes after
    its trans-units, and xmllint says so (and says nothing else)."""
    errors = strict_errors(OLD_EXPORT)
    assert errors and all("'weblate-flags' is not allowed" in line or "note': This element is not expected" in line
                          for line in errors), errors
    assert any("group" in line and "weblate-flags" in line for line in errors)
    assert any("note': This element is not expected" in line for line in errors)


@pytest.mark.parametrize("lang", ["en", "ru", "ar"])
def test_every_export_of_the_plural_game_is_strict_xliff_with_its_limits(game: Path, lang: str) -> None:
    """The source language, Russian (four forms) and Arabic (six: a catalog beside the game's languages)."""
    (game / "i18n" / "ar.yaml").write_text(AR, encoding="utf-8")
    result = pnp("i18n", "export", "g", "--lang", lang, "--out", "x")
    assert result.exit_code == 0, result.output
    file = Path(f"x/g.{lang}.xlf")
    assert strict_errors(file) == []
    root = tree(file)
    units = by_id(root)
    for node in units.values():
        assert set(node.attrib) <= STANDARD, node.attrib        # no attribute of another vocabulary
    # the name: 53 mm = 150 pt wide, 10 mm = 28 pt high, in Nunito Black at 7.5 pt, said in whole points
    star = units["cards.star"]
    assert (star.get("maxwidth"), star.get("maxheight"), star.get("size-unit")) == ("150", "28", "point")
    assert star.get("font") == "Nunito-Black;8"
    # the plural: a group whose notes come first, its limit and notes on the group and on every form
    gain = units["cards.gain"]
    assert local(gain) == "group" and gain.get("restype") == "x-gettext-plurals"
    children = [local(child) for child in gain]
    forms = {"en": 2, "ru": 4, "ar": 6}[lang]
    assert children == ["note"] * 4 + ["trans-unit"] * forms
    notes = [child.text for child in gain if local(child) == "note"]
    assert "Keep exactly: {count}" in notes and any(note.startswith("Room: 150 pt wide × 2 line(s)") for note in notes)
    for form in (child for child in gain if local(child) == "trans-unit"):
        assert [local(child) for child in form][-4:] == ["note"] * 4
        assert [child.text for child in form if local(child) == "note"] == notes
        assert (form.get("maxwidth"), form.get("maxheight")) == ("150", "22")
        assert form.get("font") == "Nunito-Regular;8;normal"
    assert "weblate-flags" not in file.read_text(encoding="utf-8")


@pytest.mark.parametrize("game_id", sorted(path.parent.name for path in (REPO / "content").glob("*/game.yaml")))
def test_every_export_of_the_shipped_games_is_strict_xliff(game_id: str, tmp_path: Path) -> None:
    """Each language of game.yaml, and Arabic (no catalog: every unit untranslated, no target at all)."""
    problems = Problems()
    source = load_games([REPO / "content" / game_id], problems, languages=())[0]
    assert not problems.errors, problems.errors
    files = []
    for lang in (*source.game.languages, "ar"):
        result = export_catalog(source, lang, "xliff", tmp_path, problems, screenshots=False)
        assert result is not None and not problems.errors, problems.errors
        files.append(result.file)
        text = result.file.read_text(encoding="utf-8")
        assert result.limited and text.count(' maxwidth="') >= result.limited and "weblate-flags" not in text
    assert strict_errors(*files) == []


def test_the_weblate_flavour_adds_weblate_flags_where_weblate_reads_them(game: Path) -> None:
    """Weblate reads a unit's flags from the element translate-toolkit gives it (a plural's group), only
    from the unqualified weblate-flags: there the line count and placeholders, the strict file's limits
    besides; the strict schema refuses weblate-flags and nothing else."""
    from translate.storage import poxliff
    assert pnp("i18n", "export", "g", "--lang", "ru", "--format", "xliff-weblate", "--out", "w").exit_code == 0
    assert pnp("i18n", "export", "g", "--lang", "ru", "--out", "x").exit_code == 0
    strict, weblate = Path("x/g.ru.xlf"), Path("w/g.ru.xlf")
    errors = strict_errors(weblate)
    assert len(errors) == 2 and all("'weblate-flags' is not allowed" in line for line in errors), errors
    read = {unit.xmlelement.get("id"): unit.xmlelement for unit in poxliff.PoXliffFile.parsefile(str(weblate)).units}
    # 150 pt at 7.5 pt in Weblate's pixels (4/3 of a point) at its whole 8 pt: 150 × 4/3 × 8/7.5 = 213
    assert read["cards.star"].get("weblate-flags") == "max-size:213:3, font-family:Nunito-Black, font-size:8"
    gain = read["cards.gain"].get("weblate-flags")
    assert gain.startswith("max-size:200:2, font-family:Nunito-Regular, font-size:8")
    assert 'placeholders:"{count}"' in gain
    assert (read["cards.gain"].get("maxwidth"), read["cards.gain"].get("font")) == ("150", "Nunito-Regular;8;normal")
    assert "weblate-flags" not in read["game.title"].attrib
    # without the flags the two files are the same
    without = re.sub(r' weblate-flags="[^"]*"', "", weblate.read_text(encoding="utf-8"))
    assert without == strict.read_text(encoding="utf-8")


def test_round_trip_through_a_tool_keeps_texts_limits_and_validity(game: Path) -> None:
    """Export, import unchanged (the catalog as it was), export again (the same bytes: limits and texts
    kept); then the file as translate-toolkit (Weblate's reader and writer) saves it after a translator's
    edit still validates, keeps its limits, and imports the edit."""
    from translate.storage import poxliff
    catalog = game / "i18n" / "ru.yaml"
    before = catalog.read_bytes()
    assert pnp("i18n", "export", "g", "--lang", "ru", "--out", "x").exit_code == 0
    first = Path("x/g.ru.xlf").read_bytes()
    result = pnp("i18n", "import", "g", "x/g.ru.xlf")
    assert result.exit_code == 0 and "0 translation(s) written" in result.output, result.output
    assert catalog.read_bytes() == before
    assert pnp("i18n", "export", "g", "--lang", "ru", "--out", "x").exit_code == 0
    assert Path("x/g.ru.xlf").read_bytes() == first
    store = poxliff.PoXliffFile.parsefile("x/g.ru.xlf")
    for unit in store.units:
        if unit.xmlelement.get("id") == "deck.cards":
            unit.target = "Карты"
        if unit.xmlelement.get("id") == "cards.gain":
            forms = list(unit.target.strings)
            forms[2] = "Получите {count} звёздочек"
            unit.target = forms
    Path("t.xlf").write_bytes(bytes(store))
    assert strict_errors(Path("t.xlf")) == []
    saved = by_id(tree(Path("t.xlf")))
    assert (saved["cards.star"].get("maxwidth"), saved["cards.star"].get("font")) == ("150", "Nunito-Black;8")
    assert saved["cards.gain"].get("maxheight") == "22"
    result = pnp("i18n", "import", "g", "t.xlf")
    assert result.exit_code == 0 and "2 translation(s) written" in result.output, result.output
    text = catalog.read_text(encoding="utf-8")
    assert 'cards: "Карты"' in text and '"Получите {count} звёздочек"' in text and "Звезда" in text


def test_a_file_from_the_pnp_of_before_still_imports(game: Path) -> None:
    """tests/i18n/data/g.ru.before-issue-33.xlf: this game exported by pnp before issue 33 (weblate-flags,
    a group's notes after its trans-units), with a translator's two edits."""
    shutil.copy(OLD_EXPORT, "old.xlf")
    assert 'weblate-flags="max-size:160:3' in Path("old.xlf").read_text(encoding="utf-8")
    result = pnp("i18n", "import", "g", "old.xlf")
    assert result.exit_code == 0, result.output
    assert "g/i18n/ru.yaml: 2 translation(s) written, 3 unchanged" in result.output
    text = (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")
    assert 'cards: "Карты"' in text and '"Получите {count} звёздочек"' in text
