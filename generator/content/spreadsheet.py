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

def decode_csv(data: bytes, file: Path | None = None) -> str:
    """The text of a CSV file: UTF-8 (BOM or not) or UTF-16 (BOM, or ASCII-heavy text without one).

    Anything else is refused at the row of the first byte that does not decode (of `file`, if given).
    """
    if data.startswith(codecs.BOM_UTF8):
        encoding, data = "utf-8", data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    elif len(data) >= 4 and data[1:64:2].count(0) > len(data[1:64:2]) // 2:
        encoding = "utf-16-le"        # ASCII letters leave every second byte zero
    elif len(data) >= 4 and data[0:64:2].count(0) > len(data[0:64:2]) // 2:
        encoding = "utf-16-be"
    else:
        encoding = "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        row = data[:error.start].count(b"\n" if encoding == "utf-8" else "\n".encode(encoding)) + 1
        raise SheetRefused(f"not {encoding.upper()} text ({error.reason} at byte {error.start})",
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
            yield number, values
    except csv.Error as error:
        if "field limit" in str(error):     # Python's csv stops a cell at 128 KiB: far past MAX_CELL_CHARS
            raise SheetRefused(f"a cell is longer than {MAX_CELL_CHARS:,} characters (or a quote is never "
                               "closed)", "check the quotes on this row; a card's text is a few hundred "
                               "characters", CellMark(file, number + 1)) from None
        raise SheetRefused(f"CSV: {error}", "check the quotes on this row",
                           CellMark(file, number + 1)) from None


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
        rows.append(Row(number, tuple(values)))
    if header is None:
        raise SheetRefused("the sheet is empty", "the first row names the columns: id, count and the fields")
    return Table(file, sheet, header, header_row, tuple(rows))
