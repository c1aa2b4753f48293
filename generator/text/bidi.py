"""The Unicode bidirectional algorithm (UAX #9) for the text stage: directions and embedding levels.

Takes a paragraph's logical text and gives what the layout needs to set right-to-left text: the
direction a language is written in, a paragraph's direction (rule P2-P3: its first strong character,
else its language's), the resolved embedding level of every character (rules X1-I2) and the visual
order of a line's runs or characters (rule L2). Breaking into lines stays in logical order; each line
is reordered after it is broken.

The levels come from python-bidi's Rust core (the unicode-bidi crate, kept by the Servo project, which
implements the current UAX #9 — isolates, bracket pairs — and passes the Unicode conformance tests).
python-bidi's pure-Python `bidi.algorithm` is its old implementation kept for compatibility: it
predates isolates (LRI, RLI, FSI, PDI) and bracket pairs (N0), which placeholders and icons inside
right-to-left text need. The Rust core hands its levels out only in its debug description
(`get_display(text, debug=True)`), one per UTF-8 byte; `embedding_levels` reads them from there and
checks their count, so a change of that description fails loudly rather than setting text wrongly.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from bidi import get_display  # type: ignore[import-untyped]  # python-bidi ships no type information

from generator.caches import cached

Direction = Literal["ltr", "rtl"]

# Languages written right to left (ISO 639; 'iw' and 'ji' are Hebrew's and Yiddish's withdrawn codes)
RTL_LANGUAGES = frozenset({"ar", "fa", "he", "iw", "ur", "ps", "sd", "ug", "yi", "ji", "dv", "ckb"})
# Scripts (ISO 15924) written right to left, for a subtag such as 'az-Arab' or 'pa-Arab'
RTL_SCRIPTS = frozenset({"arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg", "samr", "mand", "yezi"})

_STRONG_RTL = frozenset({"R", "AL"})
_ISOLATE_OPEN = frozenset({"LRI", "RLI", "FSI"})
# The blocks holding every character whose bidi class (R, AL, AN, or an explicit embedding, override
# or isolate) can lift a left-to-right paragraph off level 0: Hebrew to Arabic Extended, RLM, the
# embeddings and isolates, the presentation forms, and the right-to-left ranges of planes 1
# (checked against every code point of Python's Unicode 14.0 by tests/text/test_bidi.py)
_RTL_BLOCKS = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff"
_MAYBE_RTL = re.compile(f"[{_RTL_BLOCKS}\u200f\u202a-\u202e\u2066-\u2069]")
# of those, the characters that can make a line anything but left to right (R, AL, AN, RLM and the
# right-to-left embeddings, overrides and isolates): the left-to-right ones only lift it to an even level
_TURNS_RIGHT_TO_LEFT = re.compile(f"[{_RTL_BLOCKS}\u200f\u202b\u202e\u2067\u2068]")


def may_turn_right_to_left(text: str) -> bool:
    """Whether a character of the text can set any of it right to left (a text without one, in a
    left-to-right language, is set left to right without asking the bidi algorithm)."""
    return _TURNS_RIGHT_TO_LEFT.search(text) is not None


def language_direction(lang: str) -> Direction:
    """The direction a language is written in: 'rtl' for Arabic, Hebrew, Persian, Urdu … ('ar-EG',
    'fa_IR' and a script subtag, 'az-Arab', too), 'ltr' for every other."""
    parts = lang.replace("_", "-").lower().split("-")
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():     # a script subtag decides: 'sd-Deva' is ltr
            return "rtl" if part in RTL_SCRIPTS else "ltr"
    return "rtl" if parts[0] in RTL_LANGUAGES else "ltr"


def paragraph_direction(text: str, lang: str) -> Direction:
    """A paragraph's direction: its language's wherever it holds a strong letter of that direction,
    otherwise its first strong letter's (UAX #9 P2-P3), skipping what isolates enclose; a paragraph
    without one (numbers, icons, punctuation) takes its language's.

    The language's first (UAX #9 HL1, as a document's direction sets its paragraphs' in word processors
    and in a page of dir="rtl"): a Hebrew sentence that starts with a Latin name ("Catan היא משחק") is a
    Hebrew sentence, set right to left — P2 alone made it a left-to-right line with the name on the
    left; a paragraph with no letter of its language's direction (an English quote in a Hebrew book)
    still takes its own."""
    own = language_direction(lang)
    first: Direction | None = None
    depth = 0
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in _ISOLATE_OPEN:
            depth += 1
        elif kind == "PDI":
            depth = max(depth - 1, 0)
        elif depth == 0:
            strong: Direction | None = "ltr" if kind == "L" else "rtl" if kind in _STRONG_RTL else None
            if strong == own:
                return own
            if first is None:
                first = strong
    return first or own


# a deck's texts are laid out several times (sizes tried, the deck's common size): their levels once
@cached("text.bidi_levels", maxsize=8192)
def embedding_levels(text: str, direction: Direction) -> tuple[int, ...]:
    """The resolved embedding level of each character of one paragraph (UAX #9 X1-I2; even is left to
    right, odd right to left), in a paragraph of the given direction. Rule L1 (trailing white space
    back at the paragraph's level) belongs to a line: `line_levels`."""
    base = 1 if direction == "rtl" else 0
    if not text:
        return ()
    if base == 0 and (text.isascii() or _MAYBE_RTL.search(text) is None):
        return (0,) * len(text)     # the usual text of a left-to-right game: no call, no parsing
    described = get_display(text, base_dir="R" if base else "L", debug=True)
    assert isinstance(described, str)
    per_byte = _described_levels(described)
    encoded = [len(char.encode("utf-8")) for char in text]
    if len(per_byte) != sum(encoded):
        raise RuntimeError(f"python-bidi described {len(per_byte)} levels for {sum(encoded)} bytes of text: "
                           "its debug description changed (generator/text/bidi.py reads it)")
    levels, offset = [], 0
    for size in encoded:
        levels.append(per_byte[offset])
        offset += size
    return tuple(levels)


_LEVELS_FIELD = "\n    levels: ["


def _described_levels(described: str) -> list[int]:
    """The levels in python-bidi's debug description of a BidiInfo: its field `levels: [Level(\\n 0,\\n ),
    …]` (the text's own line comes first, its newlines escaped, so the first '\\n    levels: [' at that
    indent is the field; its words are 'Level(', the number and its comma, '),')."""
    start = described.find(_LEVELS_FIELD)
    if start < 0:
        return [-1]
    start += len(_LEVELS_FIELD)
    if described.startswith("],", start):
        return []
    words = described[start:described.find("\n    ]", start)].split()
    if words[0::3] != ["Level("] * len(words[0::3]):
        return [-1]
    return [int(word.rstrip(",")) for word in words[1::3]]


def line_levels(line: str, levels: tuple[int, ...], direction: Direction) -> tuple[int, ...]:
    """One line's levels after rule L1: white space (and isolate/format marks) at its end, and before a
    tab, back at the paragraph's level. `levels` are the line's characters' from `embedding_levels`."""
    base = 1 if direction == "rtl" else 0
    result = list(levels)
    trailing = True
    for index in range(len(line) - 1, -1, -1):
        kind = unicodedata.bidirectional(line[index])
        if kind in ("S", "B"):
            result[index] = base
            trailing = True
        elif trailing and kind in ("WS", "FSI", "LRI", "RLI", "PDI", "BN", "LRE", "RLE", "LRO", "RLO", "PDF"):
            result[index] = base
        else:
            trailing = False
    return tuple(result)


def visual_order(levels: tuple[int, ...] | list[int]) -> list[int]:
    """The indices of a line's runs (or characters) in visual order, left to right, from their levels
    (UAX #9 L2: from the highest level down to the lowest odd one, every stretch at that level or
    above reversed)."""
    order = list(range(len(levels)))
    if not levels:
        return order
    highest = max(levels)
    lowest_odd = min(level for level in levels if level % 2) if any(level % 2 for level in levels) else highest + 1
    for level in range(highest, lowest_odd - 1, -1):
        index = 0
        while index < len(order):
            if levels[order[index]] >= level:
                end = index
                while end < len(order) and levels[order[end]] >= level:
                    end += 1
                order[index:end] = order[index:end][::-1]
                index = end
            else:
                index += 1
    return order
