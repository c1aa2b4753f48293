"""A spreadsheet's table as a set's entries: cards (tokens, pawns) with the same meaning as in YAML.

Load stage, between the table (spreadsheet.py) and the schema. Columns:

- `id`; `count`, or `count.<edition>` per edition (empty or 0: none in that edition);
  `editions` (ids separated by commas or spaces);
- any other column is a field (`art`, `name`); `field.sub` writes a nested field;
- `field@lang` (`name@bg`) is the text of the field's translation key in that language,
  added to the language's catalog; without a `field` column the key is made up as
  `<kind>.<set>.<id>.<field>` (`cards.cargo.apple.name`);
- a column whose name starts with `#` is the designer's own (notes, sums): not read, nor is a
  row whose id starts with `#` (a card set aside).

A cell reads as YAML reads a plain value: a whole number, a decimal, true or false, else
text; an empty cell is no value (an empty `count` is 1, as a card without `count:`). Each
row is checked by the same schema as a YAML card, its problems located to the cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from generator.content.schema import Card
from generator.content.spreadsheet import CellMark, Row, Table, column_letters
from generator.content.validate import validate
from generator.content.yaml_source import MarkTable, YamlDocument
from generator.errors import Problems

Path_ = tuple[str | int, ...]
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?")
_NAME_PART = re.compile(r"[A-Za-z0-9_-]+")
FIXED_COLUMNS = ("id", "count", "editions")


@dataclass(frozen=True)
class SheetText:
    """One per-language cell: the text of `key` in `lang`, written at `mark` ('' when the cell is empty);
    the cell is in column `column` (`name@bg`), of field `field` (`name`) of entry `item` of set
    `set_id` of `kind` (cards, tokens, pawns)."""

    lang: str
    key: str
    text: str
    mark: CellMark
    column: str = ""
    field: str = ""
    kind: str = ""
    set_id: str = ""
    item: str = ""


@dataclass
class EntryMarks:
    """Where each value of the entries was written: a path below the set's list → its cell.

    Resolved when asked (a 10,000-row sheet has 60,000 values; a build asks for a few).
    """

    table: Table
    rows: list[int] = field(default_factory=list)          # entry index → row number
    columns: dict[Path_, int] = field(default_factory=dict)  # ('count',), ('fields', 'name') … → column

    def mark(self, path: Path_, *, header: bool = False) -> CellMark | None:
        """The cell of `path` = (entry index, key, …); `header`: the column's name cell (where a key is written)."""
        if not path or not isinstance(path[0], int) or not 0 <= path[0] < len(self.rows):
            return None
        inside = tuple(path[1:])
        while inside and inside not in self.columns:
            inside = inside[:-1]
        column = self.columns.get(inside, self.columns.get(("id",), 0))
        if header:
            return self.table.mark(self.table.header_row, column)
        return self.table.mark(self.rows[path[0]], column)


class _RowMarks(MarkTable):
    """The marks of one row's values, for the schema's messages."""

    def __init__(self, marks: EntryMarks, index: int):
        super().__init__(marks.table.file)
        self.entry_marks, self.index = marks, index

    def __getitem__(self, path):
        header = bool(path) and path[0] == "<key>"
        mark = self.entry_marks.mark((self.index,) + tuple(path[header:]), header=header)
        if mark is None:
            raise KeyError(path)
        return mark

    def __contains__(self, path) -> bool:
        return True


@dataclass
class SheetEntries:
    """What a sheet gives a set: its entries, where each value is, and its per-language texts."""

    items: list[Card]
    marks: EntryMarks
    texts: list[SheetText]
    text_languages: set[str]          # languages with a text column


@dataclass(frozen=True)
class _Column:
    number: int         # from 1 (A)
    name: str
    path: Path_         # where its value goes in the entry: ('id',), ('count', 'full'), ('fields', 'art', 'x')
    lang: str = ""      # a text column's language


