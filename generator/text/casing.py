"""Upper and lower case as a language writes them, for the text stage (`uppercase: true` boxes).

Takes a text and its language, gives the text in capitals (or small letters) with the language's own
rules, as ICU's locale case mapping (and CLDR's transforms) do:

- Greek (el): capitals carry no accents — the tonos, the grave, the circumflex and the breathings go
  (ΔΎΝΑΜΗ → ΔΥΝΑΜΗ, λιμάνι → ΛΙΜΑΝΙ); the dialytika stays (ΐ → Ϊ, ΰ → Ϋ), and an accented vowel before
  ι or υ, which shows the two are said apart, gives the second its dialytika (Μάιος → ΜΑΪΟΣ, άυλος →
  ΑΫΛΟΣ); the disjunctive ή alone keeps its accent (Ή), as Greek typesetting does; ς → Σ. In small
  letters a Σ that ends a word is ς (Python's own rule).
- Turkish and Azerbaijani (tr, az): dotted and dotless i are two letters: i ↔ İ, ı ↔ I.
- German ß → SS (Python's own full case mapping; ẞ is left to a writer who wants it).
- Every other language: Python's `str.upper` / `str.lower` (Unicode's full case mapping), and the
  result NFC-normalized (a capital that Unicode writes as a letter and a combining mark, J̌, comes out
  composed wherever a composed form exists).

The words themselves are never looked up: these are the rules of the scripts, not of a dictionary.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

_TONOS, _GRAVE, _PERISPOMENI = "\u0301", "\u0300", "\u0342"
_PSILI, _DASIA, _KORONIS, _DIALYTIKA_TONOS = "\u0313", "\u0314", "\u0343", "\u0344"
_DIALYTIKA = "\u0308"
_YPOGEGRAMMENI = "\u0345"
_MACRON, _BREVE = "\u0304", "\u0306"
# what Greek capitals drop: the accents and breathings (the dialytika is kept)
_GREEK_DROPPED = frozenset({_TONOS, _GRAVE, _PERISPOMENI, _PSILI, _DASIA, _KORONIS, _MACRON, _BREVE})
_GREEK_ACCENTS = frozenset({_TONOS, _GRAVE, _PERISPOMENI, _DIALYTIKA_TONOS})
# a vowel and the ι or υ after it that would otherwise be read as one sound (αι, ει, οι, υι; αυ, ευ, ηυ, ου)
_DIPHTHONG_FIRST: Mapping[str, frozenset[str]] = MappingProxyType(
    {"ι": frozenset("αεουΑΕΟΥ"), "υ": frozenset("αεηοΑΕΗΟ")})

_DOTTED_LANGUAGES = frozenset({"tr", "az"})


def _base(lang: str) -> str:
    return lang.replace("_", "-").split("-")[0].lower()


def upper(text: str, lang: str) -> str:
    """The text in capitals, as the language writes them (see the module's description)."""
    base = _base(lang)
    if base == "el":
        return unicodedata.normalize("NFC", _greek_upper(text))
    if base in _DOTTED_LANGUAGES:
        text = text.replace("i", "İ")
    return unicodedata.normalize("NFC", text.upper())


def lower(text: str, lang: str) -> str:
    """The text in small letters, as the language writes them: Turkish and Azerbaijani I → ı, İ → i;
    a Σ that ends a word → ς (Python's rule); else Python's `str.lower`, NFC-normalized."""
    if _base(lang) in _DOTTED_LANGUAGES:
        # İ written as I and a combining dot above is the same letter
        text = unicodedata.normalize("NFC", text).replace("İ", "i").replace("I", "ı")
    return unicodedata.normalize("NFC", text.lower())


def _is_greek(char: str) -> bool:
    code = ord(char)
    return 0x0370 <= code <= 0x03FF or 0x1F00 <= code <= 0x1FFF


def _greek_upper(text: str) -> str:
    """Greek capitals (letters of other scripts in the text are upper-cased as Python does)."""
    clusters = _clusters(unicodedata.normalize("NFD", text))
    out: list[str] = []
    for index, (letter, marks) in enumerate(clusters):
        if not _is_greek(letter):
            out.append((letter + "".join(marks)).upper())
            continue
        accented = any(mark in _GREEK_ACCENTS for mark in marks)
        kept = [mark for mark in marks if mark not in _GREEK_DROPPED and mark != _YPOGEGRAMMENI]
        if _DIALYTIKA_TONOS in kept:
            kept = [_DIALYTIKA if mark == _DIALYTIKA_TONOS else mark for mark in kept]
        if accented and letter in "ηΗ" and _alone(clusters, index):
            kept.insert(0, _TONOS)          # the disjunctive ή ("or") keeps its accent: Ή
        elif (not accented and _DIALYTIKA not in kept and index > 0
              and letter.lower() in _DIPHTHONG_FIRST and _breaks_diphthong(clusters[index - 1], letter.lower())):
            kept.insert(0, _DIALYTIKA)      # ά|ι said apart: ΑΪ
        capital = letter.upper()
        if _YPOGEGRAMMENI in marks:          # ᾳ → ΑΙ: the iota written below comes beside the capital
            capital += "Ι"
        out.append(capital + "".join(kept))
    return "".join(out)


def _clusters(decomposed: str) -> list[tuple[str, list[str]]]:
    """Each letter with the combining marks after it (marks with no letter before them stand alone)."""
    clusters: list[tuple[str, list[str]]] = []
    for char in decomposed:
        if unicodedata.combining(char) and clusters:
            clusters[-1][1].append(char)
        else:
            clusters.append((char, []))
    return clusters


def _breaks_diphthong(previous: tuple[str, list[str]], letter: str) -> bool:
    """Whether an accented vowel before ι/υ shows the two are said apart (the accent of a diphthong is
    on its second letter: είναι, but Μάιος)."""
    vowel, marks = previous
    return (vowel in _DIPHTHONG_FIRST[letter]
            and any(mark in (_TONOS, _GRAVE, _PERISPOMENI) for mark in marks)
            and _DIALYTIKA not in marks)


def _alone(clusters: list[tuple[str, list[str]]], index: int) -> bool:
    """Whether the letter at index is a word by itself (no letter right before or after it)."""
    before = clusters[index - 1][0] if index > 0 else " "
    after = clusters[index + 1][0] if index + 1 < len(clusters) else " "
    return not before.isalpha() and not after.isalpha()
