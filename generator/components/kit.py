"""The words of a kit's first page: contents with counts from the content, print instructions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.components.board import LaidOutBoard
from generator.components.context import LayoutContext
from generator.components.icons import game_break_rules, icon_files
from generator.components.pieces import LaidOutSet
from generator.i18n.engine_text import KIT_STEP_PLACEHOLDERS, KIT_STEPS, kit_word
from generator.text.linebreak import BreakRules


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


def kit_text(ctx: LayoutContext, sets: dict[str, list[LaidOutSet]], boards: list[LaidOutBoard],
             sheets: list = (), copies: int = 1) -> KitText:
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
    edition = game.editions[ctx.edition]
    # a missing key is reported where it is written: game.yaml's title and the edition's name
    document = ctx.source.game_document
    subtitle = ctx.translate(edition.name, document.mark(("editions", ctx.edition, "name")))[0] + \
        (f" · {edition.players}" if edition.players else "")
    return KitText(ctx.translate(game.title, document.mark(("title",)))[0] + " — " + words("kit.title"), subtitle,
                   words("kit.contents"), tuple(contents), words("kit.also_needed"), words("kit.printing"),
                   words("kit.print_steps"), words("kit.warning"),
                   # the printing steps' words: the imposition fills in what the build made
                   tuple((key, words(key, {name: "{" + name + "}" for name in KIT_STEP_PLACEHOLDERS}))
                         for key in KIT_STEPS["en"]),
                   icons=icon_files(ctx), breaks=game_break_rules(ctx))
