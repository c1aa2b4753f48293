"""Draw a rulebook's cover page: a title band, an illustration from the game's own pieces, edition and facts.

Takes the resolved CoverDesign (colours, art, card fronts, a board) and the cover's words; gives the
cover page's display-list items, full bleed, the way a box front is composed:

    ┌──────────────────────┐  the band: the title as large as two lines allow, the tagline under it
    │      TITLE           │
    │   tagline            │
    ├──────────────────────┤  the illustration: the board faded into the page behind a fan of cards,
    │   ╱▭╲ ▭ ╱▭╲   (art)  │  the art files in front (a medallion over the band's edge when there are
    │                      │  cards; large and centred when the art is all there is)
    │   [ Full edition ]   │  the edition in a pill of the band's colour
    │ 2–6 players · 6+ · … │  the facts line
    └──────────────────────┘
Words are set by the engine's layout (set_text.SetParagraph), like every other text of the rulebook. What is
translucent (the veil fading the board, the cards' shadows) is a tiny SVG of pnp's own with an opacity,
written once into the cache folder (rulebook/), drawn as art. A right-to-left book has its medallion at the
left, its fan dealt from the right and its leaflet band's title at the right.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from generator.cache_folder import cache_root
from generator.components.piece import ArtPlacement, Ellipse, Face, Group, Item, Rect
from generator.render.art import art_size
from generator.rulebook.pages import Block
from generator.rulebook.resolve import CoverDesign
from generator.rulebook.set_text import Book, BookStyle, SetParagraph
from generator.text.rich import parse_rich_text
from generator.units import mm_to_pt, pt_to_mm

SIDE = 12.0              # mm: text and the fan keep this far from the page's sides
TITLE_SIZES = (34, 31, 28, 25, 22, 20, 18)   # pt: the largest at which the title sets in two lines, whole words
FAN_DEGREES = 11.0       # the turn between neighbouring cards of the fan
PIVOT = 0.75             # the fan turns about a point this many card heights below the cards
FADE = 0.62              # how much of the page's colour lies over the board behind the cards
SHADOW = 0.22            # the cards' shadows: black at this opacity
MEDALLION = 30.0         # mm: the art's round medallion over the band's lower edge
BAND_PADDING = 13.0      # mm: the band's room above the title (and below the words without a medallion)
LEAFLET_TITLE_SIZES = (24, 22, 20, 18, 16)    # pt: a leaflet's title in its band, at most two lines
LEAFLET_ART = 24.0       # mm: the cover art in a leaflet's band
LEAFLET_PADDING = 6.0    # mm: the band's room under its words


@dataclass(frozen=True)
class CoverWords:
    """The words a cover prints: title, tagline, the edition's name and the facts line's parts."""

    title: str
    tagline: str = ""
    edition: str = ""
    facts: tuple[str, ...] = ()


def _height(parts: list[SetParagraph]) -> float:
    return sum(part.lines * part.line_height for part in parts)


def _draw(parts: list[SetParagraph], x: float, y: float, gap_before: float = 0.0) -> tuple[list[Item], float]:
    """The parts one under another from (x, y); the items and where they end."""
    items: list[Item] = []
    for index, part in enumerate(parts):
        y += gap_before if index == 0 else 0.0
        items += part.items(0, part.lines, x, y)
        y += part.lines * part.line_height
    return items, y


def cover_items(page_size: tuple[float, float], design: CoverDesign, words: CoverWords, book: Book,
                styles) -> list[Item]:
    """The whole cover page, mm from its top-left."""
    width, height = page_size
    items: list[Item] = [Rect(0, 0, width, height, fill=design.background)]

    # ---- the band: title and tagline, set first so the band is as tall as they need
    text_width = width - 2 * SIDE
    title = _title(words.title, styles.title, book, text_width)
    tagline = _set(words.tagline, replace(styles.tagline, color="#ffffff"), book, text_width)
    gap = 4.0 if tagline else 0.0
    words_height = _height(title) + gap + _height(tagline)
    # the medallion's upper half lies over the band: the words stay above it
    below = MEDALLION / 2 + 4 if design.art and design.cards else BAND_PADDING
    band = max(62.0, BAND_PADDING + words_height + below)
    items.append(Rect(0, 0, width, band, fill=design.band))
    top = (band - below + BAND_PADDING) / 2 - words_height / 2
    drawn, top = _draw(title, SIDE, top)
    items += drawn
    items += _draw(tagline, SIDE, top, gap)[0]

    # ---- the foot: edition pill and facts line, set before the illustration takes the room between
    facts = " · ".join(words.facts)
    fact_parts = _set(facts, replace(styles.fact, size=10.5, leading=14), book, text_width)
    foot = 14.0 + _height(fact_parts)
    items += _draw(fact_parts, SIDE, height - foot)[0]
    if words.edition:
        pill, pill_height = _pill(words.edition, design.band, styles, book, width, height - foot - 4)
        items += pill
        foot += pill_height + 4

    # ---- the illustration between band and foot (mm from the page's top)
    medallion = MEDALLION / 2 if design.art and design.cards else 0.0
    area = (0.0, band + medallion + 6, width, height - foot - 6)       # left, top, right, bottom
    if design.board is not None:     # the board runs from the band to the foot, behind the medallion too
        items += _board(design.board, design.background, (0.0, band, width, height - foot - 6))
    if design.cards:
        items += _fan(design.cards, area, width, book.rtl)
        if design.art:
            items += _medallion(design, width, band, book.rtl)
    elif design.art:
        items += _art_row(design.art, area)
    return items


def _set(text: str, style: BookStyle, book: Book, width: float) -> list[SetParagraph]:
    """The text's paragraphs set at a width (mm)."""
    return [SetParagraph(paragraph, (), style, book, width) for paragraph in (parse_rich_text(text) if text else ())]


