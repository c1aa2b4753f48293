"""Where a word may be hyphenated (pyphen's dictionaries), as break positions that leave the word alone.

A break is only a possibility: the word is printed as written unless a line
really ends there. Some dictionaries respell a word at a break (Hungarian
"klasszikus" → "klasz-/szikus"); that respelling is part of the break and
applies only at a line end. Georgian and other languages pyphen lacks: none. Nor is a word of a
script that is not hyphenated hyphenated, whatever the language's dictionary: Thai (pyphen has Thai
patterns, but Thai breaks between words and prints no hyphen), Lao, Khmer, Burmese, Japanese, Chinese
and Korean (segment.py says where their lines break).
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path

import pyphen

from generator.cache_folder import cache_root
from generator.caches import cached
from generator.files import write_atomically
from generator.text.digests import sha256_hex
from generator.text.segment import has_hangul, has_spaceless


@dataclass(frozen=True, slots=True)
class Break:
    """A hyphenation point of a word: the line ends with word[:start] + head_end + '-',
    the next starts with tail_start + word[end:] (start == end and no respelling for most)."""

    start: int
    end: int
    head_end: str = ""
    tail_start: str = ""


# pyphen's dictionaries are part of the engine (its version is in the engine's digest), never a game's
# file: no table for `pnp serve` to empty when a game changes (pyphen keeps each parsed for the process)
@cached("text.hyphenation_dictionary", maxsize=64)
def dictionary(lang: str) -> pyphen.Pyphen | None:
    found = pyphen.language_fallback(lang.replace("-", "_"))
    if not found:
        return None
    _read_patterns(pyphen.LANGUAGES[found])
    return pyphen.Pyphen(lang=found)


# pyphen parses a dictionary's text on every run (~10 ms for Russian, ~0.4 s for Hungarian); its
# patterns, once parsed, are kept pickled in the cache folder by the file's bytes and pyphen's
# version. Like the font cuts (and unlike the engine's layout cache, which PNP_NO_CACHE turns off)
# they depend on pyphen's data only, so they are kept across engine upgrades.
_PATTERNS_FORMAT = 2        # 2: the parsed patterns kept with their file's name


def _read_patterns(path: Path) -> None:
    """Put the dictionary at path, parsed, where pyphen.Pyphen looks first (pyphen.hdcache): read from
    the cache when an earlier run parsed it, else parsed now and written there."""
    if path in pyphen.hdcache:
        return
    version = getattr(pyphen, "VERSION", getattr(pyphen, "__version__", "?"))
    kept = cache_root() / "hyphenation" / f"{path.stem}-{version}-{_PATTERNS_FORMAT}-{_digest(path)}.pickle"
    try:
        # kept with its own file name: another language's patterns put in its place are not taken
        name, parsed = pickle.loads(kept.read_bytes())
        if name == kept.name and isinstance(parsed, pyphen.HyphDict):
            pyphen.hdcache[path] = parsed
            return
    except Exception:       # none yet, unreadable, or written by a pnp that kept no name: parse it
        pass
    parsed = pyphen.hdcache[path] = pyphen.HyphDict(path)
    try:
        write_atomically(kept, pickle.dumps((kept.name, parsed), protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:       # a read-only cache: parsed again next time
        pass


def _digest(path: Path) -> str:
    """The first 16 hex digits of the dictionary file's SHA-256 ('' for one that cannot be read: pyphen
    then reports it as it parses)."""
    try:
        return sha256_hex(path)[:16]
    except OSError:
        return ""


@cached("text.hyphenation_breaks", maxsize=65536)
def breaks(word: str, lang: str) -> tuple[Break, ...]:
    """The dictionary's hyphenation points of one word (letters only around them), last first; none in
    a word of a script that is not hyphenated (Thai, CJK, Korean …)."""
    if has_spaceless(word) or has_hangul(word):
        return ()
    found = dictionary(lang)
    if found is None:
        return ()
    result = []
    for position in reversed(found.positions(word)):
        data = getattr(position, "data", None)
        if data:   # a non-standard break: ('sz=', -1, 1) respells around the position
            change, index, cut = data
            start = position + index
            if word.isupper():
                change = change.upper()
            head_end, tail_start = change.split("=")
            result.append(Break(start, start + cut, head_end, tail_start))
        else:
            result.append(Break(int(position), int(position)))
    return tuple(result)
