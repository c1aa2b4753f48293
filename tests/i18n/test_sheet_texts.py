"""Texts kept in a deck's spreadsheet (`name@pl`, `effect@el`): one place per text, seen by every command.

A tiny game whose deck comes from a CSV: `pnp i18n status`, `stub`, `export` (PO and XLIFF), `import`,
`pnp check` and `pnp data export` run as a user runs them, and the CSV's bytes are read back: a
translation of a text kept in a cell goes back into that cell, every other byte of the file as it was,
and nothing is added to the catalog. Every problem of a language's column is reported at its own cell.
"""

from __future__ import annotations

import codecs
import contextlib
from pathlib import Path

import polib
import pytest
from lxml import etree

from generator.content.sheet_writer import _records, csv_with_cells
from generator.content.spreadsheet import SheetRefused, decode_csv, unquoted_formula
from tests.test_content_errors import CARD_TEMPLATE, make_game, pnp

GAME = """\
id: g
title: game.title
languages: [en, pl, el]
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
    cards_from: data/cards.csv
"""

TEMPLATE = CARD_TEMPLATE + '  effect: {kind: text, text: "@effect", x: 5, y: 72, width: 53, height: 10, style: body}\n'

EN = """\
en:
  game:
    title: "Test game"
    edition: "Standard"
  deck:
    cards: "Cards"
  cards:
    star: "Star"
    moon: "Moon"
    star_effect: "Shine"
    moon_effect: "Glow"
"""

PL = """\
pl:
  game:
    title: "Gra testowa"
    edition: "Standardowa"
  deck:
    cards: "Karty"
  cards:
    star_effect: "Świeci"   # no effect@pl column: the catalog keeps it
    moon_effect: "Jarzy się"
"""

EL = """\
el:
  game: {title: "Δοκιμαστικό παιχνίδι", edition: "Βασική"}
  deck: {cards: "Κάρτες"}
  cards: {star: "Αστέρι", moon: "Φεγγάρι"}
"""

# CRLF line ends, a BOM, a quoted cell: all of it must survive an import
CSV = ("\ufeffid,count,name,name@pl,effect,effect@el,art\r\n"
       'star,2,cards.star,"Gwiazda",cards.star_effect,Λάμψη,art/star.svg\r\n'
       "moon,1,cards.moon,,cards.moon_effect,,art/star.svg\r\n").encode("utf-8")


def sheet_game(tmp_path: Path, csv: bytes = CSV, **files: str) -> Path:
    folder = make_game(tmp_path, {"game.yaml": GAME, "cards.yaml": CARDS, "templates/card.yaml": TEMPLATE,
                                  "i18n/en.yaml": EN, "i18n/pl.yaml": PL, "i18n/el.yaml": EL, **files})
    (folder / "data").mkdir()
    (folder / "data" / "cards.csv").write_bytes(csv)
    return folder


def run(folder: Path, *args: str):
    """The command line as a user beside the game runs it (messages name g/…)."""
    with contextlib.chdir(folder.parent):
        return pnp(*args)


def problem_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("g/")]


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


def filled(csv: bytes = CSV, moon_pl: str = "Księżyc", moon_el: str = "Λάμψη φεγγαριού") -> bytes:
    return csv.replace("moon,1,cards.moon,,cards.moon_effect,,".encode(),
                       f"moon,1,cards.moon,{moon_pl},cards.moon_effect,{moon_el},".encode())


# ------------------------------------------------------------- where each problem of a language column is

def test_an_empty_cell_is_reported_at_its_own_column_not_the_keys(tmp_path):
    folder = sheet_game(tmp_path)
    result = run(folder, "check", "g")
    assert result.exit_code == 1
    assert problem_lines(result.output) == [
        "g/data/cards.csv:3:D: missing translation key 'cards.moon' for language 'pl' (its cell is empty)",
        "g/data/cards.csv:3:F: missing translation key 'cards.moon_effect' for language 'el' (its cell is empty)",
    ]
    assert "    hint: write the el text in cell F3 of g/data/cards.csv" in result.output.splitlines()


