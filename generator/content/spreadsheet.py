"""Read a spreadsheet a game names (CSV, XLSX, ODS or XLS) into a table of cells that know their place.

Load stage, before the schema: this module knows file formats, encodings and bounds, and
nothing of cards. A table is its header (the first row that is not blank) and the rows
under it, each value where the sheet has it (row numbers as a spreadsheet program shows
them, columns by letter), so every later message can name the cell: `data/cargo.csv:14:C`.

CSV: UTF-8 (with or without a BOM) or UTF-16 (Excel's "Unicode text", with a BOM, or
without one when the text is mostly ASCII); the separator is what the header row uses
most of `,`, `;` and tab. Workbooks are read by python-calamine (Rust; a 10,000-row XLSX in
~30 ms), imported when a game has one, so `pnp --help` does not pay for it. A workbook is
a zip: the sizes its entries declare are checked before it is unpacked (a small file can
unpack to gigabytes), and every table is bounded in rows, columns and characters a cell.
"""

from __future__ import annotations

import codecs
import csv
import datetime
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from generator.errors import SourceMark, display_path, printable
from generator.input_files import FileRefused, locate, problem_message, read_regular

SHEET_SUFFIXES = (".csv", ".xlsx", ".ods", ".xls")
WORKBOOK_SUFFIXES = (".xlsx", ".ods", ".xls")
MAX_SHEET_BYTES = 16 * 2**20      # a 10,000-row XLSX is ~0.3 MB, the same as CSV ~0.6 MB
MAX_UNPACKED_BYTES = 64 * 2**20   # what a workbook's zip entries may declare in all (10,000 rows: ~5 MB);
                                  # a lie is caught by the reader (it stops at the declared size)
MAX_ROWS = 20_000                 # rows of one table: twice the largest deck pnp builds in a second
MAX_COLUMNS = 256
MAX_CELL_CHARS = 10_000           # the longest rule text on a card is ~600 characters
_SEPARATORS = (",", ";", "\t")


@dataclass(frozen=True)
class CellMark(SourceMark):
    """A spreadsheet cell: `file:row:column-letter`, a workbook's sheet name in brackets after the file.

    `line` is the row as a spreadsheet program numbers it, `column` the column from 1 (A);
    0 leaves it out (a whole row, or the file).
    """

    sheet: str = ""

    def __str__(self) -> str:
        where = printable(display_path(self.file)) + (f"[{printable(self.sheet)}]" if self.sheet else "")
        if not self.line:
            return where
        return f"{where}:{self.line}:{column_letters(self.column)}" if self.column else f"{where}:{self.line}"

    @property
    def cell(self) -> str:
        """The cell as a spreadsheet program names it: 'D3' (the row alone, '3', for a whole row)."""
        return f"{column_letters(self.column)}{self.line}"


def column_letters(column: int) -> str:
    """A spreadsheet column's name: 1 → A, 26 → Z, 27 → AA."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


Value = str | int | float | bool | datetime.date | datetime.time | datetime.timedelta


@dataclass(frozen=True)
class Row:
    """One row that is not blank: its number and its values by column (index 0 is column A)."""

    number: int
    values: tuple[Value, ...]

    def value(self, column: int) -> Value:
        """The value in a column (from 1); '' past the row's last cell."""
        return self.values[column - 1] if column <= len(self.values) else ""


@dataclass(frozen=True)
class Table:
    """A sheet's header and the rows under it; blank rows are left out (their numbers are skipped)."""

    file: Path
    sheet: str                        # the workbook's sheet read; '' for CSV
    header: tuple[tuple[int, str], ...]   # (column from 1, name) of every header cell with a name
    header_row: int
    rows: tuple[Row, ...]

    def mark(self, row: int = 0, column: int = 0) -> CellMark:
        return CellMark(self.file, row, column, sheet=self.sheet)


