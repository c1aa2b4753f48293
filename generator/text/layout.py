"""Wrap rich text into a box and shrink it until it fits: the fit-to-box stage.

The one typesetting path of every text (cards, tokens, pawns, boards, sheets,
the rulebook, the kit): the words printed are exactly the words given. Lines
break at spaces the language's rules allow (generator/text/linebreak.py), at a
word's own hard hyphens (kept), and, where the style hyphenates and a
dictionary exists, at hyphenation points — a dictionary's respelling
(Hungarian ssz → sz-sz) applied only where a line really ends there.
The size is found by binary search between the style's size and its minimum,
so text is set at a real font size; a word wider than the box counts as not
fitting, which is the signal to shrink. `{icon:name}` icons are set inline at
the text's size, standing on the baseline.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from reportlab.pdfbase.pdfmetrics import getFont

from generator.text.bidi import (Direction, embedding_levels, language_direction, line_levels, may_turn_right_to_left,
                                 paragraph_direction, visual_order)
from generator.caches import cached
from generator.text.hyphenation import Break, breaks
from generator.text.linebreak import GLUE, NARROW_GLUE, NO_BREAK_SPACES, BreakRules, break_rules
from generator.text.rich import Fragment, Paragraph
from generator.text.segment import ZWSP
from generator.text.setter import TextSetter
from generator.text.shaping import run_pieces
from generator.text.words import Word, glue_paragraphs, paragraph_words, word_piece
from generator.units import PT_PER_MM, pt_to_mm

PARAGRAPH_GAP = 0.35   # extra space between paragraphs, in multiples of the size
MARKER_GAP = 0.35      # between a list marker and its text, in multiples of the size
BASELINE = 0.80        # first baseline below the top of a line's em box
HYPHENATE_BELOW = 0.6  # a line filled less than this much tries to hyphenate the next word
SEARCH_STEPS = 7       # binary search steps: (max - min) / 128, well under 0.1 pt
# An inline icon is a square ICON_CAPS times the capitals' height (of the style's first family) on a side,
# centred on the capitals' middle: it reads as large as the words round it whatever their face (Nunito's
# capitals are 0.705 em: icons of 1.13 em, from 0.21 em under the baseline to 0.92 em over it, inside the
# line's ascenders and descenders). Icons had been 0.9 em standing on the baseline: 3 mm in 9.5 pt text,
# too small to tell a gift from a ball.
ICON_CAPS = 1.6
_ALPHA_RUN = re.compile(r"[^\W\d_]+")
_UNKNOWN = object()    # not looked up yet (None is an answer: no one face)


# Laid-out texts stay alive until their files are drawn (a 10,000-card deck holds ~100,000
# runs): these values keep their fields in slots, not in a dict each.
@dataclass(frozen=True, slots=True)
class SetStyle:
    """A text style with every value decided (sizes in points)."""

    stack: tuple[str, ...]
    size: float
    min_size: float
    weight: str = "regular"
    italic: bool = False
    color: str = "#000000"
    align: str = "start"     # start, end (by the paragraph's direction), left, center, right
    valign: str = "top"
    leading: float = 1.2
    lang: str = "en"
    halo: tuple[str, float] | None = None   # outline colour and width (mm) under the letters
    hyphenate: bool = True        # False: never break inside a word, shrink instead
    icons: tuple[tuple[str, Path], ...] = ()   # the game's inline icons: name, art file
    breaks: BreakRules | None = None   # the language's line-breaking rules (None: the engine's for lang)
    features: tuple[str, ...] = ()     # OpenType features on ('tnum') or off ('-liga') beyond HarfBuzz's defaults

    @property
    def rules(self) -> BreakRules:
        return self.breaks if self.breaks is not None else break_rules(self.lang)


@dataclass(frozen=True, slots=True)
class GlyphRun:
    """Text in one face, placed with its baseline start in mm from the box's top-left."""

    x: float
    baseline: float
    text: str
    font: str
    size: float
    color: str
    slant: bool = False
    halo: tuple[str, float] | None = None
    features: tuple[str, ...] = ()   # the style's OpenType features (shaped with them, as measured)
    rtl: bool = False                # shaped right to left (its text in logical order, drawn mirrored)

    def __reduce__(self):
        # pickled as its constructor's arguments: the slots dataclass's own state functions
        # run in Python and look its fields up on every object (the layout cache pickles ~100,000)
        return (GlyphRun, (self.x, self.baseline, self.text, self.font, self.size, self.color, self.slant, self.halo,
                           self.features, self.rtl))


@dataclass(frozen=True, slots=True)
class InlineIcon:
    """An icon set in the text: its name and square, in mm from the box's top-left (centred on its line's
    capitals)."""

    name: str
    x: float
    y: float
    size: float
    file: Path | None = None   # None for a name the game does not define (reported by the check)

    def __reduce__(self):
        # pickled as its constructor's arguments: the slots dataclass's own state functions
        # run in Python and look its fields up on every object (the layout cache pickles ~100,000)
        return (InlineIcon, (self.name, self.x, self.y, self.size, self.file))


@dataclass(frozen=True, slots=True)
class TextLayout:
    runs: tuple[GlyphRun, ...]
    size: float
    fits: bool
    overflow: float          # mm of height (or width) beyond the box at the smallest size
    height: float            # mm used
    icons: tuple[InlineIcon, ...] = ()
    line_tops: tuple[float, ...] = ()   # mm from the box's top to each line's top
    # each line of a right-to-left paragraph that holds right-to-left text: its baseline (the runs') and
    # its text in logical order, for readers (render/text_out.py `read_line`): its runs are in
    # visual order, which no reader turns back into the order the line was written in
    readings: tuple[tuple[float, str], ...] = ()

    @property
    def lines(self) -> int:
        return len(self.line_tops)

    def __reduce__(self):
        # pickled as its constructor's arguments: the slots dataclass's own state functions
        # run in Python and look its fields up on every object (the layout cache pickles ~100,000)
        return (TextLayout, (self.runs, self.size, self.fits, self.overflow, self.height, self.icons,
                             self.line_tops, self.readings))


