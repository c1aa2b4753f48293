"""kit.pdf's pages: a first page (title, contents with counts, printing steps made from what was built,
text flowed top down), then every part in print order, one-sided parts with blank backs — or, where one
fits under another's last sheet, on it (shared_sheets.py).

The first page's texts are set like every other text: the game's inline icons drawn where
`{icon:name}` is written, the game's line-breaking rules for the language, titles unbroken."""

from __future__ import annotations

from dataclasses import replace

from generator.components.kit import KitText
from generator.components.piece import Face, Group, Item, Rect, TextPlacement
from generator.imposition.grid import scale_bar_items
from generator.imposition.line_kinds import KINDS, legend
from generator.imposition.instructions import CARD_STOCK, KitPlan, PrintFacts, chosen_steps, pieces_apart
from generator.imposition.shared_sheets import share_sheets
from generator.imposition.sheet import Page
from generator.imposition.step_drawings import HEIGHT as STEP_HEIGHT
from generator.imposition.step_drawings import StepDrawing, board_drawing, booklet_drawing, standee_drawing
from generator.imposition.tiles import TileLayout
from generator.render.icons import placed_text
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

MARGIN = 18.0


KIT_PARTS = ("cards", "tokens", "pawns", "sheets", "board")    # print order


def kit_pages(paper: tuple[float, float], text: KitText, sections: dict[str, list[Page]], setter: TextSetter,
              stack: tuple[str, ...], lang: str, caption, facts: PrintFacts | None = None,
              booklet_pages: int = 0, board: tuple[Face, TileLayout] | None = None) -> list[Page]:
    """Everything in print order for one double-sided print run: the first page and its blank back,
    then each part, single-sided parts with blank backs. `booklet_pages`: the rulebook booklet's sides,
    joined after these pages (from an odd page: the kit's own pages are padded to an even count).
    `board`: the (first) board and its tiling on this paper, for the board step's drawing."""
    body: list[Page] = []
    pawn = sections["pawns"][0].placements[0].face if sections.get("pawns") else None
    facts = facts if facts is not None else PrintFacts()
    plan = KitPlan(plain=[1, 2], gutterfold=facts.layout == "gutterfold" and bool(sections.get("cards")))
    plan.parts.update(name for name in KIT_PARTS if sections.get(name))     # a part sharing a sheet too
    # (the ink-saver file replaces the kit's card pages: they keep only cards)
    sections = share_sheets(sections, keep=frozenset({"cards"}) if facts.ink_saver else frozenset(),
                            duplex=facts.duplex)
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
    steps = chosen_steps(dict(text.steps), plan, facts, lang)
    drawings = _step_drawings(steps, board, pawn, len(plan.booklet), caption)
    numbered = "\n".join(f"{number}. {words}" for number, (_, words) in enumerate(steps, start=1))
    cover, left_over = cover_page(paper, text, setter, stack, lang, caption, numbered, drawings)
    return [cover, drawings_page(paper, left_over, caption)] + body


