"""The render stage's answer to what layout asks of art files (LayoutContext.art): which files may be
art, why one cannot be drawn, and its size — read by generator.render.art, handed down to layout."""

from __future__ import annotations

from generator.components.context import ArtFiles
from generator.render.art import ART_SUFFIXES, art_problem, art_size

ART_FILES = ArtFiles(frozenset(ART_SUFFIXES), art_problem, art_size)