class _Words(NamedTuple):
    """A paragraph cut into words, with each word's fragments' widths at 1 pt (None: an inline
    icon): measured once per text, then scaled to every size a fit tries."""

    paragraph: Paragraph
    words: tuple[Word, ...]
    units: tuple[tuple[float, ...], ...]
    # each word's one width at 1 pt where it is one fragment of text (None: an icon or several
    # fragments, scaled by _scaled): the wrapping loop reads these without a call per word
    singles: tuple[float | None, ...]
    total: float      # all the words' widths at 1 pt, side by side (icons at their side's, _Measure.icon_em)
    face: object = None   # the one face every word of a plain paragraph is drawn in (None: not known to be one)
    # "" for a paragraph of left-to-right text only (set as it always was); else its direction
    # ("ltr", "rtl"): its lines are reordered by the bidi algorithm after breaking
    direction: str = ""


def _words_of(paragraph: Paragraph, words: tuple[Word, ...], units: tuple[tuple[float, ...], ...]) -> _Words:
    singles = tuple(unit[0] if len(unit) == 1 else None for unit in units)
    total = sum(unit for word in units for unit in word)
    return _Words(paragraph, words, units, singles, total)


@dataclass(slots=True)
class _Line:
    words: list[Word]
    indent: float
    marker: str = ""      # the list marker, on a list item's first line only
    first: bool = False   # the first line of a paragraph
    widths: list[float] = field(default_factory=list)   # each word's width (mm) as wrapping measured it
    # the one face of its paragraph's plain words, when the line holds only such words (no piece of
    # a hyphenated word): it is then set as one run without looking at each word (_PlainLines)
    face: object = None
    direction: str = ""   # its paragraph's, where the bidi algorithm reorders it ("" for left-to-right text only)
    opens: bool = False   # the first line of its paragraph's words (a line break's too: bidi levels are per paragraph)

    def add(self, word: Word, width: float) -> None:
        self.words.append(word)
        self.widths.append(width)


def fit_text(paragraphs: tuple[Paragraph, ...], width: float, height: float,
             style: SetStyle, setter: TextSetter) -> TextLayout:
    """Lay out at the largest size in [min_size, size] that fits width × height (mm).

    The same text in the same box (a card's rules text on every copy, a deck
    name on every back) is set once: results are remembered on the setter.
    """
    key = _layout_key(paragraphs, width, height, style)
    cached = setter.layouts.get(key)
    if cached is None:
        glued = glue_paragraphs(paragraphs, style.rules)
        cached = setter.layouts[key] = _fit(glued, width, height, style, setter)
    return cached


def _layout_key(paragraphs: tuple[Paragraph, ...], width: float, height: float, style: SetStyle) -> tuple:
    """What a fitted text is kept by in the setter's layouts (and the layout cache, face_cache.py)."""
    return (paragraphs, round(width, 4), round(height, 4), style)


def fit_whole_words(paragraphs: tuple[Paragraph, ...], width: float, height: float,
                    style: SetStyle, setter: TextSetter) -> TextLayout | None:
    """The text set at exactly style.size (its min_size aside) without splitting a word wider than
    the box, or None where it does not fit so: the very layout fit_text gives at that one size
    when it fits so. A deck's further texts are tried at the deck's size so far (deck_sizes)."""
    exact = style if style.min_size == style.size else replace(style, min_size=style.size)
    key = _layout_key(paragraphs, width, height, exact) + ("whole words",)
    found = setter.layouts.get(key)
    if found is None:
        texts = _prepare(glue_paragraphs(paragraphs, exact.rules), exact, setter)
        found = _search(texts, width, height, exact, setter, False)
        if found is not None:      # (one that does not fit is fitted on its own next, and that is kept)
            setter.layouts[key] = found
    return found


def _fit(paragraphs: tuple[Paragraph, ...], width: float, height: float,
         style: SetStyle, setter: TextSetter) -> TextLayout:
    # First shrink without splitting a word that is wider than the box ("CHRIST-MAS" on a
    # title); only if no size down to the minimum fits that way are such words hyphenated.
    texts = _prepare(paragraphs, style, setter)
    for split_long_words in (False, True):
        found = _search(texts, width, height, style, setter, split_long_words)
        if found is not None:
            return found
    smallest = _attempt(texts, width, height, style.min_size, style, setter, True)
    return _place(smallest, width, height, style.min_size, style, setter)


def _prepare(paragraphs: tuple[Paragraph, ...], style: SetStyle, setter: TextSetter) -> tuple[_Words, ...]:
    measure = _Measure(setter, style, 1.0)
    prepared = []
    for paragraph in paragraphs:
        if len(paragraph.fragments) == 1 and _plain(paragraph.fragments[0]):
            prepared.append(_directed(measure.plain_words(paragraph), style))
            continue
        words = paragraph_words(paragraph)
        units = tuple(tuple(measure.icon_em if f.icon else measure.unit(f.text, f.bold, f.italic) for f in word)
                      for word in words)
        prepared.append(_directed(_words_of(paragraph, tuple(words), units), style))
    return tuple(prepared)