class SheetRefused(Exception):
    """A sheet that cannot be read as a table; `hint` says what to do.

    Where: `mark` (a cell or row), else the game's reference to the sheet when `reference`
    names which part of it is wrong ('file', 'sheet'), else the sheet file itself.
    """

    def __init__(self, message: str, hint: str = "", mark: CellMark | None = None, reference: str = ""):
        super().__init__(message)
        self.hint, self.mark, self.reference = hint, mark, reference


def read_table(folder: Path, relative: str, sheet: str | None = None) -> Table:
    """The table in `relative` (a file inside the game `folder`); SheetRefused says what is wrong.

    `sheet` names a workbook's sheet (default: its first); a CSV file has one table and no sheet.
    """
    path, problem = locate(folder, relative)
    file = folder / relative
    if problem is not None:
        hint = ("copy the file into the game folder" if problem == "outside"
                else "check the path: it is relative to the game folder" if problem == "missing"
                else "replace it with a regular file")
        raise SheetRefused(problem_message(problem, relative), hint, reference="file")
    suffix = path.suffix.lower()
    if suffix not in SHEET_SUFFIXES:
        raise SheetRefused(f"{relative!r} is not a spreadsheet pnp reads",
                           f"use a file ending in {', '.join(SHEET_SUFFIXES)}", reference="file")
    if suffix == ".csv" and sheet is not None:
        raise SheetRefused("a CSV file has one table and no sheets", "leave `sheet:` out, or name a workbook",
                           reference="sheet")
    try:
        data = read_regular(path, MAX_SHEET_BYTES, "spreadsheet",
                            "no deck needs that much: check that it is the file you meant")
    except FileRefused as error:
        raise SheetRefused(str(error), error.hint) from None
    if suffix == ".csv":
        return _table(file, "", _csv_rows(file, data))
    name, rows = _workbook_rows(file, suffix, data, sheet)
    return _table(file, name, rows)


# ---------------------------------------------------------------- CSV

def csv_encoding(data: bytes) -> tuple[bytes, str]:
    """The byte order mark a CSV file starts with (b'' for none) and the codec of the text after it:
    UTF-8, or UTF-16 (with a BOM, or without one when every second byte of its start is zero, as
    ASCII letters leave them). What a cell written back into the file is encoded with, too."""
    if data.startswith(codecs.BOM_UTF8):
        return codecs.BOM_UTF8, "utf-8"
    if data.startswith(codecs.BOM_UTF16_LE):
        return codecs.BOM_UTF16_LE, "utf-16-le"
    if data.startswith(codecs.BOM_UTF16_BE):
        return codecs.BOM_UTF16_BE, "utf-16-be"
    if len(data) >= 4 and data[1:64:2].count(0) > len(data[1:64:2]) // 2:
        return b"", "utf-16-le"
    if len(data) >= 4 and data[0:64:2].count(0) > len(data[0:64:2]) // 2:
        return b"", "utf-16-be"
    return b"", "utf-8"


def decode_csv(data: bytes, file: Path | None = None) -> str:
    """The text of a CSV file: UTF-8 (BOM or not) or UTF-16 (BOM, or ASCII-heavy text without one).

    Anything else is refused at the row of the first byte that does not decode (of `file`, if given).
    """
    bom, encoding = csv_encoding(data)
    try:
        return data[len(bom):].decode(encoding)
    except UnicodeDecodeError as error:
        # named and counted as the file has it: 'UTF-16' for one with a BOM, bytes from the file's start
        named = "utf-16" if bom and encoding != "utf-8" else encoding
        start = error.start + (len(bom) if named == "utf-16" else 0)
        row = data[len(bom):len(bom) + error.start].count("\n".encode(encoding)) + 1
        raise SheetRefused(f"not {named.upper()} text ({error.reason} at byte {start})",
                           "save it as 'CSV UTF-8' (Excel) or with the character set Unicode (UTF-8) "
                           "(LibreOffice)", CellMark(file, row) if file is not None else None) from None


