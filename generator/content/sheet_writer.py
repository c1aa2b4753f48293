"""Write texts into a CSV sheet's cells, leaving every other byte of the file as it was.

`pnp i18n import` puts a translation back where it lives: a text kept in a `name@bg` column goes into
its cell. The file keeps its encoding and byte order mark, its separator, its line endings, and every
other cell exactly as written (quoted or not, spaces and all): only the cells given are rewritten.
A new text is quoted as the cell was, or where it must be (it holds the separator, a quote or a line
break); one a spreadsheet program would run as a formula (`=…`, `+…`) gets the apostrophe `pnp data
export` writes (spreadsheet.py `quoted_formula`), which reading takes off again. A row shorter than
the header is lengthened with empty cells up to the one written.

The cells are found by a reader that follows Python's csv reader (the one `cards_from:` reads with)
step by step, keeping where each cell starts and ends; what it reads is compared with what Python's
reader reads, and the new file is read back and compared cell by cell, so a file this reader does not
understand is refused (`SheetRefused`), never damaged. Workbooks (XLSX, ODS, XLS) are not written:
their cells are edited in the spreadsheet program (`WORKBOOK_SUFFIXES`).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from generator.content.sheet_entries import SheetText
from generator.content.spreadsheet import (MAX_SHEET_BYTES, WORKBOOK_SUFFIXES, CellMark, SheetRefused,
                                           column_letters, csv_encoding, decode_csv, quoted_formula, separator_of)
from generator.errors import ECHOED_ITEMS, Problems, and_more
from generator.input_files import FileRefused, read_regular


@dataclass(frozen=True)
class _Cell:
    start: int      # the cell's characters in the text, its quotes included: text[start:end]
    end: int
    value: str      # what the csv reader reads from them


@dataclass(frozen=True)
class _Record:
    number: int             # from 1, as the csv reader and a spreadsheet program count rows (blank ones too)
    cells: tuple[_Cell, ...]
    end: int                # where its last cell ends (before the line break)


def csv_with_cells(data: bytes, file: Path, texts: dict[tuple[int, int], str]) -> bytes:
    """The CSV file's bytes with each (row, column from 1) of `texts` holding its text; SheetRefused
    (at the file, or the cell) where the file cannot be edited in place."""
    bom, encoding = csv_encoding(data)
    text = decode_csv(data, file)
    delimiter = separator_of(next((line for line in text.splitlines() if line.strip()), ""))
    records = _records(text, delimiter)
    expected = _read(text, delimiter)
    if [[cell.value for cell in record.cells] for record in records] != expected:
        raise SheetRefused("pnp cannot tell where this CSV file's cells begin and end, to write into them",
                           "type the translations into the sheet in your spreadsheet program, or save it again "
                           "as CSV", CellMark(file))
    by_row: dict[int, dict[int, str]] = {}
    for (row, column), new in texts.items():
        if not 1 <= row <= len(records) or column < 1:
            raise SheetRefused(f"no cell {column_letters(column)}{row} in the file (it changed since it was read?)",
                               "run the command again", CellMark(file, row, column))
        by_row.setdefault(row, {})[column] = new.strip()   # a cell reads trimmed: written so
    edits: list[tuple[int, int, str]] = []           # (start, end, new characters) in the text
    for row, columns in by_row.items():
        record, values = records[row - 1], expected[row - 1]
        for column, new in columns.items():
            if column <= len(record.cells):
                cell = record.cells[column - 1]
                edits.append((cell.start, cell.end, _field(new, delimiter, text[cell.start:cell.start + 1] == '"')))
        past = max(columns) - len(record.cells)
        if past > 0:       # past the row's last cell: the empty cells up to it, in one insertion
            added = "".join(delimiter + _field(columns.get(column, ""), delimiter, False)
                            for column in range(len(record.cells) + 1, max(columns) + 1))
            edits.append((record.end, record.end, added if record.cells else added[len(delimiter):]))
        values.extend([""] * (max(columns) - len(values)))
        for column, new in columns.items():
            values[column - 1] = quoted_formula(new)
    parts, at = [], 0          # the text between the edits, and the edits, joined once (a whole deck's cells)
    for start, end, new_text in sorted(edits):
        parts += [text[at:start], new_text]
        at = end
    written = "".join(parts) + text[at:]
    if _read(written, delimiter) != expected:
        raise SheetRefused("the cells written did not read back as written: nothing is changed",
                           "type the translations into the sheet in your spreadsheet program", CellMark(file))
    return bom + written.encode(encoding)


def sheets_with_texts(texts: dict[SheetText, str], problems: Problems) -> dict[Path, tuple[bytes, list[str]]]:
    """Each CSV sheet's bytes with `texts` written into their cells, and the cells' names ('D3'); a cell of
    a workbook is an error, one for each workbook, at its first cell, naming every cell to type in (pnp
    writes no workbook: nothing of it is written)."""
    by_file: dict[tuple[Path, str], dict[SheetText, str]] = {}
    for cell, new in texts.items():
        by_file.setdefault((cell.mark.file, cell.mark.sheet), {})[cell] = new
    written: dict[Path, tuple[bytes, list[str]]] = {}
    for (file, _), cells in by_file.items():
        ordered = sorted(cells, key=lambda cell: (cell.mark.line, cell.mark.column))
        if file.suffix.lower() in WORKBOOK_SUFFIXES:
            first = ordered[0]
            named = [f"'{cell.key}' in {cell.mark.cell}" for cell in ordered[:ECHOED_ITEMS]]
            problems.add(first.mark, f"the {first.lang} text{'s' if len(ordered) > 1 else ''} of "
                         f"{and_more(named, len(ordered))} live{'' if len(ordered) > 1 else 's'} in this workbook, "
                         "and pnp writes no workbook (XLSX, ODS, XLS)",
                         "type the translations into those cells in your spreadsheet program, then import again "
                         "for the rest; or keep the deck in CSV, whose cells pnp writes (`pnp data export GAME "
                         "DECK --to data/DECK.csv` keeps the text columns)")
            continue
        try:
            data = read_regular(file, MAX_SHEET_BYTES, "spreadsheet")
            written[file] = (csv_with_cells(data, file, {(cell.mark.line, cell.mark.column): cells[cell]
                                                         for cell in ordered}),
                             [cell.mark.cell for cell in ordered])
        except FileRefused as error:
            problems.add(CellMark(file), str(error), error.hint)
        except SheetRefused as error:
            problems.add(error.mark or CellMark(file), str(error), error.hint)
    return written


def _field(text: str, delimiter: str, quoted: bool) -> str:
    """A text as one CSV cell: quoted as the cell was, or where it must be."""
    value = quoted_formula(text)
    if quoted or any(character in value for character in (delimiter, '"', "\n", "\r")):
        return '"' + value.replace('"', '""') + '"'
    return value


def _read(text: str, delimiter: str) -> list[list[str]]:
    """The rows as `cards_from:` reads them (spreadsheet.py `_csv_rows`), before a cell's apostrophe is
    taken off."""
    return [list(row) for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)]


_START_RECORD, _START_FIELD, _IN_FIELD, _IN_QUOTED, _QUOTE_IN_QUOTED, _EAT_CRNL = range(6)


def _records(text: str, delimiter: str) -> list[_Record]:
    """Every row of the text with where each cell is: Python's csv reader (Modules/_csv.c, its default
    dialect but for the delimiter, strict off), step by step over the lines it is given."""
    records: list[_Record] = []
    cells: list[_Cell] = []
    value: list[str] = []
    state, start, offset = _START_RECORD, 0, 0

    def save(end: int) -> None:
        cells.append(_Cell(start, end, "".join(value)))
        value.clear()

    for line in io.StringIO(text, newline=""):
        line_start = offset
        for index, character in enumerate(line):
            at = offset + index
            if state == _START_RECORD:
                if character in "\r\n":
                    state = _EAT_CRNL
                    continue
                state = _START_FIELD
            if state == _START_FIELD:
                start = at
                if character in "\r\n":
                    save(at)
                    state = _EAT_CRNL
                elif character == '"':
                    state = _IN_QUOTED
                elif character == delimiter:
                    save(at)
                else:
                    value.append(character)
                    state = _IN_FIELD
            elif state == _IN_FIELD:
                if character in "\r\n":
                    save(at)
                    state = _EAT_CRNL
                elif character == delimiter:
                    save(at)
                    state = _START_FIELD
                else:
                    value.append(character)
            elif state == _IN_QUOTED:
                if character == '"':
                    state = _QUOTE_IN_QUOTED
                else:
                    value.append(character)
            elif state == _QUOTE_IN_QUOTED:
                if character == '"':
                    value.append(character)
                    state = _IN_QUOTED
                elif character == delimiter:
                    save(at)
                    state = _START_FIELD
                elif character in "\r\n":
                    save(at)
                    state = _EAT_CRNL
                else:
                    value.append(character)
                    state = _IN_FIELD
            elif state == _EAT_CRNL and character not in "\r\n":
                raise SheetRefused("a line break inside a cell that is not quoted", "save the file again as CSV")
        offset += len(line)
        # the end of a line given to the reader
        if state in (_START_FIELD, _IN_FIELD, _QUOTE_IN_QUOTED):
            if state == _START_FIELD:
                start = offset
            save(offset)
            state = _START_RECORD
        elif state == _EAT_CRNL:
            state = _START_RECORD
        if state == _START_RECORD:
            end = cells[-1].end if cells else line_start     # a blank row: before its line break
            records.append(_Record(len(records) + 1, tuple(cells), end))
            cells = []
    if state == _IN_QUOTED:        # the file ends inside a quote: the reader keeps what it read
        save(offset)
        records.append(_Record(len(records) + 1, tuple(cells), offset))
    return records
