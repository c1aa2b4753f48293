"""`pnp data export`: a deck (token set, pawn set) written in YAML, written out as a spreadsheet.

So a designer can move a deck into a sheet: one row per card, the columns `cards_from`
reads (id, count or count.<edition>, editions, one per field, `field.sub` for nested
ones). Read back with `cards_from:`, the sheet gives the same cards. A field holding a
list has no cell to go in: it is reported, and nothing is written. A set read from a sheet
keeps its text columns (`name@pl`, each after its field's column, in the sheet's order) and
what their cells say, empty ones too: the texts live there, not in the catalogs.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from generator.content.game import GameSource, load_game, piece_count
from generator.content.schema import PieceSet
from generator.content.spreadsheet import MAX_CELL_CHARS, quoted_formula
from generator.errors import Problems, UsageError
from generator.files import write_atomically

EXPORT_SUFFIXES = (".csv", ".xlsx")


def export_set(folder: Path, set_name: str, target: Path,
               project_templates: Path | None = None) -> tuple[Problems, str]:
    """Write the set `set_name` (an id, or kind/id: tokens/coins) of the game in `folder` to `target`.

    Problems of the game or of the set (a list in a field) are returned and nothing is written;
    a set or a file type that does not exist is a UsageError. The second value says what was written.
    """
    if target.suffix.lower() not in EXPORT_SUFFIXES:
        raise UsageError(f"--to {target}: write a .csv or .xlsx file")
    problems = Problems()
    source = load_game(folder, problems, project_templates)
    if source is None or problems.errors:
        return problems, ""
    kind, piece_set = _find_set(source, set_name)
    header, rows = sheet_of(source, kind, piece_set, problems)
    if problems.errors:
        return problems, ""
    data = _csv_bytes(header, rows) if target.suffix.lower() == ".csv" else _xlsx_bytes(piece_set.id, header, rows)
    try:
        write_atomically(target, data)
    except OSError as error:
        raise UsageError(f"--to {target}: cannot write it: {error.strerror or error}") from None
    noun = {"cards": "card", "tokens": "token", "pawns": "pawn"}[kind]
    try:
        where = f"write `{kind}_from: {target.resolve().relative_to(folder.resolve()).as_posix()}`"
    except ValueError:
        where = f"copy it into the game folder and write `{kind}_from: data/{target.name}`"
    instead = f"its `{kind}_from:`" if piece_set.entries_file is not None else f"`{kind}:`"
    return problems, (f"{target}: {len(rows)} {noun}(s) of {piece_set.id}, {len(header)} columns; "
                      f"to build from it, {where} in place of {instead}")


def _find_set(source: GameSource, set_name: str) -> tuple[str, PieceSet]:
    wanted_kind, _, wanted_id = set_name.rpartition("/")
    found = [(kind, piece_set) for kind, pieces in source.pieces.items() for piece_set in pieces.sets
             if piece_set.id == wanted_id and wanted_kind in ("", kind)]
    if len(found) == 1:
        return found[0]
    known = [f"{kind}/{piece_set.id}" for kind, pieces in source.pieces.items() for piece_set in pieces.sets]
    if found:
        raise UsageError(f"'{set_name}' names sets in {' and '.join(kind for kind, _ in found)}: "
                         f"write one of {', '.join(f'{kind}/{wanted_id}' for kind, _ in found)}")
    raise UsageError(f"no deck or set '{set_name}' in {source.id} (there are: {', '.join(known) or 'none'})")


def sheet_of(source: GameSource, kind: str, piece_set: PieceSet, problems: Problems) -> tuple[list[str], list[list]]:
    """The header and rows of a set as `cards_from` reads them."""
    pieces = source.pieces[kind]
    set_index = pieces.sets.index(piece_set)
    items = piece_set.items
    editions = list(source.game.editions)
    per_edition = any(isinstance(piece.count, dict) for piece in items)
    with_editions = not per_edition and any(piece.editions is not None for piece in items)
    field_columns: dict[str, None] = {}
    flat_fields = []
    for index, piece in enumerate(items):
        flat: dict[str, Any] = {}
        _flatten(piece.fields, "", flat, lambda name, _index=index, _id=piece.id: problems.add(
            pieces.mark(set_index, piece_set.ITEMS, _index, "fields", *name.split(".")),
            f"field '{name}' of {piece_set.ITEMS[:-1]} '{_id}' is a list: a cell holds one value",
            f"keep {piece_set.id} in YAML, or give the list's items fields of their own ({name}.first …)"))
        for name, value in flat.items():
            problem = _cell_problem(value)
            if problem:
                problems.add(pieces.mark(set_index, piece_set.ITEMS, index, "fields", *name.split(".")),
                             f"field '{name}' of {piece_set.ITEMS[:-1]} '{piece.id}' {problem}",
                             f"keep {piece_set.id} in YAML, or remove it from the text")
        flat_fields.append(flat)
        field_columns.update(dict.fromkeys(flat))
    count_columns = [f"count.{edition}" for edition in editions] if per_edition else ["count"]
    cells, positions = _text_columns(source, kind, piece_set, set_index)
    for name in list(field_columns):
        made = [f"{kind}.{piece_set.id}.{piece.id}.{name}" for piece in items]
        if any(column.partition("@")[0] == name for column in cells) and \
                all(flat.get(name, key) == key for flat, key in zip(flat_fields, made, strict=True)):
            del field_columns[name]       # the sheet had no key column: the keys are made from the ids again
    field_columns.update(dict.fromkeys(cells))
    columns = sorted(field_columns, key=lambda name: positions.get(name, len(positions) + 1))
    header = ["id", *count_columns, *(["editions"] if with_editions else []), *columns]
    rows = []
    for index, (piece, flat) in enumerate(zip(items, flat_fields, strict=True)):
        if per_edition:
            counts = [piece_count(piece_set, index, edition) or "" for edition in editions]
        else:      # no piece counts by edition: each count is one number
            counts = [piece.count if isinstance(piece.count, int) else ""]
        row = [piece.id, *counts]
        if with_editions:
            row.append(", ".join(piece.editions) if piece.editions is not None else "")
        row.extend(cells[name].get(piece.id, "") if name in cells else flat.get(name, "") for name in columns)
        rows.append(row)
    return header, rows


def _text_columns(source: GameSource, kind: str, piece_set: PieceSet,
                  set_index: int) -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    """A set read from a sheet: its text columns (`name@pl` → card id → the cell's text, empty or not),
    and where the sheet has each column (name → its column from 1): the sheet's own order."""
    cells: dict[str, dict[str, str]] = {}
    positions: dict[str, int] = {}
    for text in source.sheet_texts:
        if text.kind == kind and text.set_id == piece_set.id:
            cells.setdefault(text.column, {})[text.item] = text.text
            positions[text.column] = text.mark.column
    pieces = source.pieces[kind]
    marks = getattr(pieces.document.marks, "sheets", {}).get((pieces.list_key, set_index, piece_set.ITEMS))
    for path, column in (marks.columns.items() if marks is not None else ()):
        if path[:1] == ("fields",) and path[1:]:
            positions.setdefault(".".join(map(str, path[1:])), column)
    return dict(sorted(cells.items(), key=lambda item: positions[item[0]])), positions


def _flatten(fields: dict[str, Any], prefix: str, flat: dict[str, Any], on_list) -> None:
    for name, value in fields.items():
        path = f"{prefix}{name}"
        if isinstance(value, dict):
            _flatten(value, f"{path}.", flat, on_list)
        elif isinstance(value, list):
            on_list(path)
        elif value is not None:
            flat[path] = value


def _cell_problem(value: Any) -> str:
    """Why a value cannot go into a cell that `cards_from` reads back the same ('' if it can)."""
    if not isinstance(value, str):
        return ""
    if len(value) > MAX_CELL_CHARS:
        return f"is {len(value):,} characters long: a sheet's cell holds at most {MAX_CELL_CHARS:,}"
    control = next((char for char in value if (ord(char) < 32 and char not in "\t\n\r") or char == "\x7f"), None)
    if control is not None:      # XLSX cannot store it at all; CSV readers drop or choke on it
        return f"holds the control character U+{ord(control):04X}: a sheet's cell cannot"
    return ""


def _cell_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _csv_bytes(header: list[str], rows: list[list]) -> bytes:
    """UTF-8 with a BOM (Excel then reads non-Latin text right; pnp reads either), `\\n` line ends; a
    text a spreadsheet program would run as a formula (=HYPERLINK(…), +cmd|…) written with an apostrophe
    before it, which `cards_from:` takes off again (content/spreadsheet.py)."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([[quoted_formula(_cell_text(value)) if isinstance(value, str) else _cell_text(value)
                       for value in row] for row in rows])
    return b"\xef\xbb\xbf" + text.getvalue().encode("utf-8")


def _xlsx_bytes(title: str, header: list[str], rows: list[list]) -> bytes:
    import openpyxl                  # here: only an XLSX export pays for the import
    from openpyxl.styles import Font
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = title[:31]         # Excel's limit for a sheet's name
    sheet.append(header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    for row in rows:
        sheet.append(row)
    for cells in sheet.iter_rows(min_row=2):
        for cell in cells:      # openpyxl stores "=1+2" as a formula, which reads back as no value: keep text text
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
