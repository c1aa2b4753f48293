"""The kit's printing steps, made from what a build imposed and wrote: which pages go on card stock and
which on plain paper, how to flip the sheet (the build's duplex mode, the booklet's short edge) and what
to do where the printer cannot print card stock on both sides, gutterfold, the back offset, cutting,
folding and stapling (a one-sheet rulebook is folded, not stapled), and the files beside the kit — the
ink-saver cards, the print-shop folder — where the build made them; each step a `kit.step.*` text in
the game's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.i18n.catalog import MissingArgument, interpolate
from generator.imposition.sheet import Page

CARD_STOCK = ("cards", "tokens", "pawns", "board")     # parts that are handled: the rest is plain paper


@dataclass(frozen=True)
class PrintFacts:
    """How the build was asked to print (BuildOptions' part that the reader must know)."""

    duplex: str = "long-edge"
    layout: str = "duplex"
    back_offset: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False         # cards-ink-saver.pdf is written beside the kit
    print_shop: bool = False        # and the print-shop folder


@dataclass
class KitPlan:
    """What kit.pdf holds, page by page (numbered from 1, the cover first)."""

    card_stock: list[int] = field(default_factory=list)
    plain: list[int] = field(default_factory=list)
    booklet: list[int] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)     # the cards' pages (fronts and backs)
    parts: set[str] = field(default_factory=set)      # sections present: cards, tokens, pawns, sheets, board
    double_sided: bool = False     # a part with pages of backs
    single_sided: bool = False     # a part followed by blank pages
    gutterfold: bool = False       # card sheets folded instead of printed on both sides
    apart: bool = False            # pieces with gaps between them


def page_ranges(numbers: list[int], lang: str = "en") -> str:
    """'3–14, 21, 23–24' from page numbers, joined as the language lists things (CLDR's list pattern through
    babel: '3–14、21' in Japanese, '3–14 و21' in Arabic; ', ' where the language has none)."""
    ranges: list[str] = []
    last: int | None = None
    for number in sorted(set(numbers)):
        if last is not None and number == last + 1:
            start = ranges[-1].split("–")[0]
            ranges[-1] = f"{start}–{number}"
        else:
            ranges.append(str(number))
        last = number
    joined = ranges[0] if ranges else ""
    middle = _list_middle(lang)
    for following in ranges[1:]:
        joined = middle.format(joined, following)
    return joined


def _list_middle(lang: str) -> str:
    """The language's pattern for joining two items inside a list ('{0}, {1}'), from CLDR."""
    from babel import Locale, UnknownLocaleError       # (kit pages only)
    try:
        return Locale.parse(lang.replace("-", "_")).list_patterns["standard"]["middle"]
    except (UnknownLocaleError, ValueError, KeyError, TypeError):
        return "{0}, {1}"


def pieces_apart(pages: list[Page]) -> bool:
    """Whether neighbouring pieces on these sheets stand apart (a gap between their cuts)."""
    for page in pages:
        # a gutterfold sheet's backs stand across the fold from their fronts: look at the fronts' half only
        half = page.width / 2 if "gutterfold" in page.label else page.width
        by_row: dict[float, list] = {}
        for placement in page.placements:
            if placement.x + placement.face.width <= half + 1e-6:
                by_row.setdefault(round(placement.y, 3), []).append(placement)
        for row in by_row.values():
            row.sort(key=lambda placement: placement.x)
            for left, right in zip(row, row[1:], strict=False):
                if right.x - (left.x + left.face.width) > 0.05:
                    return True
    return False


def print_steps(words: dict[str, str], plan: KitPlan, facts: PrintFacts, lang: str = "en") -> str:
    """The numbered steps for this kit, in the words given (kit.step.* key → text with placeholders), its
    page ranges listed as `lang` lists things."""
    steps = chosen_steps(words, plan, facts, lang)
    return "\n".join(f"{number}. {text}" for number, (_, text) in enumerate(steps, start=1))


def chosen_steps(words: dict[str, str], plan: KitPlan, facts: PrintFacts, lang: str = "en") -> list[tuple[str, str]]:
    """This kit's steps in order, each its kit.step.* key and its text (a step whose words are empty is
    left out): print_steps numbers them, the step drawings find theirs by key."""
    chosen: list[tuple[str, dict]] = [("kit.step.scale", {})]
    if plan.card_stock:
        chosen.append(("kit.step.card_stock", {"pages": page_ranges(plan.card_stock, lang)}))
    if plan.plain:
        chosen.append(("kit.step.plain_paper", {"pages": page_ranges(plan.plain, lang)}))
    if plan.double_sided or plan.single_sided:
        chosen.append((f"kit.step.duplex_{facts.duplex.replace('-', '_')}", {}))
    if plan.gutterfold:
        chosen.append(("kit.step.gutterfold", {}))
    if plan.double_sided and any(facts.back_offset):
        x, y = facts.back_offset
        chosen.append(("kit.step.back_offset", {"x": f"{x:g}", "y": f"{y:g}"}))
    if plan.card_stock and (plan.double_sided or plan.single_sided):     # the whole file goes double-sided
        chosen.append(("kit.step.manual_duplex", {}))
    if plan.single_sided:
        chosen.append(("kit.step.single_sided", {}))
    if plan.booklet:          # one sheet (two sides) is folded; more are stacked, folded and stapled
        booklet = "kit.step.booklet_sheet" if len(plan.booklet) <= 2 else "kit.step.booklet"
        chosen.append((booklet, {"pages": page_ranges(plan.booklet, lang)}))
    if plan.parts & {"cards", "tokens", "pawns"}:
        chosen.append(("kit.step.cut", {}))
        if plan.apart:
            chosen.append(("kit.step.cut_gutter", {}))
    if "pawns" in plan.parts:
        chosen.append(("kit.step.pawns", {}))
    if "board" in plan.parts:
        chosen.append(("kit.step.board", {}))
    if facts.ink_saver and plan.cards:
        chosen.append(("kit.step.ink_saver", {"pages": page_ranges(plan.cards, lang)}))
    if facts.print_shop:
        chosen.append(("kit.step.print_shop", {}))
    texts = []
    for key, args in chosen:
        text = words.get(key, "")
        try:
            text = interpolate(text, args)
        except MissingArgument:       # a translation naming a placeholder the step has not: shown as written
            pass
        if text:
            texts.append((key, text))
    return texts