def _directed(words: _Words, style: SetStyle) -> _Words:
    """The words with their paragraph's direction where it needs the bidi algorithm ("" where it is
    left-to-right text only: the usual text, which is set as it always was)."""
    text = "".join(fragment.text for fragment in words.paragraph.fragments)
    if not may_turn_right_to_left(text) and language_direction(style.lang) == "ltr":
        return words
    direction = paragraph_direction(text, style.lang)
    if direction == "ltr" and not any(level for level in embedding_levels(text, "ltr")):
        return words
    return words._replace(direction=direction)


def _plain(fragment: Fragment) -> bool:
    return not (fragment.bold or fragment.italic or fragment.icon)


def _scaled(units: tuple[float, ...], size: float) -> float:
    """A word's width (mm) at size: the very float _Measure.word gives (pt_to_mm of each fragment, summed)."""
    if len(units) == 1:
        return units[0] * size / PT_PER_MM
    return sum(unit * size / PT_PER_MM for unit in units)


def _search(texts, width, height, style, setter, split_long_words) -> TextLayout | None:
    """The largest size in [min_size, size] that fits, or None."""
    one_line = _one_line(texts, width, height, style, setter)
    if one_line is not None:
        return one_line
    best = _attempt(texts, width, height, style.size, style, setter, split_long_words)
    if best[0]:
        return _place(best, width, height, style.size, style, setter)
    if style.min_size >= style.size:
        return None
    smallest = _attempt(texts, width, height, style.min_size, style, setter, split_long_words)
    if not smallest[0]:
        return None
    low, high, found = style.min_size, style.size, smallest
    for _ in range(SEARCH_STEPS):
        middle = (low + high) / 2
        if _cannot_fit(texts, width, height, middle, style):
            high = middle
            continue
        trial = _attempt(texts, width, height, middle, style, setter, split_long_words)
        if trial[0]:
            low, found = middle, trial
        else:
            high = middle
    return _place(found, width, height, low, style, setter)


def line_width(paragraphs: tuple[Paragraph, ...], style: SetStyle, setter: TextSetter) -> float:
    """The width (mm) the widest paragraph takes set on one line at the style's size, list marker
    and inline icons included: measured as the layout measures it (a table's column widths)."""
    measure = _Measure(setter, style, style.size)
    widest = 0.0
    for paragraph in glue_paragraphs(paragraphs, style.rules):
        words = paragraph_words(paragraph)
        width = sum(measure.word(word) for word in words) + measure.space() * _spaces(words)
        if paragraph.marker:
            width += measure.text(paragraph.marker, False, False) + pt_to_mm(style.size * MARKER_GAP)
        widest = max(widest, width)
    return widest


def _one_line(texts: tuple[_Words, ...], width, height, style, setter) -> TextLayout | None:
    """Plain text in one face that fits on one line at full size (a name, a title): set
    directly, exactly as wrapping and placing would set it, without measuring word by word."""
    if len(texts) != 1 or texts[0].paragraph.marker or len(texts[0].paragraph.fragments) != 1 \
            or texts[0].direction:
        return None
    fragment = texts[0].paragraph.fragments[0]
    if fragment.bold or fragment.italic or fragment.icon:
        return None
    measure = _Measure(setter, style, style.size)
    # the words measured one by one add up to the line's width but for rounding: a text
    # clearly wider than the box (a card's rules) is not measured again as a whole
    words = texts[0].words
    if texts[0].total * style.size / PT_PER_MM + measure.space() * (len(words) - 1) > width + 1e-3:
        return None
    used = pt_to_mm(style.size * style.leading)
    if used > height + 1e-6:
        return None
    text = _joined([word[0].text for word in words])
    printable = measure.printable(text)
    found = setter.in_first_face(printable, style.stack, style.weight, style.italic, style.features)
    if found is not None:     # the usual title: its width as unit and text give it, not kept (titles differ)
        face, drawn, content = found[0], printable, pt_to_mm(found[1] * style.size)
    else:
        runs = setter.runs(printable, style.stack, style.weight, style.italic)
        if len(runs) != 1:
            return None
        face, drawn, content = runs[0].face, runs[0].text, measure.text(text, False, False)
    if content > width + 1e-6:
        return None
    top = {"top": 0.0, "middle": (height - used) / 2, "bottom": height - used}[style.valign]
    baseline = top + pt_to_mm(style.size * (style.leading - 1) / 2) + pt_to_mm(style.size * BASELINE)
    x = {"left": 0.0, "center": (width - content) / 2, "right": width - content}[_side(style.align, "ltr")]
    run = GlyphRun(x, baseline, drawn, face.name, style.size, style.color, face.synthetic_italic, style.halo,
                   style.features)
    return TextLayout((run,), style.size, True, 0.0, used, line_tops=(top,))


def _cannot_fit(texts: tuple[_Words, ...], width: float, height: float, size: float, style: SetStyle) -> bool:
    """Whether the words are surely too long for the box at size, known without wrapping them:
    the lines they need at the least (their widths side by side, a box's width a line) are
    taller than the box. (A title too long for one line at a large size is refused so at
    every size of the search above the one where two lines fit.)

    Only for styles that never hyphenate: a dictionary's respelling may drop a letter, and the
    bound must never refuse a size wrapping would take. Whether wrapping would fit is then
    decided exactly as _attempt decides it: every line holds at most width + 1e-6 of the words
    (or one word wider than the box, which does not fit either way)."""
    if style.hyphenate:
        return False
    lines = 0
    for text in texts:
        if text.words:
            lines += max(1, math.ceil((text.total * size / PT_PER_MM - 1e-7) / (width + 1e-6)))
    least = _height_of(lines, [text.paragraph for text in texts], size, style)
    return least - height > 1e-6


