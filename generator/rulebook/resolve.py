"""Resolve rules.yaml for one edition and language: keys looked up, counts filled in, blocks filtered.

The result holds only words, numbers and faces: the flow stage never sees a
translation key. Counts (`{count_gifts}`, `{count: surprises.tailwind}`) come
from the pieces laid out for the edition, so the rules never repeat a number
that the content already says.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from generator.components.board import LaidOutBoard
from generator.components.context import LayoutContext
from generator.components.kit import game_facts
from generator.components.icons import check_icons, game_break_rules, game_icons
from generator.components.subject import resolve_file
from generator.components.piece import Face
from generator.components.pieces import LaidOutSet
from generator.content.game import GameSource, piece_count
from generator.content.rules_schema import Block, CardFigure, Rulebook, RulesTable, Shown, TableRow
from generator.content.rules_schema import Figure as FigureSpec
from generator.content.yaml_source import YamlDocument
from generator.errors import SourceMark
from generator.i18n.engine_text import engine_word
from generator.rulebook.board_scene import BoardScene, SceneReader, board_scene, has_scene
from generator.rulebook.card_scene import CardArrangement, card_arrangement, has_cards
from generator.text.linebreak import BreakRules
from generator.units import shown

# Bounds no real rulebook comes near (a shipped one has ~20,000 characters and tables of ~15 rows): within
# them one sets in linear time, under 30 s (a 5,000-row table ~12 s, a 2 MB paragraph ~8 s, 6 MB ~25 s);
# rules.yaml and a catalog may each hold 16 MiB, and one key may be used again and again
MAX_RULEBOOK_CHARS = 4_000_000    # all the words of one rulebook, as printed
MAX_TABLE_ROWS = 10_000


@dataclass(frozen=True)
class Text:
    """Words with markup (**bold**, *italic*, {icon:name}, lists by line)."""

    words: str
    badge: bool = False


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    row_badges: tuple[bool, ...]
    widths: tuple[float, ...] | None


@dataclass(frozen=True)
class Figure:
    face: Face | None
    art: Path | None
    caption: str
    kind: str                       # 'card', 'board' or 'art'
    width: float | None = None      # mm, as rules.yaml asks; None: the flow's default for the kind
    scene: BoardScene | None = None     # a board figure's region, pieces, moves and markers (board_scene.py)
    arrangement: CardArrangement | None = None      # a cards figure's groups of faces (card_scene.py)
    scale: float | None = None      # a board figure at this share of its real size (rules.yaml's `scale`)


@dataclass(frozen=True)
class Callout:
    title: str
    blocks: tuple


@dataclass(frozen=True)
class Faq:
    entries: tuple[tuple[str, str, bool], ...]      # question, answer, badge


@dataclass(frozen=True)
class Item:
    kind: str                       # paragraph, list, subheading, table, callout, faq, figure
    content: object


@dataclass(frozen=True)
class Section:
    heading: Text
    items: tuple[Item, ...]


@dataclass(frozen=True)
class CoverDesign:
    """What the cover is drawn from: colours (hex or cmyk(...)) and the game's own art and pieces."""

    background: str
    band: str
    art: tuple[Path, ...] = ()
    cards: tuple[Face, ...] = ()
    board: Face | None = None


@dataclass(frozen=True)
class BackCover:
    """The booklet's back cover: its blocks (as a section's) and credits, for this edition and language."""

    items: tuple[Item, ...]
    credits: str
    always: bool                    # printed even where the rules fill their sheets
    mark: SourceMark                # where rules.yaml writes it: a back cover longer than its page is told there


@dataclass(frozen=True)
class PlayerAid:
    """The player aid for this edition and language: its title and blocks, size (mm) and copies."""

    title: str
    items: tuple[Item, ...]
    width: float
    height: float
    copies: int
    mark: SourceMark                # where rules.yaml writes it: an aid longer than its card is told there


COVER_BACKGROUND, COVER_BAND = "#f6ecd9", "#a31621"     # the rulebook's cream and red
COVER_CARDS = 5       # cards fanned by default: enough to read as a hand, few enough to show each


