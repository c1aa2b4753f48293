"""kit.pdf's pages: a first page (title, contents with counts, printing steps made from what was built,
text flowed top down), then every part in print order, one-sided parts with blank backs — or, where one
fits under another's last sheet, on it (shared_sheets.py).

The first page's texts are set like every other text: the game's inline icons drawn where
`{icon:name}` is written, the game's line-breaking rules for the language, titles unbroken."""

from __future__ import annotations

from dataclasses import replace

from generator.components.kit import KitText
from generator.components.piece import Item, Rect
from generator.imposition.grid import scale_bar_items
from generator.imposition.instructions import CARD_STOCK, KitPlan, PrintFacts, pieces_apart, print_steps
from generator.imposition.shared_sheets import share_sheets
from generator.imposition.sheet import Page
from generator.render.icons import placed_text
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

MARGIN = 18.0


KIT_PARTS = ("cards", "tokens", "pawns", "sheets", "board")    # print order


def kit_pages(paper: tuple[float, float], text: KitText, sections: dict[str, list[Page]], setter: TextSetter,
              stack: tuple[str, ...], lang: str, caption, facts: PrintFacts | None = None,
              booklet_pages: int = 0) -> list[Page]:
    """Everything in print order for one double-sided print run: the first page and its blank back,
    then each part, single-sided parts with blank backs. `booklet_pages`: the rulebook booklet's sides,
    joined after these pages (from an odd page: the kit's own pages are padded to an even count)."""
    body: list[Page] = []
    facts = facts if facts is not None else PrintFacts()
    plan = KitPlan(plain=[1, 2], gutterfold=facts.layout == "gutterfold" and bool(sections.get("cards")))
    plan.parts.update(name for name in KIT_PARTS if sections.get(name))     # a part sharing a sheet too
    # (the ink-saver file replaces the kit's card pages: they keep only cards)
    sections = share_sheets(sections, keep=frozenset({"cards"}) if facts.ink_saver else frozenset())
    for name in KIT_PARTS:
        section = sections.get(name, [])
        if not section:
            continue
        double_sided = any("backs" in page.label for page in section)   # fronts, then their backs pages
        plan.double_sided |= double_sided
        plan.single_sided |= not double_sided
        plan.apart |= name in ("cards", "tokens") and pieces_apart(section)
        first = 3 + len(body)
        for page in section:
            body.append(page)
            if not double_sided:
                body.append(blank_page(paper))
        stock = plan.card_stock if name in CARD_STOCK else plan.plain
        stock.extend(range(first, 3 + len(body)))
        if name == "cards":
            plan.cards = list(range(first, 3 + len(body)))
    if booklet_pages:
        start = 3 + len(body) + (len(body) % 2)
        plan.booklet = list(range(start, start + booklet_pages))
        plan.plain.extend(plan.booklet)
    steps = print_steps(dict(text.steps), plan, facts, lang)
    return [cover_page(paper, text, setter, stack, lang, caption, steps), blank_page(paper)] + body


BAR_ROOM = 10.0           # mm kept above the bottom margin for the scale bar under the text
BODY_SIZES = (10.5, 10.0, 9.5, 9.0, 8.5, 8.0)     # pt: the body's size, the largest whose page fits


def cover_page(paper: tuple[float, float], text: KitText, setter: TextSetter, stack: tuple[str, ...],
               lang: str, caption, steps: str | None = None) -> Page:
    """The kit's first page; `steps` the printing steps (else the game's own `kit.print_steps` alone). Its
    body is set at the largest of BODY_SIZES at which everything ends above the scale bar (a kit of every
    part, ink-saver and print-shop files, in a long language, on Letter: 9.5 pt)."""
    width = paper[0] - 2 * MARGIN
    room = paper[1] - MARGIN - BAR_ROOM
    for size in BODY_SIZES:
        items, end = _cover_text(paper, text, setter, stack, lang, steps, size)
        if end <= room:
            break
    items.extend(scale_bar_items(MARGIN, paper[1] - MARGIN, caption, text.scale_bar))
    return Page(*paper, (), tuple([Rect(MARGIN, MARGIN - 6, width, 1.2, fill="#a31621"), *items]),
                label="kit cover")


def _cover_text(paper: tuple[float, float], text: KitText, setter: TextSetter, stack: tuple[str, ...], lang: str,
                steps: str | None, size: float) -> tuple[list[Item], float]:
    """The first page's texts with its body at `size` pt, and where they end (mm from the top)."""
    width = paper[0] - 2 * MARGIN
    base = SetStyle(stack, size, size, lang=lang, color="#2b2220", leading=1.3, icons=text.icons,
                    breaks=text.breaks)
    heading = replace(base, size=14, min_size=14, weight="black", hyphenate=False)
    blocks = [
        (text.title, replace(heading, size=22, leading=1.1), 4.0),
        (text.subtitle, replace(heading, size=12, min_size=12, weight="bold", color="#a31621"), 8.0),
        (text.contents_heading, heading, 2.0),
        ("\n".join(f"- **{count} ×** {name}" for count, name in text.contents), base, 3.0),
        (text.also_needed, base, 8.0),
        (text.printing_heading, heading, 2.0),
        (steps, base, 4.0),
        (text.print_steps, base, 6.0),        # the game's own further steps, if it has any
        (text.warning, replace(base, size=min(9, size), min_size=min(9, size)), 0.0),
    ]
    items: list[Item] = []
    y = MARGIN
    for words, style, after in blocks:
        if not words:
            continue
        layout = fit_text(parse_rich_text(words), width, paper[1], style, setter)
        items.append(placed_text(layout, MARGIN, y))
        y += layout.height + after
    return items, y


def blank_page(paper: tuple[float, float]) -> Page:
    return Page(*paper, (), label="blank (back of the page before)")
