"""Draw a rulebook's cover page: a title band, an illustration from the game's own pieces, edition and facts.

Takes the resolved CoverDesign (colours, art, card fronts, a board) and the cover's words; draws on the
cover page's canvas, full bleed, the way a box front is composed:

    ┌──────────────────────┐  the band: the title as large as two lines allow, the tagline under it
    │      TITLE           │
    │   tagline            │
    ├──────────────────────┤  the illustration: the board faded into the page behind a fan of cards,
    │   ╱▭╲ ▭ ╱▭╲   (art)  │  the art files in front (a medallion over the band's edge when there are
    │                      │  cards; large and centred when the art is all there is)
    │   [ Full edition ]   │  the edition in a pill of the band's colour
    │ 2–6 players · 6+ · … │  the facts line
    └──────────────────────┘
Words are set by the engine's layout (SetText), like every other text of the rulebook.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from generator.components.piece import ArtPlacement, Face
from generator.render.art import art_size
from generator.render.pdf import FacePainter, drawing_settings
from generator.rulebook.resolve import CoverDesign
from generator.rulebook.set_text import SetText
from generator.text.rich import parse_rich_text
from generator.units import mm_to_pt, pt_to_mm

SIDE = 12.0              # mm: text and the fan keep this far from the page's sides
TITLE_SIZES = (34, 31, 28, 25, 22, 20, 18)   # pt: the largest at which the title sets in two lines, whole words
FAN_DEGREES = 11.0       # the turn between neighbouring cards of the fan
PIVOT = 0.75             # the fan turns about a point this many card heights below the cards
FADE = 0.62              # how much of the page's colour lies over the board behind the cards
MEDALLION = 30.0         # mm: the art's round medallion over the band's lower edge
BAND_PADDING = 13.0      # mm: the band's room above the title (and below the words without a medallion)


@dataclass(frozen=True)
class CoverWords:
    """The words a cover prints: title, tagline, the edition's name and the facts line's parts."""

    title: str
    tagline: str = ""
    edition: str = ""
    facts: tuple[str, ...] = ()


def draw_cover(canvas: Canvas, page_size: tuple[float, float], design: CoverDesign, words: CoverWords,
               book, styles) -> None:
    """The whole cover page."""
    width, height = page_size          # mm
    painter = FacePainter.on(canvas, drawing_settings(book.face()))
    canvas.saveState()
    canvas.setFillColor(painter.colour(design.background))
    canvas.rect(0, 0, mm_to_pt(width), mm_to_pt(height), stroke=0, fill=1)

    # ---- the band: title and tagline, set first so the band is as tall as they need
    text_width = width - 2 * SIDE
    title = _title(words.title, styles.title, book, text_width)
    tagline = _set(words.tagline, replace(styles.tagline, color="#ffffff"), book, text_width)
    title_height = sum(part.height for part in title)
    tagline_height = sum(part.height for part in tagline)
    gap = mm_to_pt(4) if tagline else 0
    words_height = pt_to_mm(title_height + gap + tagline_height)
    # the medallion's upper half lies over the band: the words stay above it
    below = MEDALLION / 2 + 4 if design.art and design.cards else BAND_PADDING
    band = max(62.0, BAND_PADDING + words_height + below)
    canvas.setFillColor(painter.colour(design.band))
    canvas.rect(0, mm_to_pt(height - band), mm_to_pt(width), mm_to_pt(band), stroke=0, fill=1)
    top = mm_to_pt(height - (band - below + BAND_PADDING) / 2 + words_height / 2)
    for part in title + [None] + tagline:
        if part is None:
            top -= gap
            continue
        top -= part.height
        part.drawOn(canvas, mm_to_pt(SIDE), top)

    # ---- the foot: edition pill and facts line, set before the illustration takes the room between
    facts = " · ".join(words.facts)
    fact_parts = _set(facts, replace(styles.fact, size=10.5, leading=14), book, text_width)
    foot = 14.0 + pt_to_mm(sum(part.height for part in fact_parts))
    y = mm_to_pt(14.0)
    for part in reversed(fact_parts):
        part.drawOn(canvas, mm_to_pt(SIDE), y)
        y += part.height
    edition = words.edition
    if edition:
        foot += _pill(canvas, painter, edition, design.band, styles, book, width, y + mm_to_pt(4)) + 4

    # ---- the illustration between band and foot
    area = (0.0, foot + 6, width, height - band - (MEDALLION / 2 if design.art and design.cards else 0) - 6)
    if design.board is not None:     # the board runs from the band to the foot, behind the medallion too
        _board(canvas, painter, design.board, design.background, (0.0, foot + 6, width, height - band))
    if design.cards:
        _fan(canvas, painter, design.cards, area, width)
        if design.art:
            _medallion(canvas, painter, design, width, height - band)
    elif design.art:
        _art_row(canvas, painter, design.art, area)
    canvas.restoreState()


def _set(text: str, style, book, width_mm: float) -> list[SetText]:
    """The text's paragraphs set at a width, ready to draw (each knows its height in points)."""
    parts = []
    for paragraph in parse_rich_text(text) if text else ():
        part = SetText(paragraph, style, book)
        part.wrap(mm_to_pt(width_mm), 1e6)
        parts.append(part)
    return parts


