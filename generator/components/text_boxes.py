"""Text and table boxes: words looked up, styles resolved, text fitted, problems reported.

Every problem (missing glyph, text too long at the minimum size, text set below
6 pt, a box reaching into the safe margin) is reported with where the words or the
box are written. Game text is never set below 6 pt (MIN_GAME_TEXT) unless the game
lowers that floor deliberately (game.yaml `min_text_size: 5pt`): text under 6 pt is then
a warning, still said by every `pnp check`, and text under the game's floor an error.
Texts of deck-wide boxes are noted in the deck's scope
(deck_sizes), which sets them at one size once the deck is laid out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from generator.components.box_call import BoxCall, DrawTemplate
from generator.components.context import LayoutContext, SetText
from generator.components.icons import box_style, check_icons, game_text_style, read_former_markup
from generator.components.deck_sizes import FittedText, open_scope
from generator.components.piece import Item, Pen, TextPlacement
from generator.components.subject import MISSING, Subject, value_of
from generator.components.table import TableText, fit_table
from generator.components.text_placement import placed_text
from generator.content.game import upgrade_hint
from generator.content.payloads import field_name, parse_rows
from generator.content.schema import DEFAULT_TEXT_SIZE, LOWEST_TEXT_FLOOR, MIN_GAME_TEXT, TextStyle
from generator.content.templates import ResolvedTemplate
from generator.errors import SourceMark
from generator.text.casing import upper as upper_text
from generator.text.fonts import DEFAULT_STACK, font_to_add, for_language, script_of
from generator.text.layout import SetStyle, TextLayout, fit_text, fit_whole_words
from generator.text.rich import parse_rich_text

_DEFAULT_STYLE = TextStyle.model_construct()     # equal to TextStyle(), without building its validator at import
# MIN_GAME_TEXT (content/schema.py, beside game.yaml's min_text_size that lowers it): the smallest game
# text on a card, token, pawn, board or sheet, in points. Text shrinks no further than the game's floor,
# and a style set smaller is reported. Engine marks (scale bar, tile labels) may be 5 pt.

# mm: the smallest inline icon that reads printed (a pictogram's strokes about 0.2 mm at this size); an icon is
# ICON_CAPS × its text's capitals, so it is this small in text of about 5.5 pt (Nunito), below the 6 pt floor
LEGIBLE_ICON = 2.2


def check_safe(template: ResolvedTemplate, name: str, frame, ctx: LayoutContext, mark: SourceMark) -> None:
    model, size = template.model, template.model.size
    if size is None:          # a template without a size is refused where it is resolved
        return
    safe = model.safe or 0.0
    x, y, w, h = frame
    worst = max(safe - x, safe - y, (x + w) - (size.width - safe), (y + h) - (size.height - safe))
    if worst > 1e-6 and ctx.once("safe", template.id, name):
        ctx.problems.add(mark, f"text box '{name}' of template '{template.id}' reaches {worst:.1f} mm "
                         f"into the {safe:g} mm safe margin", "move or shrink the box: cutting may clip it")


def resolve_style(template: ResolvedTemplate, name: str | None, ctx: LayoutContext,
                  mark: SourceMark) -> SetStyle:
    memo_key = ("style", template.id, name)
    if memo_key not in ctx.memo:
        ctx.memo[memo_key] = _resolve_style(template, name, ctx, mark)
    return ctx.memo[memo_key]


def _resolve_style(template: ResolvedTemplate, name: str | None, ctx: LayoutContext,
                   mark: SourceMark) -> SetStyle:
    styles = template.model.styles
    style = styles.get(name or "", _DEFAULT_STYLE)
    if name and name not in styles and ctx.once("style", template.id, name):
        ctx.problems.add(mark, f"unknown style '{name}' in template '{template.id}'",
                         f"styles: {', '.join(styles) or 'none'}")
    size = style.size or DEFAULT_TEXT_SIZE
    # shrinking stops at the style's minimum, and never below the game's floor, MIN_GAME_TEXT unless
    # game.yaml lowers it (a style itself set smaller is reported where it is used, see report_small)
    floor = max(style.min_size if style.min_size is not None else size * 0.75, ctx.source.game.text_floor)
    # a bad font or colour is reported where the style says it, not at the box using the style
    font_mark = template.mark(("styles", name or "", "font"), mark)
    colour_mark = template.mark(("styles", name or "", "color"), mark)
    return SetStyle(
        stack=ctx.font_stack(style.font, font_mark), size=size,
        min_size=min(size, floor), weight=style.weight or "regular",
        italic=bool(style.italic),
        color=ctx.colour(style.color or "#222222", template.model.palette, colour_mark) or "#000000",
        align=style.align or "start", valign=style.valign or "top", leading=style.leading or 1.2,
        lang=ctx.lang, halo=_halo(style, template, name, ctx, mark), features=tuple(style.features or ()))


def _halo(style: TextStyle, template: ResolvedTemplate, name: str | None, ctx: LayoutContext,
          mark: SourceMark) -> tuple[str, float] | None:
    if style.halo is None:
        return None
    where = template.mark(("styles", name or "", "halo", "color"), mark)
    colour = ctx.colour(style.halo.color, template.model.palette, where)
    return (colour, style.halo.width) if colour else None


def text_items(call: BoxCall, draw: DrawTemplate) -> tuple[Item, ...]:
    """A text box: its words looked up, set in its style and fitted into the box (noted in the deck's scope)."""
    ctx = call.ctx
    words = box_text(call)
    if not words.text:
        return ()
    # the same words in the same box come out the same on every face (a rules text on
    # every copy): set once; its problems were reported the first time
    memo_key = ("text", call.template.id, call.name, words.key, words.text)
    found = ctx.memo.get(memo_key)
    if found is None:
        found = ctx.memo[memo_key] = _set_text(call, words)
    items, fitted, (width, height, style, layout) = found
    if ctx.recorder is not None and words.key is not None:   # `pnp i18n export`: the room each key has
        ctx.recorder.text_set(ctx, words.key, SetText(call.template.id, call.name, call.subject.label, width, height,
                                                      style, layout, items[0]))
    scope = open_scope(ctx)
    if scope is not None and fitted is not None:
        scope.note(call.template.id, call.name, fitted)
    return items


class Words(NamedTuple):
    """A box's text: the words, the translation key they come from (None for a literal), where they are written."""

    text: str
    key: str | None
    mark: SourceMark


def _set_text(call: BoxCall, words: Words) -> tuple[tuple[Item, ...], FittedText | None, tuple]:
    """The text's placement fitted on its own, (for a deck-wide box) what setting it again takes,
    and the box's room (width, height inside the padding), style and the text's own layout."""
    box, ctx, template = call.box, call.ctx, call.template
    style = text_box_style(call)
    declared = template.model.styles.get(box.style or "", _DEFAULT_STYLE)
    report_small(call, words.key, style.size, box.style)
    text = uppercase_covered(words.text, style.stack, ctx) if declared.uppercase else words.text
    check_glyphs(text, style.stack, ctx, words.key or box.literal, words.mark, call.subject)
    check_icons(text, words.key or box.literal, ctx, words.mark)
    text = read_former_markup(text, ctx)
    x, y, w, h = call.frame
    pad = box.padding
    paragraphs = parse_rich_text(text)
    layout = None
    if declared.fit != "each":
        layout = _at_deck_size_so_far(call, paragraphs, (w - 2 * pad, h - 2 * pad), style)
    if layout is None:
        layout = fit_text(paragraphs, w - 2 * pad, h - 2 * pad, style, ctx.setter)
    if not layout.fits:
        report_overflow(call, words.key, words.mark, (layout.overflow, style.min_size),
                        deck_wide=declared.fit != "each")
    if layout.icons:
        report_small_icons(call, words.key, min(icon.size for icon in layout.icons), f" (the text set at "
                           f"{layout.size:.3g} pt)")
    placement = placed_text(layout, x + pad, y + pad, ctx.art.size)
    fitted = None if declared.fit == "each" else \
        FittedText(paragraphs, w - 2 * pad, h - 2 * pad, style, layout, placement)
    return (placement,), fitted, (w - 2 * pad, h - 2 * pad, style, layout)


def text_box_style(call: BoxCall) -> SetStyle:
    """The box's style as its texts are set: one object for every face of a template (a deck's
    texts share it, and a fit's results are found by it)."""
    box, ctx, template = call.box, call.ctx, call.template
    memo_key = ("box style", template.id, call.name, box.style, call.frame[3], box.padding)
    style = ctx.memo.get(memo_key)
    if style is None:
        style = ctx.memo[memo_key] = box_style(resolve_style(template, box.style, ctx, call.mark), template, box,
                                               call.frame, ctx)
    return style


def _at_deck_size_so_far(call: BoxCall, paragraphs, room: tuple[float, float], style: SetStyle) -> TextLayout | None:
    """The text set at the size its deck's box has come down to so far, if it fits there whole
    (see DeckSizes.size_so_far); None: fit it on its own (as every text is at the style's own
    size: a fit tries that size first). `pnp i18n export` records each text's own fit."""
    ctx = call.ctx
    scope = open_scope(ctx)
    if scope is None or ctx.recorder is not None:
        return None
    size = scope.size_so_far(call.template.id, call.name)
    width, height = room
    if size is None or size >= style.size:
        return None
    memo_key = ("style at", style, size)
    exact = ctx.memo.get(memo_key)
    if exact is None:
        exact = ctx.memo[memo_key] = replace(style, size=size, min_size=size)
    return fit_whole_words(paragraphs, width, height, exact, ctx.setter)


def box_text(call: BoxCall) -> Words:
    """The box's text: its words, translation key (None for a literal) and where the words are written."""
    box, ctx, subject, mark = call.box, call.ctx, call.subject, call.mark
    if box.literal is not None:
        value = call.require(box.literal)
        return Words("" if value is None else str(value), None, call.where(box.literal))
    if box.text is None:
        return Words("", None, mark)
    key = call.require(box.text)
    if key is None:
        return Words("", None, mark)
    if not isinstance(key, str):
        ctx.problems.add(call.where(box.text), f"expected a translation key, got {key!r}")
        return Words("", None, mark)
    count = value_of(box.count, subject) if box.count is not None else None
    if count is MISSING or count is None:
        count = None
    elif isinstance(count, bool) or not isinstance(count, int):
        if ctx.once("count", subject.label, call.name):
            ctx.problems.add(call.where(box.count),
                             f"{subject.label}: count for plural text must be a whole number, got {count!r}")
        count = None
    args = {k: v for k, v in subject.fields.items() if isinstance(v, (str, int, float))}
    # where the key is used (its card's field): made only for a problem or a key without a mark
    text, entry_mark = ctx.translate(key, lambda: call.where(box.text), args, count)
    return Words(text, key, entry_mark or call.where(box.text))


def uppercase_covered(text: str, stack: tuple[str, ...], ctx: LayoutContext) -> str:
    """Upper-case by the text box's language (casing.upper: Greek capitals without the tonos, Turkish
    and Azerbaijani dotted İ, German ß), where the fonts have the capitals: where one is missing (Georgian
    Mtavruli often is), each letter whose capital no font of the stack has stays as written."""
    whole = upper_text(text, ctx.lang)
    setter = ctx.setter
    if not setter.uncovered(whole, stack) - setter.uncovered(text, stack):
        return whole
    result = []
    for char in text:
        upper = upper_text(char, ctx.lang)
        result.append(upper if all(setter.covers(capital, stack) for capital in upper) else char)
    return "".join(result)


@dataclass
class MissingGlyphs:
    """The characters of one script that no font of a text's stack has, in one edition × language."""

    mark: SourceMark                     # where the first text holding one is written
    first_key: str
    first_subject: str
    chars: dict[str, None] = field(default_factory=dict)     # in the order met
    keys: dict[str, None] = field(default_factory=dict)
    stacks: dict[tuple[str, ...], None] = field(default_factory=dict)


def check_glyphs(text: str, stack, ctx: LayoutContext, key, mark: SourceMark, subject: Subject) -> None:
    """Note the characters of the text no font of the stack has, by script (report_missing_glyphs says
    them, once per language and script, when the target is laid out)."""
    missing = ctx.setter.uncovered(text, stack)
    if not missing:
        return
    found: dict[str, MissingGlyphs] = ctx.memo.setdefault(MISSING_GLYPHS, {})
    for char in dict.fromkeys(char for char in text if char in missing):     # in reading order
        script = script_of(char)
        entry = found.get(script)
        if entry is None:
            entry = found[script] = MissingGlyphs(mark, str(key), subject.label)
        entry.chars.setdefault(char)
        entry.keys.setdefault(str(key))
        entry.stacks.setdefault(tuple(stack))


MISSING_GLYPHS = "missing glyphs"       # the key of the notes in LayoutContext.memo
SAMPLE = 8                              # characters shown of those missing


def report_missing_glyphs(ctx: LayoutContext) -> None:
    """One error per script whose characters no font has, in this edition × language: how many and
    which (a sample), where the first is used and in how many keys, and the font that would set them."""
    found: dict[str, MissingGlyphs] = ctx.memo.pop(MISSING_GLYPHS, {})
    for script, entry in sorted(found.items()):
        chars = sorted(entry.chars, key=lambda char: not char.isalpha())     # letters first, as met
        sample = ", ".join(f"'{char}' U+{ord(char):04X}" for char in chars[:SAMPLE])
        more = f" and {len(chars) - SAMPLE} more" if len(chars) > SAMPLE else ""
        kind = {"Common": ("symbol or punctuation mark", "symbols or punctuation marks"),
                "Inherited": ("combining mark", "combining marks")}.get(
            script, (f"{script} character", f"{script} characters"))
        what = f"the {kind[0]} {sample}," if len(chars) == 1 else f"{len(chars)} {kind[1]}: {sample}{more};"
        keys = len(entry.keys)
        where = f"used in {keys} keys, the first '{entry.first_key}'" if keys > 1 else f"used in '{entry.first_key}'"
        default = for_language(DEFAULT_STACK, ctx.lang)
        stacks = "; ".join("the default stack" if stack[:len(default)] == default else ", ".join(stack)
                           for stack in entry.stacks)
        fonts = stacks if stacks == "the default stack" else f"the stack ({stacks})"
        ctx.problems.add(entry.mark,
                         f"language '{ctx.lang}': no font of {fonts} has {what} {where} "
                         f"({entry.first_subject})",
                         coverage_fix(ctx, script, frozenset(chars), tuple(entry.stacks)))


def coverage_fix(ctx: LayoutContext, script: str, chars: frozenset[str], stacks: tuple[tuple[str, ...], ...]) -> str:
    """What sets the missing characters (fonts.font_to_add), said of the game's stacks that lack them."""
    library = ctx.setter.library
    names = []
    for name, families in ctx.source.game.fonts.items():
        known = tuple(family for family in families if family in library.families)
        if known and any(used[:len(known)] == known for used in stacks):
            names.append(name)
    place = (f"the font stack{'s' if len(names) > 1 else ''} {', '.join(repr(name) for name in names)} in "
             "game.yaml fonts") if names else \
        "the style's font stack (game.yaml fonts: {body: [nunito, ...]}, and font: body in the style)"
    return font_to_add(library, script, chars, tuple(family for stack in stacks for family in stack), place)


def report_small(call: BoxCall, key: str | None, size: float, style_name: str | None) -> None:
    """A box whose style is set below MIN_GAME_TEXT: once per box, at the box, naming the first card.
    An error, unless the game lowered its floor (min_text_size) to the size: then a warning."""
    ctx = call.ctx
    if size >= MIN_GAME_TEXT - 1e-9 or not ctx.once("small", call.template.id, call.name):
        return
    what = f"key '{key}' in box '{call.name}'" if key else f"box '{call.name}'"
    message = (f"text below {MIN_GAME_TEXT:g} pt: game {ctx.source.id}, edition {ctx.edition}, language "
               f"{ctx.lang}, {call.subject.label}, {what}: set at {size:g} pt (style '{style_name or ''}' of "
               f"template '{call.template.id}')")
    game = ctx.source.game
    floor = game.text_floor
    if size >= floor - 1e-9:        # the game chose it (or was written before the floor): said, never a stop
        if game.min_text_size is not None:
            ctx.problems.warn(call.mark, f"{message}, as game.yaml min_text_size {floor:g}pt allows",
                              "print a test page and read it at arm's length; a print shop may refuse text this small")
        else:
            ctx.problems.warn(call.mark, f"{message}: game format 1 had no {MIN_GAME_TEXT:g} pt floor",
                              f"give the style a size of at least {MIN_GAME_TEXT:g}pt, or {upgrade_hint(ctx.source)} "
                              "(it writes min_text_size: the game's smallest text, to keep it)")
        return
    lower = (f", or lower the game's floor deliberately: min_text_size: {size:g}pt in game.yaml"
             if size >= LOWEST_TEXT_FLOOR - 1e-9 else "")
    (ctx.problems.warn if ctx.overflow_warns else ctx.problems.add)(
        call.mark, message,
        f"give the style a size of at least {floor:g}pt and the box room for it{lower}: game text on cards, "
        f"tokens, pawns, boards and sheets is never printed smaller than the game's floor ({floor:g} pt)")


def report_small_icons(call: BoxCall, key: str | None, side: float, why: str = "") -> None:
    """Inline icons `side` mm high, where that is smaller than LEGIBLE_ICON (the text shrunk to fit, or set
    small): warned once per box, at the box, naming the first card."""
    if side >= LEGIBLE_ICON - 1e-9 or not call.ctx.once("small-icons", call.template.id, call.name):
        return
    what = f"key '{key}' in box '{call.name}'" if key else f"box '{call.name}'"
    call.ctx.problems.warn(call.mark, f"inline icons {side:.1f} mm high: {call.subject.label}, {what}{why}; below "
                           f"{LEGIBLE_ICON:g} mm a printed icon is hard to tell apart",
                           "give the box more room, a larger min_size for its style, or fewer words")


def report_overflow(call: BoxCall, key: str | None, mark: SourceMark, overflow: tuple[float, float],
                    deck_wide: bool = False) -> None:
    """Text that does not fit its box at the minimum size: `overflow` is (mm too long, that size in pt)."""
    ctx, box_name, template_id = call.ctx, call.name, call.template.id
    # the same text in the same box overflows on every card that shows it: say it once
    if ctx.once("overflow", template_id, box_name, key or call.subject.label):
        what = f"key '{key}'" if key else f"box '{box_name}'"
        too_long, min_size = overflow
        (ctx.problems.warn if ctx.overflow_warns else ctx.problems.add)(
            mark, f"text does not fit: game {ctx.source.id}, edition {ctx.edition}, language {ctx.lang}, "
                  f"{call.subject.label}, {what}: {too_long:.1f} mm too long at the minimum size {min_size:g} pt",
            f"shorten the text, or give box '{box_name}' of template '{template_id}' more room or a smaller "
            f"min_size (not below {ctx.source.game.text_floor:g}pt)"
            + ("; the box's text is set at this size on every card of the deck" if deck_wide else ""))


def table_items(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """A table box: its rows from the subject's field, its header from the catalog, fitted at one size."""
    box, ctx, template, subject, mark = call.box, call.ctx, call.template, call.subject, call.mark
    value = call.require(box.table)
    if value is None:
        return []
    rows, issues = parse_rows(value, field_name(box.table, "table"))
    for issue in issues:            # found when the game was read (payload_check): said once
        call.report(box.table, issue)
    if rows is None:
        return []
    header = []
    for key in box.header or []:
        words, entry_mark = ctx.translate(key, mark)
        check_icons(words, key, ctx, entry_mark or mark)
        header.append(words)
    formats = box.formats or []
    for index, form in enumerate(formats):
        check_icons(form, None, ctx, call.key_mark("formats", index),
                    f"format {index + 1} of table box '{call.name}' (template '{template.id}')")
    for row in rows:
        for cell in row:
            if isinstance(cell, str):
                check_icons(cell, None, ctx, call.where(box.table), f"table '{box.table}' ({subject.label})")
    body = [[read_former_markup((formats[i] if i < len(formats) else "{}").replace("{}", str(cell)), ctx)
             for i, cell in enumerate(row)] for row in rows]
    # cells are set like any text: the game's icons drawn, its line-breaking rules for the language
    style = game_text_style(resolve_style(template, box.style, ctx, mark), ctx)
    head_style = game_text_style(resolve_style(template, box.header_style or box.style, ctx, mark), ctx)
    smaller = min((style, box.style), (head_style, box.header_style or box.style), key=lambda pair: pair[0].size)
    report_small(call, None, smaller[0].size, smaller[1])
    for line in [header, *body]:
        for cell in line:
            check_glyphs(cell, style.stack, ctx, box.table, mark, subject)
    fills = (call.colour(box.header_fill, "header_fill"), call.colour(box.row_fill, "row_fill"))
    table = TableText(header, body, style, head_style, fills,
                      Pen(call.colour(box.stroke, "stroke"), box.stroke_width, None))
    items, fits, overflow = fit_table(table, call.frame, ctx.setter, ctx.art.size)
    if not fits:
        report_overflow(call, None, mark, (overflow, style.min_size))
    sides = [max(icon.w, icon.h) for item in items if isinstance(item, TextPlacement) for icon in item.icons]
    if sides:
        report_small_icons(call, None, min(sides), " (a table cell)")
    return items
