"""Decks from spreadsheets (`cards_from:`): CSV, XLSX and ODS build the same cards as YAML, and every
mistake in a sheet is reported at its cell (`data/cards.csv:3:B: count: …`)."""

from __future__ import annotations

import codecs
import contextlib
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import pypdfium2
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.content.game import load_game
from generator.errors import Problems
from tests.test_content_errors import make_game

# ------------------------------------------------------------- a small game, its deck in YAML or in a sheet

GAME = """\
id: g
title: game.title
languages: [en, bg]
editions:
  standard: {name: game.standard}
  full: {name: game.full}
fonts:
  body: [nunito, inter]
"""

TEMPLATE = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  body: {font: body, size: 10pt, min_size: 8pt}
boxes:
  art: {kind: art, art: "@art", x: 10, y: 10, width: 43, height: 40}
  name: {kind: text, text: "@name", x: 5, y: 60, width: 53, height: 10, style: body}
  cost: {kind: text, literal: "@cost", x: 5, y: 72, width: 53, height: 8, style: body, when: "@cost"}
"""

YAML_DECK = """\
decks:
  - id: cards
    name: deck.cards
    template: card
    back: back
    cards:
      - {id: star, count: 2, fields: {name: cards.star, art: art/star.svg, cost: 3}}
      - {id: moon, count: {standard: 1, full: 4}, fields: {name: cards.moon, art: art/star.svg}}
      - {id: sun, editions: [full], fields: {name: cards.sun, art: art/star.svg, cost: 1.5}}
"""

SHEET_DECK = """\
decks:
  - id: cards
    name: deck.cards
    template: card
    back: back
    cards_from: {where}
"""

# the same three cards; a blank row and a note column on the way
HEADER = ["id", "count.standard", "count.full", "name", "art", "cost", "# note"]
ROWS = [
    ["star", 2, 2, "cards.star", "art/star.svg", 3, "the common one"],
    ["", "", "", "", "", "", ""],
    ["moon", 1, 4, "cards.moon", "art/star.svg", "", ""],
    ["sun", "", 1, "cards.sun", "art/star.svg", 1.5, ""],
]

EN = """\
en:
  game: {title: "Test game", standard: "Standard", full: "Full"}
  deck: {cards: "Cards"}
  cards: {star: "Star", moon: "Moon", sun: "Sun"}
"""
BG = """\
bg:
  game: {title: "Игра", standard: "Основна", full: "Пълна"}
  deck: {cards: "Карти"}
  cards: {star: "Звезда", moon: "Луна", sun: "Слънце"}