def test_without_a_key_column_the_empty_cell_is_still_its_own(tmp_path):
    """No `name` column: the key is made from the card (cards.cards.moon.name); its empty Polish cell is D3,
    not the English column C the card's field is marked at."""
    csv = ("id,count,name@en,name@pl,effect,effect@el,art\n"
           "star,2,Star,Gwiazda,cards.star_effect,Λάμψη,art/star.svg\n"
           "moon,1,Moon,,cards.moon_effect,Λάμψη,art/star.svg\n").encode()
    folder = sheet_game(tmp_path, csv)
    lines = problem_lines(run(folder, "check", "g", "--lang", "pl").output)
    assert lines == ["g/data/cards.csv:3:D: missing translation key 'cards.cards.moon.name' for language 'pl' "
                     "(its cell is empty)"]


def test_a_language_columns_other_problems_are_at_its_cell(tmp_path):
    control = problem_lines(run(sheet_game(tmp_path / "a", filled(moon_pl='"Księżyc\x07"')), "check", "g").output)
    assert control == ["g/data/cards.csv:3:D: the pl text of 'cards.moon' holds the control character U+0007"]
    long_greek = "Λάμψη φεγγαριού πολύ μεγάλη " * 8
    csv = filled(moon_el=long_greek).replace(b'"Gwiazda"', b'"Gwiazda {nope}"')
    lines = problem_lines(run(sheet_game(tmp_path / "b", csv), "check", "g").output)
    assert lines[0] == "g/data/cards.csv:2:D: 'cards.star' uses {nope}, which has no value here"
    assert lines[1].startswith("g/data/cards.csv:3:F: text does not fit: ") and "language el" in lines[1]
    assert len(lines) == 2


def test_a_text_in_the_cell_and_in_the_catalog(tmp_path):
    """Two texts: an error at the cell naming both; the same text twice: a warning (an edit would part them)."""
    twice = PL.replace('  cards:\n', '  cards:\n    star: "Gwiazdka"\n')
    result = run(sheet_game(tmp_path / "a", filled(), **{"i18n/pl.yaml": twice}), "check", "g")
    assert problem_lines(result.output) == [
        "g/data/cards.csv:2:D: the pl text of 'cards.star' is also written at g/i18n/pl.yaml:8:11"]
    assert "    hint: keep it in one place: clear this cell, or remove the key there ('Gwiazda' here, " \
           "'Gwiazdka' there)" in result.output.splitlines()
    same = run(sheet_game(tmp_path / "b", filled(), **{"i18n/pl.yaml": twice.replace("Gwiazdka", "Gwiazda")}),
               "check", "g")
    assert same.exit_code == 0, same.output
    assert problem_lines(same.output) == [
        "g/data/cards.csv:2:D: warning: the pl text of 'cards.star' is written twice: in this cell and at "
        "g/i18n/pl.yaml:8:11 (the same text)"]


# ------------------------------------------------------------- status and stub see the sheet

def test_status_counts_the_cells_and_names_the_empty_ones(tmp_path):
    result = run(sheet_game(tmp_path), "i18n", "status", "g")
    assert result.exit_code == 1
    table = [line.split()[:4] for line in result.output.splitlines()[1:4]]
    assert table == [["g", "en", "7/7", "0"], ["g", "pl", "6/7", "1"], ["g", "el", "6/7", "1"]]
    text = result.output
    assert "g pl — missing in g/data/cards.csv, the empty cells to fill in:\n  D3     cards.moon\n" in text
    assert "g el — missing in g/data/cards.csv, the empty cells to fill in:\n  F3     cards.moon_effect\n" in text
    assert "missing in g/i18n/" not in text         # nothing is missing from a catalog


def test_without_a_catalog_file_status_and_stub_still_see_the_sheet(tmp_path):
    """No i18n/pl.yaml yet: the sheet's Polish texts count, and the stub gets only what the sheet lacks."""
    folder = sheet_game(tmp_path)
    (folder / "i18n" / "pl.yaml").unlink()
    status = run(folder, "i18n", "status", "g", "--brief")
    assert status.output.splitlines()[2].split()[:4] == ["g", "pl", "1/7", "6"]
    stub = run(folder, "i18n", "stub", "g", "--lang", "pl")
    assert stub.exit_code == 0, stub.output
    assert stub.output == "g/i18n/pl.yaml: 5 key(s) added\ng/data/cards.csv: 1 text(s) to write in their " \
                          "empty cells, not the catalog: D3 (cards.moon)\n"
    written = (folder / "i18n" / "pl.yaml").read_text(encoding="utf-8")
    assert "star_effect:" in written and "title:" in written
    assert "star:" not in written and "moon:" not in written       # the sheet's name@pl column has them
    assert (folder / "data" / "cards.csv").read_bytes() == CSV