def _step_drawings(steps: list[tuple[str, str]], board: tuple[Face, TileLayout] | None, pawn: Face | None,
                   booklet_sides: int, caption) -> list[tuple[int, StepDrawing]]:
    """The drawings of the steps this kit has (the board, the pawns, the booklet), each with its step's number."""
    numbers = {key: number for number, (key, _) in enumerate(steps, start=1)}
    drawings = []
    if board is not None and "kit.step.board" in numbers:
        drawings.append(board_drawing(*board, caption))
    if pawn is not None and "kit.step.pawns" in numbers:
        drawings.append(standee_drawing(pawn))
    if booklet_sides:
        drawing = booklet_drawing(-(-booklet_sides // 2))
        if drawing.step in numbers:
            drawings.append(drawing)
    return sorted(((numbers[drawing.step], drawing) for drawing in drawings), key=lambda pair: pair[0])


BAR_ROOM = 10.0           # mm kept above the bottom margin for the scale bar under the text
LEGEND_ROOM = 8.0         # mm above it for the legend of the kit's lines
BODY_SIZES = (10.5, 10.0, 9.5, 9.0, 8.5, 8.0)     # pt: the body's size, the largest whose page fits


def cover_page(paper: tuple[float, float], text: KitText, setter: TextSetter, stack: tuple[str, ...],
               lang: str, caption, steps: str | None = None,
               drawings: list[tuple[int, StepDrawing]] | None = None) -> tuple[Page, list[tuple[int, StepDrawing]]]:
    """The kit's first page; `steps` the printing steps (else the game's own `kit.print_steps` alone), and
    under them the `drawings` of steps by their numbers, then the legend of the kit's lines (cut, fold,
    glue, align: the engine words kit.line.*) and the scale bar. Its body is set at the
    largest of BODY_SIZES at which everything ends above them (a kit of every part, ink-saver and
    print-shop files, in a long language, on Letter: 9.5 pt); where even the smallest does not leave
    the drawings room, the page goes without them. Returns the page and the drawings left out of it."""
    width = paper[0] - 2 * MARGIN
    wanted = drawings = drawings or []
    has_legend = len(text.lines) == len(KINDS) and all(text.lines)
    legend_room = LEGEND_ROOM if has_legend else 0.0
    while True:
        room = paper[1] - MARGIN - BAR_ROOM - legend_room - (DRAWING_BAND if drawings else 0.0)
        for size in BODY_SIZES:
            items, end = _cover_text(paper, text, setter, stack, lang, steps, size)
            if end <= room:
                break
        if end <= room or not drawings:
            break
        drawings = []
    items.extend(_drawing_row(drawings, MARGIN, room + DRAWING_GAP, width, caption))
    if has_legend:      # the kit's four kinds of line, as every page draws them (line_kinds.py)
        items.extend(legend(MARGIN, paper[1] - MARGIN - BAR_ROOM - legend_room + 2.0, width, text.lines, caption))
    items.extend(scale_bar_items(MARGIN, paper[1] - MARGIN, caption, text.scale_bar))
    page = Page(*paper, (), tuple([Rect(MARGIN, MARGIN - 6, width, 1.2, fill="#a31621"), *items]), label="kit cover")
    return page, [] if drawings else wanted


def drawings_page(paper: tuple[float, float], drawings: list[tuple[int, StepDrawing]], caption) -> Page:
    """The first page's back: blank, or the step drawings the first page had no room for (a long kit on
    Letter), in a row at its top."""
    if not drawings:
        return blank_page(paper)
    items = _drawing_row(drawings, MARGIN, MARGIN, paper[0] - 2 * MARGIN, caption)
    return Page(*paper, (), tuple(items), label="kit step drawings (back of the page before)")


DRAWING_LABEL = 9.0       # pt: a drawing's step number
DRAWING_GAP = 4.0         # mm above the row of drawings
DRAWING_BAND = DRAWING_GAP + 5.0 + STEP_HEIGHT + 2.0     # mm: the row, its numbers and room above and below


def _drawing_row(drawings: list[tuple[int, StepDrawing]], left: float, top: float, width: float,
                 caption) -> list[Item]:
    """The step drawings side by side from `left`, each under its step's number ('7.'), spread across `width`."""
    if not drawings:
        return []
    spare = width - sum(drawing.width for _, drawing in drawings)
    gap = min(12.0, spare / max(1, len(drawings) - 1)) if len(drawings) > 1 else 0.0
    items: list[Item] = []
    x = left
    for number, drawing in drawings:
        items.append(TextPlacement(x, top, caption(f"{number}.", DRAWING_LABEL)))
        items.append(Group(x, top + 5.0, drawing.width, drawing.height, drawing.width, drawing.height, 0,
                           drawing.items))
        x += drawing.width + gap
    return items


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
