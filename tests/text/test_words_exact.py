"""Every shipped game × language × component prints exactly its catalog's words.

The proof issue 12 asks for: each shipped game's A4 files in every language (the run's one
shared build of it, tests/conftest.py), the text of every PDF — kit.pdf
included, whose first page adds the engine's own words (kit headings, printing
steps, the facts' labels) — is read back with pypdfium2, line-end breaks are joined — a hard hyphen kept
("жетони-/желания"), a dictionary hyphen removed ("klasszi-/kus"), a
dictionary respelling undone only where pyphen would make it ("klasz-/szikus")
— and every word must be a word of the game's catalog (numbers the engine
fills in aside). A word changed by the typesetter ("klaszszikus",
"жетонижелания") is not a catalog word and fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

from generator.i18n.engine_text import GAME_PREFIXES, engine_catalog
from generator.text.hyphenation import dictionary

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"christmas-round": "full", "twelve-days": "standard", "must-see-belarus": "standard",
         "christmas-trees": "standard", "sorry": "standard"}
COMPONENTS = ("cards", "tokens", "pawns", "board", "sheets", "rules", "kit")
# files that print the engine's words besides the game's: the kit's first page, the covers' facts, the
# line legend under each board tile
WITH_ENGINE_WORDS = {"kit", "rules", "board"}
_TOKEN = re.compile(r"[^\W_](?:[\w'’\-]*[^\W_])?-?")
_MARKUP = re.compile(r"\{icon:[^{}\s]*\}|\*\*|(?<!\\)\*|^\s*(?:[-•]|\d{1,3}[.)])\s+", re.M)
_ENGINE_MARK = re.compile(r"[A-H][1-9]|mm|in")   # board tile labels, the scale bar's unit
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def _languages(game: str) -> list[str]:
    return yaml.safe_load((ROOT / "content" / game / "game.yaml").read_text(encoding="utf-8"))["languages"]


def _engine_texts(lang: str) -> list[str]:
    """The words the engine itself prints in a language (kit headings and steps, cover facts' labels)."""
    entries = [entry for key, entry in engine_catalog(lang).entries.items() if key.startswith(GAME_PREFIXES)]
    return [text for entry in entries for text in ((entry.text,) if entry.plural is None else entry.plural.values())]


def _catalog_texts(game: str, lang: str) -> list[str]:
    data = yaml.safe_load((ROOT / "content" / game / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8"))[lang]
    texts: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif node is not None:
            texts.append(str(node))
    walk(data)
    return texts


class Vocabulary:
    """The words a game's catalog allows: its own words, words with a number filled in, and the
    (head, tail) pairs of the dictionary's respelling breaks."""

    def __init__(self, texts: list[str], lang: str):
        self.words: set[str] = set()
        self.patterns: list[re.Pattern] = []
        for text in texts:
            plain = _MARKUP.sub(" ", text).replace("\\*", "*")
            for token in _TOKEN.findall(_PLACEHOLDER.sub("\x00", plain).replace("\x00", "0")):
                self.words.add(token.casefold())
            for word in plain.split():
                parts = _PLACEHOLDER.split(word)
                if len(parts) > 1 and re.search(r"[^\W\d_]", "".join(parts)):   # "{count}x", "{n}-szer"
                    pattern = r"[\d–.,/]+".join(re.escape(part) for part in parts)
                    self.patterns.append(re.compile(pattern.strip("\\"), re.I))
        self.respelled: set[tuple[str, str]] = set()
        found = dictionary(lang)
        if found is not None:
            for word in list(self.words):
                for position in found.positions(word):
                    if getattr(position, "data", None):
                        self.respelled.update(found.iterate(word))

    def knows(self, token: str) -> bool:
        if _ENGINE_MARK.fullmatch(token):
            return True
        token = token.casefold()
        return (token in self.words or not re.search(r"[^\W\d_]", token)
                or any(pattern.fullmatch(token) for pattern in self.patterns))

    def join(self, head: str, tail: str) -> str | None:
        """The word a line-end head- and the next line's first token make, or None."""
        for joined in (head + tail, head[:-1] + tail):          # a hard hyphen kept / a soft one removed
            if joined.casefold() in self.words:
                return joined
        if (head[:-1].casefold(), tail.casefold()) in self.respelled:
            return head[:-1] + tail
        return None


def printed_words(pdf_file: Path, vocabulary: Vocabulary) -> list[str]:
    """The words of a PDF, line-end breaks joined."""
    document = pdfium.PdfDocument(str(pdf_file))
    words: list[str] = []
    try:
        for page in document:
            # pdfium joins a line ending in a hyphen to the next, marking the hyphen U+FFFE
            text = page.get_textpage().get_text_range().replace("\ufffe", "-\n")
            lines = [_TOKEN.findall(line) for line in re.split(r"\r\n|\n|\r", text)]
            carry = None
            for tokens in lines:
                if carry is not None and tokens:
                    joined = vocabulary.join(carry, tokens[0])
                    if joined is not None:
                        words.pop()
                        tokens = [joined] + tokens[1:]
                words += tokens
                carry = tokens[-1] if tokens and tokens[-1].endswith("-") else None
    finally:
        document.close()
    return words


CASES = [(game, lang) for game in GAMES for lang in _languages(game)]


@pytest.mark.parametrize("game, lang", CASES, ids=[f"{g}-{lang}" for g, lang in CASES])
def test_every_printed_word_is_a_catalog_word(shipped_build, game, lang):
    catalog = _catalog_texts(game, lang)
    # every sheet's first page labels its scale bar in its language (kit.scale_bar): an engine word on all files
    scale_bar = [engine_catalog(lang).entries["kit.scale_bar"].text]
    vocabularies = {False: Vocabulary(catalog + scale_bar, lang),
                    True: Vocabulary(catalog + _engine_texts(lang), lang)}
    folder = shipped_build(game) / GAMES[game] / lang / "a4"      # the shared build (tests/conftest.py)
    strangers: dict[str, list[str]] = {}
    checked = 0
    for component in COMPONENTS:
        pdf_file = folder / f"{component}.pdf"
        if not pdf_file.exists():
            continue
        vocabulary = vocabularies[component in WITH_ENGINE_WORDS]
        words = printed_words(pdf_file, vocabulary)
        checked += len(words)
        unknown = sorted({word for word in words if not vocabulary.knows(word)})
        if unknown:
            strangers[component] = unknown
    assert checked > 200
    assert (folder / "kit.pdf").exists() and (folder / "rules.pdf").exists()   # every game has both
    assert not strangers, f"{game} {lang}: printed words that are not the catalog's: {strangers}"