def test_stub_adds_nothing_the_sheet_holds(tmp_path):
    folder = sheet_game(tmp_path)
    before = files_of(folder)
    # the stub adds no key, and says which empty cells the language's texts go in
    for lang, cell in (("pl", "D3 (cards.moon)"), ("el", "F3 (cards.moon_effect)")):
        assert run(folder, "i18n", "stub", "g", "--lang", lang).output.endswith(
            ": 0 key(s) added\ng/data/cards.csv: 1 text(s) to write in their empty cells, not the catalog: "
            f"{cell}\n")
    after = files_of(folder)
    # the stub marks the catalog for editors (its schema line) and adds no key
    assert {name for name in after if after[name] != before[name]} <= {"i18n/pl.yaml", "i18n/el.yaml"}
    assert after["i18n/pl.yaml"].endswith(before["i18n/pl.yaml"])


# ------------------------------------------------------------- export, translate, import back into the cell

def exported(folder: Path, fmt: str) -> Path:
    result = run(folder, "i18n", "export", "g", "--lang", "pl", "--format", fmt, "--out", "x")
    assert result.exit_code == 0, result.output
    return folder.parent / "x" / f"g.pl.{'po' if fmt == 'po' else 'xlf'}"


def po_texts(file: Path) -> dict[str, str]:
    return {entry.msgctxt: entry.msgstr for entry in polib.pofile(str(file))}


def xliff_texts(file: Path) -> dict[str, str]:
    units = etree.parse(str(file)).getroot().iter("{*}trans-unit")
    return {unit.get("id"): "".join(target.itertext()) for unit in units for target in unit.iterfind("{*}target")}


def translate(file: Path, texts: dict[str, str]) -> None:
    """What a translator's tool does: each key's target set (added where it had none), marked translated."""
    if file.suffix == ".po":
        catalog = polib.pofile(str(file))
        for entry in catalog:
            if entry.msgctxt in texts:
                entry.msgstr = texts[entry.msgctxt]
        catalog.save(str(file))
        return
    tree = etree.parse(str(file))
    for unit in tree.getroot().iter("{*}trans-unit"):
        if unit.get("id") in texts:
            source = next(unit.iterfind("{*}source"))
            target = next(unit.iterfind("{*}target"), None)
            if target is None:
                target = etree.Element(source.tag.replace("source", "target"))
                source.addnext(target)
            target.text = texts[unit.get("id")]
            target.set("state", "translated")
    tree.write(str(file), xml_declaration=True, encoding="UTF-8")


@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_the_polish_column_is_exported_translated_and_imported_back_into_the_csv(tmp_path, fmt):
    folder = sheet_game(tmp_path)
    file = exported(folder, fmt)
    texts = po_texts(file) if fmt == "po" else xliff_texts(file)
    assert texts["cards.star"] == "Gwiazda"          # the cell's text: translated, not "to translate"
    assert not texts.get("cards.moon")                 # the empty cell: to translate
    assert texts["cards.star_effect"] == "Świeci"      # the catalog's
    before = files_of(folder)
    translate(file, {"cards.star": 'Gwiazdka, "jasna"', "cards.moon": "Księżyc"})
    result = run(folder, "i18n", "import", "g", str(file))
    assert result.exit_code == 0, result.output
    assert "g/i18n/pl.yaml: 0 translation(s) written, 5 unchanged (the file is as it was)" in result.output
    assert "g/data/cards.csv: 2 translation(s) written into its cells D2, D3" in result.output
    after = files_of(folder)
    # nothing is added to the catalog; the CSV changes in those two cells only: BOM, CRLF, quotes kept
    assert {name for name in after if after[name] != before[name]} == {"data/cards.csv"}
    assert after["data/cards.csv"] == CSV.replace(b'"Gwiazda"', '"Gwiazdka, ""jasna"""'.encode()) \
        .replace(b"cards.moon,,", "cards.moon,Księżyc,".encode())
    assert problem_lines(run(folder, "check", "g", "--lang", "pl").output) == []
    # the same file again: every file byte-identical
    again = run(folder, "i18n", "import", "g", str(file))
    assert again.exit_code == 0 and "written into" not in again.output, again.output
    assert files_of(folder) == after


def test_an_unchanged_round_trip_leaves_the_sheet_byte_identical(tmp_path):
    folder = sheet_game(tmp_path, filled())
    before = files_of(folder)
    for fmt in ("po", "xliff"):
        result = run(folder, "i18n", "import", "g", str(exported(folder, fmt)))
        assert result.exit_code == 0 and "written into" not in result.output, result.output
    assert files_of(folder) == before