def _attempt(texts, width, height, size, style, setter, split_long_words=True):
    lines, too_wide = _wrap(texts, width, size, style, setter, split_long_words)
    used = _height(lines, [text.paragraph for text in texts], size, style)
    overflow = max(used - height, too_wide)
    return overflow <= 1e-6, lines, overflow, used


def _height(lines: list[_Line], paragraphs, size: float, style: SetStyle) -> float:
    return _height_of(len(lines), paragraphs, size, style)


def _height_of(lines: int, paragraphs, size: float, style: SetStyle) -> float:
    line_height = pt_to_mm(size * style.leading)
    gaps = sum(1 for paragraph in paragraphs[1:] if not paragraph.line_break) * pt_to_mm(size * PARAGRAPH_GAP)
    return lines * line_height + gaps if lines else 0.0


def _wrap(texts: tuple[_Words, ...], width, size, style, setter,
          split_long_words=True) -> tuple[list[_Line], float]:
    lines: list[_Line] = []
    too_wide = 0.0
    measure = _Measure(setter, style, size)
    space_width = measure.space()
    indent = 0.0
    for text in texts:
        paragraph = text.paragraph
        if paragraph.marker:
            indent = measure.text(paragraph.marker, False, False) + pt_to_mm(size * MARKER_GAP)
        elif not paragraph.line_break:    # a line break keeps the indent of the list item it continues
            indent = 0.0
        available = width - indent
        line = _Line([], indent, paragraph.marker, first=not paragraph.line_break, face=text.face,
                     direction=text.direction, opens=True)
        used = 0.0
        words, singles, units = text.words, text.singles, text.units
        count, index = len(words), 0
        # a word (or a hyphenated word's tail) moved on to the next line, with its width
        carried: tuple[Word, float] | None = None
        limit = available + 1e-6
        while True:
            if carried is not None:
                (word, word_width), carried = carried, None
            elif index < count:
                # a one-fragment word's width inline: the very float _scaled gives
                word, unit = words[index], singles[index]
                word_width = unit * size / PT_PER_MM if unit is not None else _scaled(units[index], size)
                index += 1
            else:
                break
            if line.words:
                space = space_width if line.words[-1][-1].text[-1:] != ZWSP else 0.0
                if used + space + word_width <= limit:      # the usual case, inline
                    line.words.append(word)
                    line.widths.append(word_width)
                    used += space + word_width
                    continue
            else:
                space = 0.0
                if used + 0.0 + word_width <= limit:
                    line.words.append(word)
                    line.widths.append(word_width)
                    used += 0.0 + word_width
                    continue
            # Hyphenate only a line that would otherwise be left loose, or a word too long for any line.
            too_long = word_width > available
            loose = (used < HYPHENATE_BELOW * available and not too_long) or (too_long and split_long_words)
            head, tail = (_hyphenate(word, available - used - space, measure, style)
                          if loose else (None, None))
            next_face = text.face
            if head is not None and tail is not None and (line.words or tail):   # (a head comes with its tail)
                line.add(head, measure.word(head))
                carried = (tail, measure.word(tail))
                line.face = next_face = None      # a head and a tail: pieces, not the paragraph's words
            elif not line.words:  # alone on a line and still too wide
                line.add(word, word_width)
                too_wide = max(too_wide, word_width - available)
            else:
                carried = (word, word_width)
            lines.append(line)
            line, used = _Line([], indent, face=next_face, direction=text.direction), 0.0
        if line.words:
            lines.append(line)
    return lines, too_wide


def _hyphenate(word: Word, room: float, measure: "_Measure",
               style: SetStyle) -> tuple[Word, Word] | tuple[None, None]:
    """Split a word at the last break point whose head fits in room: (head, tail) or (None, None).

    Break points are the word's own hard hyphens (kept, nothing added) and, if the
    style hyphenates, the dictionary's (a '-' is added, and a respelling the
    dictionary asks for is made here, at the line end, and nowhere else). A word
    glued to its neighbours ("в Минск", "3 ★") breaks only inside one of them.
    """
    if room <= 0:
        return None, None
    text = "".join(f.text for f in word)
    candidates: list[tuple[Break, bool]] = []
    for segment in _segments(text):
        start, end = segment
        candidates += [(Break(index + 1, index + 1), False) for index in range(start + 1, end - 1)
                       if text[index] == "-" and text[index + 1] != "-"]
        if not style.hyphenate:
            continue
        for run in _ALPHA_RUN.finditer(text, start, end):
            letters = run.group()
            if len(letters) < 5:
                continue
            for found in breaks(letters, style.lang):
                if found.start >= 2 and len(letters) - found.end >= 3:
                    candidates.append((Break(run.start() + found.start, run.start() + found.end,
                                             found.head_end, found.tail_start), True))
    for found, add_hyphen in sorted(candidates, key=lambda candidate: candidate[0].start, reverse=True):
        head, tail = _cut_at(word, found)
        if add_hyphen:
            head = head + (Fragment("-", head[-1].bold, head[-1].italic),)
        if measure.word(head) <= room + 1e-6:
            return head, tail
    return None, None


def _segments(text: str) -> list[tuple[int, int]]:
    """The stretches of a glued word between its no-break spaces."""
    result, start = [], 0
    for index, char in enumerate(text):
        if char in NO_BREAK_SPACES:
            result.append((start, index))
            start = index + 1
    result.append((start, len(text)))
    return [(a, b) for a, b in result if b > a]


def _cut_at(word: Word, found: Break) -> tuple[Word, Word]:
    head, _ = _cut(word, found.start)
    _, tail = _cut(word, found.end)
    if found.head_end:
        head = head[:-1] + (head[-1].with_text(head[-1].text + found.head_end),)
    if found.tail_start:
        tail = (tail[0].with_text(found.tail_start + tail[0].text),) + tail[1:]
    return head, tail


