"""Where a word may be hyphenated (pyphen's dictionaries), as break positions that leave the word alone.

A break is only a possibility: the word is printed as written unless a line
really ends there. Some dictionaries respell a word at a break (Hungarian
"klasszikus" → "klasz-/szikus"); that respelling is part of the break and
applies only at a line end. Georgian and other languages pyphen lacks: none.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pyphen


@dataclass(frozen=True, slots=True)
class Break:
    """A hyphenation point of a word: the line ends with word[:start] + head_end + '-',
    the next starts with tail_start + word[end:] (start == end and no respelling for most)."""

    start: int
    end: int
    head_end: str = ""
    tail_start: str = ""


@lru_cache(maxsize=None)
def dictionary(lang: str) -> pyphen.Pyphen | None:
    found = pyphen.language_fallback(lang.replace("-", "_"))
    return pyphen.Pyphen(lang=found) if found else None


@lru_cache(maxsize=65536)
def breaks(word: str, lang: str) -> tuple[Break, ...]:
    """The dictionary's hyphenation points of one word (letters only around them), last first."""
    found = dictionary(lang)
    if found is None:
        return ()
    result = []
    for position in reversed(found.positions(word)):
        data = getattr(position, "data", None)
        if data:   # a non-standard break: ('sz=', -1, 1) respells around the position
            change, index, cut = data
            start = position + index
            if word.isupper():
                change = change.upper()
            head_end, tail_start = change.split("=")
            result.append(Break(start, start + cut, head_end, tail_start))
        else:
            result.append(Break(int(position), int(position)))
    return tuple(result)