def test_a_text_written_twice_the_same_is_written_in_both_places(tmp_path):
    """The same Polish text in the catalog and in the cell (a warning): a new one goes into both, so
    they never disagree (which `pnp check` would refuse)."""
    pl = PL.replace('  cards:\n', '  cards:\n    star: "Gwiazda"\n')
    folder = sheet_game(tmp_path, filled(), **{"i18n/pl.yaml": pl})
    file = exported(folder, "po")
    translate(file, {"cards.star": "Gwiazdka"})
    result = run(folder, "i18n", "import", "g", str(file))
    assert result.exit_code == 0, result.output
    assert (folder / "i18n" / "pl.yaml").read_text(encoding="utf-8") == pl.replace('"Gwiazda"', '"Gwiazdka"')
    assert (folder / "data" / "cards.csv").read_bytes() == filled().replace(b'"Gwiazda"', b'"Gwiazdka"')
    assert run(folder, "check", "g").exit_code == 0


def test_a_catalog_text_for_a_key_with_an_empty_cell_stays_in_the_catalog(tmp_path):
    """An empty cell gives way to the catalog's text: that text lives in the catalog, and goes back there."""
    pl = PL.replace('  cards:\n', '  cards:\n    moon: "Księżyc"\n')
    folder = sheet_game(tmp_path, filled(moon_pl="").replace("cards.moon_effect,,".encode(),
                                                              "cards.moon_effect,Λάμψη,".encode()),
                        **{"i18n/pl.yaml": pl})
    csv = (folder / "data" / "cards.csv").read_bytes()
    file = exported(folder, "po")
    translate(file, {"cards.moon": "Srebrny Księżyc"})
    result = run(folder, "i18n", "import", "g", str(file))
    assert "g/i18n/pl.yaml: 1 translation(s) written" in result.output, result.output
    assert (folder / "i18n" / "pl.yaml").read_text(encoding="utf-8") == pl.replace('"Księżyc"', '"Srebrny Księżyc"')
    assert (folder / "data" / "cards.csv").read_bytes() == csv


def test_a_workbooks_cell_is_refused_at_the_cell_to_type_it_in(tmp_path):
    from tests.content.test_spreadsheet import xlsx_bytes
    header = ["id", "count", "name", "name@pl", "effect", "art"]
    rows = [["star", 2, "cards.star", "Gwiazda", "cards.star_effect", "art/star.svg"],
            ["moon", 1, "cards.moon", "", "cards.moon_effect", "art/star.svg"]]
    folder = sheet_game(tmp_path, **{"cards.yaml": CARDS.replace("data/cards.csv",
                                                                 "{file: data/cards.xlsx, sheet: Cargo}")})
    (folder / "data" / "cards.xlsx").write_bytes(xlsx_bytes(header, rows))
    before = files_of(folder)
    file = exported(folder, "po")
    assert po_texts(file)["cards.star"] == "Gwiazda"
    translate(file, {"cards.star": "Gwiazdka", "cards.moon": "Księżyc", "deck.cards": "Talia"})
    result = run(folder, "i18n", "import", "g", str(file))
    assert result.exit_code == 1
    assert problem_lines(result.output) == [
        "g/data/cards.xlsx[Cargo]:2:D: the pl texts of 'cards.star' in D2, 'cards.moon' in D3 live in this "
        "workbook, and pnp writes no workbook (XLSX, ODS, XLS)"]
    assert files_of(folder) == before           # nothing written: neither the catalog nor the workbook


# ------------------------------------------------------------- pnp data export keeps the text columns

def test_data_export_of_a_sheet_deck_keeps_its_text_columns(tmp_path):
    folder = sheet_game(tmp_path, filled(moon_el=""))
    target = tmp_path / "again.csv"
    result = run(folder, "data", "export", "g", "cards", "--to", str(target))
    assert result.exit_code == 0, result.output
    assert "in place of its `cards_from:`" in result.output
    assert decode_csv(target.read_bytes()).splitlines() == [
        "id,count,name,name@pl,effect,effect@el,art",
        "star,2,cards.star,Gwiazda,cards.star_effect,Λάμψη,art/star.svg",
        "moon,1,cards.moon,Księżyc,cards.moon_effect,,art/star.svg"]
    # read back in place of the original, the game says the very same (and the empty Greek cell stays one)
    (folder / "data" / "cards.csv").write_bytes(target.read_bytes())
    lines = problem_lines(run(folder, "check", "g").output)
    assert lines == ["g/data/cards.csv:3:F: missing translation key 'cards.moon_effect' for language 'el' "
                     "(its cell is empty)"]