def _cut(word: Word, position: int) -> tuple[Word, Word]:
    head: list[Fragment] = []
    tail: list[Fragment] = []
    offset = 0
    for fragment in word:
        end = offset + len(fragment.text)
        if end <= position:
            head.append(fragment)
        elif offset >= position:
            tail.append(fragment)
        else:
            cut = position - offset
            head.append(fragment.with_text(fragment.text[:cut]))
            tail.append(fragment.with_text(fragment.text[cut:]))
        offset = end
    return tuple(head), tuple(tail)


class _Measure:
    """Widths in mm at one size, with the style's weight made bolder by **bold**.

    A text's width at 1 pt is looked up in the setter's table for its face (stack, weight,
    slant), measured the first time any text of any size asks: a deck's words are measured
    once each, not once per card and trial size."""

    def __init__(self, setter: TextSetter, style: SetStyle, size: float):
        self.setter, self.style, self.size = setter, style, size
        self._tables: dict[tuple[bool, bool], dict[str, float]] = {}
        self._space: float | None = None
        self._faces: dict | None = None
        self._space_faces: dict | None = None
        self._icon_em: float | None = None

    def weight(self, bold: bool) -> str:
        if not bold:
            return self.style.weight
        return "black" if self.style.weight != "regular" else "bold"

    def printable(self, text: str) -> str:
        """The text as drawn: a glue space as a space, a narrow one in the first form the fonts have."""
        if GLUE in text:
            text = text.replace(GLUE, " ")
        if NARROW_GLUE in text:
            narrow = next((char for char in (NARROW_GLUE, "\u2009") if self.setter.covers(char, self.style.stack)),
                          " ")
            text = text.replace(NARROW_GLUE, narrow)
        return text

    def _table(self, bold: bool, italic: bool) -> dict[str, float]:
        """The setter's widths at 1 pt for the style's face made bolder or slanted so."""
        table = self._tables.get((bold, italic))
        if table is None:
            table = self._tables[(bold, italic)] = self.setter.unit_table(
                self.style.stack, self.weight(bold), italic or self.style.italic, self.style.features)
        return table

    def unit(self, text: str, bold: bool, italic: bool) -> float:
        """The text's width in points at 1 pt."""
        table = self._table(bold, italic)
        unit = table.get(text)
        if unit is None:
            unit = table[text] = self.setter.width_pt(self.printable(text), self.style.stack, self.weight(bold),
                                                      italic or self.style.italic, 1.0, self.style.features)
        return unit

    def plain_words(self, paragraph: Paragraph) -> _Words:
        """A plain one-fragment paragraph's words and their widths at 1 pt, as paragraph_words and unit give
        them (each word looked up once per face: a deck's texts are made of the same few thousand words)."""
        fragment = paragraph.fragments[0]
        known = self.setter.word_table(self.style.stack, self.style.weight, self.style.italic, self.style.features)
        entries = [known.get(part) or self._plain_word(known, fragment, part)
                   for part in fragment.text.split(" ") if part]
        if not entries:
            return _Words(paragraph, (), (), (), 0)
        words, units, singles, faces = zip(*entries, strict=True)
        # (count compares by identity first: the faces are the library's own objects, never hashed here)
        face = faces[0] if faces.count(faces[0]) == len(faces) else None
        return _Words(paragraph, words, units, singles, sum(singles), face)

    def _plain_word(self, known: dict, fragment: Fragment, part: str) -> tuple:
        """A word met the first time in this face: its one fragment, its width at 1 pt (as units and
        alone) and the one face it is drawn in (plain_face), each noted where unit and plain_face keep them."""
        style = self.style
        printable = self.printable(part)
        found = self.setter.in_first_face(printable, style.stack, style.weight, style.italic, style.features)
        if found is not None:     # the usual word: all of it in the stack's first face
            face, unit = found         # (the width as width_pt gives it)
            self._table(False, False)[part] = unit
            self.plain_faces()[part] = face
        else:
            unit, face = self.unit(part, False, False), self.plain_face(part)
        piece = word_piece(part, fragment.bold, fragment.italic, fragment.icon)
        entry = known[part] = ((piece,), (unit,), unit, face)
        return entry

    def space_as_measured(self, face) -> bool:
        """Whether a space drawn in face is as wide as the layout measures it (see _space_as_measured)."""
        if self._space_faces is None:
            self._space_faces = {}
        known = self._space_faces.get(face.name)
        if known is None:
            known = self._space_faces[face.name] = \
                abs(pt_to_mm(font_width(face.name, " ", self.style.features) * self.size) - self.space()) < 1e-6
        return known

    def plain_faces(self) -> dict:
        """plain_face's answers so far, by text."""
        if self._faces is None:
            self._faces = self.setter.face_table(self.style.stack, self.style.weight, self.style.italic)
        return self._faces

    def plain_face(self, text: str):
        """The one face a text without markup is drawn in, every character of it, or None."""
        if self._faces is None:
            self._faces = self.setter.face_table(self.style.stack, self.style.weight, self.style.italic)
        if text in self._faces:
            return self._faces[text]
        printable = self.printable(text)
        runs = self.setter.runs(printable, self.style.stack, self.style.weight, self.style.italic)
        face = self._faces[text] = runs[0].face if len(runs) == 1 and runs[0].text == printable else None
        return face

    def text(self, text: str, bold: bool, italic: bool) -> float:
        return pt_to_mm(self.unit(text, bold, italic) * self.size)     # as width_pt at this size: the same float

    def fragment(self, fragment: Fragment) -> float:
        if fragment.icon:
            return self.icon()
        return self.text(fragment.text, fragment.bold, fragment.italic)

    @property
    def icon_em(self) -> float:
        """An inline icon's side in ems: ICON_CAPS times the capitals of the style's first family."""
        if self._icon_em is None:
            self._icon_em = ICON_CAPS * self.setter.cap_height(self.style.stack)
        return self._icon_em

    def icon(self) -> float:
        return pt_to_mm(self.icon_em * self.size)

    def icon_top(self, baseline: float) -> float:
        """Where an icon's square starts (mm) on a line of that baseline: centred on the capitals' middle."""
        capitals = pt_to_mm(self.setter.cap_height(self.style.stack) * self.size)
        return baseline - capitals / 2 - self.icon() / 2

    def word(self, word: Word) -> float:
        if len(word) == 1:
            return self.fragment(word[0])
        first = word[0]
        if not first.icon and all(not f.icon and f.bold == first.bold and f.italic == first.italic for f in word):
            # one style end to end (a hyphenated head and its '-'): drawn as one string, measured so
            return self.text("".join(f.text for f in word), first.bold, first.italic)
        return sum(self.fragment(f) for f in word)

    def space(self) -> float:
        if self._space is None:
            self._space = self.text(" ", False, False)
        return self._space