def entries_from_table(table: Table, *, kind: str, set_id: str, editions: list[str], languages: list[str],
                       known_fields: set[str] | None, problems: Problems) -> SheetEntries:
    """The entries of a set from its table; every problem located to its cell."""
    columns = _columns(table, kind, editions, languages, known_fields, problems)
    marks = EntryMarks(table)
    marks.columns = {column.path: column.number for column in columns if not column.lang}
    for column in columns:
        marks.columns.setdefault(column.path, column.number)
    result = SheetEntries([], marks, [], {column.lang for column in columns if column.lang})
    if not any(column.path == ("id",) for column in columns):
        problems.add(table.mark(table.header_row), "no 'id' column in the header row",
                     "the first row names the columns: id, count and the fields the templates read")
        return result
    id_column = next(column.number for column in columns if column.path == ("id",))
    for row in table.rows:
        if _text(row.value(id_column)).startswith("#"):
            continue              # a row set aside by the designer, as a comment
        entry, texts = _entry(row, columns, kind, set_id, table, problems)
        index = len(marks.rows)
        marks.rows.append(row.number)
        card = _validated(entry, marks, index, problems)
        if card is None:
            marks.rows.pop()
            continue
        result.items.append(card)
        result.texts.extend(texts)
    return result


def _columns(table: Table, kind: str, editions: list[str], languages: list[str],
             known_fields: set[str] | None, problems: Problems) -> list[_Column]:
    """The header's columns that are read; unknown, doubled or clashing names reported at their cell."""
    columns: list[_Column] = []
    seen: dict[str, int] = {}
    for number, name in table.header:
        where = table.mark(table.header_row, number)
        if name.startswith("#"):
            continue
        if name in seen:
            problems.add(where, f"column {name!r} appears twice",
                         f"the first is column {column_letters(seen[name])}; rename or remove one")
            continue
        seen[name] = number
        column = _column(number, name, where, kind, editions, languages, known_fields, problems)
        if column is not None:
            columns.append(column)
    count_columns = [column for column in columns if column.path[0] == "count"]
    if any(column.path == ("count",) for column in count_columns) and len(count_columns) > 1:
        problems.add(table.mark(table.header_row, count_columns[1].number),
                     "a sheet has one 'count' column or 'count.<edition>' columns, not both",
                     "remove 'count', or the per-edition columns")
        columns = [column for column in columns if column.path[0] != "count"]
    paths = {column.path for column in columns if not column.lang}
    for column in columns:
        # `art` and `art.x` in one sheet: a field cannot be a value and a mapping at once
        clash = next((column.path[:depth] for depth in range(2, len(column.path)) if column.path[:depth] in paths),
                     None)
        if clash is not None and not column.lang:
            problems.add(table.mark(table.header_row, column.number),
                         f"column {column.name!r} writes inside field '{'.'.join(map(str, clash[1:]))}', "
                         "which has a column of its own", "keep one of them")
    return columns


def _column(number: int, name: str, where: CellMark, kind: str, editions: list[str], languages: list[str],
            known_fields: set[str] | None, problems: Problems) -> _Column | None:
    if name in FIXED_COLUMNS:
        return _Column(number, name, (name,))
    head, _, lang = name.partition("@")
    if head.startswith("count."):
        edition = head[len("count."):]
        if lang or edition not in editions:
            problems.add(where, f"unknown edition '{edition}' in column {name!r}",
                         f"editions in game.yaml: {', '.join(sorted(editions))}")
            return None
        return _Column(number, name, ("count", edition))
    parts = head.split(".")
    if not all(_NAME_PART.fullmatch(part) for part in parts) or head in FIXED_COLUMNS:
        problems.add(where, f"{name!r} is not a column name pnp reads",
                     "name a field with letters, digits, '-' and '_' (art, name, cost.gold), "
                     "a language's text as name@bg, or start a column of notes with '#'")
        return None
    if known_fields is not None and parts[0] not in known_fields:
        noun = {"cards": "card", "tokens": "token", "pawns": "pawn"}[kind]
        known = ", ".join(["id", "count", "count.<edition>", "editions"] + sorted(known_fields - {"id"}))
        problems.add(where, f"unknown column {name!r}: no template reads a field '{parts[0]}'",
                     f"known columns: {known}, and <field>@<language> for a {noun}'s text; "
                     "a column of notes starts with '#'")
        return None
    if "@" in name and lang not in languages:
        problems.add(where, f"unknown language '{lang}' in column {name!r}",
                     f"languages in game.yaml: {', '.join(languages)}")
        return None
    return _Column(number, name, ("fields", *parts), lang)


