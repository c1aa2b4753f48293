"""Where a line may break inside a run of text written without spaces: ICU's line-break opportunities.

Takes a run of characters with no space in it (and its language) and gives the positions inside it
where a line may end, as ICU's line breaker finds them (icu4py, ICU 78 bundled: UAX #14 with ICU's
tailorings and its dictionaries):

- Thai, Lao, Khmer and Burmese between words, by ICU's dictionaries (a line never splits a word);
- Japanese and Chinese between characters, with the strict kinsoku rules (ICU's `lb=strict`): no line
  starts with 、。，．」』）！？ー or a small kana, none ends with 「『（;
- Korean at spaces only, as Korean is set (CSS's `word-break: keep-all`): in a Korean text no
  opportunity inside a run is taken (hanja included), and in any text none next to a Hangul letter
  (ICU has no keep-all of its own).

Only runs holding a character of such a script are asked (`has_spaceless`): a Latin, Cyrillic or
Georgian text breaks at its spaces alone, as it always has. ICU's opportunities between two characters
of other scripts (after the hyphen of "well-known" inside a Japanese sentence) are left to the layout's
own rules for them, and none is taken right after an inline icon or a digit (an icon holds what follows
it, a number its counter — 2枚, 3人 — as linebreak.py glues "★ points" and "3 stars"). A break found
here adds no hyphen.
"""

from __future__ import annotations

import re

from generator.caches import cached
from generator.text.linebreak import ICON_CHAR

ZWSP = "\u200b"          # ends a word a line may break after, with no space after it (words.py)

# Scripts written without spaces between words (or, for CJK, breaking between characters): Thai, Lao,
# Tibetan, Myanmar, Khmer, New Tai Lue, Tai Tham, Tai Viet; CJK radicals, symbols and punctuation,
# kana, bopomofo, enclosed and compatibility forms, ideographs, Yi, halfwidth and fullwidth forms,
# kana supplements and the ideograph planes
_SPACELESS = re.compile(
    "[\u0e00-\u109f\u1780-\u17ff\u1980-\u1aaf\u2e80-\u312f\u3190-\u9fff\ua000-\ua4cf\ua9e0-\ua9ff"
    "\uaa60-\uaadf\uf900-\ufaff\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef"
    "\U00016fe0-\U00016fff\U0001b000-\U0001b2ff\U00020000-\U0003ffff]")
# Hangul letters, syllables and compatibility jamo (halfwidth ones too): Korean keeps its words whole
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff\uffa0-\uffdc]")


def has_spaceless(text: str) -> bool:
    """Whether the text holds a character of a script written without spaces (Thai, Japanese …)."""
    # (isascii is a flag of the string: an English text is answered without reading it; a search
    # reads ~50 ns a character)
    return not text.isascii() and _SPACELESS.search(text) is not None


def has_hangul(text: str) -> bool:
    """Whether the text holds a Hangul letter (Korean: words kept whole, never hyphenated)."""
    return _HANGUL.search(text) is not None


def break_locale(lang: str) -> str:
    """The ICU locale a language's runs are broken with: strict kinsoku for Japanese and Chinese (and
    for every other language too: it differs from ICU's normal rules only for CJK characters)."""
    base = lang.replace("-", "_").split("_")[0].lower() or "und"
    if not base.isalpha() or len(base) > 8:
        base = "und"
    return f"{base}@lb=strict"


# a deck's texts share their runs (and are laid out at several sizes): each run broken once
@cached("text.line_breaks", maxsize=16384)
def break_opportunities(run: str, lang: str) -> tuple[int, ...]:
    """The positions inside a run without spaces (0 < position < len(run)) where a line may break: ICU's
    opportunities next to a character of a space-less script, none beside a Hangul letter, none
    right after an inline icon or a digit (a number holds its counter: 2枚, 3人, as linebreak.py
    glues "3 stars"); an opportunity after a U+200B the text itself holds is kept too."""
    if len(run) < 2 or not (has_spaceless(run) or ZWSP in run[:-1]):
        return ()
    keep_all = _is_korean(lang)      # Korean breaks at its spaces, hanja and all
    if keep_all and ZWSP not in run[:-1]:
        return ()
    found = []
    to_index = _utf16_indices(run)
    # imported here, not at the top: loading ICU (its 33 MB data library) costs ~30 ms of every start-up,
    # and only a text in a script without spaces (Thai, CJK…) ever asks for it
    from icu4py.breakers import LineBreaker
    for _, end in LineBreaker(run, break_locale(lang)).segments():
        position = to_index[end] if to_index is not None else end
        if not 0 < position < len(run):
            continue
        before, after = run[position - 1], run[position]
        if before == ZWSP:
            found.append(position)
        elif (not keep_all and before != ICON_CHAR and not before.isdigit()
              and (_SPACELESS.match(before) or _SPACELESS.match(after))
              and not (_HANGUL.match(before) or _HANGUL.match(after))):
            found.append(position)
    return tuple(found)


def _is_korean(lang: str) -> bool:
    return lang.replace("-", "_").split("_")[0].lower() == "ko"


def _utf16_indices(text: str) -> list[int] | None:
    """The index in text of each UTF-16 offset (ICU counts in UTF-16 units), or None where the two
    agree (no character beyond the Basic Multilingual Plane)."""
    if all(ord(char) < 0x10000 for char in text):
        return None
    indices = []
    for index, char in enumerate(text):
        indices.append(index)
        if ord(char) >= 0x10000:
            indices.append(index)     # the low surrogate's offset: inside the character
    indices.append(len(text))
    return indices


def segments(run: str, lang: str) -> tuple[str, ...]:
    """The run cut at its break opportunities (what a line may hold of it, piece by piece)."""
    cuts = (0, *break_opportunities(run, lang), len(run))
    return tuple(run[start:end] for start, end in zip(cuts, cuts[1:], strict=False) if end > start)