def _place(attempt, width, height, size, style, setter) -> TextLayout:
    fits, lines, overflow, used = attempt
    measure = _Measure(setter, style, size)
    line_height = pt_to_mm(size * style.leading)
    gap = pt_to_mm(size * PARAGRAPH_GAP)
    top = {"top": 0.0, "middle": (height - used) / 2, "bottom": height - used}[style.valign]
    runs: list[GlyphRun] = []
    icons: list[InlineIcon] = []
    readings: list[tuple[float, str]] = []
    files = dict(style.icons)
    tops: list[float] = []
    y = top
    # the same for every line (each term as it always was: the sums, and so the floats, unchanged)
    half_leading, ascent = pt_to_mm(size * (style.leading - 1) / 2), pt_to_mm(size * BASELINE)
    space_width, align = measure.space(), style.align
    plain_lines = _PlainLines(measure, style)
    paragraph_levels: list[tuple[int, ...]] = []     # the levels of the lines of a bidi paragraph, from its first
    for index, line in enumerate(lines):
        if index and line.first:
            y += gap
        tops.append(y)
        baseline = y + half_leading + ascent
        if line.direction:
            if line.opens or not paragraph_levels:
                paragraph_levels = _paragraph_levels(lines, index, measure)
            levels = paragraph_levels.pop(0)
            runs.extend(_bidi_line(line, levels, width, baseline, measure, style, setter, icons, files, readings))
            y += line_height
            continue
        content = sum(line.widths) + space_width * _spaces(line.words)
        available = width - line.indent
        placement = _side(align, "ltr")
        if placement == "left":
            shift = 0.0
        elif placement == "center":
            shift = (available - content) / 2
        else:
            shift = available - content
        x = line.indent + shift
        if line.marker:
            runs.extend(_runs(line.marker, False, False, x - line.indent, baseline, measure, style, setter))
        plain = plain_lines.run(line, x, baseline)
        if plain is not None:
            runs.append(plain)
            y += line_height
            continue
        line_runs: list[GlyphRun] = []
        joinable = False     # the next run may extend the last one (nothing drawn between them)
        for number, word in enumerate(line.words):
            space = " " if number and _spaced(line.words[number - 1]) else ""
            if space:
                x += measure.space()
            for fragment in word:
                if fragment.icon:
                    side = measure.icon()
                    icons.append(InlineIcon(fragment.icon, x, measure.icon_top(baseline), side,
                                            files.get(fragment.icon)))
                    x += side
                    joinable = False
                    continue
                placed = _runs(fragment.text, fragment.bold, fragment.italic, x, baseline, measure, style, setter)
                if placed and joinable and _continues(line_runs[-1], placed[0]) and \
                        _space_as_measured(space, line_runs[-1], measure):
                    # one string per stretch of a face: fewer, longer text operators in the PDF
                    line_runs[-1] = replace(line_runs[-1], text=line_runs[-1].text + space + placed[0].text)
                    placed = placed[1:]
                elif placed and space:
                    # a word starting in another face: its space goes into its string, so the
                    # PDF's text reads "cell of", not "cellof" (the letters stay where they were)
                    first = placed[0]
                    placed[0] = replace(first, x=first.x - pt_to_mm(font_width(first.font, " ", first.features)
                                                                    * first.size),
                                        text=" " + first.text)
                line_runs.extend(placed)
                joinable = joinable or bool(placed)
                space = ""
                x += measure.fragment(fragment)
        runs.extend(line_runs)
        y += line_height
    return TextLayout(tuple(runs), size, fits, max(0.0, overflow), used, tuple(icons), tuple(tops), tuple(readings))


