"""What a right-to-left line's marked text must say so that PDF readers give back its logical text.

A right-to-left line is drawn in visual order (its runs left to right, each run's glyphs mirrored), and
readers put it back into logical order themselves, each by its own rule — and neither rule is the
Unicode bidirectional algorithm, so a line mixing Arabic or Hebrew with numbers, Latin names or
punctuation reads out of order (docs/text-engine.md, "The PDF objects", has the measurements). So
render/text_out.py `TextWriter.read_line` marks each such line twice with its text, written for each
reader: once for pdfium (Chromium's viewer, pypdfium2) on invisible glyphs at the line's two ends,
once for poppler (pdftotext, Evince, Okular) on the whole line. This module writes those two texts:
each is the reader's own reordering run backwards, so that the reader, reordering it, gives the
logical text. Both rules were measured on pypdfium2's pdfium 159 and poppler 25.
"""

from __future__ import annotations

import unicodedata
from types import MappingProxyType

RLM = "\u200f"        # RIGHT-TO-LEFT MARK: of class R for both readers, and drawing nothing

# Bidi_Mirroring_Glyph pairs of the characters a text sets (UCD BidiMirroring.txt), both ways
_PAIRS = "()<>[]{}«»‹›⁅⁆⁽⁾₍₎⟨⟩⟪⟫⟦⟧⦃⦄⦅⦆〈〉《》「」『』【】〔〕〖〗〘〙〚〛≤≥≪≫⊂⊃"
_MIRROR = MappingProxyType({**{ord(a): b for a, b in zip(_PAIRS[::2], _PAIRS[1::2], strict=True)},
                            **{ord(b): a for a, b in zip(_PAIRS[::2], _PAIRS[1::2], strict=True)}})

# pdfium's classes (CFX_BidiChar): left, weak (numbers, their punctuation, marks), right, neutral
_PDFIUM_CLASS = MappingProxyType({"L": "L", "R": "R", "AL": "R", "EN": "W", "AN": "W", "NSM": "W", "CS": "W",
                                  "ES": "W", "ET": "W", "BN": "W"})
# poppler's classes (UnicodeTypeTable): left, number (digits and number punctuation), right, other
_POPPLER_CLASS = MappingProxyType({"L": "L", "R": "R", "AL": "R", "EN": "#", "AN": "#", "CS": "#", "ES": "#",
                                   "ET": "#"})


def for_pdfium(logical: str) -> str:
    """The ActualText of a left-to-right glyph that pdfium reads as `logical` (between marks).

    pdfium joins the texts of the objects on one line (the cards of a sheet's row, a table row's
    cells), cuts the line into stretches of one class (_PDFIUM_CLASS) and, when right-to-left
    stretches outnumber left-to-right ones, puts the stretches in reverse order (never the characters
    inside one); going through them in that order, it mirrors a neutral stretch while the direction is
    right to left (a left-to-right stretch turns it, a right-to-left one turns it back, a weak one
    keeps it). So the text is read between right-to-left marks, a space inside each, and as many more
    at its end as make its right-to-left stretches outnumber the others by two: then any line of such
    texts is reversed, as one alone is, each text starting in the right-to-left direction and kept
    apart from the next by its spaces. As both steps undo themselves, the text written is that text
    put through them (the texts of a line then read in pdfium's order)."""
    text = " ".join(logical.split())
    stretches = _stretches(text, _PDFIUM_CLASS)
    lead = 1 + sum(kind == "R" for kind, _ in stretches) - sum(kind == "L" for kind, _ in stretches)
    read = f"{RLM} {text}" + f" {RLM}" * max(1, 2 - lead)
    direction = "R"
    written = []
    for kind, part in _stretches(read, _PDFIUM_CLASS):     # in the order pdfium outputs them: the logical
        if kind in "LR":
            direction = kind
        written.append(part.translate(_MIRROR) if kind == "N" and direction == "R" else part)
    return "".join(reversed(written))


def for_pdftotext(logical: str) -> str:
    """The ActualText of a line that poppler, on a page read right to left, reads as `logical`.

    poppler takes a marked text as characters drawn left to right and reads a right-to-left line from
    its right end: alternately a stretch of anything but left-to-right letters and numbers, read from
    right to left, and a stretch of anything but right-to-left letters, read from left to right. So the
    logical text is cut into such stretches — a right-to-left stretch (after the first) starting with a
    right-to-left letter, a left-to-right one ending with a letter or number of its own — and laid out
    from the right. Neutrals between a number or Latin word and the right-to-left text after it belong
    to neither: a right-to-left mark in front of them starts the next right-to-left stretch."""
    text = " ".join(logical.split())
    kinds = [_POPPLER_CLASS.get(unicodedata.bidirectional(char), "N") for char in text]
    sections: list[str] = []          # right-to-left, left-to-right, … in reading order
    index = 0
    while index < len(text):
        start = index
        while index < len(text) and kinds[index] not in "L#":
            index += 1
        right = text[start:index]
        if sections and right and kinds[start] != "R":
            right = RLM + right        # after a left-to-right stretch, only a right-to-left letter starts one
        sections.append(right)
        if index == len(text):
            break
        start = index
        last = index                   # the stretch's last letter or number
        while index < len(text) and kinds[index] != "R":
            if kinds[index] in "L#":
                last = index
            index += 1
        sections.append(text[start:last + 1])
        index = last + 1
    # laid out from the right: the first stretch rightmost, the right-to-left ones turned round
    laid = [section[::-1] if number % 2 == 0 else section for number, section in enumerate(sections)]
    return "".join(reversed(laid))


def _stretches(text: str, classes: MappingProxyType) -> list[tuple[str, str]]:
    """The text cut where its characters' class changes: (class, text) in order."""
    stretches: list[tuple[str, str]] = []
    for char in text:
        kind = classes.get(unicodedata.bidirectional(char), "N")
        if stretches and stretches[-1][0] == kind:
            stretches[-1] = (kind, stretches[-1][1] + char)
        else:
            stretches.append((kind, char))
    return stretches
