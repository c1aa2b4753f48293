"""A paragraph's words as fitting takes them: the spaces no line may break at glued, each word one piece.

Text written without spaces (Thai, Japanese, Chinese …) is cut into words at ICU's line-break
opportunities (segment.py): each word but a run's last ends with U+200B ZERO WIDTH SPACE, and a word
ending so is followed by no space in a line (layout.py) — a line may break after it, and no hyphen is
added there. In a glued paragraph the U+200B is followed by a space, so every reader of its words
(`paragraph_words`, the layout's plain words, a table's column widths) splits at the spaces alone.

Below both the layout (which wraps the words) and the setter (which empties these tables once every
face is laid out, `forget_text_runs`): the per-text tables the two share live here.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace

from generator.caches import cached
from generator.text.linebreak import BreakRules, glue_spaces
from generator.text.rich import Fragment, Paragraph
from generator.text.segment import ZWSP, break_opportunities, has_spaceless

Word = tuple[Fragment, ...]


# a deck's texts tried at its size so far and set again when it settles are glued again: the
# latest few thousand are kept (a text's glued words are held only while it is fitted)
@cached("text.glued_paragraphs", maxsize=4096)
def glue_paragraphs(paragraphs: tuple[Paragraph, ...], rules: BreakRules) -> tuple[Paragraph, ...]:
    """The paragraphs with the spaces no line may break at made no-break spaces (the words unchanged),
    and their runs without spaces cut at ICU's break opportunities (a U+200B and a space after each)."""
    result = []
    for paragraph in paragraphs:
        if len(paragraph.fragments) == 1:
            fragment = paragraph.fragments[0]
            text = glue_spaces(fragment.text, rules)
            # nothing glued: the very paragraph (a copied one would cost, and compare, the same)
            glued = (paragraph if text == fragment.text else
                     replace(paragraph, fragments=(fragment.with_text(text),)))
        else:
            text = glue_spaces("".join(f.text for f in paragraph.fragments), rules)
            fragments, offset = [], 0
            for fragment in paragraph.fragments:
                end = offset + len(fragment.text)
                fragments.append(fragment.with_text(text[offset:end]))
                offset = end
            glued = replace(paragraph, fragments=tuple(fragments))
        result.append(segmented(glued, rules.lang) if has_spaceless(text) or ZWSP in text else glued)
    return tuple(result)


def segmented(paragraph: Paragraph, lang: str) -> Paragraph:
    """The paragraph with its runs without spaces cut at ICU's break opportunities: a U+200B and a space
    after each word a line may break after (the very paragraph where there is none). A run already
    cut (its pieces ending with U+200B and a space) is not cut again."""
    text = "".join(fragment.text for fragment in paragraph.fragments)
    cuts: list[int] = []
    start = 0
    for run in text.split(" "):
        if run and not run.endswith(ZWSP):
            cuts += [start + position for position in break_opportunities(run, lang)]
        start += len(run) + 1
    if not cuts:
        return paragraph
    fragments: list[Fragment] = []
    offset = 0
    for fragment in paragraph.fragments:
        end = offset + len(fragment.text)
        # the cuts after this fragment's characters (a cut at its end too: the next fragment starts a word)
        inside = [cut - offset for cut in cuts[bisect_right(cuts, offset):bisect_right(cuts, end)]]
        if not inside or fragment.icon:     # (segment.py takes no break after an icon)
            fragments.append(fragment)
        else:
            pieces, previous = [], 0
            for cut in inside:
                piece = fragment.text[previous:cut]
                pieces.append(piece if piece.endswith(ZWSP) else piece + ZWSP)
                previous = cut
            fragments.append(fragment.with_text(" ".join(pieces) + " " + fragment.text[previous:]))
        offset = end
    return replace(paragraph, fragments=tuple(fragments))


def paragraph_words(paragraph: Paragraph, lang: str = "") -> list[Word]:
    """The paragraph's words (split at its breakable spaces, and its runs without spaces at ICU's break
    opportunities: see `segmented`), each a tuple of its fragments' pieces. A glued paragraph
    (glue_paragraphs) is cut already; `lang` is the language of one that is not."""
    if any(has_spaceless(fragment.text) or ZWSP in fragment.text for fragment in paragraph.fragments):
        paragraph = segmented(paragraph, lang)
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