@dataclass(frozen=True)
class RuleDoc:
    lang: str
    title: str
    tagline: str
    facts: tuple[str, ...]
    edition: str
    cover: CoverDesign
    sections: tuple[Section, ...]
    icons: dict[str, Path]
    badge: str
    toc_title: str
    footer: str
    leaflet: bool = False
    breaks: BreakRules | None = None    # the language's line-breaking rules with the game's additions
    back_cover: BackCover | None = None
    player_aid: PlayerAid | None = None


def count_variables(sets: dict[str, list[LaidOutSet]]) -> dict[str, int]:
    """count_<set> and count_<set>_<piece> (dashes as underscores) for every set laid out."""
    counts: dict[str, int] = {}
    for laid_out_sets in sets.values():
        for laid_out in laid_out_sets:
            name = laid_out.id.replace("-", "_")
            counts[f"count_{name}"] = len(laid_out.copies)
            for copy in laid_out.copies:
                key = f"count_{name}_{copy.card.replace('-', '_')}"
                counts[key] = counts.get(key, 0) + 1
    return counts


@dataclass
class _Resolver:
    ctx: LayoutContext
    document: YamlDocument         # rules.yaml, as read
    rulebook: Rulebook
    counts: dict[str, int]
    sets: dict[str, list[LaidOutSet]]
    boards: list[LaidOutBoard]     # and the sheets: a figure draws either
    marks: list = field(default_factory=list)
    characters: int = 0        # of the words resolved so far

    def mark(self, *path) -> SourceMark:
        return self.document.mark(("rulebook",) + path)

    def words(self, key: str, *path) -> str:
        if self.characters > MAX_RULEBOOK_CHARS:
            return ""              # said once, where the rulebook passed the bound
        text, entry_mark = self.ctx.translate(key, self.mark(*path), self.counts)
        self.characters += len(text)
        if self.characters > MAX_RULEBOOK_CHARS:
            self.ctx.problems.add(self.mark(*path), f"the rulebook's words pass {MAX_RULEBOOK_CHARS:,} characters "
                                  f"with '{key}' ({len(text):,} of them): more than any rulebook prints",
                                  "shorten the text, or use a key fewer times")
            return ""
        check_icons(text, key, self.ctx, entry_mark or self.mark(*path))
        return text

    def shown(self, item: Shown) -> bool:
        return item.editions is None or self.ctx.edition in item.editions

    def blocks(self, blocks: list[Block], path: tuple) -> tuple[Item, ...]:
        items = []
        for index, block in enumerate(blocks):
            if not self.shown(block):
                continue
            item = self.block(block, path + (index,))
            if item is not None:
                items.append(item)
        return tuple(items)

    def block(self, block: Block, path: tuple) -> Item | None:
        if block.paragraph:
            return Item("paragraph", Text(self.words(block.paragraph, *path, "paragraph"), block.badge))
        if block.list:
            return Item("list", Text(self.words(block.list, *path, "list"), block.badge))
        if block.subheading:
            return Item("subheading", Text(self.words(block.subheading, *path, "subheading"), block.badge))
        if block.table:
            return Item("table", self.table(block.table, path))
        if block.callout:
            title = self.words(block.callout.title, *path, "callout", "title") if block.callout.title else ""
            return Item("callout", Callout(title, self.blocks(block.callout.blocks, path + ("callout", "blocks"))))
        if block.faq:
            entries = tuple((self.words(entry.q, *path, "faq", i, "q"), self.words(entry.a, *path, "faq", i, "a"),
                             entry.badge) for i, entry in enumerate(block.faq) if self.shown(entry))
            return Item("faq", Faq(entries))
        if block.figure:
            return self.figure(block.figure, path)
        self.ctx.problems.add(self.mark(*path), "a block needs one of paragraph, list, subheading, table, "
                              "callout, faq or figure")
        return None

    def scene_reader(self, board: LaidOutBoard, path: tuple) -> SceneReader:
        palette = self.ctx.source.game.palette
        return SceneReader(board.face, board.id, self.sets,
                           lambda key, *inside: self.words(key, *path, *inside),
                           lambda value, mark: self.ctx.colour(value, palette, mark),
                           lambda *inside: self.mark(*path, *inside),
                           self.ctx.problems.add)

    def cell(self, value, path: tuple) -> str:
        if isinstance(value, bool) or value is None:
            return ""
        if isinstance(value, float) and not math.isfinite(value):
            self.ctx.problems.add(self.mark(*path), f"a table cell number must be finite, got {shown(value)}",
                                  "write a number, or text in quotes")
            return ""
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, dict) and set(value) == {"count"}:
            name = "count_" + str(value["count"]).replace(".", "_").replace("-", "_")
            if name not in self.counts:
                self.ctx.problems.add(self.mark(*path), f"no pieces counted as {value['count']!r} in edition "
                                      f"'{self.ctx.edition}'", "write set or set.piece with ids from the YAML files")
                return "?"
            return str(self.counts[name])
        if isinstance(value, str):
            return self.words(value, *path)
        self.ctx.problems.add(self.mark(*path), f"a table cell must be a key, a number or {{count: …}}, got {value!r}")
        return ""

    def table(self, spec: RulesTable, path: tuple) -> Table:
        if len(spec.rows) > MAX_TABLE_ROWS:
            self.ctx.problems.add(self.mark(*path, "table", "rows"), f"a table of {len(spec.rows):,} rows: more than "
                                  f"{MAX_TABLE_ROWS:,}, which no rulebook prints", "split it, or shorten it")
            return Table((), (), (), None)
        header = tuple(self.words(key, *path, "table", "header", i) for i, key in enumerate(spec.header))
        rows, badges = [], []
        for index, row in enumerate(spec.rows):
            cells, badge = (row.cells, row.badge) if isinstance(row, TableRow) else (row, False)
            if isinstance(row, TableRow) and not self.shown(row):
                continue
            rows.append(tuple(self.cell(cell, path + ("table", "rows", index)) for cell in cells))
            badges.append(badge)
        return Table(header, tuple(rows), tuple(badges), tuple(spec.widths) if spec.widths else None)

    def figure(self, spec: FigureSpec, path: tuple) -> Item | None:
        caption = self.words(spec.caption, *path, "figure", "caption") if spec.caption else ""
        if has_cards(spec):
            inside = path + ("figure",)
            arrangement = card_arrangement(spec, self.sets, lambda key, *at: self.words(key, *inside, *at),
                                           lambda *at: self.mark(*inside, *at), self.ctx.problems.add)
            if arrangement is None:
                return None
            return Item("figure", Figure(None, None, caption, "cards", spec.width, scale=spec.scale,
                                         arrangement=arrangement))
        if spec.card:
            for laid_out in self.sets.get("cards", []):
                for copy in laid_out.copies:
                    if (laid_out.id, copy.card) == (spec.card.deck, spec.card.card):
                        return Item("figure", Figure(copy.front, None, caption, "card", spec.width))
            self.ctx.problems.add(self.mark(*path, "figure"), f"no card {spec.card.deck}/{spec.card.card} "
                                  f"in edition '{self.ctx.edition}'")
            return None
        if spec.board:
            for board in self.boards:
                if board.id == spec.board:
                    scene = None
                    if has_scene(spec):
                        scene = board_scene(spec, self.scene_reader(board, path + ("figure",)))
                        if scene is None:
                            return None
                    return Item("figure", Figure(board.face, None, caption, "board", spec.width, scene=scene,
                                                 scale=spec.scale))
            self.ctx.problems.add(self.mark(*path, "figure"), f"no board '{spec.board}'",
                                  f"name a board of board.yaml or a sheet of sheets.yaml "
                                  f"({', '.join(b.id for b in self.boards) or 'none'})")
            return None
        if spec.art:
            art = resolve_file(self.ctx, spec.art, self.mark(*path, "figure", "art"))
            return Item("figure", Figure(None, art, caption, "art", spec.width)) if art else None
        return None


