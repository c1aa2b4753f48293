"""Split text into runs by the first font of a stack that has each character, and measure them.

ReportLab has no fallback: a glyph missing from a Noto font draws nothing and a
missing glyph in DejaVu draws a box, without a warning. So coverage is checked
here, per character, against each family's cmap. A width is the text shaped by
HarfBuzz in its face (text/shaping.py): kerning, ligatures and marks as drawn.
Layout characters (U+200B, U+200C, U+200D …) stay in the run of the character
before them: HarfBuzz needs them to shape their neighbours, and draws none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from generator.caches import Cached, cached
from generator.text.fonts import CAP_HEIGHT, FontFace, FontLibrary
from generator.text.shaping import BIDI_FORMAT, shaped_width
from generator.text.words import glue_paragraphs, word_piece

# Characters that are layout instructions, never drawn (the bidi marks, embeddings and isolates
# steer the bidi algorithm: no font needs them).
INVISIBLE = frozenset({"\u00ad", "\u200b", "\u200c", "\u200d", "\ufeff"}) | BIDI_FORMAT
# "nothing missing", shared: every frozenset() is a new 216-byte object, and the caches below
# keep one answer per text (tens of thousands in a large deck)
_NOTHING: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    face: FontFace


@dataclass
class TextSetter:
    """Per-glyph font fallback over a library; remembers characters no font has."""

    library: FontLibrary
    missing: set[str] = field(default_factory=set)
    layouts: dict[Any, Any] = field(default_factory=dict)   # fit_text results by (text, box, style)
    # widths at 1 pt by face (stack, weight, italic), then by text as written (before glue spaces
    # are made printable): a width scales with the size, and fitting measures the same words at
    # every trial size
    unit_tables: dict[tuple, dict[str, float]] = field(default_factory=dict)
    face_tables: dict[tuple, dict[str, Any]] = field(default_factory=dict)
    word_tables: dict[tuple, dict[str, Any]] = field(default_factory=dict)

    def cap_height(self, stack: tuple[str, ...]) -> float:
        """The capitals' height (ems) of the stack's first family: inline icons are sized from it (layout.py)."""
        return self.library.cap_height(stack[0]) if stack else CAP_HEIGHT

    def runs(self, text: str, stack: tuple[str, ...], weight: str, italic: bool) -> tuple[Run, ...]:
        runs, missing = _split(self.library, text, stack, weight, italic)
        self.missing.update(missing)
        return runs

    def in_first_face(self, text: str, stack: tuple[str, ...], weight: str,
                      italic: bool, features: tuple[str, ...] = ()) -> tuple[FontFace, float] | None:
        """The stack's first face and the text's shaped width in it at 1 pt, when that face has every
        character of the text (the text is then one run in it); else None."""
        face = _one_face(self.library, text, stack, weight, italic)
        return None if face is None else (face, shaped_width(face, text, features))

    def width_pt(self, text: str, stack: tuple[str, ...], weight: str, italic: bool,
                 size: float, features: tuple[str, ...] = ()) -> float:
        """The text's shaped width at size, each run in its face (as drawn)."""
        # measured once per text and face by the layout, which keeps the answer (unit_tables)
        found = self.in_first_face(text, stack, weight, italic, features)
        if found is not None:      # the usual word: the very float the sum over its one run gives
            return found[1] * size
        return sum(shaped_width(run.face, run.text, features)
                   for run in self.runs(text, stack, weight, italic)) * size

    def unit_table(self, stack: tuple[str, ...], weight: str, italic: bool,
                   features: tuple[str, ...] = ()) -> dict[str, float]:
        """The widths at 1 pt of texts in one face of a stack, by text as written (layout fills it)."""
        return _table(self.unit_tables, (stack, weight, italic, features))

    def face_table(self, stack: tuple[str, ...], weight: str, italic: bool) -> dict[str, Any]:
        """For texts in one face of a stack: the one face each is drawn in end to end, or None (layout fills it)."""
        return _table(self.face_tables, (stack, weight, italic))

    def word_table(self, stack: tuple[str, ...], weight: str, italic: bool,
                   features: tuple[str, ...] = ()) -> dict[str, Any]:
        """For plain words in one face of a stack: each word's fragments and widths at 1 pt (layout fills it)."""
        return _table(self.word_tables, (stack, weight, italic, features))

    def covers(self, char: str, stack: tuple[str, ...]) -> bool:
        return any(ord(char) in self.library.cmap(family) for family in stack)

    def uncovered(self, text: str, stack: tuple[str, ...]) -> frozenset[str]:
        """Characters of text that no font of the stack has (layout characters aside)."""
        return _uncovered(self.library, text, stack)


