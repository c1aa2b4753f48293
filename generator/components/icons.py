"""The game's inline icon set and the check of the icons a text uses.

Icons are named in game.yaml `icons: {gift: art/gift.svg}` (and, for older
games, rules.yaml `rulebook.icons`, merged in: game.yaml wins) and written
`{icon:gift}` in any text of any catalog. An unknown name, or the rulebook's
former `:gift:` markup, is reported where the text is written: every text of
every language's catalog is checked (the kit's words, a deck name only the
kit's contents list prints, an engine word a game overrides), and so are the
texts written outside catalogs (literal box texts, table formats and cells).

The former markup of a known icon is an error in a game of the current format (it would
print as written), and a warning in a game of format 1, where it still prints as the icon:
its catalogs are read that way (content/game.py), and so are its texts outside catalogs
(`read_former_markup`). `pnp upgrade GAME` rewrites it (generator/upgrade.py).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from generator.components.context import LayoutContext
from generator.components.subject import resolve_file
from generator.content.game import FORMER_ICON_MARKUP, known_icons as defined_icons, upgrade_hint, with_icon_markup
from generator.content.schema import FORMAT, TextBox
from generator.content.templates import ResolvedTemplate
from generator.errors import SourceMark
from generator.text.layout import SetStyle
from generator.text.linebreak import BreakRules, break_rules
from generator.text.rich import icon_names
from generator.units import pt_to_mm


def game_icons(ctx: LayoutContext) -> dict[str, Path]:
    """Icon name → art file, every file checked once (a bad one reported where it is named)."""
    memo_key = ("icons",)
    if memo_key not in ctx.memo:
        icons: dict[str, Path] = {}
        source = ctx.source
        if source.rules is not None and source.rules_document is not None:
            for name, relative in source.rules.rulebook.icons.items():
                path = resolve_file(ctx, relative, source.rules_document.mark(("rulebook", "icons", name)))
                if path is not None:
                    icons[name] = path
        for name, relative in source.game.icons.items():
            path = resolve_file(ctx, relative, source.game_document.mark(("icons", name)))
            if path is not None:
                icons[name] = path
        ctx.memo[memo_key] = icons
    return ctx.memo[memo_key]


def known_icons(ctx: LayoutContext) -> set[str]:
    """Every name the game defines, its file usable or not (a bad file is its own problem)."""
    return defined_icons(ctx.source)


def read_former_markup(text: str, ctx: LayoutContext) -> str:
    """A text written outside the catalogs as a game of format 1 wrote it: ':gift:' of a known icon
    is drawn as {icon:gift} (check_icons says so, with the fix). The current format's text as it is."""
    if ctx.source.game.format >= FORMAT or ":" not in text:
        return text
    return with_icon_markup(text, known_icons(ctx))


def check_icons(text: str, key: str | None, ctx: LayoutContext, mark: SourceMark, what: str | None = None) -> None:
    """Report icons the game does not define, and the former :name: markup, where the text is written.
    `what` names the text in the message when it is not a catalog key ("format 2 of table box 'goals'")."""
    names = icon_names(text) if "{" in text else ()
    former = FORMER_ICON_MARKUP.findall(text) if ":" in text else ()
    if not names and not former:      # most texts: no icon written either way
        return
    known = known_icons(ctx)
    what = what or f"'{key}'"
    for name in names:
        if name not in known and ctx.once("icon", key, what, name, ctx.lang):
            ctx.problems.add(mark, f"unknown icon '{{icon:{name}}}' in {what} ({ctx.lang})",
                             f"icons of this game: {', '.join(sorted(known)) or 'none'}; "
                             "name its art in game.yaml icons: {" + (name or "name") + ": art/….svg}")
    for name in former:
        if name not in known or not ctx.once("former-icon", key, what, name, ctx.lang):
            continue
        if ctx.source.game.format < FORMAT:     # read as the icon: the game says the format it was written in
            ctx.problems.warn(mark, f"':{name}:' in {what} ({ctx.lang}) is the icon markup of game format 1, "
                              "printed as the icon", f"write {{icon:{name}}}, or {upgrade_hint(ctx.source)}")
        else:
            ctx.problems.add(mark, f"':{name}:' in {what} ({ctx.lang}) is the former icon markup and would "
                             f"print as written in a game of format {FORMAT}", f"write {{icon:{name}}}")


def check_catalog_icons(ctx: LayoutContext) -> None:
    """Check every text of the language's catalog, each at its own line: whatever the engine prints
    from it — component texts, the rulebook, the kit's first page and its steps — may use an icon."""
    catalog = ctx.catalog
    if catalog is None:
        return
    for key, entry in catalog.entries.items():
        for text in (entry.plural.values() if entry.plural is not None else (entry.text or "",)):
            check_icons(text, key, ctx, entry.mark)


def game_break_rules(ctx: LayoutContext) -> BreakRules:
    """The language's line-breaking rules with the game's additions (game.yaml linebreak)."""
    if ("break-rules",) not in ctx.memo:
        extra = {lang: rules.no_break_after for lang, rules in ctx.source.game.linebreak.items()}
        ctx.memo[("break-rules",)] = break_rules(ctx.lang, extra)
    return ctx.memo[("break-rules",)]


def box_style(style: SetStyle, template: ResolvedTemplate, box: TextBox, frame, ctx: LayoutContext) -> SetStyle:
    """A text box's style with its line-breaking decided: the game's rules for the language, and
    `hyphenate` as the style says or, by default, only for running text — never in titles and
    labels (bold, black or upper-case styles) nor in boxes with room for two lines or fewer,
    which shrink rather than break a word."""
    declared = template.model.styles.get(box.style or "")
    if declared is not None and declared.hyphenate is not None:
        hyphenate = declared.hyphenate
    else:
        title = style.weight != "regular" or bool(declared is not None and declared.uppercase)
        room = (frame[3] - 2 * box.padding) / pt_to_mm(style.size * style.leading)
        hyphenate = not title and room >= 3 - 1e-6
    return replace(game_text_style(style, ctx), hyphenate=hyphenate)


def game_text_style(style: SetStyle, ctx: LayoutContext) -> SetStyle:
    """A style set with the game's typesetting: its icon set and its line-breaking rules for the language."""
    return replace(style, breaks=game_break_rules(ctx), icons=icon_files(ctx))


def icon_files(ctx: LayoutContext) -> tuple[tuple[str, Path], ...]:
    """The icon set as the layout takes it (hashable, sorted by name)."""
    if ("icon-files",) not in ctx.memo:
        ctx.memo[("icon-files",)] = tuple(sorted(game_icons(ctx).items()))
    return ctx.memo[("icon-files",)]