class _PlainLines:
    """Lines of plain words in one face, each as the one run word-by-word placing would join it
    into: what every line of a text shares (the space's face, the faces known by word) looked up
    once per text, as this runs for every line of every text."""

    __slots__ = ("face", "known", "measure", "style", "space_ok")

    def __init__(self, measure: _Measure, style: SetStyle):
        self.measure, self.style = measure, style
        self.face = measure.plain_face(" ")
        self.known = measure.plain_faces()
        self.space_ok: bool | None = None     # whether the face's space is as wide as measured, once asked

    def run(self, line: _Line, x: float, baseline: float) -> GlyphRun | None:
        """The line as one run, or None for a line that needs word-by-word placing (bold, italic,
        icons, a fallback face, a space of another width)."""
        face = self.face
        if face is None:
            return None
        measure = self.measure
        if line.face is face:      # the paragraph's own plain words, every one in this face
            texts = [word[0].text for word in line.words]
        else:
            checked = self._checked(line)
            if checked is None:
                return None
            texts = checked
        if len(texts) > 1:
            if self.space_ok is None:
                self.space_ok = measure.space_as_measured(face)
            if not self.space_ok:
                return None
        joined = _joined(texts)
        if GLUE in joined or NARROW_GLUE in joined:
            joined = measure.printable(joined)
        style = self.style
        return GlyphRun(x, baseline, joined, face.name, measure.size, style.color, face.synthetic_italic, style.halo,
                        style.features)

    def _checked(self, line: _Line) -> list[str] | None:
        """The texts of a line's words, each checked to be plain and in the space's face (None if one is not)."""
        face, known, measure = self.face, self.known, self.measure
        texts = []
        for word in line.words:
            if len(word) == 1:
                fragment = word[0]
                if fragment.bold or fragment.italic or fragment.icon:
                    return None
                text = fragment.text
            else:       # a hyphenated word's head and its '-': joined end to end, as placing joins them
                for fragment in word:
                    if fragment.bold or fragment.italic or fragment.icon:
                        return None
                text = "".join(fragment.text for fragment in word)
            found = known.get(text, _UNKNOWN)
            if found is _UNKNOWN:
                found = measure.plain_face(text)
            if found is not face:
                return None
            texts.append(text)
        return texts


def _space_as_measured(space: str, run: GlyphRun, measure: "_Measure") -> bool:
    """Whether a space drawn in run's face is as wide as the layout measured it. A bold or
    fallback face's space is wider or narrower than the style's: joined into one string, every
    such space would shift the words after it (bold phrases ran into the next word)."""
    return not space or abs(pt_to_mm(font_width(run.font, " ", run.features) * run.size) - measure.space()) < 1e-6


def _side(align: str, direction: str) -> str:
    """Where a line goes in its box: left, center or right (start and end by the paragraph's direction)."""
    if align in ("left", "center", "right"):
        return align
    if align == "start":
        return "right" if direction == "rtl" else "left"
    if align == "end":
        return "left" if direction == "rtl" else "right"
    raise KeyError(align)


class _Piece(NamedTuple):
    """A stretch of a line at one embedding level: text in one face (or an icon, or a space)."""

    level: int
    text: str            # logical order ("" for an icon)
    face: Any            # the FontFace (None for an icon)
    icon: str = ""
    width: float = 0.0   # mm


OBJECT = "\ufffc"      # an icon in the text the bidi algorithm reads (a neutral, as U+FFFC is)


def _line_items(line: _Line, measure: _Measure) -> list[tuple[str, bool, bool, str]]:
    """A bidi line's (text, bold, italic, icon) in logical order: its words' fragments and spaces."""
    items: list[tuple[str, bool, bool, str]] = []
    for number, word in enumerate(line.words):
        if number and _spaced(line.words[number - 1]):
            items.append((" ", False, False, ""))
        for fragment in word:
            items.append(("", False, False, fragment.icon) if fragment.icon else
                         (measure.printable(fragment.text), fragment.bold, fragment.italic, ""))
    return items


def _items_text(items: list[tuple[str, bool, bool, str]]) -> str:
    """What the bidi algorithm reads of a line (an icon as U+FFFC)."""
    return "".join(OBJECT if icon else chars for chars, _, _, icon in items)


def _paragraph_levels(lines: list[_Line], start: int, measure: _Measure) -> list[tuple[int, ...]]:
    """The levels of each line of the paragraph whose first line is lines[start] (UAX #9: the levels
    are resolved once for the whole paragraph, X1-I2, then each line takes its slice and rule L1)."""
    direction: Direction = "rtl" if lines[start].direction == "rtl" else "ltr"
    end = start + 1
    while end < len(lines) and not lines[end].opens:
        end += 1
    texts = [_items_text(_line_items(line, measure)) for line in lines[start:end]]
    # the lines' texts as the paragraph runs on: a space where a line broke at one (none after a U+200B)
    joins = ["" if not line.words or not _spaced(line.words[-1]) else " " for line in lines[start:end - 1]]
    whole = "".join(text + join for text, join in zip(texts, joins + [""], strict=True))
    levels = embedding_levels(whole, direction)
    sliced, offset = [], 0
    for text, join in zip(texts, joins + [""], strict=True):
        sliced.append(line_levels(text, levels[offset:offset + len(text)], direction))
        offset += len(text) + len(join)
    return sliced


