"""One paragraph of the rulebook, set by the engine's layout, and the block the page flow places it as.

Book is what setting the rulebook's text needs (fonts, language, direction, icons); BookStyle a paragraph
style in points; SetParagraph a paragraph set at one width, which gives the display-list items (glyph
runs, icons' art, its list marker, the edition badge after its last word, a contents entry's dots and
page number) of any run of its lines; TextBlock lines first to last of one, the block the paginator
(pages.py) places and splits between lines (no widow, no orphan). Everything is in millimetres from the
block's top-left, y down; sizes in points as the styles are written.

In a right-to-left book (Book.direction) a left-aligned style is set flush right, the list marker stands
at the right, the badge before the last line's start and a contents entry's number at the left.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.components.piece import Item, Rect, TextPlacement
from generator.render.icons import icon_art
from generator.rulebook.pages import Block
from generator.text.layout import SetStyle, TextLayout, fit_text, line_width, run_width
from generator.text.linebreak import BreakRules
from generator.text.rich import Fragment, Paragraph as RichParagraph, parse_rich_text
from generator.text.setter import TextSetter
from generator.units import pt_to_mm

INK_HEX = "#2b2220"
BADGE = "#f2b705"
BADGE_SIZE = 7.0       # pt, the edition badge's letters
SHORT_TEXT_LINES = 2   # text set in this many lines or fewer is set again without hyphenation (issue 12's rule)
NO_SPLIT_BELOW = 4     # a paragraph of fewer lines stays whole: no widow, no orphan
MIN_LINES = 2          # lines of a paragraph that must follow a heading on its page
LEADER_ROOM = " 000"   # a contents entry keeps this much room for its page number
LEADER_DOT = "\u00a0.\u00a0"   # a contents entry's dots lead to its number
EPSILON = 1e-6


@dataclass(frozen=True)
class Book:
    """What setting the rulebook's text needs: fonts, language rules, the game's icons and the direction."""

    setter: TextSetter
    stack: tuple[str, ...]
    lang: str
    icons: Mapping[str, Path]
    rules: BreakRules | None = None
    direction: str = "ltr"        # 'rtl': the pages mirror (generator.text.bidi.language_direction)
    # what one rulebook's setting has measured and set: the copyfitting steps set the same paragraphs
    # at the same widths again, only the spaces between them change
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def rtl(self) -> bool:
        return self.direction == "rtl"

    def face(self, weight: str = "regular", italic: bool = False) -> str:
        return self.setter.library.face(self.stack[0], weight, italic).name

    def set_style(self, size: float, weight: str = "regular", color: str = INK_HEX, align: str = "left",
                  leading: float = 1.2, hyphenate: bool = False) -> SetStyle:
        """The engine's style for text of this book (its icons, language and break rules); `align` as written
        for a left-to-right book, mirrored for a right-to-left one."""
        return SetStyle(self.stack, size, size, weight=weight, color=color, align=self.aligned(align),
                        leading=leading, lang=self.lang, hyphenate=hyphenate, breaks=self.rules,
                        icons=tuple(sorted(self.icons.items())))

    def aligned(self, align: str) -> str:
        """Where the start of a line is: the left of a left-to-right book, the right of a right-to-left one."""
        if not self.rtl:
            return align
        return {"left": "right", "right": "left"}.get(align, align)

    def line(self, text: str, size: float, weight: str = "regular", color: str = INK_HEX) -> TextLayout:
        """Text set on one line, never broken (a footer, a badge, a page number)."""
        style = self.set_style(size, weight, color, align="left")
        style = replace(style, align="left")          # measured from its own left: the caller places it
        return fit_text(parse_rich_text(text), 1e4, 1e4, style, self.setter)

    def space(self, size: float, weight: str = "regular") -> float:
        """The width (mm) of the space between two words (a line's own ends hold none)."""
        return self.width("a a", size, weight) - self.width("aa", size, weight)

    def width(self, text: str, size: float, weight: str = "regular") -> float:
        """The width (mm) of a text on one line, measured as the layout measures it."""
        key = ("width", text, size, weight)
        found = self.memo.get(key)
        if found is None:
            paragraph = RichParagraph((Fragment(text),))
            found = self.memo[key] = line_width((paragraph,), replace(self.set_style(size, weight), align="left"),
                                                self.setter)
        return found


@dataclass(frozen=True)
class BookStyle:
    """A paragraph style of the rulebook, in points."""

    size: float
    leading: float
    weight: str = "regular"
    color: str = INK_HEX
    align: str = "left"
    space_before: float = 0.0
    space_after: float = 0.0
    keep_with_next: bool = False
    hyphenate: bool = True
    indent: float = 0.0          # list items: the text's indent; the marker stands at 1 pt


def line_extent(layout: TextLayout, line: int) -> tuple[float, float]:
    """Where a line's text starts and ends (mm from the box's left); (0, 0) for no line."""
    if line < 0 or not layout.line_tops:
        return 0.0, 0.0
    top = layout.line_tops[line]
    bottom = layout.line_tops[line + 1] if line + 1 < len(layout.line_tops) else float("inf")
    spans = [(run.x, run.x + run_width(run)) for run in layout.runs
             if top < run.baseline <= bottom + EPSILON]
    spans += [(icon.x, icon.x + icon.size) for icon in layout.icons if top < icon.y + icon.size <= bottom + EPSILON]
    if not spans:
        return 0.0, 0.0
    return min(start for start, _ in spans), max(end for _, end in spans)


def line_end(layout: TextLayout, line: int) -> float:
    """Where a line's text ends (mm from the box's left)."""
    return line_extent(layout, line)[1]


def moved(layout: TextLayout, x: float, y: float) -> TextPlacement:
    """A one-line layout's runs and icons as a text placed with its box's top-left at (x, y) mm."""
    icons = tuple(icon_art(icon.file, icon, x, y) for icon in layout.icons if icon.file is not None)
    return TextPlacement(x, y, layout.runs, icons, layout.readings)


class SetParagraph:
    """A paragraph set at one width (mm): its layout, its line count (a badge may need a line of its own),
    and the items of any run of its lines."""

    def __init__(self, paragraph: RichParagraph, more: tuple[RichParagraph, ...], style: BookStyle, book: Book,
                 width: float, badge: str = "", leader: bool = False):
        self.paragraph, self.style, self.book, self.width, self.badge = paragraph, style, book, width, badge
        self.line_height = pt_to_mm(style.leading)
        self.indent = pt_to_mm(style.indent)
        self.leader_room = book.width(LEADER_ROOM, style.size) if leader else 0.0
        text_width = max(width - self.indent - self.leader_room, 1.0)
        set_style = book.set_style(style.size, style.weight, style.color, style.align,
                                   style.leading / style.size, style.hyphenate)
        body = (RichParagraph(paragraph.fragments),) + more    # the marker is drawn by marker_items
        layout = fit_text(body, text_width, 1e6, set_style, book.setter)
        if style.hyphenate and len(layout.line_tops) <= SHORT_TEXT_LINES:
            # a short text (a name in a table cell, a one-line rule) never breaks inside a word
            layout = fit_text(body, text_width, 1e6, replace(set_style, hyphenate=False), book.setter)
        self.layout, self.text_width = layout, text_width
        # the text box's left: after the indent (left to right), or after the contents number (right to left)
        self.text_x = (self.leader_room if book.rtl else self.indent)
        start, end = line_extent(layout, len(layout.line_tops) - 1)
        self.last_start, self.last_end = start, end
        self.badge_width = book.width(f"\u00a0{badge}\u00a0", BADGE_SIZE, "black") if badge else 0.0
        room = book.space(style.size) + self.badge_width + 1.5
        self.extra_line = bool(badge) and (start - room < 0 if book.rtl else end + room > text_width)
        self.lines = len(layout.line_tops) + (1 if self.extra_line else 0)
        self._run_lines = self._line_of(run.baseline - _ascent(run.size) for run in layout.runs)
        self._icon_lines = self._line_of(icon.y + icon.size - _ascent(layout.size) for icon in layout.icons)

    def _line_of(self, tops) -> list[int] | None:
        """The line of each item by its top, or None where they are not in line order (then every part
        looks at them all)."""
        lines = [int((top + EPSILON) // self.line_height) for top in tops]
        return lines if all(a <= b for a, b in zip(lines, lines[1:], strict=False)) else None

    def items(self, first: int, last: int, x: float, y: float, leader: str = "") -> list[Item]:
        """The items of lines first to last, the part's top-left at (x, y) mm on the page."""
        top, bottom = first * self.line_height, last * self.line_height
        layout = self.layout
        runs = tuple(run for run in _on_lines(layout.runs, self._run_lines, first, last)
                     if top - EPSILON <= run.baseline - _ascent(run.size) < bottom - EPSILON)
        left, origin = x + self.text_x, y - top        # the whole paragraph's box, its first line at `top` above
        icons = []
        for icon in _on_lines(layout.icons, self._icon_lines, first, last):
            # an icon belongs to the line of its baseline, like the runs (in a tight leading, a title's
            # square starts above the line's top)
            line_top = icon.y + icon.size - _ascent(layout.size)
            if top - EPSILON <= line_top < bottom - EPSILON and icon.file is not None:
                icons.append(icon_art(icon.file, icon, left, origin))
        baselines = {run.baseline for run in runs}
        readings = tuple(reading for reading in layout.readings if reading[0] in baselines)
        items: list[Item] = [TextPlacement(left, origin, runs, tuple(icons), readings)] if runs or icons else []
        if self.paragraph.marker and first == 0:
            items += self._marker(x, y)
        end_line = len(layout.line_tops) - 1 + self.extra_line
        if (self.badge or leader) and first <= end_line < last:
            items += self._line_end(x, origin, leader)
        return items

    def _marker(self, x: float, y: float) -> list[Item]:
        """The list marker on the first line: at 1 pt from the start side."""
        style, book = self.style, self.book
        marker = book.line(self.paragraph.marker, style.size, style.weight, style.color)
        if not marker.runs:
            return []
        baseline = self.layout.runs[0].baseline if self.layout.runs else pt_to_mm(style.size * 0.8)
        width = line_end(marker, 0)
        left = x + self.width - pt_to_mm(1) - width if book.rtl else x + pt_to_mm(1)
        # read as drawn, with its item's first line (a marker marked with its own reading stood on a line
        # of its own in pdfium's reading, away from its item)
        return [replace(moved(marker, left, y + baseline - marker.runs[0].baseline), readings=())]

    def _line_end(self, x: float, origin: float, leader: str) -> list[Item]:
        """The badge after the last word (or on a line of its own), or a contents entry's dots and number."""
        style, book, layout = self.style, self.book, self.layout
        last = len(layout.line_tops) - 1
        line_top = layout.line_tops[last] if layout.line_tops else 0.0
        baseline = line_top + pt_to_mm(style.size * ((style.leading / style.size - 1) / 2 + 0.8))
        if self.extra_line:
            baseline += self.line_height
        items: list[Item] = []
        if self.badge:
            space = book.space(style.size)
            if book.rtl:
                right = self.text_x + self.text_width if self.extra_line else self.text_x + self.last_start - space
                left = right - self.badge_width
            else:
                left = self.text_x if self.extra_line else self.text_x + self.last_end + space
            # the badge's words centred on its patch (a no-break space's width each side: a line drops them)
            text = book.line(self.badge, BADGE_SIZE, "black", style.color)
            size = pt_to_mm(BADGE_SIZE)
            items.append(Rect(x + left, origin + baseline - 0.95 * size, self.badge_width, 1.2 * size, fill=BADGE))
            if text.runs:
                inset = (self.badge_width - line_end(text, 0)) / 2
                items.append(moved(text, x + left + inset, origin + baseline - text.runs[0].baseline))
        if leader:
            items += self._leader(x, origin, baseline, leader)
        return items

    def _leader(self, x: float, origin: float, baseline: float, number: str) -> list[Item]:
        """A contents entry's page number at the line's far end and dots leading to it from the text."""
        style, book = self.style, self.book
        set_number = book.line(number, style.size, style.weight, style.color)
        number_width = line_end(set_number, 0)
        gap = pt_to_mm(2)
        space = book.width("\u00a0", style.size)       # between the last dot and the number
        if book.rtl:
            number_x = 0.0
            room = self.text_x + self.last_start - number_width - space - gap
        else:
            number_x = self.width - number_width
            room = number_x - space - (self.text_x + self.last_end) - gap
        items: list[Item] = []
        if set_number.runs:
            items.append(moved(set_number, x + number_x, origin + baseline - set_number.runs[0].baseline))
        # the dots as set, a dot and its spaces each (no-break spaces: set as written, never collapsed)
        trial = book.line(LEADER_DOT * 40, style.size, style.weight, style.color)
        dot = line_end(trial, 0) / 40
        dots = int((room + EPSILON) // dot) if dot > 0 else 0
        if dots > 0:
            set_dots = book.line(LEADER_DOT * dots, style.size, style.weight, style.color)
            end = line_end(set_dots, 0)
            dots_x = number_width + space if book.rtl else number_x - space - end
            if set_dots.runs:
                items.append(moved(set_dots, x + dots_x, origin + baseline - set_dots.runs[0].baseline))
        return items


class TextBlock(Block):
    """Lines first to last (None: to the end) of a paragraph: splits between its lines, never leaving fewer
    than two on either side, and not at all below NO_SPLIT_BELOW lines."""

    def __init__(self, paragraph: RichParagraph, style: BookStyle, book: Book, badge: str = "",
                 more: tuple[RichParagraph, ...] = (), first: int = 0, last: int | None = None,
                 settings: dict[float, SetParagraph] | None = None, leader: Callable[[], str] | None = None):
        self.paragraph, self.style, self.book, self.badge, self.more = paragraph, style, book, badge, more
        self.first, self.last, self.leader = first, last, leader
        self.toc_text = ""        # a heading the contents list: its words there (its first part's page is the number)
        self.space_before = pt_to_mm(style.space_before) if first == 0 else 0.0
        self.space_after = pt_to_mm(style.space_after)
        self.keep_with_next = style.keep_with_next
        self.passes_figures = not style.keep_with_next
        # the paragraph as set at each width, shared by the parts it splits into: a long paragraph is
        # set once, not again for every page it runs onto
        self.settings: dict[float, SetParagraph] = settings if settings is not None else {}

    def set_at(self, width: float) -> SetParagraph:
        setting = self.settings.get(width)
        if setting is None:
            # the same paragraph in the same type at the same width, set once for every copyfitting step
            style = replace(self.style, space_before=0.0, space_after=0.0, keep_with_next=False)
            key = ("set", self.paragraph, self.more, style, width, self.badge, self.leader is not None)
            setting = self.book.memo.get(key)
            if setting is None:
                setting = self.book.memo[key] = SetParagraph(self.paragraph, self.more, style, self.book, width,
                                                             self.badge, self.leader is not None)
            self.settings[width] = setting
        return setting

    def _range(self, width: float) -> tuple[int, int]:
        setting = self.set_at(width)
        return self.first, setting.lines if self.last is None else self.last

    def height(self, width: float, room: float) -> float:
        first, last = self._range(width)
        return (last - first) * self.set_at(width).line_height

    def split(self, width: float, room: float, fresh: bool) -> list[Block]:
        first, last = self._range(width)
        total = last - first
        fitting = int((room + EPSILON) // self.set_at(width).line_height)
        if total < NO_SPLIT_BELOW or fitting < MIN_LINES:
            return []
        cut = first + min(fitting, total - MIN_LINES)
        head = TextBlock(self.paragraph, self.style, self.book, self.badge, self.more, first, cut, self.settings,
                         self.leader)
        tail = TextBlock(self.paragraph, self.style, self.book, self.badge, self.more, cut, last, self.settings,
                         self.leader)
        head.space_after, head.keep_with_next, head.toc_text = 0.0, False, self.toc_text
        tail.passes_figures = self.passes_figures
        return [head, tail]

    def least(self, width: float) -> float:
        first, last = self._range(width)
        setting = self.set_at(width)
        lines = MIN_LINES if last - first >= NO_SPLIT_BELOW else last - first
        return lines * setting.line_height + self.space_before

    def items(self, x: float, y: float, width: float, height: float) -> list[Item]:
        first, last = self._range(width)
        return self.set_at(width).items(first, last, x, y, self.leader() if self.leader is not None else "")


def _on_lines(items: tuple, lines: list[int] | None, first: int, last: int | None) -> tuple:
    """The items on lines first to last, with a line to spare at each end (the caller's own test decides at
    the edges: a line's items may round either way)."""
    if lines is None:
        return items
    start = bisect_left(lines, first - 1)
    end = len(items) if last is None else bisect_left(lines, last + 2)
    return items[start:end]


def _ascent(size: float) -> float:
    """How far a line's baseline sits below the line's top, at leading 1 (mm), so a run maps to its line."""
    return pt_to_mm(size * 0.8)
