"""One paragraph of the rulebook, set by the engine's layout: the book's fonts, language and icons (Book),
a paragraph style (BookStyle) and SetText, the flowable platypus places and splits between lines.

Below the page flow (flow.py), the cover (cover.py) and the keeping rules (keeping.py), which all set
paragraphs this way: each of them imports it, none of them another.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, replace

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from generator.components.piece import TextPlacement
from generator.render.icons import icon_art
from generator.render.pdf import FacePainter, drawing_settings
from generator.rulebook.tables import BADGE_SIZE
from generator.text.layout import SetStyle, TextLayout, fit_text
from generator.text.linebreak import BreakRules
from generator.text.rich import Paragraph as RichParagraph
from generator.text.setter import TextSetter
from generator.units import mm_to_pt, pt_to_mm

INK_HEX = "#2b2220"
BADGE = "#f2b705"
SHORT_TEXT_LINES = 2  # text set in this many lines or fewer is set again without hyphenation (issue 12's rule)
NO_SPLIT_BELOW = 4     # a paragraph of fewer lines stays whole: no widow, no orphan


@dataclass(frozen=True)
class Book:
    """What setting the rulebook's text needs: fonts, language rules and the game's icons."""

    setter: TextSetter
    stack: tuple[str, ...]
    lang: str
    icons: dict
    rules: BreakRules | None = None

    def face(self, weight: str = "regular", italic: bool = False) -> str:
        return self.setter.library.face(self.stack[0], weight, italic).name


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


class SetText(Flowable):
    """One paragraph set by the engine's layout at the frame's width; splits between its lines."""

    def __init__(self, paragraph: RichParagraph, style: BookStyle, book: Book, badge: str = "",
                 first: int = 0, last: int | None = None, leader: str = "", more: tuple[RichParagraph, ...] = (),
                 settings: dict | None = None):
        super().__init__()
        self.paragraph, self.style, self.book, self.badge = paragraph, style, book, badge
        self.more = more      # the lines that continue the paragraph after a line break (a single newline)
        self.first, self.last, self.leader = first, last, leader
        self.spaceBefore = style.space_before if first == 0 else 0.0
        self.spaceAfter = style.space_after
        self.keepWithNext = style.keep_with_next
        self.layout: TextLayout | None = None
        self.extra_line = False    # the badge needed a line of its own
        # the paragraph as set at each width, shared by the parts it splits into: a long paragraph is
        # set once, not again (and measured again) for every page it runs onto
        self.settings: dict[float, _SetAtWidth] = settings if settings is not None else {}

    def _set(self, available_width: float) -> TextLayout:
        setting = self.settings.get(available_width)
        if setting is None:
            setting = self.settings[available_width] = self._set_anew(available_width)
        self.end_x, self.extra_line = setting.end_x, setting.extra_line
        self.setting = setting      # what draw() takes its lines from
        return setting.layout

    def _set_anew(self, available_width: float) -> "_SetAtWidth":
        style = self.style
        width = pt_to_mm(available_width - style.indent)
        if self.leader:
            width -= pt_to_mm(stringWidth(" 000", self.book.face(), style.size))
        set_style = SetStyle(self.book.stack, style.size, style.size, weight=style.weight, color=style.color,
                             align=style.align, leading=style.leading / style.size, lang=self.book.lang,
                             hyphenate=style.hyphenate, breaks=self.book.rules)
        body = (RichParagraph(self.paragraph.fragments),) + self.more    # the marker is drawn by _marker
        layout = fit_text(body, max(width, 1.0), 1e6, set_style, self.book.setter)
        if style.hyphenate and len(layout.line_tops) <= SHORT_TEXT_LINES:
            # a short text (a name in a table cell, a one-line rule) never breaks inside a word
            layout = fit_text(body, max(width, 1.0), 1e6, replace(set_style, hyphenate=False), self.book.setter)
        end_x = line_end(layout, len(layout.line_tops) - 1)
        badge_room = pt_to_mm(stringWidth(f" {self.badge} ", self.book.face("black"), BADGE_SIZE)) + 1.5
        return _SetAtWidth(layout, end_x, bool(self.badge) and end_x + badge_room > width, pt_to_mm(style.leading))

    def _lines(self) -> int:
        return len(self.setting.layout.line_tops) + (1 if self.extra_line else 0)     # once wrapped

    def wrap(self, available_width, available_height):
        self.available_width = available_width
        self.layout = self._set(available_width)
        last = self._lines() if self.last is None else self.last
        self.width, self.height = available_width, (last - self.first) * self.style.leading
        return self.width, self.height

    def split(self, available_width, available_height):
        if self.layout is None or self.available_width != available_width:
            self.wrap(available_width, available_height)
        last = self._lines() if self.last is None else self.last
        total = last - self.first
        fitting = int((available_height - self.spaceBefore + 1e-6) // self.style.leading)
        if total < NO_SPLIT_BELOW or fitting < 2:
            return []
        cut = self.first + min(fitting, total - 2)
        if cut - self.first < 2:
            return []
        head = SetText(self.paragraph, self.style, self.book, self.badge, self.first, cut, self.leader, self.more,
                       self.settings)
        tail = SetText(self.paragraph, self.style, self.book, self.badge, cut, last, self.leader, self.more,
                       self.settings)
        head.spaceAfter, tail.keepWithNext = 0.0, self.keepWithNext
        head.keepWithNext = False
        return [head, tail]

    def draw(self) -> None:
        layout, style = self.layout, self.style
        assert layout is not None, "platypus draws a flowable only after wrap() has set it"
        line_height = pt_to_mm(style.leading)
        top = self.first * line_height   # mm of the whole paragraph above this part
        bottom = top + pt_to_mm(self.height)
        runs = tuple(replace(run, baseline=run.baseline - top) for run in self.setting.runs(self.first, self.last)
                     if top - 1e-6 <= run.baseline - _ascent(run.size) < bottom - 1e-6)
        items: list = [TextPlacement(pt_to_mm(style.indent), 0.0, runs)]
        for icon in self.setting.icons(self.first, self.last):
            # an icon belongs to the line of its baseline, like the runs (in a tight leading, a title's, its
            # square starts above the line's top)
            line_top = icon.y + icon.size - _ascent(layout.size)
            if top - 1e-6 <= line_top < bottom - 1e-6 and icon.name in self.book.icons:
                items.append(icon_art(self.book.icons[icon.name], icon, pt_to_mm(style.indent), -top))
        painter = FacePainter.on(self.canv, drawing_settings(self.book.face()))
        painter._items(tuple(items), pt_to_mm(self.height))
        if self.paragraph.marker and self.first == 0:
            self._marker(painter, layout)
        last_line = len(layout.line_tops) - 1
        if (self.badge or self.leader) and self.first <= last_line + self.extra_line < (self.last or self._lines()):
            self._line_end(painter, layout, top)

    def _marker(self, painter, layout: TextLayout) -> None:
        baseline = layout.runs[0].baseline if layout.runs else pt_to_mm(self.style.size)
        runs = self.book.setter.runs(self.paragraph.marker, self.book.stack, self.style.weight, False)
        x = 1.0
        self.canv.setFillColor(painter.colour(self.style.color))
        for run in runs:
            self.canv.setFont(run.face.name, self.style.size)
            self.canv.drawString(x, self.height - mm_to_pt(baseline), run.text)
            x += stringWidth(run.text, run.face.name, self.style.size)

    def _line_end(self, painter, layout: TextLayout, top: float) -> None:
        """The badge after the last word (or on a line of its own), or a TOC entry's dots and page number."""
        canvas, style = self.canv, self.style
        last = len(layout.line_tops) - 1
        line_top = (layout.line_tops[last] if layout.line_tops else 0.0) - top
        baseline = line_top + pt_to_mm(style.size * ((style.leading / style.size - 1) / 2 + 0.8))
        x = mm_to_pt(self.end_x) + style.indent
        if self.extra_line:
            baseline += pt_to_mm(style.leading)
            x = style.indent
        y = self.height - mm_to_pt(baseline)
        if self.badge:
            font = self.book.face("black")
            text = f"\u00a0{self.badge}\u00a0"
            width = stringWidth(text, font, BADGE_SIZE)
            x += 0 if self.extra_line else stringWidth(" ", self.book.face(), style.size)
            canvas.saveState()
            canvas.setFillColor(painter.colour(BADGE))
            canvas.rect(x, y - BADGE_SIZE * 0.25, width, BADGE_SIZE * 1.2, stroke=0, fill=1)
            canvas.setFillColor(painter.colour(style.color))
            canvas.setFont(font, BADGE_SIZE)
            canvas.drawString(x, y, text)
            canvas.restoreState()
        if self.leader:
            font = self.book.face()
            right = self.width
            number_width = stringWidth(self.leader, font, style.size)
            canvas.saveState()
            canvas.setFillColor(painter.colour(style.color))
            canvas.setFont(font, style.size)
            canvas.drawString(right - number_width, y, self.leader)
            dot = stringWidth(" . ", font, style.size)
            dots = int((right - number_width - x - 2) // dot)
            if dots > 0:
                canvas.drawString(right - number_width - dots * dot, y, " . " * dots)
            canvas.restoreState()


class _SetAtWidth:
    """A paragraph set at one width: its layout, where its last line ends, whether the badge needs a line of
    its own, and which of its runs and icons each part of it (lines first to last) draws: found by bisection
    on their lines, so a part of a paragraph hundreds of pages long looks only at its own page's runs."""

    def __init__(self, layout: TextLayout, end_x: float, extra_line: bool, line_height: float):
        self.layout, self.end_x, self.extra_line = layout, end_x, extra_line
        self.line_height = line_height
        self._run_lines = self._lines(run.baseline - _ascent(run.size) for run in layout.runs)
        self._icon_lines = self._lines(icon.y + icon.size - _ascent(layout.size) for icon in layout.icons)

    def _lines(self, tops) -> list[int] | None:
        """The line of each item by its top, or None where they are not in line order (then every part
        looks at them all)."""
        lines = [int((top + 1e-6) // self.line_height) for top in tops]
        return lines if all(a <= b for a, b in zip(lines, lines[1:], strict=False)) else None

    def runs(self, first: int, last: int | None) -> tuple:
        return _on_lines(self.layout.runs, self._run_lines, first, last)

    def icons(self, first: int, last: int | None) -> tuple:
        return _on_lines(self.layout.icons, self._icon_lines, first, last)


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


def line_end(layout: TextLayout, line: int) -> float:
    """Where the last line's text ends (mm from the box's left)."""
    if line < 0 or not layout.line_tops:
        return 0.0
    top = layout.line_tops[line]
    ends = [run.x + pt_to_mm(stringWidth(run.text, run.font, run.size)) for run in layout.runs
            if run.baseline > top]
    ends += [icon.x + icon.size for icon in layout.icons if icon.y + icon.size > top]
    return max(ends, default=0.0)
