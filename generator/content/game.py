"""Load a game folder: game.yaml, its pieces (cards, tokens, pawns), boards, catalogs and templates."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.content.schema import (BoardsFile, CardsFile, Game, PawnsFile, PieceSet, RulesFile,
                                       SheetsFile, TokensFile)
from generator.content.templates import TemplateLibrary
from generator.content.validate import validate
from generator.content.yaml_source import YamlDocument, load_yaml
from generator.errors import Problems, SourceMark
from generator.i18n.catalog import Catalog, load_catalog


# file name → (schema, the key of its list of sets)
PIECE_FILES = {"cards": (CardsFile, "decks"), "tokens": (TokensFile, "sets"), "pawns": (PawnsFile, "sets")}


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

    @property
    def id(self) -> str:
        return self.game.id

    def forget_positions(self) -> None:
        """Drop the raw values and source marks of the component files once layout is done.

        Layout is the last stage that reports problems against the YAML; writing never
        does. A 10,000-card deck's marks and raw values are ~25 MB that the print-shop
        file, drawn next, can use instead. (Marks asked for later fall back to line 1.)
        """
        documents = [piece_file.document for piece_file in self.pieces.values()]
        documents += [self.boards_document, self.sheets_document]
        for document in documents:
            if document is not None:
                document.data = None
                document.marks.positions.clear()

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
    source = GameSource(folder, game, game_document) if game is not None else None
    offered = game.languages if game is not None else _catalog_languages(folder)
    if languages is not None:
        offered = [lang for lang in offered if lang in languages or lang == offered[0]]
    catalogs = {lang: catalog for lang in offered
                if (catalog := load_catalog(folder, lang, problems)) is not None}
    pieces = {kind: piece_file for kind, (schema, list_key) in PIECE_FILES.items()
              if (piece_file := _load_pieces(folder, kind, schema, list_key, problems)) is not None}
    boards_document, boards = _load_file(folder, "board", BoardsFile, problems)
    sheets_document, sheets = _load_file(folder, "sheets", SheetsFile, problems)
    rules_document, rules = _load_file(folder, "rules", RulesFile, problems)
    if source is None:
        templates.check_all(folder / "templates")
        return None
    source.templates, source.catalogs, source.pieces = templates, catalogs, pieces
    source.boards_document, source.boards = boards_document, boards
    source.sheets_document, source.sheets = sheets_document, sheets
    source.rules_document, source.rules = rules_document, rules
    for piece_file in pieces.values():
        _check_sets(source, piece_file, problems)
    if boards is not None:
        _check_boards(source, problems)
    for index, sheet in enumerate(sheets.sheets if sheets else []):
        _check_template(source, sheet.template, sheets_document.mark(("sheets", index, "template")), problems)
    templates.check_all(folder / "templates")      # after the used ones, whose messages name their use
    return source


def _catalog_languages(folder: Path) -> list[str]:
    """With game.yaml unreadable, every catalog there is is checked on its own."""
    return sorted(file.stem for file in (folder / "i18n").glob("*.yaml")) if (folder / "i18n").is_dir() else []


def _load_pieces(folder: Path, kind: str, schema, list_key: str, problems: Problems) -> PieceFile | None:
    document, model = _load_file(folder, kind, schema, problems)
    return PieceFile(kind, getattr(model, list_key), document, list_key) if model is not None else None


def _load_file(folder: Path, name: str, schema, problems: Problems):
    """(document, validated model) of an optional game file; Nones where it is absent or unusable."""
    file = folder / f"{name}.yaml"
    if not _present(file):
        return None, None
    document = load_yaml(file, problems, root=folder)
    if document is None:
        return None, None
    return document, validate(schema, document.data, document, problems)


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