"""


def csv_text(header=HEADER, rows=ROWS, separator=",") -> str:
    return "\n".join(separator.join(str(value) for value in row) for row in [header, *rows]) + "\n"


@dataclass(frozen=True)
class Formula:
    """A formula cell of an ODS sheet, with the value a spreadsheet program saved beside it (or none)."""

    text: str
    saved: float | None = None


def xlsx_bytes(header=HEADER, rows=ROWS, title="Cargo") -> bytes:
    import openpyxl
    workbook = openpyxl.Workbook()
    workbook.active.title = "Notes"          # not the first sheet: `sheet:` picks it
    sheet = workbook.create_sheet(title)
    for row in [header, *rows]:
        sheet.append([None if value == "" else value for value in row])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def ods_bytes(header=HEADER, rows=ROWS, title="Cargo") -> bytes:
    """A minimal OpenDocument spreadsheet (what LibreOffice writes, without styles)."""
    def cell(value) -> str:
        if value == "":
            return "<table:table-cell/>"
        if isinstance(value, Formula):     # as LibreOffice saves it, or as a program that never calculates
            saved = "" if value.saved is None else \
                f' office:value-type="float" office:value="{value.saved}"><text:p>{value.saved}</text:p'
            return f'<table:table-cell table:formula="of:{escape(value.text)}"{saved}></table:table-cell>'
        if isinstance(value, (int, float)):
            return (f'<table:table-cell office:value-type="float" office:value="{value}">'
                    f"<text:p>{value}</text:p></table:table-cell>")
        return f'<table:table-cell office:value-type="string"><text:p>{escape(value)}</text:p></table:table-cell>'
    body = "".join("<table:table-row>" + "".join(map(cell, row)) + "</table:table-row>" for row in [header, *rows])
    office = "urn:oasis:names:tc:opendocument:xmlns"
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="{office}:office:1.0" '
               f'xmlns:table="{office}:table:1.0" xmlns:text="{office}:text:1.0" office:version="1.2">'
               f'<office:body><office:spreadsheet><table:table table:name="{title}">{body}</table:table>'
               "</office:spreadsheet></office:body></office:document-content>")
    manifest = (f'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="{office}:manifest:1.0" '
                'manifest:version="1.2"><manifest:file-entry manifest:full-path="/" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def game_with(tmp_path: Path, cards_yaml: str, files: dict[str, str | bytes] | None = None,
              name: str = "g") -> Path:
    folder = make_game(tmp_path / name, {"game.yaml": GAME, "cards.yaml": cards_yaml, "templates/card.yaml": TEMPLATE,
                                         "i18n/en.yaml": EN, "i18n/bg.yaml": BG})
    for relative, content in (files or {}).items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return folder


def pnp(*args: str):
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert "Traceback" not in result.output and \
        (result.exception is None or isinstance(result.exception, SystemExit)), \
        result.output
    return result


def cards_pdf(folder: Path, out: Path, lang: str = "en") -> dict[str, bytes]:
    """The A4 cards.pdf of each edition that has cards."""
    result = pnp("build", folder, "--only", "cards", "--paper", "a4", "--lang", lang, "--out", out, "-q", "--jobs", "1")
    assert result.exit_code == 0, result.output
    files = {edition: out / "g" / edition / lang / "a4" / "cards.pdf" for edition in ("standard", "full")}
    return {edition: file.read_bytes() for edition, file in files.items() if file.exists()}


def load(folder: Path, languages=None):
    problems = Problems()
    source = load_game(folder, problems, languages=languages)
    return source, [str(problem) for problem in problems.errors]


def messages(folder: Path) -> list[str]:
    """The problem lines `pnp check` prints (hints aside; paths from beside the game), and that it exits 1."""
    with contextlib.chdir(folder.parent):
        result = pnp("check", folder.name)
    assert result.exit_code == 1, result.output
    return [line for line in result.output.splitlines()
            if line and not line.startswith("    hint:") and not line.endswith("warning(s)")]


# ------------------------------------------------------------- the same cards.pdf from YAML, CSV, XLSX and ODS

@pytest.fixture(scope="module")
def yaml_pdfs(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("yaml")
    return cards_pdf(game_with(tmp_path, YAML_DECK), tmp_path / "out")


@pytest.mark.parametrize("where, files", [
    ("data/cards.csv", {"data/cards.csv": csv_text()}),
    ("{file: data/cards.xlsx, sheet: Cargo}", {"data/cards.xlsx": xlsx_bytes()}),
    ("{file: data/cards.ods, sheet: Cargo}", {"data/cards.ods": ods_bytes()}),
], ids=["csv", "xlsx", "ods"])
def test_a_deck_from_a_sheet_builds_the_same_cards_pdf_as_in_yaml(tmp_path, yaml_pdfs, where, files):
    folder = game_with(tmp_path, SHEET_DECK.format(where=where), files)
    pdfs = cards_pdf(folder, tmp_path / "out")
    assert set(pdfs) == {"standard", "full"} and pdfs == yaml_pdfs


def printed(source) -> dict[tuple[str, str], tuple[int, dict]]:
    """(card, edition) → (copies, fields) of the first deck: what a build prints."""
    from generator.content.game import piece_count
    deck = source.pieces["cards"].sets[0]
    return {(card.id, edition): (piece_count(deck, index, edition), card.fields)
            for index, card in enumerate(deck.cards) for edition in source.game.editions}


def test_the_cards_read_from_a_sheet_are_the_yaml_cards(tmp_path):
    from_yaml, problems = load(game_with(tmp_path, YAML_DECK, name="yaml"))
    from_sheet, sheet_problems = load(game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"),
                                                {"data/c.csv": csv_text()}, name="csv"))
    assert problems == sheet_problems == []
    assert printed(from_sheet) == printed(from_yaml)
    assert printed(from_sheet)[("sun", "full")] == (1, {"name": "cards.sun", "art": "art/star.svg", "cost": 1.5})


# ------------------------------------------------------------- encodings and separators

@pytest.mark.parametrize("encode", [
    lambda text: text.encode("utf-8"),
    lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),                             # Excel's "CSV UTF-8"
    lambda text: text.replace(",", ";").encode("utf-8"),                             # Excel in much of Europe
    lambda text: codecs.BOM_UTF16_LE + text.replace(",", "\t").encode("utf-16-le"),  # Excel's "Unicode text"
    lambda text: text.encode("utf-16-be"),                                           # UTF-16, no BOM
    lambda text: text.replace("\n", "\r\n").encode("utf-8"),
], ids=["utf8", "bom", "semicolon", "utf16-tab", "utf16be-no-bom", "crlf"])
def test_csv_encodings_and_separators_read_alike(tmp_path, encode):
    rows = [["star", 2, 2, "cards.star", "art/star.svg", 3, "Звезда; a note, with commas"], *ROWS[1:]]
    text = "\n".join(",".join(f'"{value}"' if "," in str(value) or ";" in str(value) else str(value)
                              for value in row) for row in [HEADER, *rows]) + "\n"
    source, problems = load(game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": encode(text)}))
    assert problems == []
    cards = source.pieces["cards"].sets[0].cards
    assert [(card.id, card.count, card.fields.get("cost")) for card in cards] == [
        ("star", {"standard": 2, "full": 2}, 3), ("moon", {"standard": 1, "full": 4}, None), ("sun", {"full": 1}, 1.5)]


def test_a_csv_in_another_encoding_says_how_to_save_it(tmp_path):
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"),
                       {"data/c.csv": "id,name\nzvezda,Étoile\n".encode("cp1252")})
    with contextlib.chdir(folder.parent):
        result = pnp("check", "g")
    assert result.exit_code == 1
    assert "g/data/c.csv:2: not UTF-8 text (invalid continuation byte at byte 15)" in result.output
    assert "CSV UTF-8" in result.output


# ------------------------------------------------------------- mistakes, located to the cell

def test_a_bad_count_cell_names_file_row_and_column(tmp_path):
    rows = [["star", 2, "cards.star", "art/star.svg"], ["", "", "", ""], ["moon", "x", "cards.moon", "art/star.svg"],
            ["sun", "0", "cards.sun", "art/star.svg"], ["rain", "2.5", "cards.sun", "art/star.svg"]]
    csv = csv_text(["id", "count", "name", "art"], rows)
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/cargo.csv"), {"data/cargo.csv": csv})
    assert messages(folder) == [
        "g/data/cargo.csv:4:B: count: expected a positive whole number, got 'x'",    # row 3 is blank, skipped
        "g/data/cargo.csv:5:B: count: expected a positive whole number, got 0",
        "g/data/cargo.csv:6:B: count: expected a positive whole number, got 2.5"]


def test_a_bad_cell_in_a_workbook_names_the_sheet(tmp_path):
    rows = [["star", 1, 1, "cards.star", "art/star.svg", "", ""], ["Moon Card", 1, "many", "cards.moon", "", "", ""]]
    folder = game_with(tmp_path, SHEET_DECK.format(where="{file: data/c.xlsx, sheet: Cargo}"),
                       {"data/c.xlsx": xlsx_bytes(rows=rows)})
    assert messages(folder)[:2] == [
        "g/data/c.xlsx[Cargo]:3:A: id: 'Moon Card' is not a valid identifier",
        "g/data/c.xlsx[Cargo]:3:C: count.full: expected a positive whole number, got 'many'"]


def test_an_unknown_column_is_named_with_the_known_ones(tmp_path):
    csv = csv_text(["id", "count", "nmae", "art", "count.deluxe", "name@de"],
                   [["star", 1, "cards.star", "art/star.svg", 1, "Stern"]])
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": csv})
    with contextlib.chdir(folder.parent):
        result = pnp("check", "g")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    at = lines.index("g/data/c.csv:1:C: unknown column 'nmae': no template reads a field 'nmae'")
    assert lines[at + 1] == ("    hint: known columns: id, count, count.<edition>, editions, art, badge, color, cost, "
                             "deck, name, "
                             "and <field>@<language> for a card's text; a column of notes starts with '#'")
    assert "g/data/c.csv:1:E: unknown edition 'deluxe' in column 'count.deluxe'" in lines
    assert "g/data/c.csv:1:F: unknown language 'de' in column 'name@de'" in lines


def test_mistakes_in_the_reference_and_the_header(tmp_path):
    both = SHEET_DECK.format(where="data/c.csv") + "    cards: [{id: star}]\n"
    assert messages(game_with(tmp_path, both, {"data/c.csv": csv_text()}, name="both"))[0] == \
        "g/cards.yaml:6:5: a deck takes its cards from `cards:` or from `cards_from:`, not both"
    assert messages(game_with(tmp_path, SHEET_DECK.format(where="data/none.csv"), name="missing"))[0] == \
        "g/cards.yaml:6:17: file not found: data/none.csv"
    assert messages(game_with(tmp_path, SHEET_DECK.format(where="{file: data/c.xlsx, sheet: Cargoes}"),
                              {"data/c.xlsx": xlsx_bytes()}, name="sheet"))[0] == \
        "g/cards.yaml:6:44: no sheet 'Cargoes' in 'c.xlsx'"
    no_id = csv_text(["name", "count", "name"], [["cards.star", 1, "x"]])
    assert messages(game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": no_id}, name="id")) == [
        "g/data/c.csv:1:C: column 'name' appears twice", "g/data/c.csv:1: no 'id' column in the header row"]
    header_only = csv_text(["id", "name"], [])
    assert messages(game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": header_only},
                              name="empty"))[0] == "g/data/c.csv:1: no cards under the header row"


def test_a_later_problem_with_a_card_is_reported_at_its_cell(tmp_path):
    """Layout's messages (a missing translation) point at the sheet's cell, as they point into YAML."""
    csv = csv_text(["id", "name", "art"],
                   [["star", "cards.star", "art/star.svg"], ["comet", "cards.comet", "art/star.svg"]])
    lines = messages(game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": csv}))
    assert "g/data/c.csv:3:B: missing translation key 'cards.comet' for language 'en' (in g/i18n/en.yaml)" in lines


def test_a_row_whose_id_starts_with_hash_is_set_aside(tmp_path):
    csv = csv_text(["id", "name", "art"], [["star", "cards.star", "art/star.svg"], ["#comet", "cards.comet", "x"]])
    source, problems = load(game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": csv}))
    assert problems == [] and [card.id for card in source.pieces["cards"].sets[0].cards] == ["star"]


# ------------------------------------------------------------- per-language columns feed the catalogs

TEXT_SHEET = csv_text(["id", "count.standard", "name", "name@en", "name@bg", "art"], [
    ["star", 2, "cards.star", "", "", "art/star.svg"],               # the key's texts stay in the catalogs
    ["comet", 1, "", "Comet", "Комета", "art/star.svg"],              # no key: cards.cards.comet.name
    ["meteor", 1, "cards.meteor", "Meteor", "", "art/star.svg"],      # bg untranslated
])


def test_text_columns_feed_the_catalogs_and_reach_the_page(tmp_path):
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": TEXT_SHEET})
    source, problems = load(folder)
    assert problems == []
    assert source.pieces["cards"].sets[0].cards[1].fields["name"] == "cards.cards.comet.name"
    assert source.catalogs["bg"].entries["cards.cards.comet.name"].text == "Комета"
    assert str(source.catalogs["bg"].entries["cards.cards.comet.name"].mark) == "g/data/c.csv:3:E" or \
        str(source.catalogs["bg"].entries["cards.cards.comet.name"].mark).endswith("data/c.csv:3:E")
    assert source.catalogs["bg"].entries["cards.meteor"].untranslated
    assert source.sheet_keys == {"en": {"cards.star", "cards.cards.comet.name", "cards.meteor"},
                                 "bg": {"cards.star", "cards.cards.comet.name", "cards.meteor"}}
    lines = messages(folder)
    # at its own empty cell, the name@bg column (E), not at the key's column (C)
    assert "g/data/c.csv:4:E: missing translation key 'cards.meteor' for language 'bg' (its cell is empty)" in lines
    # filled in, it builds; the Bulgarian text comes from the sheet
    (folder / "data" / "c.csv").write_text(TEXT_SHEET.replace("Meteor,,", "Meteor,Метеор,"), encoding="utf-8")
    with pypdfium2.PdfDocument(cards_pdf(folder, tmp_path / "out", "bg")["standard"]) as pdf:
        text = "".join(pdf[index].get_textpage().get_text_range() for index in range(len(pdf)))
    assert "Звезда" in text and "Комета" in text and "Метеор" in text


def test_a_text_in_the_sheet_and_in_the_catalog_is_an_error(tmp_path):
    bg = BG.replace('star: "Звезда"', 'star: "Звезда", meteor: "Метеорит"')
    sheet = TEXT_SHEET.replace("Meteor,,", "Meteor,Метеор,")
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": sheet, "i18n/bg.yaml": bg})
    assert "g/data/c.csv:4:E: the bg text of 'cards.meteor' is also written at g/i18n/bg.yaml:4:35" in messages(folder)


def test_stub_leaves_the_sheets_keys_to_the_sheet_and_status_counts_them(tmp_path):
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"),
                       {"data/c.csv": TEXT_SHEET.replace("Meteor,,", "Meteor,Метеор,")})
    (folder / "game.yaml").write_text(GAME.replace("[en, bg]", "[en, bg, hu]"), encoding="utf-8")
    assert pnp("i18n", "stub", folder, "--lang", "bg").output.endswith(": 0 key(s) added\n")
    hu = pnp("i18n", "stub", folder, "--lang", "hu")
    assert hu.exit_code == 0, hu.output
    written = (folder / "i18n" / "hu.yaml").read_text(encoding="utf-8")
    assert "meteor" in written and "Meteor" in written       # no name@hu column: hu is translated in its catalog
    status = pnp("i18n", "status", folder, "--brief")
    assert [line.split()[:3] for line in status.output.splitlines()[1:]] == [
        ["g", "en", "7/7"], ["g", "bg", "7/7"], ["g", "hu", "0/7"]]


# ------------------------------------------------------------- builds, exports, bounds

def test_an_edit_of_the_sheet_rebuilds_and_no_edit_does_not(tmp_path):
    from generator.build import BuildOptions, build
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": csv_text()})
    options = dict(out=tmp_path / "out", editions=("standard",), languages=("en",), papers=("a4",),
                   only=frozenset({"cards"}), jobs=1)
    assert build([folder], BuildOptions(**options)).written
    assert build([folder], BuildOptions(**options)).up_to_date == ["g/standard/en"]
    (folder / "data" / "c.csv").write_text(csv_text().replace("star,2,2", "star,3,2"), encoding="utf-8")
    rebuilt = build([folder], BuildOptions(**options))
    assert rebuilt.written and not rebuilt.up_to_date
    with pypdfium2.PdfDocument(rebuilt.written[0]) as pdf:
        assert len(pdf) == 2                 # 3 stars + 1 moon: one sheet of fronts, one of backs


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_export_writes_a_sheet_that_reads_back_as_the_same_cards(tmp_path, suffix):
    yaml_game = game_with(tmp_path, YAML_DECK, name="yaml")
    target = tmp_path / f"cards.{suffix}"
    result = pnp("data", "export", yaml_game, "cards", "--to", target)
    assert result.exit_code == 0, result.output
    assert f"cards.{suffix}: 3 card(s) of cards, 6 columns" in result.output
    sheet_game = game_with(tmp_path, SHEET_DECK.format(where=f"data/cards.{suffix}"),
                           {f"data/cards.{suffix}": target.read_bytes()}, name="sheet")
    from_yaml, _ = load(yaml_game)
    from_sheet, problems = load(sheet_game)
    assert problems == []
    assert printed(from_sheet) == printed(from_yaml)


def test_export_refuses_a_list_field_and_an_unknown_deck(tmp_path):
    folder = game_with(tmp_path, YAML_DECK.replace("cost: 3}", "cost: 3, icons: [a, b]}"))
    with contextlib.chdir(folder.parent):
        result = pnp("data", "export", "g", "cards", "--to", tmp_path / "x.csv")
    assert result.exit_code == 1 and not (tmp_path / "x.csv").exists()
    assert "g/cards.yaml:7:92: field 'icons' of card 'star' is a list: a cell holds one value" in result.output
    unknown = pnp("data", "export", folder, "tokens", "--to", tmp_path / "x.csv")
    assert unknown.exit_code == 2 and "no deck or set 'tokens' in g (there are: cards/cards)" in unknown.output


def test_a_zip_bomb_and_an_endless_sheet_are_refused_unread(tmp_path):
    from tests.zip_bomb import zip_of
    bomb = zip_of([("xl/worksheets/sheet1.xml", [b"<", (b" ", 300 * 2**20), b">"])])
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/c.xlsx"), {"data/c.xlsx": bomb})
    assert messages(folder)[0] == "g/data/c.xlsx: refused: the workbook unpacks to 300 MB (at most 64 MB)"
    long = "id,name\n" + "a,b\n" * 20_001
    folder = game_with(tmp_path, SHEET_DECK.format(where="data/c.csv"), {"data/c.csv": long}, name="long")
    assert messages(folder)[0].startswith("g/data/c.csv: refused: 20,002 rows")


def test_a_sheet_outside_the_game_folder_is_refused(tmp_path):
    (tmp_path / "secret.csv").write_text("id\nx\n")
    folder = game_with(tmp_path, SHEET_DECK.format(where="../../secret.csv"))
    assert messages(folder)[0] == "g/cards.yaml:6:17: '../../secret.csv' is outside the game folder"


def test_a_workbook_that_lies_about_its_size_ends_in_a_message_within_the_budget(tmp_path):
    """A sheet declared as 1,000 bytes that unpacks to 150 MB: stopped where the declared size ends."""
    import struct
    from tests.robustness.harness import run_pnp
    from tests.zip_bomb import Piece, zip_of
    honest = zipfile.ZipFile(io.BytesIO(xlsx_bytes()))
    entries: list[tuple[str, list[Piece]]] = []
    for entry in honest.infolist():
        data = honest.read(entry.filename)
        pieces: list[Piece] = [data]
        if entry.filename == "xl/worksheets/sheet2.xml":
            head, tail = data.split(b"<sheetData>")[0], data.split(b"</sheetData>")[1]
            pieces = [head + b"<sheetData>", (b'<row><c t="inlineStr"><is><t>x</t></is></c></row>', 3_000_000),
                      b"</sheetData>" + tail]
        entries.append((entry.filename, pieces))
    raw = bytearray(zip_of(entries))
    name = b"xl/worksheets/sheet2.xml"
    for signature, size_at, name_length_at, name_at in ((b"PK\x03\x04", 22, 26, 30), (b"PK\x01\x02", 24, 28, 46)):
        at = raw.find(signature)
        while at != -1:
            length = struct.unpack("<H", raw[at + name_length_at:at + name_length_at + 2])[0]
            if raw[at + name_at:at + name_at + length] == name:
                raw[at + size_at:at + size_at + 4] = struct.pack("<I", 1000)
            at = raw.find(signature, at + 4)
    folder = game_with(tmp_path, SHEET_DECK.format(where="{file: data/c.xlsx, sheet: Cargo}"),
                       {"data/c.xlsx": bytes(raw)})
    run = run_pnp("check", str(folder)).assert_clean(1)
    assert "data/c.xlsx: cannot read the workbook: " in run.output and "larger than its declared" in run.output


# ------------------------------------------------------------- formulas: the value a program saved, or none

def _with_saved_values(data: bytes, values: dict[str, str]) -> bytes:
    """The XLSX with `<v>` written for formula cells by reference (as Excel saves them; openpyxl cannot)."""
    source, buffer = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry in source.infolist():
            content = source.read(entry)
            for reference, value in values.items():
                content = re.sub(rf'(<c r="{reference}"><f>[^<]*</f>)<v></v>'.encode(),
                                 rb"\1<v>" + value.encode() + rb"</v>", content)
            archive.writestr(entry, content)
    return buffer.getvalue()


def test_a_formula_with_no_saved_value_is_refused_at_its_cell(tmp_path):
    """openpyxl writes '=1+1' without its value (only a spreadsheet program calculates): calamine reads an
    empty cell and the card was counted as 1. Now the cell is named; a saved value (Excel, LibreOffice) is read."""
    rows = [["star", "=1+1", 2, "cards.star", "art/star.svg", 3, ""], *ROWS[1:]]
    deck = SHEET_DECK.format(where="{file: data/c.xlsx, sheet: Cargo}")
    unsaved = xlsx_bytes(rows=rows)
    assert messages(game_with(tmp_path, deck, {"data/c.xlsx": unsaved}, name="xlsx"))[0] == (
        "g/data/c.xlsx[Cargo]:2:B: cell B2 holds the formula '=1+1' with no saved value (a program that writes "
        "workbooks without calculating them, such as openpyxl, saves none): pnp reads the values a spreadsheet "
        "program saved, and this one would read as empty")
    source, problems = load(game_with(tmp_path, deck, {"data/c.xlsx": _with_saved_values(unsaved, {"B2": "2"})},
                                      name="saved"))
    assert not problems and source.pieces["cards"].sets[0].items[0].count == {"standard": 2, "full": 2}
    ods_rows = [["star", Formula("=1+1"), 2, "cards.star", "art/star.svg", 3, ""], *ROWS[1:]]
    deck = SHEET_DECK.format(where="{file: data/c.ods, sheet: Cargo}")
    assert messages(game_with(tmp_path, deck, {"data/c.ods": ods_bytes(rows=ods_rows)}, name="ods"))[0].startswith(
        "g/data/c.ods[Cargo]:2:B: cell B2 holds the formula '=1+1' with no saved value")
    ods_rows[0][1] = Formula("=1+1", saved=2)
    source, problems = load(game_with(tmp_path, deck, {"data/c.ods": ods_bytes(rows=ods_rows)}, name="ods-saved"))
    assert not problems and source.pieces["cards"].sets[0].items[0].count == {"standard": 2, "full": 2}
