"""Load a game folder: game.yaml, its pieces (cards, tokens, pawns), boards, catalogs and templates."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterable

from generator.content.payload_check import check_payloads
from generator.content.schema import (FORMAT, BoardsFile, CardsFile, Game, PawnsFile, PieceSet, SheetsFile,
                                      TokensFile)
from generator.content.templates import TemplateLibrary
from generator.content.validate import validate
from generator.content.yaml_source import YamlDocument, load_yaml
from generator.errors import Problems, SourceMark
from generator.i18n.catalog import Catalog, load_catalog

if TYPE_CHECKING:    # the spreadsheet readers are imported only for a set that names a sheet (`cards_from:`)
    from generator.content.rules_schema import RulesFile    # and the rulebook's models for a game with rules
    from generator.content.sheet_entries import SheetText


# file name → (schema, the key of its list of sets)
PIECE_FILES = MappingProxyType({"cards": (CardsFile, "decks"), "tokens": (TokensFile, "sets"),
                                "pawns": (PawnsFile, "sets")})

# The icon markup of format 1 (the rulebook's ':gift:'), now written {icon:gift}: a name between two
# colons, neither touching a word or another colon (so '10:30:00' or 'a::b' are not read as icons).
# (the colon first, then what precedes it: a search that starts with a character skips to each
# colon, where the look-behind first tried it at every position of every text: ~18x faster)
FORMER_ICON_MARKUP = re.compile(r":(?<![\w:]:)([a-z0-9_-]+):(?![\w:])")


def former_icons(text: str, known: Iterable[str]) -> list[str]:
    """The icon names of `known` written in the former markup in `text`, in order."""
    names = set(known)
    return [name for name in FORMER_ICON_MARKUP.findall(text) if name in names] if ":" in text else []


def with_icon_markup(text: str, known: Iterable[str]) -> str:
    """`text` with each former ':name:' of a known icon written {icon:name}; other colons untouched."""
    names = set(known)
    return FORMER_ICON_MARKUP.sub(lambda found: "{icon:" + found[1] + "}" if found[1] in names else found[0], text)


@dataclass
class PieceFile:
    """cards.yaml, tokens.yaml or pawns.yaml: sets of pieces, and where each was written."""

    kind: str
    sets: list[PieceSet]
    document: YamlDocument
    list_key: str

    def mark(self, set_index: int, *path: str | int) -> SourceMark:
        return self.document.mark((self.list_key, set_index) + path)

    def key_mark(self, set_index: int, *path: str | int) -> SourceMark:
        return self.document.key_mark((self.list_key, set_index) + path)

    def find(self, set_id: str) -> tuple[int, PieceSet] | None:
        """The set of that id and its index in the file (its marks' first step), or None."""
        for index, piece_set in enumerate(self.sets):
            if piece_set.id == set_id:
                return index, piece_set
        return None


@dataclass
class GameSource:
    """Everything read from one game folder, validated; documents keep source marks."""

    folder: Path
    game: Game
    game_document: YamlDocument
    pieces: dict[str, PieceFile] = field(default_factory=dict)
    boards: BoardsFile | None = None
    boards_document: YamlDocument | None = None
    rules: RulesFile | None = None
    rules_document: YamlDocument | None = None
    sheets: SheetsFile | None = None
    sheets_document: YamlDocument | None = None
    catalogs: dict[str, Catalog] = field(default_factory=dict)
    templates: TemplateLibrary | None = None
    # language → keys whose text in that language a spreadsheet column holds (`name@bg`):
    # `pnp i18n stub` leaves them to the sheet
    sheet_keys: dict[str, set[str]] = field(default_factory=dict)
    # every per-language cell of the sheets, of every language (those not read in this run too)
    sheet_texts: list[SheetText] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.game.id

    def forget_positions(self) -> None:
        """Drop the raw values and source marks of the component files once layout is done.

        Layout is the last stage that reports problems against the YAML; writing never
        does. A 10,000-card deck's marks and raw values are ~25 MB that the print-shop
        file, drawn next, can use instead. (Marks asked for later fall back to line 1.)
        """
        documents: list[YamlDocument | None] = [piece_file.document for piece_file in self.pieces.values()]
        documents += [self.boards_document, self.sheets_document]
        for document in documents:
            if document is not None:
                document.data = None
                document.marks.positions.clear()
                if hasattr(document.marks, "sheets"):      # SheetMarks: a set's entries read from a sheet
                    document.marks.sheets.clear()

    @property
    def source_language(self) -> str:
        return self.game.languages[0]


def find_games(content_root: Path) -> list[Path]:
    return sorted(p.parent for p in content_root.glob("*/game.yaml"))


def load_game(folder: Path, problems: Problems, project_templates: Path | None = None,
              languages: tuple[str, ...] | None = None) -> GameSource | None:
    """Read and validate a game folder; every problem of every file goes to `problems`.

    A broken game.yaml does not stop the other files from being read and checked: the
    user sees every file's problems in one run. None when game.yaml itself is unusable.
    `project_templates`: the game's project's shared templates (pnp.yaml), between its own and pnp's.
    `languages` (--lang): only those catalogs are read, and the source language's (fallbacks).
    """
    game_document = load_yaml(folder / "game.yaml", problems, root=folder)
    game = validate(Game, game_document.data, game_document, problems) if game_document is not None else None
    templates = TemplateLibrary(folder, problems, project_templates)
    # a game validated from game.yaml: its document was read
    source = GameSource(folder, game, game_document) if game is not None and game_document is not None else None
    offered = game.languages if game is not None else _catalog_languages(folder)
    if languages is not None:
        offered = [lang for lang in offered if lang in languages or lang == offered[0]]
    catalogs = {lang: catalog for lang in offered
                if (catalog := load_catalog(folder, lang, problems)) is not None}
    sheets = _SheetReader(folder, game, templates, catalogs, problems)
    pieces = {kind: piece_file for kind, (schema, list_key) in PIECE_FILES.items()
              if (piece_file := _load_pieces(folder, kind, schema, list_key, problems, sheets)) is not None}
    sheet_keys: dict[str, set[str]] = {}
    sheet_texts = sheets.texts
    if sheet_texts:
        from generator.content.sheet_texts import add_sheet_texts
        lacking = {lang: folder / "i18n" / f"{lang}.yaml" for lang in offered if lang not in catalogs}
        sheet_keys = add_sheet_texts(catalogs, sheet_texts, problems, lacking)
    boards_document, boards = _load_file(folder, "board", BoardsFile, problems)
    sheets_document, sheets = _load_file(folder, "sheets", SheetsFile, problems)
    rules_document, rules = None, None
    if _present(folder / "rules.yaml"):
        from generator.content.rules_schema import RulesFile
        rules_document, rules = _load_file(folder, "rules", RulesFile, problems)
    if source is None:
        templates.check_all(folder / "templates")
        return None
    source.templates, source.catalogs, source.pieces = templates, catalogs, pieces
    source.sheet_keys, source.sheet_texts = sheet_keys, sheet_texts
    source.boards_document, source.boards = boards_document, boards
    source.sheets_document, source.sheets = sheets_document, sheets
    source.rules_document, source.rules = rules_document, rules
    _check_language_stacks(source, problems)
    for piece_file in pieces.values():
        _check_sets(source, piece_file, problems)
    if boards is not None:
        _check_boards(source, problems)
    for index, sheet in enumerate(sheets.sheets if sheets else []):
        _check_template(source, sheet.template, sheets_document.mark(("sheets", index, "template")), problems)
    templates.check_all(folder / "templates")      # after the used ones, whose messages name their use
    check_payloads(source, problems)               # routes, cells, points, table rows: before any layout
    if source.game.format < FORMAT:
        _read_former_icon_markup(source, problems)
    return source


def _check_language_stacks(source: GameSource, problems: Problems) -> None:
    """A stack written for one language ('body@ka') names a language of the game."""
    for name in source.game.fonts:
        stack, at, lang = name.partition("@")
        if at and (not stack or lang not in source.game.languages):
            problems.add(source.game_document.key_mark(("fonts", name)),
                         f"font stack '{name}' is for language '{lang}', which game.yaml's languages do not list"
                         if stack else f"font stack '{name}' has no name before its '@'",
                         f"write the stack's name, '@' and one of: {', '.join(source.game.languages)} (body@ka)")


def known_icons(source: GameSource) -> set[str]:
    """Every icon name the game defines: game.yaml icons and (format 1's place) rules.yaml rulebook.icons."""
    rules = set(source.rules.rulebook.icons) if source.rules is not None else set()
    return rules | set(source.game.icons)


def upgrade_hint(source: GameSource) -> str:
    """What rewrites a game of an older format: the command, with the game as it was named."""
    return f"run `pnp upgrade {source.folder}` to rewrite the game in format {FORMAT}"


def _read_former_icon_markup(source: GameSource, problems: Problems) -> None:
    """A game of format 1 wrote its icons ':gift:' (the rulebook's markup then). Each catalog text that
    does is said, a warning with its fix, and read as {icon:gift}: the game prints as it was meant to
    (on cards and boards too, where format 1 printed the colons as written)."""
    known = known_icons(source)
    if not known:
        return
    for catalog in source.catalogs.values():
        for key, entry in list(catalog.entries.items()):
            texts = list(entry.plural.values()) if entry.plural is not None else [entry.text or ""]
            names = sorted({name for text in texts for name in former_icons(text, known)})
            if not names:
                continue
            problems.warn(entry.mark, f"{', '.join(f':{name}:' for name in names)} in '{key}' ({catalog.lang}) "
                          f"{'is' if len(names) == 1 else 'are'} the icon markup of game format 1, printed as "
                          f"the icon{'' if len(names) == 1 else 's'}",
                          f"write {', '.join('{icon:' + name + '}' for name in names)}, or {upgrade_hint(source)}")
            plural = None if entry.plural is None else \
                {category: with_icon_markup(text, known) for category, text in entry.plural.items()}
            text = None if entry.text is None else with_icon_markup(entry.text, known)
            catalog.entries[key] = replace(entry, text=text, plural=plural)


def _catalog_languages(folder: Path) -> list[str]:
    """With game.yaml unreadable, every catalog there is is checked on its own."""
    return sorted(file.stem for file in (folder / "i18n").glob("*.yaml")) if (folder / "i18n").is_dir() else []


def _load_pieces(folder: Path, kind: str, schema, list_key: str, problems: Problems,
                 sheets: "_SheetReader") -> PieceFile | None:
    document, model = _load_file(folder, kind, schema, problems,
                                 lambda document: sheets.fill(document, kind, list_key))
    return PieceFile(kind, getattr(model, list_key), document, list_key) if model is not None else None


def _load_file(folder: Path, name: str, schema, problems: Problems, prepare=None):
    """(document, validated model) of an optional game file; Nones where it is absent or unusable.

    `prepare(document)` completes the data before it is validated (entries read from sheets).
    """
    file = folder / f"{name}.yaml"
    if not _present(file):
        return None, None
    document = load_yaml(file, problems, root=folder)
    if document is None:
        return None, None
    if prepare is not None:
        prepare(document)
    return document, validate(schema, document.data, document, problems)


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class _SheetReader:
    """Fills the sets that name a spreadsheet (`cards_from: data/cargo.csv`) with its rows, before
    the schema sees them, and keeps the per-language texts for the catalogs."""

    def __init__(self, folder: Path, game, templates: TemplateLibrary, catalogs: dict[str, Catalog],
                 problems: Problems):
        self.folder, self.game, self.templates, self.catalogs = folder, game, templates, catalogs
        self.problems = problems
        self.texts: list[SheetText] = []
        self._fields: set[str] | None = None
        self._all_templates_read = True        # known fields are complete only when every template was read

    def fill(self, document: YamlDocument, kind: str, list_key: str) -> None:
        items = {"cards": "cards", "tokens": "tokens", "pawns": "pawns"}[kind]
        sets = document.data.get(list_key) if isinstance(document.data, dict) else None
        for index, raw in enumerate(sets if isinstance(sets, list) else ()):
            if isinstance(raw, dict) and f"{items}_from" in raw:
                self._fill_set(document, (list_key, index), raw, items, kind)
            elif isinstance(raw, dict) and self.game is not None:
                self._note_unread_fields(document, (list_key, index), raw, items)

    def _note_unread_fields(self, document: YamlDocument, at: tuple, raw: dict[str, Any], items: str) -> None:
        """A field of a card written in YAML that nothing reads (`nmae:` for `name:`) is said, as a sheet's
        column nothing reads is; a warning, not an error: the card still builds, without it."""
        known = None
        listed = raw.get(items)
        for position, item in enumerate(listed if isinstance(listed, list) else ()):
            fields = item.get("fields") if isinstance(item, dict) else None
            for name in fields if isinstance(fields, dict) else ():
                known = self._known_fields(raw) if known is None else known
                if not self._all_templates_read:
                    return                        # a template that could not be read may read the field
                if name not in known:
                    self.problems.warn(document.key_mark(at + (items, position, "fields", name)),
                                       f"no template or text reads the field '{name}'",
                                       f"fields read: {', '.join(sorted(known - {'id', 'deck'})) or 'none'}; "
                                       "check its spelling, or remove it")

    def _fill_set(self, document: YamlDocument, at: tuple, raw: dict[str, Any], items: str, kind: str) -> None:
        from generator.content.sheet_entries import SheetMarks, entries_from_table
        from generator.content.spreadsheet import CellMark, SheetRefused, read_table
        key = f"{items}_from"
        spec = raw[key]
        file, sheet = (spec, None) if isinstance(spec, str) else \
            (spec.get("file"), spec.get("sheet")) if isinstance(spec, dict) else (None, None)
        if items in raw:
            self.problems.add(document.key_mark(at + (key,)),
                              f"a {'deck' if kind == 'cards' else 'set'} takes its {items} from `{items}:` "
                              f"or from `{key}:`, not both", f"move the {items} into the sheet, or remove `{key}:`")
            return
        raw[items] = [{"id": "placeholder"}]     # until the sheet is read: one message per mistake, not two
        if not isinstance(file, str) or not (sheet is None or isinstance(sheet, str)):
            return                                 # the schema says what is wrong with the reference
        try:
            table = read_table(self.folder, file, sheet)
        except SheetRefused as error:
            where = error.mark or (document.mark(at + (key,) + (("sheet",) if isinstance(spec, dict) else ()))
                                   if error.reference == "sheet" else
                                   document.mark(at + (key,) + (("file",) if isinstance(spec, dict) else ()))
                                   if error.reference == "file" else CellMark(self.folder / file))
            self.problems.add(where, str(error), error.hint)
            return
        before = len(self.problems.errors)
        game = self.game
        entries = entries_from_table(
            table, kind=kind, set_id=str(raw.get("id", "")),
            editions=list(game.editions) if game is not None else [],
            languages=list(game.languages) if game is not None else sorted(self.catalogs),
            known_fields=self._known_fields(raw) if game is not None else None, problems=self.problems)
        if not entries.items and len(self.problems.errors) == before:
            self.problems.add(table.mark(table.header_row), f"no {items} under the header row",
                              f"add a row for each of the set's {items}")
        if entries.items:
            raw[items] = entries.items           # validated Card models: the schema takes them as they are
        if not isinstance(document.marks, SheetMarks):
            document.marks = SheetMarks(document.marks)
        document.marks.sheets[at + (items,)] = entries.marks
        self.texts.extend(entries.texts)

    def _known_fields(self, raw_set: dict[str, Any]) -> set[str]:
        """Field names something reads: '@name' in any template, {name} in any catalog text, the
        game's and the set's fields. A column named otherwise is a typo (or a note: '#…')."""
        if self._fields is None:
            found: set[str] = set(self.game.fields) | {"id", "deck"}
            for template_id in self.templates.files:     # read once: the library keeps them for layout
                document = self.templates.document(template_id)
                if document is None:
                    self._all_templates_read = False
                else:
                    _field_references(document.data, found)
            for catalog in self.catalogs.values():
                for entry in catalog.entries.values():
                    for text in ([entry.text] if entry.plural is None else list(entry.plural.values())):
                        found.update(_PLACEHOLDER.findall(text or ""))
            self._fields = found
        own = raw_set.get("fields")
        return self._fields | (set(own) if isinstance(own, dict) else set())


def _field_references(node: Any, found: set[str]) -> None:
    """Every '@name' a template's data holds, as a value or as a condition's key."""
    if isinstance(node, str):
        if node.startswith("@"):
            found.add(node[1:].split(".")[0])
    elif isinstance(node, dict):
        for key, value in node.items():
            _field_references(key, found)
            _field_references(value, found)
    elif isinstance(node, list):
        for value in node:
            _field_references(value, found)


def _present(file: Path) -> bool:
    """There, even as a broken or outside link: reading it says what is wrong, where silence would not."""
    return file.exists() or file.is_symlink()


def _check_template(source: GameSource, template_id: str, mark: SourceMark, problems: Problems) -> None:
    assert source.templates is not None
    if template_id not in source.templates.files:
        problems.add(mark, f"unknown template '{template_id}'",
                     f"known templates: {', '.join(sorted(source.templates.files))}")
    else:
        source.templates.resolve(template_id)


def _check_boards(source: GameSource, problems: Problems) -> None:
    assert source.boards is not None and source.boards_document is not None
    seen: set[str] = set()
    for index, board in enumerate(source.boards.boards):
        if board.id in seen:
            problems.add(source.boards_document.mark(("boards", index, "id")), f"duplicate board id '{board.id}'")
        seen.add(board.id)
        _check_template(source, board.template, source.boards_document.mark(("boards", index, "template")),
                        problems)


def _check_sets(source: GameSource, pieces: PieceFile, problems: Problems) -> None:
    """What the schema cannot see: unique ids, known editions and templates."""
    editions = set(source.game.editions)
    set_ids: dict[str, int] = {}
    noun = "deck" if pieces.kind == "cards" else "set"
    for set_index, piece_set in enumerate(pieces.sets):
        if piece_set.id in set_ids:
            problems.add(pieces.mark(set_index, "id"), f"duplicate {noun} id '{piece_set.id}'",
                         f"{noun} ids must be unique; the first is {noun} {set_ids[piece_set.id] + 1}")
        set_ids.setdefault(piece_set.id, set_index)
        for slot in ("template", "back", "ink_saver_back"):
            template_id = getattr(piece_set, slot)
            if template_id is not None:
                _check_template(source, template_id, pieces.mark(set_index, slot), problems)
        item = piece_set.ITEMS[:-1]
        item_ids: set[str] = set()
        for index, piece in enumerate(piece_set.items):
            if piece.id in item_ids:
                problems.add(pieces.mark(set_index, piece_set.ITEMS, index, "id"),
                             f"duplicate {item} id '{piece.id}' in {noun} '{piece_set.id}'",
                             f"{item} ids must be unique in a {noun}")
            item_ids.add(piece.id)
            # point at the edition name itself: `count: {deluxe: 2}` marks `deluxe`, not the card
            named = [(name, pieces.key_mark(set_index, piece_set.ITEMS, index, "count", name))
                     for name in (piece.count if isinstance(piece.count, dict) else {})]
            named += [(name, pieces.mark(set_index, piece_set.ITEMS, index, "editions", position))
                      for position, name in enumerate(piece.editions or [])]
            for name, where in named:
                if name not in editions:
                    problems.add(where, f"unknown edition '{name}' in {item} '{piece.id}'",
                                 f"editions in game.yaml: {', '.join(sorted(editions))}")


def piece_count(piece_set: PieceSet, index: int, edition: str) -> int:
    """Copies of a piece in an edition (0 when the edition leaves it out)."""
    piece = piece_set.items[index]
    if piece.editions is not None and edition not in piece.editions:
        return 0
    if isinstance(piece.count, dict):
        return piece.count.get(edition, 0)
    return piece.count