# one answer per distinct text (text boxes check each text once): kept for the few asked again
@cached("text.uncovered_characters", maxsize=4096)
def _uncovered(library: FontLibrary, text: str, stack: tuple[str, ...]) -> frozenset[str]:
    # the usual text: every character in the first family (asked of the string itself: no set of it built)
    if stack and library.has_all(stack[0], text):
        return _NOTHING
    remaining = set(text)
    remaining -= INVISIBLE
    remaining.discard("\n")
    for family in stack:
        if not remaining:
            break
        remaining -= library.characters(family)
    return frozenset(remaining) if remaining else _NOTHING


# the runs of a text asked for again (a word measured, then placed): the latest few thousand; the
# widths and faces layout needs are kept by face in the setter's tables
@cached("text.font_runs", maxsize=8192)
def _split(library: FontLibrary, text: str, stack: tuple[str, ...], weight: str,
           italic: bool) -> tuple[tuple[Run, ...], frozenset[str]]:
    face = _one_face(library, text, stack, weight, italic)
    if face is not None:
        return (Run(text, face),), _NOTHING   # the usual case
    families = [library.characters(family) for family in stack]
    missing: set[str] = set()

    previous = 0

    def first_family(char: str) -> int:
        """The first family of the stack that has the character (the first, drawing nothing, if none has);
        a layout character goes with the one before it (it shapes its neighbours, and is drawn by none)."""
        nonlocal previous
        if char in INVISIBLE:
            return previous
        index = next((i for i, present in enumerate(families) if char in present), None)
        if index is None:
            missing.add(char)
        previous = index or 0
        return previous
    runs = tuple(Run("".join(chars), library.face(stack[index], weight, italic))
                 for index, chars in groupby(text, key=first_family))
    return runs, frozenset(missing) if missing else _NOTHING


def _table(tables: dict[Any, dict[str, Any]], key: tuple) -> dict[str, Any]:
    """The table of one face (stack, weight, italic) among a setter's tables, made empty the first time."""
    table = tables.get(key)
    if table is None:
        table = tables[key] = {}
    return table


def _one_face(library: FontLibrary, text: str, stack: tuple[str, ...], weight: str, italic: bool) -> FontFace | None:
    """The stack's first face when it has every character of text (layout characters aside): the
    whole text is one run in it. None: split the text by characters."""
    if not text:
        return None
    if library.has_all(stack[0], text):      # the usual word (asked of the string: no set of it built)
        return library.face(stack[0], weight, italic)
    characters = set(text)
    present = library.characters(stack[0])
    if characters & INVISIBLE and characters - INVISIBLE <= present and characters - INVISIBLE:
        return library.face(stack[0], weight, italic)
    return None


# What only laying out asks for, one entry a text: emptied once every face is laid out.
PER_TEXT_TABLES: tuple[Cached[..., Any], ...] = (_split, _uncovered, glue_paragraphs, word_piece)


def forget_text_runs() -> None:
    """Empty the active caches' per-text tables (font runs, coverage, glued paragraphs, word pieces)
    once every face is laid out: what only layout needs, released before the files are drawn."""
    for function in PER_TEXT_TABLES:
        function.forget()
