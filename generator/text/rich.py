"""Parse the little markup translators write: **bold**, *italic*, {icon:name}, paragraphs and list items.

A blank line starts a paragraph; a single newline breaks the line inside the
paragraph (two lines written in one key are set as two lines, without the space
between paragraphs). A line starting with '- ' is a bullet item, one starting
with '1. ' (any number) a numbered item: each item is a paragraph of its own, and
a plain line after an item breaks the item's line. `\\*` is a literal star.
`{icon:gift}` is the game's icon `gift` (game.yaml `icons`), set inline at the
text's size; in a fragment it is one ICON_CHAR, so the line breaker sees it as
a character of a word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.caches import cached
from generator.text.linebreak import ICON_CHAR

ICON = re.compile(r"\{icon:([^{}\s]*)\}")
_ITEM = re.compile(r"^(?:(-|•)|(\d{1,3})[.)])\s+")


@dataclass(frozen=True, slots=True)
class Fragment:
    """A stretch of text in one style."""

    text: str
    bold: bool = False
    italic: bool = False
    icon: str = ""       # an inline icon's name; its text is then ICON_CHAR

    def with_text(self, text: str) -> "Fragment":
        """The same style with other text (what dataclasses.replace gives, made directly: layout
        cuts a deck's texts into tens of thousands of pieces)."""
        return Fragment(text, self.bold, self.italic, self.icon)

    def __reduce__(self):
        # pickled as its constructor's arguments: the slots dataclass's own state functions
        # run in Python and look its fields up on every object (the layout cache pickles ~100,000)
        return (Fragment, (self.text, self.bold, self.italic, self.icon))


@dataclass(frozen=True, slots=True)
class Paragraph:
    fragments: tuple[Fragment, ...]
    marker: str = ""     # '•' or '3.' for list items, '' for plain paragraphs
    line_break: bool = False    # continues the paragraph before on a new line (a single newline): no space between

    def __reduce__(self):
        # pickled as its constructor's arguments: the slots dataclass's own state functions
        # run in Python and look its fields up on every object (the layout cache pickles ~100,000)
        return (Paragraph, (self.fragments, self.marker, self.line_break))


# a text is parsed where it is checked and again where it is set: the latest few thousand are kept
@cached("text.rich_text", maxsize=16384)
def parse_rich_text(text: str) -> tuple[Paragraph, ...]:
    """The paragraphs of a text (see the module's docstring for the markup)."""
    paragraphs = []
    after_blank = True
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            after_blank = True
            continue
        marker = ""
        item = _ITEM.match(line)
        if item:
            marker = "•" if item.group(1) else f"{item.group(2)}."
            line = line[item.end():]
        paragraphs.append(Paragraph(tuple(_inline(line)), marker, line_break=not (marker or after_blank)))
        after_blank = False
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
            for index, piece in enumerate(ICON.split(text)):
                if index % 2:
                    fragments.append(Fragment(ICON_CHAR, bold, italic, piece))
                elif piece:
                    if fragments and not fragments[-1].icon and (fragments[-1].bold, fragments[-1].italic) == \
                            (bold, italic):
                        fragments[-1] = Fragment(fragments[-1].text + piece, bold, italic)
                    else:
                        fragments.append(Fragment(piece, bold, italic))
    return fragments


def icon_names(text: str) -> list[str]:
    """The icon names a text uses, in order ({icon:name})."""
    return ICON.findall(text)


def plain_text(text: str) -> str:
    """The words a reader sees, without markup (for searching, reports and a PDF's title): an icon
    leaves no double space behind."""
    lines = []
    for paragraph in parse_rich_text(text):
        words = "".join(f.text for f in paragraph.fragments if not f.icon).split(" ")
        lines.append((paragraph.marker + " " if paragraph.marker else "") + " ".join(word for word in words if word))
    return "\n".join(lines)