def separator_of(header_line: str) -> str:
    """The separator the header row uses most of: ',', ';' (Excel in much of Europe) or tab."""
    counts = {separator: 0 for separator in _SEPARATORS}
    quoted = False
    for character in header_line:
        if character == '"':
            quoted = not quoted
        elif not quoted and character in counts:
            counts[character] += 1
    return max(_SEPARATORS, key=lambda separator: counts[separator])   # ties: the first, ','


def _csv_rows(file: Path, data: bytes):
    text = decode_csv(data, file)
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator_of(first_line), strict=False)
    number = 0
    try:
        for number, values in enumerate(reader, start=1):
            yield number, [unquoted_formula(value) for value in values]
    except csv.Error as error:
        if "field limit" in str(error):     # Python's csv stops a cell at 128 KiB: far past MAX_CELL_CHARS
            raise SheetRefused(f"a cell is longer than {MAX_CELL_CHARS:,} characters (or a quote is never "
                               "closed)", "check the quotes on this row; a card's text is a few hundred "
                               "characters", CellMark(file, number + 1)) from None
        raise SheetRefused(f"CSV: {error}", "check the quotes on this row",
                           CellMark(file, number + 1)) from None


# A CSV cell that starts with one of these is a formula to Excel and LibreOffice (OWASP "CSV
# injection": =HYPERLINK(…), +cmd|…, -…, @…, and a tab or carriage return before them). `pnp data
# export` writes such a text with an apostrophe before it, which a spreadsheet program shows as text and
# hides; reading it takes the apostrophe off, so a sheet gives back the text the deck had.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def quoted_formula(text: str) -> str:
    """The text as a CSV cell no spreadsheet program runs: an apostrophe before a formula's first
    character (and before a text that already starts with apostrophes and then one, so it reads back)."""
    return "'" + text if text.lstrip("'").startswith(FORMULA_STARTS) else text


def unquoted_formula(cell: str) -> str:
    """A CSV cell's text: `'=…` as written by `quoted_formula` (or typed so in a spreadsheet) is `=…`."""
    return cell[1:] if cell.startswith("'") and cell.lstrip("'").startswith(FORMULA_STARTS) else cell


# ---------------------------------------------------------------- workbooks

def _workbook_rows(file: Path, suffix: str, data: bytes, sheet: str | None):
    if suffix != ".xls":
        _check_unpacked_size(data)
    import python_calamine      # here: only games with a workbook pay for the import
    try:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(workbook.sheet_names)
        if sheet is not None and sheet not in names:
            raise SheetRefused(f"no sheet {sheet!r} in {file.name!r}",
                               f"its sheets: {', '.join(repr(name) for name in names) or 'none'}",
                               reference="sheet")
        name = sheet if sheet is not None else (names[0] if names else "")
        if not name:
            raise SheetRefused("the workbook has no sheets", "save it again from your spreadsheet program")
        unsaved = _formula_without_value(data, suffix, name)
        if unsaved is not None:
            raise _unsaved_formula(file, name, *unsaved)
        found = workbook.get_sheet_by_name(name)
        if found.height > MAX_ROWS + 1 or found.width > MAX_COLUMNS:
            raise _too_large(found.height, found.width)
        top, left = found.start or (0, 0)
        cells = found.to_python()
    except python_calamine.PasswordError:
        raise SheetRefused("the workbook is protected by a password", "save a copy without the password") from None
    except python_calamine.CalamineError as error:
        raise SheetRefused(f"cannot read the workbook: {error}",
                           "save it again from your spreadsheet program, or export the sheet as CSV") from None
    return name, ((top + index + 1, [""] * left + [_plain(value) for value in values])
                  for index, values in enumerate(cells))


