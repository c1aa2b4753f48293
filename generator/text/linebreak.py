"""Where a line may not break, per language: the engine's tables and the rule that applies them.

A paragraph's breakable spaces are ordinary spaces; this stage turns the ones a
typesetter would never break at into GLUE (a no-break space, printed as a
space), and French spaces before ; : ! ? » and after « into the no-break spaces
French typography uses. The words themselves are never changed.

Text written without spaces (Thai, Japanese, Chinese …) has its break opportunities from ICU
(segment.py, words.py); the rules here are those of the spaces.

The tables are data: one entry per language, and a game adds words to them in
game.yaml (`linebreak: {ru: {no_break_after: [на, по]}}`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from generator.caches import cached

GLUE = "\u00a0"            # a space no line breaks at; printed as an ordinary space
NARROW_GLUE = "\u202f"     # French espace fine insécable (; ! ? « »)
ICON_CHAR = "\ufffc"       # an inline icon's place in a fragment's text (U+FFFC OBJECT REPLACEMENT)
NO_BREAK_SPACES = (GLUE, NARROW_GLUE)


@dataclass(frozen=True)
class BreakRules:
    """One language's rules: words a line never ends with, and which general rules apply."""

    lang: str
    no_break_after: frozenset[str] = frozenset()   # lower-case
    number_holds_next: bool = True     # "3 stars", never "3 / stars"
    dash_holds_previous: bool = True   # "word — continues", never "word / — continues"
    icon_holds_word: bool = True       # an icon stays with its word
    french_spacing: bool = False       # no-break spaces before ; : ! ? » and after «


@dataclass(frozen=True)
class LanguageTable:
    """The engine's entry for one language: the words a line never ends with, and French spacing."""

    no_break_after: tuple[str, ...] = ()
    french_spacing: bool = False


# One letter words that end no line (Russian and Bulgarian typesetting rule; Hungarian
# article and conjunction; English article and pronoun; the Polish "sierotki", the Czech and
# Slovak rule of ČSN 01 6910 for the prepositions k, s, v, z and the vowels o, u, a, i, and the
# Slovene, Croatian and Serbian practice like them). Georgian, Greek, Turkish, Arabic, Hebrew,
# Hindi and other scripts: only the general rules (numbers, dashes, dandas, icons); Japanese,
# Chinese, Thai, Lao, Khmer and Burmese break where ICU says (segment.py), Korean at its spaces.
TABLES: Mapping[str, LanguageTable] = MappingProxyType({
    "bg": LanguageTable(("в", "с", "к", "и", "а", "о", "у", "я")),
    "ru": LanguageTable(("в", "с", "к", "и", "а", "о", "у", "я")),
    "uk": LanguageTable(("в", "с", "к", "і", "й", "а", "о", "у", "я", "з")),
    "be": LanguageTable(("в", "з", "с", "к", "і", "й", "а", "о", "у", "ў", "я")),
    "hu": LanguageTable(("a", "s")),
    "en": LanguageTable(("a", "i")),
    "fr": LanguageTable(("à", "a", "y"), french_spacing=True),
    "pl": LanguageTable(("a", "i", "o", "u", "w", "z")),
    "cs": LanguageTable(("k", "s", "v", "z", "o", "u", "a", "i")),
    "sk": LanguageTable(("k", "s", "v", "z", "o", "u", "a", "i")),
    "sl": LanguageTable(("k", "s", "v", "z", "h", "o", "a", "i", "u")),
    "hr": LanguageTable(("a", "i", "u", "o", "s", "k")),
    "bs": LanguageTable(("a", "i", "u", "o", "s", "k")),
    "sr": LanguageTable(("а", "и", "у", "о", "с", "к", "a", "i", "u", "o", "s", "k")),   # both alphabets
    "de": LanguageTable(),
    "ka": LanguageTable(),
})


def break_rules(lang: str, extra: Mapping[str, list[str]] | None = None) -> BreakRules:
    """The rules of a language (its base language's for 'fr-CA'), with a game's words added."""
    base = lang.split("-")[0].split("_")[0].lower()
    table = TABLES.get(lang, TABLES.get(base, LanguageTable()))
    words = set(table.no_break_after)
    for key in (base, lang):
        words |= {word.lower() for word in (extra or {}).get(key, ())}
    return BreakRules(lang, frozenset(words), french_spacing=table.french_spacing)


_OPENING = "„“\"'«‹([{‚‘"
_NUMBER = re.compile(r"[+\-−±]?\d+(?:[.,:/–\-]\d+)*[%×x°]?")
_DASHES = ("—", "–")
# marks that close what comes before them and never start a line, written after a space by some
# writers: the Devanagari (and Bengali, Gurmukhi …) danda and double danda
_CLOSING_MARKS = ("\u0964", "\u0965")
_FRENCH_BEFORE: Mapping[str, str] = MappingProxyType(
    {";": NARROW_GLUE, "!": NARROW_GLUE, "?": NARROW_GLUE, "»": NARROW_GLUE, ":": GLUE})