def test_data_export_leaves_a_made_up_key_made_up(tmp_path):
    """A sheet with no key column (`name@en`, `name@pl`): exported as it was, the keys made from the ids."""
    csv = ("id,count,name@en,name@pl,effect,effect@el,art\n"
           "star,2,Star,Gwiazda,cards.star_effect,Λάμψη,art/star.svg\n"
           "moon,1,Moon,Księżyc,cards.moon_effect,Λάμψη,art/star.svg\n")
    folder = sheet_game(tmp_path, csv.encode())
    target = tmp_path / "again.csv"
    assert run(folder, "data", "export", "g", "cards", "--to", str(target)).exit_code == 0
    assert decode_csv(target.read_bytes()) == csv


# ------------------------------------------------------------- the cell writer on its own

@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le"])
def test_the_writer_keeps_the_encoding_separator_quoting_and_line_ends(encoding):
    text = ('id;name;name@pl;# notes\r\n'
            'star;cards.star;"Gwiazda";"a note; quoted"\r\n'
            '\r\n'
            'moon;cards.moon\r\n'                   # shorter than the header: the cell is added
            'sun;cards.sun; Słońce ;\r\n')
    data = text.encode(encoding)
    new = csv_with_cells(data, Path("x.csv"), {(2, 3): 'Gwiazdka; "jasna"\nnowa', (4, 3): "-1 Księżyc",
                                               (5, 3): "Słoneczko"})
    expected = text.replace('"Gwiazda"', '"Gwiazdka; ""jasna""\nnowa"').replace(
        "moon;cards.moon\r\n", "moon;cards.moon;'-1 Księżyc\r\n").replace(" Słońce ", "Słoneczko")
    assert new == expected.encode(encoding)
    if encoding == "utf-8-sig":
        assert new.startswith(codecs.BOM_UTF8)


def test_the_writer_refuses_a_file_it_cannot_read_back():
    with pytest.raises(SheetRefused, match="did not read back"):
        # a quote never closed: what is appended to its row would land inside it
        csv_with_cells(b'id,name,name@pl\nstar,cards.star,"Gwi\n', Path("x.csv"), {(2, 4): "x"})


def test_the_writer_changes_the_cell_and_no_other_byte_in_any_csv_pythons_writer_makes():
    """Random sheets as programs write them (quoted or not, any separator, LF or CRLF, UTF-8 or UTF-16):
    the bytes before and after the cell written are the file's own, and the cell reads back as written."""
    import csv
    import io
    import random
    randoms = random.Random(33)
    letters = ["a", " ", ",", ";", "\t", '"', "\n", "\r\n", "ł", "ζ", "'", "=", "-", "😀"]
    for _ in range(300):
        separator = randoms.choice([",", ";", "\t"])
        written = io.StringIO()
        rows = [["id", "name", "name@pl"]] + [
            ["".join(randoms.choices(letters, k=randoms.randint(0, 5))) for _ in range(randoms.randint(1, 4))]
            for _ in range(randoms.randint(1, 5))]
        csv.writer(written, delimiter=separator, lineterminator=randoms.choice(["\n", "\r\n"]),
                   quoting=randoms.choice([csv.QUOTE_MINIMAL, csv.QUOTE_ALL])).writerows(rows)
        text, encoding = written.getvalue(), randoms.choice(["utf-8", "utf-8-sig", "utf-16"])
        row = randoms.randint(2, len(rows))
        column = randoms.randint(1, len(rows[row - 1]))
        new = "".join(randoms.choices(letters, k=4)).strip() or "x"
        result = decode_csv(csv_with_cells(text.encode(encoding), Path("x.csv"), {(row, column): new}))
        after = list(csv.reader(io.StringIO(result, newline=""), delimiter=separator))
        assert unquoted_formula(after[row - 1][column - 1]) == new      # as `cards_from:` reads it
        before = list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))
        after[row - 1][column - 1] = before[row - 1][column - 1]
        assert after == before
        # every byte outside the cell is the file's own (the cell as the reader that found it saw it)
        cell = _records(text, separator)[row - 1].cells[column - 1]
        assert result.startswith(text[:cell.start]) and result.endswith(text[cell.end:])
