"""Parse the little markup translators write: **bold**, *italic*, paragraphs and list items.

A newline starts a paragraph; a paragraph starting with '- ' is a bullet item,
one starting with '1. ' (any number) a numbered item. `\\*` is a literal star.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_ITEM = re.compile(r"^(?:(-|•)|(\d{1,3})[.)])\s+")


@dataclass(frozen=True)
class Fragment:
    """A stretch of text in one style."""

    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True)
class Paragraph:
    fragments: tuple[Fragment, ...]
    marker: str = ""     # '•' or '3.' for list items, '' for plain paragraphs


@lru_cache(maxsize=16384)
def parse_rich_text(text: str) -> tuple[Paragraph, ...]:
    paragraphs = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        marker = ""
        item = _ITEM.match(line)
        if item:
            marker = "•" if item.group(1) else f"{item.group(2)}."
            line = line[item.end():]
        paragraphs.append(Paragraph(tuple(_inline(line)), marker))
    return tuple(paragraphs)


_INLINE_MARK = re.compile(r"(\\\*|\*\*|\*)")


def _inline(line: str) -> list[Fragment]:
    fragments: list[Fragment] = []
    bold = italic = False
    for token in _INLINE_MARK.split(line):
        if token == "**":
            bold = not bold
        elif token == "*":
            italic = not italic
        elif token:
            text = "*" if token == "\\*" else token
            if fragments and (fragments[-1].bold, fragments[-1].italic) == (bold, italic):
                fragments[-1] = Fragment(fragments[-1].text + text, bold, italic)
            else:
                fragments.append(Fragment(text, bold, italic))
    return fragments


def plain_text(text: str) -> str:
    """The text a reader sees, without markup (for searching and reports)."""
    return "\n".join((p.marker + " " if p.marker else "") + "".join(f.text for f in p.fragments)
                     for p in parse_rich_text(text))