def resolve_rules(ctx: LayoutContext, sets: dict[str, list[LaidOutSet]],
                  boards: list[LaidOutBoard]) -> RuleDoc | None:
    source = ctx.source
    if source.rules is None or source.rules_document is None:
        return None
    rulebook = source.rules.rulebook
    resolver = _Resolver(ctx, source.rules_document, rulebook, count_variables(sets), sets, boards)
    icons = game_icons(ctx)
    sections = []
    for index, section in enumerate(rulebook.sections):
        if not resolver.shown(section):
            continue
        heading = Text(resolver.words(section.heading, "sections", index, "heading"), section.badge)
        sections.append(Section(heading, resolver.blocks(section.blocks, ("sections", index, "blocks"))))
    cover = rulebook.cover
    edition = source.game.editions[ctx.edition]
    known = game_facts(ctx)
    # rules.yaml's own cover age and time win over game.yaml's (which the kit shares)
    facts = tuple(fact for fact in (known.players,
                                    resolver.words(cover.age, "cover", "age") if cover.age else known.age,
                                    resolver.words(cover.time, "cover", "time") if cover.time else known.play_time)
                  if fact)
    title = resolver.words(cover.title, "cover", "title")
    edition_name = ctx.translate(edition.name, resolver.mark("cover"))[0]
    return RuleDoc(
        ctx.lang, title, resolver.words(cover.tagline, "cover", "tagline") if cover.tagline else "", facts,
        edition_name, cover_design(resolver, sets, boards),
        tuple(sections), icons, ctx.translate("game.full_badge", resolver.mark())[0] if _has(ctx, "game.full_badge")
        else "", _word(ctx, "rules.toc"), f"{title} · {_word(ctx, 'rules.title')} · {edition_name}",
        rulebook.leaflet, game_break_rules(ctx), back_cover(resolver), player_aid(resolver))


