"""Hyphenation dictionaries (pyphen) by language; none for languages pyphen lacks (Georgian)."""

from __future__ import annotations

from functools import lru_cache

import pyphen

SOFT_HYPHEN = "\u00ad"


@lru_cache(maxsize=None)
def dictionary(lang: str) -> pyphen.Pyphen | None:
    found = pyphen.language_fallback(lang.replace("-", "_"))
    return pyphen.Pyphen(lang=found) if found else None


def soft_hyphenate(text: str, lang: str, min_length: int = 7) -> str:
    """Soft hyphens at the dictionary's break points in longer words (for ReportLab paragraphs)."""
    found = dictionary(lang)
    if found is None:
        return text
    return " ".join(found.inserted(word, hyphen=SOFT_HYPHEN) if len(word) >= min_length and word.isalpha()
                    else word for word in text.split(" "))
