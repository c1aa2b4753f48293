"""A paragraph's words as fitting takes them: the spaces no line may break at glued, each word one piece.

Below both the layout (which wraps the words) and the setter (which empties these tables once every
face is laid out, `forget_text_runs`): the per-text tables the two share live here.
"""

from __future__ import annotations

from dataclasses import replace

from generator.caches import cached
from generator.text.linebreak import BreakRules, glue_spaces
from generator.text.rich import Fragment, Paragraph

Word = tuple[Fragment, ...]


# a deck's texts tried at its size so far and set again when it settles are glued again: the
# latest few thousand are kept (a text's glued words are held only while it is fitted)
@cached("text.glued_paragraphs", maxsize=4096)
def glue_paragraphs(paragraphs: tuple[Paragraph, ...], rules: BreakRules) -> tuple[Paragraph, ...]:
    """The paragraphs with the spaces no line may break at made no-break spaces (the words unchanged)."""
    result = []
    for paragraph in paragraphs:
        if len(paragraph.fragments) == 1:
            fragment = paragraph.fragments[0]
            text = glue_spaces(fragment.text, rules)
            # nothing glued: the very paragraph (a copied one would cost, and compare, the same)
            result.append(paragraph if text == fragment.text else
                          replace(paragraph, fragments=(fragment.with_text(text),)))
            continue
        text = glue_spaces("".join(f.text for f in paragraph.fragments), rules)
        fragments, offset = [], 0
        for fragment in paragraph.fragments:
            end = offset + len(fragment.text)
            fragments.append(fragment.with_text(text[offset:end]))
            offset = end
        result.append(replace(paragraph, fragments=tuple(fragments)))
    return tuple(result)


def paragraph_words(paragraph: Paragraph) -> list[Word]:
    """The paragraph's words (split at its breakable spaces), each a tuple of its fragments' pieces."""
    words: list[list[Fragment]] = [[]]
    for fragment in paragraph.fragments:
        parts = fragment.text.split(" ")
        for index, part in enumerate(parts):
            if index:
                words.append([])
            if part:
                words[-1].append(word_piece(part, fragment.bold, fragment.italic, fragment.icon))
    return [tuple(word) for word in words if word]


# one object per word and style: a deck's texts share their words (a long-lived process, pnp serve,
# sets many texts: the latest 65,536 are kept)
@cached("text.word_pieces", maxsize=65536)
def word_piece(text: str, bold: bool, italic: bool, icon: str) -> Fragment:
    """A fragment of one word's text in a style."""
    return Fragment(text, bold, italic, icon)