def back_cover(resolver: _Resolver) -> BackCover | None:
    """rules.yaml's back cover for the edition, or None where it has none (or nothing of it is this edition's)."""
    spec = resolver.rulebook.back_cover
    if spec is None:
        return None
    items = resolver.blocks(spec.blocks, ("back_cover", "blocks"))
    credits = resolver.words(spec.credits, "back_cover", "credits") if spec.credits else ""
    if not items and not credits:
        return None
    return BackCover(items, credits, spec.always, resolver.mark("back_cover"))


def player_aid(resolver: _Resolver) -> PlayerAid | None:
    spec = resolver.rulebook.player_aid
    if spec is None:
        return None
    items = resolver.blocks(spec.blocks, ("player_aid", "blocks"))
    return PlayerAid(resolver.words(spec.title, "player_aid", "title"), items, spec.width, spec.height, spec.copies,
                     resolver.mark("player_aid"))


def cover_design(resolver: _Resolver, sets: dict[str, list[LaidOutSet]], boards: list[LaidOutBoard]) -> CoverDesign:
    """The cover's colours, art, cards and board, each checked where rules.yaml writes it."""
    ctx, cover = resolver.ctx, resolver.rulebook.cover
    palette = ctx.source.game.palette
    background = ctx.colour(cover.background, palette, resolver.mark("cover", "background")) or COVER_BACKGROUND
    band = ctx.colour(cover.band, palette, resolver.mark("cover", "band")) or COVER_BAND
    files = [cover.art] if isinstance(cover.art, str) else list(cover.art or [])
    art = []
    for index, file in enumerate(files):
        mark = resolver.mark("cover", "art", index) if isinstance(cover.art, list) else resolver.mark("cover", "art")
        found = resolve_file(ctx, file, mark)
        if found is not None:
            art.append(found)
    fronts = {(laid_out.id, copy.card): copy.front for laid_out in sets.get("cards", []) for copy in laid_out.copies}
    if cover.cards is None:
        cards = _first_cards(sets.get("cards", []))
    else:
        cards = []
        for index, card in enumerate(cover.cards):
            front = fronts.get((card.deck, card.card))
            if front is None:
                resolver.ctx.problems.add(resolver.mark("cover", "cards", index),
                                          f"no card {card.deck}/{card.card} in edition '{ctx.edition}'",
                                          "name a deck id and a card id of cards.yaml that this edition has")
            else:
                cards.append(front)
    board = None
    if cover.board is not None:
        board = next((laid_out.face for laid_out in boards if laid_out.id == cover.board), None)
        if board is None:
            ctx.problems.add(resolver.mark("cover", "board"), f"no board '{cover.board}'",
                             f"name a board of board.yaml ({', '.join(b.id for b in boards) or 'none'})")
    return CoverDesign(background, band, tuple(art), tuple(cards), board)


