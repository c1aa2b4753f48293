"""Split text into runs by the first font of a stack that has each character, and measure them.

ReportLab has no fallback: a glyph missing from a Noto font draws nothing and a
missing glyph in DejaVu draws a box, without a warning. So coverage is checked
here, per character, against each family's cmap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.text.fonts import Face, FontLibrary

# Characters that are layout instructions, never drawn.
INVISIBLE = {"\u00ad", "\u200b", "\u200c", "\u200d", "\ufeff"}


@dataclass(frozen=True)
class Run:
    text: str
    face: Face


@dataclass
class TextSetter:
    """Per-glyph font fallback over a library; remembers characters no font has."""

    library: FontLibrary
    missing: set[str] = field(default_factory=set)
    layouts: dict = field(default_factory=dict)   # fit_text results by (text, box, style)

    def runs(self, text: str, stack: tuple[str, ...], weight: str, italic: bool) -> list[Run]:
        runs, missing = _split(self.library, text, stack, weight, italic)
        self.missing.update(missing)
        return runs

    def width_pt(self, text: str, stack: tuple[str, ...], weight: str, italic: bool,
                 size: float) -> float:
        return sum(stringWidth(run.text, run.face.name, size)
                   for run in self.runs(text, stack, weight, italic))

    def covers(self, char: str, stack: tuple[str, ...]) -> bool:
        return any(ord(char) in self.library.cmap(family) for family in stack)

    def uncovered(self, text: str, stack: tuple[str, ...]) -> frozenset[str]:
        """Characters of text that no font of the stack has (layout characters aside)."""
        return _uncovered(self.library, text, stack)


@lru_cache(maxsize=65536)
def _uncovered(library: FontLibrary, text: str, stack: tuple[str, ...]) -> frozenset[str]:
    cmaps = [library.cmap(family) for family in stack]
    return frozenset(char for char in set(text) if char not in INVISIBLE and char != "\n"
                     and not any(ord(char) in cmap for cmap in cmaps))


@lru_cache(maxsize=65536)
def _split(library: FontLibrary, text: str, stack: tuple[str, ...], weight: str,
           italic: bool) -> tuple[list[Run], frozenset[str]]:
    runs: list[Run] = []
    missing: set[str] = set()
    cmaps = [library.cmap(family) for family in stack]
    for char in text:
        if char in INVISIBLE:
            continue
        index = next((i for i, cmap in enumerate(cmaps) if ord(char) in cmap), None)
        if index is None:
            missing.add(char)
            index = 0
        face = library.face(stack[index], weight, italic)
        if runs and runs[-1].face == face:
            runs[-1] = Run(runs[-1].text + char, face)
        else:
            runs.append(Run(char, face))
    return runs, frozenset(missing)