def _title(text: str, style: BookStyle, book: Book, width: float, sizes=TITLE_SIZES,
           align: str | None = None) -> list[SetParagraph]:
    """The title at the largest size that sets it in at most two lines a paragraph without splitting a word."""
    parts: list[SetParagraph] = []
    for size in sizes:
        sized = replace(style, size=size, leading=size * 1.12, color="#ffffff", align=align or style.align)
        parts = _set(text, sized, book, width)
        if all(len(part.layout.line_tops) <= 2 and not _split_word(part) for part in parts):
            break
    return parts


def _split_word(part: SetParagraph) -> bool:
    """Whether a line of the set text ends inside a word (a long word cut to fit)."""
    lines: dict[float, str] = {}
    for run in part.layout.runs:
        lines[round(run.baseline, 2)] = lines.get(round(run.baseline, 2), "") + run.text
    set_words = sum(len(line.replace("\u00ad", "").split()) for line in lines.values())
    source = "".join(fragment.text for fragment in part.paragraph.fragments).replace("\u00ad", "")
    return set_words > len(source.split())


def _pill(text: str, colour: str, styles, book: Book, page_width: float, bottom: float) -> tuple[list[Item], float]:
    """The edition's name, white on the band's colour in a rounded pill centred, its bottom at `bottom` mm from
    the page's top; its items and height (mm)."""
    style = replace(styles.edition, color="#ffffff", align="left", size=11, leading=14)
    parts = _set(text, style, book, page_width - 2 * SIDE - 10)
    if not parts:
        return [], 0.0
    part = parts[0]
    start, end = part.last_start, part.last_end
    pad_x, pad_y = 4.0, 1.8
    pill_width, pill_height = end - start + 2 * pad_x, part.line_height + 2 * pad_y
    x = (page_width - pill_width) / 2
    top = bottom - pill_height
    items: list[Item] = [Rect(x, top, pill_width, pill_height, fill=colour, radius=pill_height / 2)]
    items += part.items(0, 1, x + pad_x - start, top + pad_y)
    return items, pill_height


def _board(board: Face, background: str, area: tuple[float, float, float, float]) -> list[Item]:
    """The board covering the area (left, top, right, bottom mm), centred and clipped, faded into the page."""
    left, top, right, bottom = area
    width, height = right - left, bottom - top
    scale = max(width / board.width, height / board.height)
    inner = Group((width - board.width * scale) / 2, (height - board.height * scale) / 2, board.width * scale,
                  board.height * scale, board.width, board.height, 0, board.items)
    items: list[Item] = [Group(left, top, width, height, width, height, 0, (inner,))]
    fade = veil(background, FADE, width, height)
    if fade is not None:
        items.append(ArtPlacement(fade, left, top, width, height))
    return items