def cards_shown(source: GameSource, edition: str) -> frozenset[tuple[str, str]]:
    """The (deck, card) ids whose fronts the rulebook may print: every card figure, the back cover's too (of
    any edition: one more is harmless), the cover's cards or, by default, the first COVER_CARDS cards of each
    deck that the edition has (`_first_cards` takes from those). A rules-only build draws only these faces."""
    if source.rules is None:
        return frozenset()
    rulebook = source.rules.rulebook
    blocks = [block for section in rulebook.sections for block in section.blocks]
    blocks += rulebook.back_cover.blocks if rulebook.back_cover is not None else []
    shown = {(figure.deck, figure.card) for figure in _card_figures(blocks)}
    named = [placed.piece for figure in _figures(blocks) for placed in figure.pieces]
    named += [card.card for figure in _figures(blocks)
              for card in (figure.cards or []) + [card for group in figure.groups or [] for card in group.cards]]
    shown.update((name.partition("/")[0], name.partition("/")[2]) for name in named)
    if rulebook.cover.cards is not None:
        shown.update((card.deck, card.card) for card in rulebook.cover.cards)
    elif "cards" in source.pieces:      # as _first_cards takes them: each deck's first card in turn, …
        decks = [[(deck.id, piece.id) for index, piece in enumerate(deck.items) if piece_count(deck, index, edition)]
                 for deck in source.pieces["cards"].sets]
        in_turn = [cards[rank] for rank in range(max(map(len, decks), default=0)) for cards in decks
                   if rank < len(cards)]
        shown.update(in_turn[:COVER_CARDS])
    return frozenset(shown)


def _card_figures(blocks: list[Block]) -> Iterator[CardFigure]:
    for figure in _figures(blocks):
        if figure.card is not None:
            yield figure.card


def _figures(blocks: list[Block]) -> Iterator[FigureSpec]:
    for block in blocks:
        if block.figure is not None:
            yield block.figure
        if block.callout is not None:
            yield from _figures(block.callout.blocks)


def _first_cards(decks: list[LaidOutSet]) -> list[Face]:
    """Up to COVER_CARDS distinct card fronts, taken from the decks in turn (the first card of each deck, then
    the second …), so a cover shows the game's variety."""
    per_deck = []
    for laid_out in decks:
        seen, fronts = set(), []
        for copy in laid_out.copies:
            if copy.card not in seen:
                seen.add(copy.card)
                fronts.append(copy.front)
        per_deck.append(fronts)
    chosen: list[Face] = []
    for rank in range(max((len(fronts) for fronts in per_deck), default=0)):
        for fronts in per_deck:
            if rank < len(fronts) and len(chosen) < COVER_CARDS:
                chosen.append(fronts[rank])
    return chosen


def _has(ctx: LayoutContext, key: str) -> bool:
    return ctx.catalog is not None and key in ctx.catalog


def _word(ctx: LayoutContext, key: str) -> str:
    """The rulebook's own word (rules.toc, rules.title): the game's catalog's, else pnp's in the book's language."""
    return ctx.translate(key, ctx.source.game_document.mark())[0] if _has(ctx, key) else engine_word(ctx.lang, key)
