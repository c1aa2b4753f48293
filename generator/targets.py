"""Load games and lay out each edition × language: the checked, laid-out Targets that writing draws.

Layout is where content is checked: every problem found here is reported with where
it is written, and nothing is written unless all targets lay out clean.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.components.board import LaidOutBoard, layout_boards
from generator.components.context import LayoutContext
from generator.components.icons import check_catalog_icons
from generator.components.kit import KitText, kit_text
from generator.components.piece import PieceCopy
from generator.components.pieces import LaidOutSet, layout_sets
from generator.components.sheets import LaidOutSheet, layout_sheets
from generator.components.text_boxes import report_missing_glyphs
from generator.content.game import GameSource, load_game
from generator.errors import Problems, UsageError
from generator.face_cache import LayoutFiles
from generator.i18n.pseudo import PSEUDO, pseudo_catalog
from generator.imposition.single import shop_fit_problems, shop_size_problems
from generator.imposition.tiles import TileLayout, tile_boards
from generator.options import BuildOptions
from generator.print_facts import PAPER_SIZES, SheetRoom
from generator.render.art_files import ART_FILES
from generator.text.fonts import FontLibrary, game_families
from generator.text.setter import TextSetter

if TYPE_CHECKING:      # the rulebook stage is imported only for a game that has rules
    from generator.rulebook.resolve import RuleDoc


@dataclass
class Target:
    """One edition × language of a game, laid out and ready to impose."""

    source: GameSource
    edition: str
    lang: str
    sets: dict[str, list[LaidOutSet]]          # 'cards', 'tokens', 'pawns'
    boards: list[LaidOutBoard]
    sheets: list[LaidOutSheet]
    kit: KitText
    stack: tuple[str, ...]          # the game's body font stack
    setter: TextSetter              # the game's fonts (built-in families and its own)
    rules: RuleDoc | None = None
    tilings: dict[tuple[str, str], TileLayout] = field(default_factory=dict)   # (board id, paper): its tiles
    player_aids: tuple[PieceCopy, ...] = ()    # the rulebook's player aid, printed with the cards

    @property
    def folder_parts(self) -> tuple[str, str, str]:
        return (self.source.id, self.edition, self.lang)

    def copies(self, kind: str) -> list[PieceCopy]:
        return [copy for laid_out in self.sets.get(kind, []) for copy in laid_out.copies]

    @property
    def prints_ink_saver_backs(self) -> bool:
        """Whether the edition makes cards-ink-saver.pdf (its `ink_saver`) and a deck has such a back."""
        return bool(self.source.game.editions[self.edition].ink_saver) and \
            any(laid_out.ink_saver_back for laid_out in self.sets.get("cards", []))


def load_games(folders: list[Path], problems: Problems, project_templates: Path | None = None,
               languages: tuple[str, ...] | None = None) -> list[GameSource]:
    """Every game that could be read at all, even with problems in some of its files (of its
    catalogs, those of `languages` and the source language's)."""
    sources = []
    for folder in folders:
        source = load_game(folder, problems, project_templates, languages)
        if source is not None:
            sources.append(source)
    return sources


def clean_games(folders: list[Path], problems: Problems, project_templates: Path | None = None,
                languages: tuple[str, ...] | None = None) -> list[GameSource]:
    """The games whose files loaded without an error, ready to lay out; every game's problems
    go to `problems`, so one game's broken file does not hide another game's layout problems."""
    sources = []
    for folder in folders:
        own = Problems()
        source = load_game(folder, own, project_templates, languages)
        problems.extend(own)
        if source is not None and not own.errors:
            sources.append(source)
    return sources


def layout_targets(sources: list[GameSource], options: BuildOptions, problems: Problems,
                   library: FontLibrary, used: dict[str, set[str]] | None = None,
                   only: set[tuple[str, str, str]] | None = None,
                   layout_files: LayoutFiles | None = None) -> list[Target]:
    """Lay out every requested edition × language; problems collect along the way.

    `used` collects, per game, every translation key the layout looked up. `layout_files`: the build
    context's files of fitted texts (they stay open for drawing, which may fit more); without them the
    layout opens its own, saved when it is done.
    """
    used = {} if used is None else used
    files = LayoutFiles() if layout_files is None else layout_files
    targets = []
    rooms = _sheet_rooms(options)
    for source in sources:
        setter = TextSetter(game_font_library(source, problems, library))
        files.attach(setter, source.folder)    # texts fitted in an earlier build are read, not set again
        if options.print_shop and not options.check_only and (options.wants("print-shop") or options.wants("png")):
            shop_size_problems(source, options.shop, problems)
            shop_fit_problems(source, options.shop, problems)
        editions = _select(source.game.editions, options.editions, "edition", source)
        # the pseudo-locale is there when asked for by name, never by default
        offered = source.game.languages + ([PSEUDO] if options.languages else [])
        languages = _select(offered, options.languages, "language", source)
        if PSEUDO in languages:
            source.catalogs[PSEUDO] = pseudo_catalog(source.catalogs[source.source_language])
        for edition in editions:
            for lang in languages:
                if only is not None and (source.id, edition, lang) not in only:
                    continue
                ctx = LayoutContext(source, edition, lang, setter, problems, options.allow_fallback,
                                    used=used.setdefault(source.id, set()),
                                    overflow_warns=(lang == PSEUDO or options.overflow_warns)
                                    and not options.check_only,
                                    art=ART_FILES)
                drawn = _drawn_by_rules(source, edition, options)
                sets = {kind: layout_sets(ctx, pieces, rooms, options.layout, drawn)
                        for kind, pieces in source.pieces.items()}
                boards = layout_boards(ctx)
                sheets = layout_sheets(ctx)
                check_catalog_icons(ctx)    # every text the engine may print, the kit's and its own words too
                report_missing_glyphs(ctx)  # one message per script no font has, once every text is set
                stack = ctx.font_stack(None, source.game_document.mark())
                rules = _rules(ctx, sets, boards + sheets, stack, options.papers)
                targets.append(Target(source, edition, lang, sets, boards, sheets,
                                      kit_text(ctx, sets, boards, sheets, options.copies), stack, setter,
                                      rules, _tilings(source, boards, options, problems),
                                      _player_aids(rules, setter, stack, options)))
    files.save()       # before any worker lays its target out again: it reads them
    if layout_files is None:
        files.close()
    return targets


def _tilings(source: GameSource, boards: list[LaidOutBoard], options: BuildOptions,
             problems: Problems) -> dict[tuple[str, str], TileLayout]:
    """Each board's tiles on each paper asked for, a seam that crosses a word or a space warned of where
    the board is written."""
    if not boards or source.boards is None or source.boards_document is None:
        return {}
    written = {board.id: index for index, board in enumerate(source.boards.boards)}
    document = source.boards_document
    return tile_boards(boards, options.papers, options.margin,
                       lambda board, message, hint: problems.warn(document.mark(("boards", written[board])),
                                                                  message, hint))


RULEBOOK_OUTPUTS = frozenset({"rules", "booklet"})


def _drawn_by_rules(source: GameSource, edition: str, options: BuildOptions) -> frozenset[tuple[str, str]] | None:
    """For a build of the rulebook alone (--only rules,booklet), the cards it draws (its figures and cover):
    the other pieces are laid out for their counts and their decks' text sizes only, their art unread
    (about a third of such a build's time). None: every face is drawn, or checked (pnp check)."""
    if options.check_only or options.only is None or not options.only <= RULEBOOK_OUTPUTS:
        return None
    from generator.rulebook.resolve import cards_shown      # the rulebook stage: for a rules build only
    return cards_shown(source, edition)


def _rules(ctx: LayoutContext, sets: dict[str, list[LaidOutSet]], faces: list[LaidOutBoard],
           stack: tuple[str, ...], papers: tuple[str, ...]) -> RuleDoc | None:
    """The game's rulebook resolved for the target, or None for a game without rules.yaml; its back cover
    set on each paper, to tell where it is longer than its page. `faces`: the boards and the sheets (a figure
    draws either)."""
    if ctx.source.rules is None:
        return None
    from generator.rulebook.resolve import resolve_rules      # the rulebook stage: for a game with rules only
    doc = resolve_rules(ctx, sets, faces)
    if doc is not None and doc.back_cover is not None:
        from generator.rulebook.flow import back_cover_problems    # (setting it: a game with a back cover only)
        back_cover_problems(doc, papers, ctx.setter, stack, ctx.problems)
    if doc is not None and doc.player_aid is not None:
        from generator.rulebook.player_aid import player_aid_problems     # (a rulebook with an aid only)
        player_aid_problems(doc, ctx.setter, stack, ctx.problems)
    return doc


def _player_aids(doc: RuleDoc | None, setter: TextSetter, stack: tuple[str, ...],
                 options: BuildOptions) -> tuple[PieceCopy, ...]:
    """The player aid's copies where the build prints cards (none for a rulebook without one)."""
    if doc is None or doc.player_aid is None or options.check_only or not (options.wants("cards") or
                                                                          options.wants("kit")):
        return ()
    from generator.rulebook.player_aid import player_aid_copies     # (a rulebook with an aid only)
    return player_aid_copies(doc, setter, stack)


def game_font_library(source: GameSource, problems: Problems, base: FontLibrary) -> FontLibrary:
    """The built-in families plus the game's own font files."""
    if not source.game.font_files:
        return base

    def report(path: tuple[str | int, ...], message: str) -> None:
        problems.add(source.game_document.mark(path), message, "fix the path in game.yaml font_files")
    return FontLibrary(game_families(source.folder, source.game.font_files, report))


def _select(available: Iterable[str], wanted: tuple[str, ...] | None, what: str, source: GameSource) -> list[str]:
    if wanted is None:
        return list(available)
    chosen = [item for item in wanted if item in available]
    if not chosen:
        raise UsageError(f"game '{source.id}' has no {what} {', '.join(wanted)} "
                         f"(it has {', '.join(available)})")
    return chosen


def _sheet_rooms(options: BuildOptions) -> tuple[SheetRoom, ...]:
    """Where pieces go on each paper of the build: inside --margin, or a cut machine's border."""
    if not options.cut:
        return tuple(SheetRoom(paper, PAPER_SIZES[paper], options.margin) for paper in options.papers)
    from generator.imposition.cut import sheet_room     # loaded for cut builds only
    return tuple(sheet_room(paper, PAPER_SIZES[paper], options.margin, options.cut) for paper in options.papers)