def _fan(cards: tuple[Face, ...], area: tuple[float, float, float, float], page_width: float,
         rtl: bool = False) -> list[Item]:
    """The cards as a hand: each turned about a point below the hand, the middle card upright and in front;
    the whole fan as large as the area allows (a card at most its real size), centred in it. Worked out with
    y up from the pivot, as a hand is held."""
    left, top, right, bottom = area
    count = len(cards)
    tallest = max(card.height for card in cards)
    pivot_drop = PIVOT * tallest              # from the pivot up to the cards' bottom edge (mm at real size)
    placed = []                               # (card, angle)
    corners = []                              # every card's corners at real size, about the pivot
    for index, card in enumerate(cards):
        # a right-to-left book deals its hand from the right: the first card at the right
        # whole degrees, as a Group turns (an even hand's half steps rounded: half a degree is not seen)
        angle = round(((count - 1) / 2 - index if rtl else index - (count - 1) / 2) * FAN_DEGREES)
        placed.append((card, angle))
        turn = math.radians(-angle)
        for x, y in ((-card.width / 2, pivot_drop), (card.width / 2, pivot_drop),
                     (-card.width / 2, pivot_drop + card.height), (card.width / 2, pivot_drop + card.height)):
            corners.append((x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn)))
    low_x, high_x = min(x for x, _ in corners), max(x for x, _ in corners)
    low_y, high_y = min(y for _, y in corners), max(y for _, y in corners)
    room_width = min(right - left, page_width) - 2 * SIDE + 8
    scale = min(1.0, room_width / (high_x - low_x), (bottom - top) / (high_y - low_y))
    pivot_x = (left + right) / 2 - (low_x + high_x) / 2 * scale
    pivot_y = (top + bottom) / 2 + (low_y + high_y) / 2 * scale       # mm from the page's top (y down)
    order = sorted(range(count), key=lambda index: -abs(index - (count - 1) / 2))   # the middle card last
    shadow_radius = 2.5
    border = pt_to_mm(1.2)
    items: list[Item] = []
    for index in order:
        card, angle = placed[index]
        w, h = card.width * scale, card.height * scale
        turn = math.radians(angle)
        centre = pivot_drop * scale + h / 2          # from the pivot, up, before the turn

        shadow = veil("#000000", SHADOW, w, h, shadow_radius)
        if shadow is not None:      # a soft shadow, down and to the right
            sx, sy = _turned(pivot_x, pivot_y, turn, 0.9, centre - 1.1)
            items.append(Group(sx - w / 2, sy - h / 2, w, h, w, h, angle, (ArtPlacement(shadow, 0, 0, w, h),)))
        cx, cy = _turned(pivot_x, pivot_y, turn, 0.0, centre)
        items.append(Group(cx - w / 2, cy - h / 2, w, h, card.width, card.height, angle, card.items))
        framed = (Rect(border / 2, border / 2, w, h, stroke="#ffffff", stroke_width=border),)
        items.append(Group(cx - (w + border) / 2, cy - (h + border) / 2, w + border, h + border, w + border,
                           h + border, angle, framed))
    return items


def _turned(pivot_x: float, pivot_y: float, turn: float, dx: float, dy: float) -> tuple[float, float]:
    """A point dx right and dy up from the pivot, turned clockwise about it by `turn` (radians): mm on the
    page, y down."""
    return (pivot_x + dx * math.cos(turn) + dy * math.sin(turn),
            pivot_y - (-dx * math.sin(turn) + dy * math.cos(turn)))


def _medallion(design: CoverDesign, width: float, band_bottom: float, rtl: bool = False) -> list[Item]:
    """The first art file in a white disc ringed in the band's colour, over the band's lower edge (at the
    right, or the left of a right-to-left book)."""
    radius = MEDALLION / 2
    cx = SIDE + radius if rtl else width - SIDE - radius
    cy = band_bottom
    items: list[Item] = [Ellipse(cx - radius, cy - radius, 2 * radius, 2 * radius, fill="#ffffff",
                                 stroke=design.band, stroke_width=pt_to_mm(2))]
    inner = MEDALLION * 0.68
    return items + _art(design.art[0], cx - inner / 2, cy - inner / 2, inner, inner)


