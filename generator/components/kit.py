"""The words of a kit's first page: contents with counts from the content, print instructions; and the
game's facts (players, age, playing time) that the kit's subtitle and the rulebook's cover both show."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.components.board import LaidOutBoard, LaidOutFace
from generator.components.context import LayoutContext
from generator.components.icons import game_break_rules, icon_files
from generator.components.pieces import LaidOutSet
from generator.i18n.engine_text import (KEY_LIKE, KIT_STEP_PLACEHOLDERS, fact_count, fact_word, kit_step_keys,
                                        kit_word, override_keys)
from generator.text.linebreak import BreakRules

LINE_KINDS = ("cut", "fold", "glue", "align")      # the order of imposition/line_kinds.py KINDS (a stage above)


@dataclass(frozen=True)
class KitText:
    title: str
    subtitle: str
    contents_heading: str
    contents: tuple[tuple[int, str], ...]      # (how many, what)
    also_needed: str
    printing_heading: str
    print_steps: str
    warning: str
    steps: tuple[tuple[str, str], ...] = ()    # (kit.step.* key, its words with {placeholders} left to fill)
    # how the page's texts are set, as every text of the game: its inline icons, its line-breaking rules
    icons: tuple[tuple[str, Path], ...] = ()
    breaks: BreakRules | None = None
    scale_bar: str = ""                        # the 50 mm bar's label on each part's first sheet (kit.scale_bar)
    # the line language's names (kit.line.cut, fold, glue, align: imposition/line_kinds.py KINDS), in that order
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameFacts:
    """An edition's facts in words, each '' when the game does not give it."""

    players: str
    age: str
    play_time: str

    def line(self) -> tuple[str, ...]:
        return tuple(fact for fact in (self.players, self.age, self.play_time) if fact)


def game_facts(ctx: LayoutContext) -> GameFacts:
    """Players (the edition's count in the catalog's `rules.cover.players` or `game.players` words, else the
    engine's), age and playing time (game.yaml `age`, `play_time`: a translation key, or text)."""
    game, document = ctx.source.game, ctx.source.game_document
    edition = game.editions[ctx.edition]
    players = ""
    if edition.players:
        players = _fact(ctx, override_keys("game.players"), {"players": edition.players},
                        document.mark(("editions", ctx.edition, "players")))
    facts = {}
    for name in ("age", "play_time"):
        value = getattr(game, name)
        mark = document.mark((name,))
        if not value:
            facts[name] = ""
        elif KEY_LIKE.fullmatch(value):     # a translation key; else ('6+') the words themselves
            facts[name] = ctx.translate(value, mark)[0]
        else:
            facts[name] = _fact(ctx, (f"game.{name}",), {name: value}, mark)
    return GameFacts(players, facts["age"], facts["play_time"])


def _fact(ctx: LayoutContext, keys: tuple[str, ...], args: dict, mark) -> str:
    """The first of `keys` the game's catalog has, filled in; else the engine's words for the last."""
    for key in keys:
        if ctx.catalog is not None and key in ctx.catalog:
            return ctx.translate(key, mark, args, fact_count(args))[0]     # plural forms: by the count
    return fact_word(ctx.lang, keys[-1], args)


def kit_text(ctx: LayoutContext, sets: dict[str, list[LaidOutSet]], boards: list[LaidOutBoard],
             sheets: Sequence[LaidOutFace] = (), copies: int = 1) -> KitText:
    game = ctx.source.game
    mark = ctx.source.game_document.mark()

    def words(key: str, args: dict | None = None) -> str:
        catalog = ctx.catalog
        if catalog is not None and key in catalog:
            return ctx.translate(key, mark, args)[0]
        return kit_word(ctx.lang, key)      # the engine's own words in the game's language

    contents: list[tuple[int, str]] = []
    for kind in ("cards", "tokens", "pawns"):
        for laid_out in sets.get(kind, []):
            if laid_out.copies:
                contents.append((len(laid_out.copies), ctx.translate(laid_out.title, mark)[0]))
    for sheet in sheets:
        contents.append((copies, ctx.translate(sheet.title, mark)[0]))
    for board in boards:
        contents.append((1, ctx.translate(board.title, mark)[0]))
    rulebook = words("kit.rulebook")     # asked either way: a game's catalog may say it (pnp i18n status)
    if ctx.source.rules is not None:
        contents.append((1, rulebook))
    edition = game.editions[ctx.edition]
    # a missing key is reported where it is written: game.yaml's title and the edition's name
    document = ctx.source.game_document
    edition_name = ctx.translate(edition.name, document.mark(("editions", ctx.edition, "name")))[0]
    subtitle = " · ".join((edition_name,) + game_facts(ctx).line())
    # kit.title continues the game's title after a dash: each catalog writes it as its language goes on
    # there (lower case in Russian, Bulgarian, Hungarian and French: "Ты должен это увидеть — набор для печати")
    return KitText(ctx.translate(game.title, document.mark(("title",)))[0] + " — " + words("kit.title"), subtitle,
                   words("kit.contents"), tuple(contents), words("kit.also_needed"), words("kit.printing"),
                   words("kit.print_steps"), words("kit.warning"),
                   # the printing steps' words: the imposition fills in what the build made
                   tuple((key, words(key, {name: "{" + name + "}" for name in KIT_STEP_PLACEHOLDERS}))
                         for key in kit_step_keys()),
                   icons=icon_files(ctx), breaks=game_break_rules(ctx), scale_bar=words("kit.scale_bar"),
                   lines=tuple(words(f"kit.line.{kind}") for kind in LINE_KINDS))