def glue_spaces(text: str, rules: BreakRules) -> str:
    """The text with every space a line must not break at made a no-break space.

    `text` is one paragraph, icons written as ICON_CHAR; its length never changes,
    so fragment boundaries stay where they were.
    """
    if " " not in text:
        return text
    if rules.french_spacing or ICON_CHAR in text:
        return _glue_pairs(text, rules)
    # The usual paragraph (no icon, no French spacing): a space is glued when the word before it
    # holds the next (a one-letter word of the table, a number) or the word after it is a dash.
    # Whether a word holds the next is decided once per word and language: a deck's texts are
    # made of the same few thousand words. Fitting calls this for every text, hence one pass.
    holds = _holding_words(rules)
    dash = rules.dash_holds_previous
    parts = text.split(" ")
    if "" not in parts:      # single spaces between words: whether each word holds the next, then one join
        get = holds.get
        glued = [get(part) for part in parts]
        glued.pop()
        for index, held in enumerate(glued):
            if held is None:
                glued[index] = _holds(parts[index], holds, rules)
        if dash and ("—" in text or "–" in text):
            for index in range(1, len(parts)):
                if parts[index][0] in _DASHES:
                    glued[index - 1] = True
        if "\u0964" in text or "\u0965" in text:
            for index in range(1, len(parts)):
                if parts[index][0] in _CLOSING_MARKS:
                    glued[index - 1] = True
        if not any(glued):
            return text
        joined = [parts[0]]
        for held, part in zip(glued, parts[1:], strict=True):
            joined.append(GLUE if held else " ")
            joined.append(part)
        return "".join(joined)
    out: list[str] = []
    before = ""           # the last word set, '' before the first
    spaces = 0            # spaces since it
    for index, part in enumerate(text.split(" ")):
        if index:
            spaces += 1
        if not part:
            continue
        if spaces:
            held = bool(before) and ((dash and part[0] in _DASHES) or part[0] in _CLOSING_MARKS
                                     or _holds(before, holds, rules))
            out.append((GLUE if held else " ") * spaces)
            spaces = 0
        out.append(part)
        before = part
    if spaces:
        out.append(" " * spaces)
    return "".join(out)


def _holding_words(rules: BreakRules) -> dict[str, bool]:
    """Whether each word seen so far holds the word after it, under one language's rules (filled by _holds)."""
    known = _holding_table(rules)
    if len(known) > 65536:      # a long-lived process (pnp serve) sees many words
        known.clear()
    return known


# one table a language, kept by the build's caches: glue_spaces reads it for every word of every text
@cached("text.holding_words", maxsize=64)
def _holding_table(rules: BreakRules) -> dict[str, bool]:
    return {}


def _holds(word: str, holds: dict[str, bool], rules: BreakRules) -> bool:
    found = holds.get(word)
    if found is None:
        bare = word.lstrip(_OPENING)
        found = holds[word] = bool((rules.no_break_after and bare.lower() in rules.no_break_after)
                                   or (rules.number_holds_next and _NUMBER.fullmatch(bare)))
    return found


def _glue_pairs(text: str, rules: BreakRules) -> str:
    """glue_spaces by every pair of neighbouring words with all the rules (French spacing, icons)."""
    tokens = [(match.start(), match.end()) for match in _TOKEN.finditer(text)]
    if len(tokens) < 2:
        return text
    chars = list(text)
    words = [text[start:end] for start, end in tokens]
    in_run = _in_icon_run(words) if rules.icon_holds_word else [False] * len(words)
    for index in range(len(tokens) - 1):
        before, after = words[index], words[index + 1]
        glue = GLUE if in_run[index] and in_run[index + 1] else \
            _glue(before, after, words[index + 2] if index + 2 < len(words) else None, rules)
        if glue:
            for position in range(tokens[index][1], tokens[index + 1][0]):
                chars[position] = glue
    return "".join(chars)


_TOKEN = re.compile(r"[^ ]+")


def _glue(before: str, after: str, following: str | None, rules: BreakRules) -> str:
    """The no-break space to put between two neighbouring words, or '' to leave the space breakable."""
    if rules.french_spacing:
        if after[0] in _FRENCH_BEFORE:
            return _FRENCH_BEFORE[after[0]]
        if before[-1] in "«‹":
            return NARROW_GLUE
    if rules.no_break_after and before.lstrip(_OPENING).lower() in rules.no_break_after:
        return GLUE
    if rules.number_holds_next and _NUMBER.fullmatch(before.lstrip(_OPENING)):
        return GLUE
    if rules.dash_holds_previous and after[0] in _DASHES:
        return GLUE
    if after[0] in _CLOSING_MARKS:
        return GLUE
    if rules.icon_holds_word:
        # an icon goes with the word after it ("★ points"), or with the word before it when
        # it closes a phrase ("gain ★." / "gain ★"); a run of icons holds together (_in_icon_run)
        if _icon_only(before) and not _icon_only(after) and _leans_forward(before, after):
            return GLUE
        if _icon_only(after) and not _icon_only(before) and not _leans_forward(after, following):
            return GLUE
    return ""


# A run of icons is one group: a roll of dice, a row of resources ("⚂ ⚃ ⚄"). A line never breaks inside
# a run of up to this many; a longer one is a list more than a group, and may break between its icons.
MAX_ICON_RUN = 8


def _in_icon_run(words: list[str]) -> list[bool]:
    """For each word, whether it is one of a run of 2 to MAX_ICON_RUN icons standing next to each other."""
    marks = [False] * len(words)
    start = 0
    while start < len(words):
        end = start
        while end < len(words) and _icon_only(words[end]):
            end += 1
        if 2 <= end - start <= MAX_ICON_RUN:
            marks[start:end] = [True] * (end - start)
        start = max(end, start + 1)
    return marks


def _leans_forward(icon: str, following: str | None) -> bool:
    return following is not None and not _icon_only(following) and icon[-1] not in _CLOSING


_CLOSING = ".,;:!?)]»“”\"'…"


def _icon_only(word: str) -> bool:
    """A word that is an icon with at most punctuation around it."""
    return ICON_CHAR in word and not any(char.isalnum() for char in word)