def _entry(row: Row, columns: list[_Column], kind: str, set_id: str, table: Table,
           problems: Problems) -> tuple[dict[str, Any], list[SheetText]]:
    entry: dict[str, Any] = {}
    texts: dict[Path_, list[tuple[_Column, str]]] = {}
    for column in columns:
        raw = row.value(column.number)
        if column.lang:
            texts.setdefault(column.path, []).append((column, _text(raw)))
            continue
        if raw == "" or (isinstance(raw, str) and not raw.strip()):
            continue
        if column.path == ("id",):
            entry["id"] = _text(raw)
        elif column.path[0] == "count":
            value = _read(raw) if isinstance(raw, str) else raw
            if len(column.path) == 2 and value == 0:
                continue              # 0 in an edition's column: none in that edition
            if len(column.path) == 1:
                entry["count"] = value
            else:
                entry.setdefault("count", {})[column.path[1]] = value
        elif column.path == ("editions",):
            entry["editions"] = _text(raw).replace(",", " ").split()
        else:
            value = _value(raw, table.mark(row.number, column.number), problems)
            if value is not None:
                _put(entry, column.path, value)
    sheet_texts: list[SheetText] = []
    for path, cells in texts.items():
        key = _lookup(entry, path)
        if key is None:
            if not any(text for _, text in cells) or not isinstance(entry.get("id"), str):
                continue
            # no key written for the field: one named after the entry
            key = f"{kind}.{set_id}.{entry['id']}.{'.'.join(map(str, path[1:]))}"
            _put(entry, path, key)
        if not isinstance(key, str):
            continue              # a number or true in the key's column: the template says what it wants
        sheet_texts.extend(SheetText(column.lang, key, text, table.mark(row.number, column.number), column.name,
                                     ".".join(map(str, path[1:])), kind, set_id, str(entry.get("id", "")))
                           for column, text in cells)
    return entry, sheet_texts


def _text(raw) -> str:
    return raw.strip() if isinstance(raw, str) else str(raw)


def _read(text: str):
    """A CSV cell as YAML reads a plain value: whole number, decimal, true/false, else the text."""
    text = text.strip()
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    if text in ("true", "True", "TRUE", "false", "False", "FALSE"):
        return text.lower() == "true"
    return text


def _value(raw, mark: CellMark, problems: Problems):
    if isinstance(raw, str):
        return _read(raw)
    if isinstance(raw, (bool, int, float)):
        return raw
    problems.add(mark, f"a date or time ({raw}) is not a value a card can use",
                 "format the cell as text, or write the number it stands for")
    return None


def _put(entry: dict, path: Path_, value) -> None:
    node = entry
    for part in path[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            return
    node[path[-1]] = value


def _lookup(entry: dict, path: Path_):
    node: Any = entry
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _validated(entry: dict, marks: EntryMarks, index: int, problems: Problems) -> Card | None:
    """The row as a Card, or None with its problems located to the cells (`count: expected …`)."""
    try:
        return Card.model_validate(entry)
    except ValidationError:
        document = YamlDocument(marks.table.file, entry)
        document.marks = _RowMarks(marks, index)
        validate(Card, entry, document, problems)
        return None


class SheetMarks(MarkTable):
    """A piece file's marks, where the entries of sets read from sheets are marked at their cells.

    Paths (list key, set index, items key, entry index, …) resolve through the sheet's
    EntryMarks; a key's mark (`<key>`, where a YAML key is written) is its column's name cell.
    """

    def __init__(self, marks: MarkTable):
        super().__init__(marks.file)
        self.positions = marks.positions
        self.sheets: dict[Path_, EntryMarks] = {}

    def _sheet_mark(self, path) -> CellMark | None:
        header = bool(path) and path[0] == "<key>"
        inside = tuple(path[header:])
        marks = self.sheets.get(inside[:3]) if len(inside) > 3 else None
        return marks.mark(inside[3:], header=header) if marks is not None else None

    def __getitem__(self, path):
        mark = self._sheet_mark(path)
        return mark if mark is not None else super().__getitem__(path)

    def __contains__(self, path) -> bool:
        return self._sheet_mark(path) is not None or super().__contains__(path)