def _check_unpacked_size(data: bytes) -> None:
    """XLSX and ODS are zip files: refuse one that declares more than a sheet could need, unread."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            declared = sum(entry.file_size for entry in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise SheetRefused(f"not a workbook (a damaged zip: {error})",
                           "save it again from your spreadsheet program, or export the sheet as CSV") from None
    if declared > MAX_UNPACKED_BYTES:
        raise SheetRefused(f"refused: the workbook unpacks to {declared / 2**20:,.0f} MB "
                           f"(at most {MAX_UNPACKED_BYTES // 2**20} MB)",
                           "no deck needs that much: check that it is the file you meant")


def _unsaved_formula(file: Path, sheet: str, row: int, column: int, formula: str) -> SheetRefused:
    shown = formula if len(formula) <= 60 else formula[:59] + "…"
    return SheetRefused(f"cell {column_letters(column)}{row} holds the formula {shown!r} with no saved value "
                        "(a program that writes workbooks without calculating them, such as openpyxl, saves none): "
                        "pnp reads the values a spreadsheet program saved, and this one would read as empty",
                        "open and save it in your spreadsheet program so the value is stored, or type the value",
                        CellMark(file, row, column, sheet=sheet))


# A workbook keeps a formula's last result beside it (XLSX <v>, ODS office:value-type); calamine reads that
# result, and an empty one as a blank cell: a count of '=1+1' never calculated counted as 1.
_XLSX = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELATIONSHIP = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_ODS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_ODS_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"


def _formula_without_value(data: bytes, suffix: str, sheet: str) -> tuple[int, int, str] | None:
    """The first cell of the sheet (row, column from 1, formula) holding a formula with no saved result;
    None when every formula has one (or the workbook is an XLS, whose formulas always keep theirs)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if suffix == ".xlsx":
                part = _xlsx_sheet_part(archive, sheet)
                return _xlsx_unsaved(archive.read(part)) if part else None
            if suffix == ".ods":
                return _ods_unsaved(archive.read("content.xml"), sheet)
    except (KeyError, zipfile.BadZipFile, ValueError, OSError):
        return None                   # a workbook calamine cannot read either: its own message says so
    return None


def _xml(data: bytes):
    """A workbook's XML part parsed with nothing resolved (no entity, DTD or network)."""
    # here: only a workbook read for its formulas needs lxml (which ships no type information)
    from lxml import etree
    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=False)
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        raise ValueError(str(error)) from None


def _xlsx_sheet_part(archive: zipfile.ZipFile, sheet: str) -> str | None:
    """The zip entry of the XLSX sheet named `sheet` (xl/workbook.xml names it, its relationships place it)."""
    books = _xml(archive.read("xl/workbook.xml"))
    node = next((found for found in books.iter(f"{_XLSX}sheet") if found.get("name") == sheet), None)
    if node is None:
        return None
    links = _xml(archive.read("xl/_rels/workbook.xml.rels"))
    target = next((link.get("Target") for link in links if link.get("Id") == node.get(_RELATIONSHIP)), None)
    if not target:
        return None
    return target.lstrip("/") if target.startswith("/") else f"xl/{target}"


# a formula's end not followed at once by a non-empty saved value: Excel and LibreOffice write
# `<f>1+1</f><v>2</v>`, so a sheet without this needs no parse (20,000 formulas: ~30 ms, not ~400)
_FORMULA_WITHOUT_VALUE = re.compile(rb"(</(\w+:)?f>|<(\w+:)?f\b[^>]*/>)(?!<(\w+:)?v>[^<])")


def _xlsx_unsaved(part: bytes) -> tuple[int, int, str] | None:
    if not _FORMULA_WITHOUT_VALUE.search(part):
        return None
    for formula in _xml(part).iter(f"{_XLSX}f"):
        cell = formula.getparent()
        value = cell.find(f"{_XLSX}v")
        # t="str" with an empty <v> is a formula whose saved result is empty text
        if (value is None or not value.text) and cell.get("t") not in ("str", "inlineStr"):
            row, column = _cell_reference(cell.get("r") or "")
            return row, column, "=" + (formula.text or "")
    return None