def _title(text: str, style, book, width_mm: float) -> list[SetText]:
    """The title at the largest size that sets it in at most two lines a paragraph without splitting a word."""
    parts: list = []
    for size in TITLE_SIZES:
        sized = replace(style, size=size, leading=size * 1.12, color="#ffffff")
        parts = _set(text, sized, book, width_mm)
        if all(len(part.setting.layout.line_tops) <= 2 and not _split_word(part) for part in parts):
            break
    return parts


def _split_word(part) -> bool:
    """Whether a line of the set text ends inside a word (a long word cut to fit)."""
    lines: dict[float, str] = {}
    for run in part.layout.runs:
        lines[round(run.baseline, 2)] = lines.get(round(run.baseline, 2), "") + run.text
    set_words = sum(len(line.replace("\u00ad", "").split()) for line in lines.values())
    source = "".join(fragment.text for fragment in part.paragraph.fragments).replace("\u00ad", "")
    return set_words > len(source.split())


def _pill(canvas, painter, text: str, colour: str, styles, book, page_width: float, bottom: float) -> float:
    """The edition's name, white on the band's colour in a rounded pill centred at `bottom`; its height (mm)."""
    style = replace(styles.edition, color="#ffffff", align="left", size=11, leading=14)
    parts = _set(text, style, book, page_width - 2 * SIDE - 10)
    if not parts:
        return 0.0
    part = parts[0]
    text_width = mm_to_pt(part.end_x)
    pad_x, pad_y = mm_to_pt(4), mm_to_pt(1.8)
    pill_width, pill_height = text_width + 2 * pad_x, part.height + 2 * pad_y
    x = (mm_to_pt(page_width) - pill_width) / 2
    canvas.setFillColor(painter.colour(colour))
    canvas.roundRect(x, bottom, pill_width, pill_height, pill_height / 2, stroke=0, fill=1)
    part.drawOn(canvas, x + pad_x, bottom + pad_y)
    return pt_to_mm(pill_height)


def _board(canvas, painter, board: Face, background: str, area) -> None:
    """The board covering the illustration's area, centred and clipped, faded into the page's colour."""
    left, bottom, right, top = area
    scale = max((right - left) / board.width, (top - bottom) / board.height)
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(mm_to_pt(left), mm_to_pt(bottom), mm_to_pt(right - left), mm_to_pt(top - bottom))
    canvas.clipPath(path, stroke=0, fill=0)
    x = (left + right - board.width * scale) / 2
    y = (bottom + top - board.height * scale) / 2
    painter.draw_face(board, mm_to_pt(x), mm_to_pt(y), scale)
    canvas.setFillColor(painter.colour(background))
    canvas.setFillAlpha(FADE)
    canvas.rect(mm_to_pt(left), mm_to_pt(bottom), mm_to_pt(right - left), mm_to_pt(top - bottom), stroke=0, fill=1)
    canvas.restoreState()


def _fan(canvas, painter, cards, area, page_width: float) -> None:
    """The cards as a hand: each turned about a point below the hand, the middle card upright and in front;
    the whole fan as large as the area allows (a card at most its real size), centred in it."""
    left, bottom, right, top = area
    count = len(cards)
    tallest = max(card.height for card in cards)
    pivot_drop = PIVOT * tallest              # from the pivot up to the cards' bottom edge (mm at real size)
    placed = []                               # (card, angle)
    corners = []                              # every card's corners at real size, about the pivot
    for index, card in enumerate(cards):
        angle = (index - (count - 1) / 2) * FAN_DEGREES
        placed.append((card, angle))
        turn = math.radians(-angle)
        for x, y in ((-card.width / 2, pivot_drop), (card.width / 2, pivot_drop),
                     (-card.width / 2, pivot_drop + card.height), (card.width / 2, pivot_drop + card.height)):
            corners.append((x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn)))
    low_x, high_x = min(x for x, _ in corners), max(x for x, _ in corners)
    low_y, high_y = min(y for _, y in corners), max(y for _, y in corners)
    room_width = min(right - left, page_width) - 2 * SIDE + 8
    scale = min(1.0, room_width / (high_x - low_x), (top - bottom) / (high_y - low_y))
    pivot_x = (left + right) / 2 - (low_x + high_x) / 2 * scale
    pivot_y = (bottom + top) / 2 - (low_y + high_y) / 2 * scale
    order = sorted(range(count), key=lambda index: -abs(index - (count - 1) / 2))   # the middle card last
    for index in order:
        card, angle = placed[index]
        w, h, y = card.width * scale, card.height * scale, pivot_drop * scale
        canvas.saveState()
        canvas.translate(mm_to_pt(pivot_x), mm_to_pt(pivot_y))
        canvas.rotate(-angle)
        canvas.setFillColor(painter.colour("#000000"))
        canvas.setFillAlpha(0.22)      # a soft shadow, down and to the right
        canvas.roundRect(mm_to_pt(-w / 2 + 0.9), mm_to_pt(y - 1.1), mm_to_pt(w), mm_to_pt(h), mm_to_pt(2.5),
                         stroke=0, fill=1)
        canvas.setFillAlpha(1)
        painter.draw_face(card, mm_to_pt(-w / 2), mm_to_pt(y), scale)
        canvas.setStrokeColor(painter.colour("#ffffff"))
        canvas.setLineWidth(1.2)
        canvas.rect(mm_to_pt(-w / 2), mm_to_pt(y), mm_to_pt(w), mm_to_pt(h), stroke=1, fill=0)
        canvas.restoreState()