def _art_row(files: tuple[Path, ...], area: tuple[float, float, float, float]) -> list[Item]:
    """The art files side by side, as large as the area allows (at most 80 mm each)."""
    left, top, right, bottom = area
    count = len(files)
    size = min(80.0, (bottom - top) * 0.9, (right - left - 2 * SIDE) / count - 4)
    x = (left + right - count * size - (count - 1) * 4) / 2
    items: list[Item] = []
    for file in files:
        items += _art(file, x, (top + bottom - size) / 2, size, size)
        x += size + 4
    return items


def _art(file: Path, x: float, y: float, width: float, height: float) -> list[Item]:
    """An art file fitted (contain) in a box (mm, its top-left at x, y), centred in it."""
    art_w, art_h = art_size(file)
    scale = min(width / art_w, height / art_h)
    w, h = art_w * scale, art_h * scale
    return [ArtPlacement(file, x + (width - w) / 2, y + (height - h) / 2, w, h)]


def veil(colour: str, opacity: float, width: float, height: float, radius: float = 0.0) -> Path | None:
    """A rectangle (mm, corners rounded by `radius`) of a colour at an opacity, as an SVG of pnp's own in the
    cache folder, named by its content; None where the cache folder cannot be written (then nothing fades)."""
    w, h, r = (round(mm_to_pt(value), 3) for value in (width, height, radius))
    text = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
            f'<rect x="0" y="0" width="{w}" height="{h}" rx="{r}" ry="{r}" fill="{colour}" opacity="{opacity}"/>'
            f"</svg>\n")
    folder = cache_root() / "rulebook"
    path = folder / f"veil-{hashlib.sha256(text.encode()).hexdigest()[:20]}.svg"
    try:
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            folder.mkdir(parents=True, exist_ok=True)
            staged = path.with_suffix(f".{os.getpid()}.tmp")
            staged.write_text(text, encoding="utf-8")
            os.replace(staged, path)
    except OSError:
        return None
    return path


class LeafletBand(Block):
    """A leaflet's head: the band of its cover across the top of page 1 (to the paper's edges), the title and
    tagline on it at the start side, the cover art at the other; the facts line follows as text."""

    def __init__(self, design: CoverDesign, title: str, tagline: str, book: Book, styles,
                 margins: Mapping[str, float], page_width: float):
        self.design, self.title, self.tagline, self.book, self.styles = design, title, tagline, book, styles
        self.margins, self.page_width = margins, page_width
        self.space_after = pt_to_mm(6)
        self._set_at: dict[float, tuple[list[SetParagraph], list[SetParagraph]]] = {}

    def _parts(self, width: float) -> tuple[list[SetParagraph], list[SetParagraph]]:
        if width not in self._set_at:
            art = LEAFLET_ART + 6 if self.design.art else 0
            text_width = width - art
            title = _title(self.title, self.styles.title, self.book, text_width, LEAFLET_TITLE_SIZES, "left")
            tagline = _set(self.tagline, replace(self.styles.tagline, color="#ffffff", align="left", size=10.5,
                                                 leading=14), self.book, text_width)
            self._set_at[width] = (title, tagline)
        return self._set_at[width]

    def height(self, width: float, room: float) -> float:
        title, tagline = self._parts(width)
        words = _height(title) + _height(tagline) + 2
        # the band starts at the paper's top edge: the top margin is part of it
        return max(words, LEAFLET_ART) + LEAFLET_PADDING

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:
        title, tagline = self._parts(width)
        rtl = self.book.rtl
        art = LEAFLET_ART + 6 if self.design.art else 0
        text_x = x + art if rtl else x
        items: list[Item] = [Rect(0, 0, self.page_width, y + height, fill=self.design.band)]
        drawn, top = _draw(title, text_x, y)
        items += drawn
        items += _draw(tagline, text_x, top, 2.0)[0]
        if self.design.art:
            size = LEAFLET_ART
            art_x = x if rtl else x + width - size
            art_top = y + height - (height / 2 - size / 2 + LEAFLET_PADDING / 4) - size
            items += _art(self.design.art[0], art_x, art_top, size, size)
        return items