def _cell_reference(reference: str) -> tuple[int, int]:
    """'B12' → (12, 2); (0, 0) for a reference that is not one."""
    letters = reference.rstrip("0123456789")
    digits = reference[len(letters):]
    if not letters.isalpha() or not digits:
        return 0, 0
    column = 0
    for letter in letters.upper():
        column = column * 26 + ord(letter) - ord("A") + 1
    return int(digits), column


def _ods_unsaved(content: bytes, sheet: str) -> tuple[int, int, str] | None:
    if b"formula" not in content:
        return None
    table = next((found for found in _xml(content).iter(f"{_ODS_TABLE}table")
                  if found.get(f"{_ODS_TABLE}name") == sheet), None)
    row = 0
    for row_node in (table.iter(f"{_ODS_TABLE}table-row") if table is not None else ()):
        column = 0
        for cell in row_node:
            formula = cell.get(f"{_ODS_TABLE}formula")
            if formula and cell.get(f"{_ODS_OFFICE}value-type") is None:
                return row + 1, column + 1, formula.split(":", 1)[-1] if formula.startswith("of:") else formula
            column += int(cell.get(f"{_ODS_TABLE}number-columns-repeated") or 1)
        row += int(row_node.get(f"{_ODS_TABLE}number-rows-repeated") or 1)
    return None


def _plain(value):
    """A workbook's number as a deck's: 3.0 (every number in a workbook is a float) is 3."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


# ---------------------------------------------------------------- both

def _too_large(rows: int, columns: int) -> SheetRefused:
    return SheetRefused(f"refused: {rows:,} rows × {columns:,} columns is more than a deck needs "
                        f"(at most {MAX_ROWS:,} rows under the header and {MAX_COLUMNS} columns)",
                        "split the deck over several sheets, or check that it is the sheet you meant")


def _blank(values) -> bool:
    return all(value == "" or (isinstance(value, str) and not value.strip()) for value in values)


def _check_named(file: Path, sheet: str, header, header_row: int, number: int, values) -> None:
    """A value in a column the header row names not (a CSV row with more cells than the header, or a
    cell under a blank heading) would be dropped without a word: refused at that cell."""
    named = {column for column, _ in header}
    for column, value in enumerate(values, start=1):
        if column not in named and not _blank([value]):
            raise SheetRefused(f"a value in column {column_letters(column)}, which the header row "
                               f"(row {header_row}) does not name", "name the column in the header row, "
                               "remove the value, or check the row for a stray separator",
                               CellMark(file, number, column, sheet=sheet))


def _table(file: Path, sheet: str, numbered_rows) -> Table:
    """The header (the first row that is not blank) and the rows under it that are not blank."""
    header: tuple[tuple[int, str], ...] | None = None
    header_row = 0
    rows: list[Row] = []
    for number, values in numbered_rows:
        if len(values) > MAX_COLUMNS:
            raise _too_large(number, len(values))
        if _blank(values):
            continue
        for column, value in enumerate(values, start=1):
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                raise SheetRefused(f"refused: {len(value):,} characters in one cell (at most {MAX_CELL_CHARS:,})",
                                   "check for a missing closing quote before this cell",
                                   CellMark(file, number, column, sheet=sheet))
        if header is None:
            header_row = number
            header = tuple((column, value.strip() if isinstance(value, str) else str(value))
                           for column, value in enumerate(values, start=1)
                           if not (isinstance(value, str) and not value.strip()))
            continue
        if len(rows) == MAX_ROWS:
            raise _too_large(number, len(values))
        _check_named(file, sheet, header, header_row, number, values)
        rows.append(Row(number, tuple(values)))
    if header is None:
        raise SheetRefused("the sheet is empty", "the first row names the columns: id, count and the fields")
    return Table(file, sheet, header, header_row, tuple(rows))
