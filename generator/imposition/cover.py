"""A kit's first page: title, contents with counts, print instructions — text flowed top down."""

from __future__ import annotations

from dataclasses import replace

from generator.components.kit import KitText
from generator.components.piece import Item, Shape, TextPlacement
from generator.imposition.grid import scale_bar_items
from generator.imposition.sheet import Page
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

MARGIN = 18.0


def cover_page(paper: tuple[float, float], text: KitText, setter: TextSetter, stack: tuple[str, ...],
               lang: str, caption) -> Page:
    width = paper[0] - 2 * MARGIN
    base = SetStyle(stack, 10.5, 10.5, lang=lang, color="#2b2220", leading=1.3)
    blocks = [
        (text.title, replace(base, size=22, min_size=14, weight="black", leading=1.1), 4.0),
        (text.subtitle, replace(base, size=12, min_size=12, weight="bold", color="#a31621"), 8.0),
        (text.contents_heading, replace(base, size=14, min_size=14, weight="black"), 2.0),
        ("\n".join(f"- **{count} ×** {name}" for count, name in text.contents), base, 3.0),
        (text.also_needed, base, 8.0),
        (text.printing_heading, replace(base, size=14, min_size=14, weight="black"), 2.0),
        (text.print_steps, base, 6.0),
        (text.warning, replace(base, size=9, min_size=9), 0.0),
    ]
    items: list[Item] = [Shape("rect", MARGIN, MARGIN - 6, width, 1.2, fill="#a31621")]
    y = MARGIN
    for words, style, after in blocks:
        if not words:
            continue
        layout = fit_text(parse_rich_text(words), width, paper[1], style, setter)
        items.append(TextPlacement(MARGIN, y, layout.runs))
        y += layout.height + after
    items.extend(scale_bar_items(MARGIN, paper[1] - MARGIN, caption))
    return Page(*paper, (), tuple(items), label="kit cover")


def blank_page(paper: tuple[float, float]) -> Page:
    return Page(*paper, (), label="blank (back of the page before)")