def _medallion(canvas, painter, design: CoverDesign, width: float, band_bottom: float) -> None:
    """The first art file in a white disc ringed in the band's colour, over the band's lower edge."""
    radius = MEDALLION / 2
    cx, cy = width - SIDE - radius, band_bottom
    canvas.setFillColor(painter.colour("#ffffff"))
    canvas.setStrokeColor(painter.colour(design.band))
    canvas.setLineWidth(2)
    canvas.circle(mm_to_pt(cx), mm_to_pt(cy), mm_to_pt(radius), stroke=1, fill=1)
    inner = MEDALLION * 0.68
    _art(canvas, painter, design.art[0], cx - inner / 2, cy - inner / 2, inner, inner)


def _art_row(canvas, painter, files, area) -> None:
    """The art files side by side, as large as the area allows (at most 80 mm each)."""
    left, bottom, right, top = area
    count = len(files)
    size = min(80.0, (top - bottom) * 0.9, (right - left - 2 * SIDE) / count - 4)
    x = (left + right - count * size - (count - 1) * 4) / 2
    for file in files:
        _art(canvas, painter, file, x, (bottom + top - size) / 2, size, size)
        x += size + 4


def _art(canvas, painter, file, x: float, y: float, width: float, height: float) -> None:
    """An art file fitted (contain) in a box of mm, centred in it."""
    art_w, art_h = art_size(file)
    scale = min(width / art_w, height / art_h)
    w, h = art_w * scale, art_h * scale
    painter._define_art(file)
    canvas.saveState()
    canvas.translate(mm_to_pt(x + (width - w) / 2), mm_to_pt(y + (height - h) / 2))
    painter._art(ArtPlacement(file, 0, 0, w, h), h)
    canvas.restoreState()


LEAFLET_TITLE_SIZES = (24, 22, 20, 18, 16)    # pt: a leaflet's title in its band, at most two lines


class LeafletBand(Flowable):
    """A leaflet's head: the band of its cover across the top of page 1 (to the paper's edges), the title and
    tagline on it at the left, the cover art at the right; the facts line follows as text."""

    def __init__(self, design: CoverDesign, title: str, tagline: str, book, styles, margins: Mapping[str, float],
                 page_width: float):
        super().__init__()
        self.design, self.title, self.tagline, self.book, self.styles = design, title, tagline, book, styles
        self.margins, self.page_width = margins, page_width
        self.spaceAfter = 6

    def wrap(self, available_width, available_height):
        art = LEAFLET_ART + 6 if self.design.art else 0
        text_width = pt_to_mm(available_width) - art
        self.title_parts = []
        for size in LEAFLET_TITLE_SIZES:
            sized = replace(self.styles.title, size=size, leading=size * 1.12, color="#ffffff", align="left")
            self.title_parts = _set(self.title, sized, self.book, text_width)
            if all(len(part.layout.line_tops) <= 2 and not _split_word(part) for part in self.title_parts):
                break
        self.tagline_parts = _set(self.tagline, replace(self.styles.tagline, color="#ffffff", align="left",
                                                        size=10.5, leading=14), self.book, text_width)
        words = sum(part.height for part in self.title_parts + self.tagline_parts) + mm_to_pt(2)
        # the band starts at the paper's top edge: the top margin is part of it
        self.height = max(words, mm_to_pt(LEAFLET_ART)) + mm_to_pt(LEAFLET_PADDING)
        self.width = available_width
        return self.width, self.height

    def draw(self):
        canvas = self.canv
        painter = FacePainter.on(canvas, drawing_settings(self.book.face()))
        left = -mm_to_pt(self.margins["outer"])
        top = self.height + mm_to_pt(self.margins["top"])
        canvas.saveState()
        canvas.setFillColor(painter.colour(self.design.band))
        canvas.rect(left, 0, mm_to_pt(self.page_width), top, stroke=0, fill=1)
        y = self.height
        for part in self.title_parts + self.tagline_parts:
            if part is self.tagline_parts[0] if self.tagline_parts else False:
                y -= mm_to_pt(2)
            y -= part.height
            part.drawOn(canvas, 0, y)
        if self.design.art:
            size = LEAFLET_ART
            _art(canvas, painter, self.design.art[0], pt_to_mm(self.width) - size,
                 pt_to_mm(self.height) / 2 - size / 2 + LEAFLET_PADDING / 4, size, size)
        canvas.restoreState()


LEAFLET_ART = 24.0       # mm: the cover art in a leaflet's band
LEAFLET_PADDING = 6.0    # mm: the band's room under its words