def _bidi_line(line: _Line, levels: tuple[int, ...], width: float, baseline: float, measure: _Measure,
               style: SetStyle, setter: TextSetter, icons: list[InlineIcon], files: dict,
               readings: list[tuple[float, str]]) -> list[GlyphRun]:
    """A line of a paragraph the bidi algorithm orders: its stretches at each embedding level (UAX #9,
    generator/text/bidi.py; `levels`, the line's slice of its paragraph's, `_paragraph_levels`) shaped
    in their direction (HarfBuzz mirrors brackets right to left) and placed left to right in visual
    order; numbers, Latin names, icons and the words' spaces where the algorithm puts them. The line
    keeps its logical words (breaking was done in logical order); a right-to-left line with anything
    set right to left ("+0" too: drawn "0+") notes its logical text in `readings` (an icon read as a space)."""
    direction: Direction = "rtl" if line.direction == "rtl" else "ltr"
    items = _line_items(line, measure)
    pieces: list[_Piece] = []
    offset = 0
    for chars, bold, italic, icon in items:
        if icon:
            pieces.append(_Piece(levels[offset], "", None, icon, measure.icon()))
            offset += 1
            continue
        for level, stretch in _level_stretches(chars, levels[offset:offset + len(chars)]):
            for run in setter.runs(stretch, style.stack, measure.weight(bold), italic or style.italic):
                pieces.append(_Piece(level, run.text, run.face))
        offset += len(chars)
    pieces = [piece if piece.icon else piece._replace(width=pt_to_mm(
        font_width(piece.face.name, piece.text, style.features, piece.level % 2 == 1) * measure.size))
        for piece in pieces]
    if direction == "rtl" and any(piece.level % 2 for piece in pieces):
        logical = _items_text(items).replace(OBJECT, " ")
        readings.append((baseline, f"{measure.printable(line.marker)} {logical}" if line.marker else logical))
    ordered = [pieces[index] for index in visual_order([piece.level for piece in pieces])]
    content = sum(piece.width for piece in ordered)
    marker_width = measure.text(line.marker, False, False) if line.marker else 0.0
    # the indent of a list item is on the side its lines start from
    left, right = (0.0, width - line.indent) if direction == "rtl" else (line.indent, width)
    side = _side(style.align, direction)
    x = {"left": left, "center": left + (right - left - content) / 2, "right": right - content}[side]
    runs: list[GlyphRun] = []
    if line.marker:
        marker_x = width - marker_width if direction == "rtl" else 0.0
        runs.extend(_runs(line.marker, False, False, marker_x, baseline, measure, style, setter))
    markers = len(runs)
    for piece in ordered:
        if piece.icon:
            side_mm = piece.width
            icons.append(InlineIcon(piece.icon, x, measure.icon_top(baseline), side_mm, files.get(piece.icon)))
            x += side_mm
            continue
        rtl = piece.level % 2 == 1
        face = piece.face
        previous = runs[-1] if len(runs) > markers else None
        if previous is not None and previous.rtl == rtl and previous.font == face.name and \
                abs(previous.x + run_width(previous) - x) < 1e-6:
            # one string per stretch of a face and direction: the words of a right-to-left stretch
            # in logical order (the one on the right first)
            joined = piece.text + previous.text if rtl else previous.text + piece.text
            runs[-1] = replace(previous, text=joined)
        else:
            runs.append(GlyphRun(x, baseline, piece.text, face.name, measure.size, style.color,
                                 face.synthetic_italic, style.halo, style.features, rtl))
        x += piece.width
    return runs


def _level_stretches(text: str, levels: tuple[int, ...]) -> list[tuple[int, str]]:
    """The text cut where its characters' levels change."""
    stretches: list[tuple[int, str]] = []
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or levels[index] != levels[start]:
            stretches.append((levels[start], text[start:index]))
            start = index
    return stretches


def _spaced(word: Word) -> bool:
    """Whether a space follows the word in its line (not after a word ending in U+200B)."""
    return word[-1].text[-1:] != ZWSP


def _spaces(words: list[Word] | tuple[Word, ...]) -> int:
    """How many spaces a line of the words holds between them."""
    return sum(1 for word in words[:-1] if word[-1].text[-1:] != ZWSP)


def _joined(texts: list[str]) -> str:
    """Words' texts as one line's string: a space between two, none after a U+200B (which is dropped)."""
    joined = " ".join(texts)
    if ZWSP in joined:
        joined = joined.replace(ZWSP + " ", "").replace(ZWSP, "")
    return joined


def _continues(previous: GlyphRun, following: GlyphRun) -> bool:
    return (previous.font, previous.size, previous.color, previous.slant, previous.halo) == \
        (following.font, following.size, following.color, following.slant, following.halo)


def _runs(text, bold, italic, x, baseline, measure: _Measure, style: SetStyle, setter: TextSetter):
    weight = measure.weight(bold)
    slanted = italic or style.italic
    placed = []
    for run in setter.runs(measure.printable(text), style.stack, weight, slanted):
        placed.append(GlyphRun(x, baseline, run.text, run.face.name, measure.size, style.color,
                               run.face.synthetic_italic, style.halo, style.features))
        x += pt_to_mm(font_width(run.face.name, run.text, style.features) * measure.size)
    return placed


def font_width(font: str, text: str, features: tuple[str, ...] = (), rtl: bool = False) -> float:
    """A text's width at 1 pt in the face registered as `font`, shaped as it is drawn."""
    return _run_width(font, text, features, rtl)


# a placed run's width, asked again for each run a rulebook line or a bidi line joins (line_extent,
# _bidi_line): one look-up, not its pieces shaped and summed again (the latest 16,384)
@cached("text.run_widths", maxsize=16384, reads_files=True)
def _run_width(font: str, text: str, features: tuple[str, ...], rtl: bool) -> float:
    return sum(piece.width for piece in run_pieces(_font_file(font), text, features, "rtl" if rtl else "ltr"))


# the file of each face registered with ReportLab, by its name (the name carries the file's digest)
@cached("text.font_files", maxsize=256)
def _font_file(font: str) -> Path:
    return Path(getFont(font).face.filename)


def run_width(run: GlyphRun) -> float:
    """A placed run's width in mm, as it is drawn."""
    return pt_to_mm(font_width(run.font, run.text, run.features, run.rtl) * run.size)


def run_words(run: GlyphRun) -> list[tuple[str, float, float]]:
    """A placed run's words as drawn: each word, its left edge from the run's start and its width (mm); a
    right-to-left run's words from its right end, as it is drawn mirrored."""
    pieces = run_pieces(_font_file(run.font), run.text, run.features, "rtl" if run.rtl else "ltr")
    widths = [pt_to_mm(piece.width * run.size) for piece in pieces]
    total, at, words = sum(widths), 0.0, []
    for piece, width in zip(pieces, widths, strict=True):
        if piece.text.strip():
            words.append((piece.text.strip(), total - at - width if run.rtl else at, width))
        at += width
    return words
