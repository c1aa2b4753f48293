"""A hyphenation dictionary parsed once is kept in the cache folder, and gives the same breaks.

pyphen parses a dictionary's text in every process (~0.4 s for Hungarian); pnp keeps the parsed
patterns by the file's bytes and pyphen's version. Each run is a child process with its own cache
folder: the first parses and writes, the second reads (parsing is made to fail there), and both
answer the same for words with ordinary and respelling breaks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

WORDS = ["достопримечательность", "краеведческий", "подаръци", "klasszikus", "KLASSZIKUS", "összeggyűjtés",
         "egészségügyi", "hyphenation", "Christmas"]
BREAKS = f"""
import json, sys
import pyphen
if sys.argv[1] == "no parsing":
    def refuse(self, path):
        raise SystemExit("parsed again")
    pyphen.HyphDict.__init__ = refuse
from generator.text.hyphenation import breaks
print(json.dumps([[word, lang, [[found.start, found.end, found.head_end, found.tail_start]
                                  for found in breaks(word, lang)]]
                  for lang in ("ru", "bg", "hu", "en") for word in {WORDS!r}]))
"""


def breaks_in_child(cache: Path, mode: str) -> list:
    result = subprocess.run([sys.executable, "-c", BREAKS, mode], capture_output=True, text=True,
                            env={**os.environ, "PNP_CACHE_DIR": str(cache)})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def parsed(tmp_path_factory) -> tuple[Path, list]:
    """A cache folder the first (parsing) child filled, and its breaks: made once for this file's cases,
    each of which works on a copy of the folder."""
    cache = tmp_path_factory.mktemp("hyphenation-cache")
    return cache, breaks_in_child(cache, "parse")


def _copy(parsed, tmp_path: Path) -> tuple[Path, list]:
    cache, first = parsed
    shutil.copytree(cache, tmp_path / "cache")
    return tmp_path / "cache", first


def test_parsed_patterns_are_kept_and_give_the_same_breaks(parsed, tmp_path: Path) -> None:
    cache, first = _copy(parsed, tmp_path)
    assert sorted(path.name.split("-")[0] for path in (cache / "hyphenation").iterdir()) == \
        ["hyph_bg_BG", "hyph_en_GB", "hyph_hu_HU", "hyph_ru_RU"]
    assert any(found[2] for _, lang, breaks in first if lang == "hu" for found in breaks)   # a respelling
    assert breaks_in_child(cache, "no parsing") == first


def test_a_damaged_cache_file_is_parsed_again(parsed, tmp_path: Path) -> None:
    cache, first = _copy(parsed, tmp_path)
    for path in (cache / "hyphenation").iterdir():
        path.write_bytes(b"not a pickle")
    assert breaks_in_child(cache, "parse") == first


def test_another_languages_patterns_put_in_place_are_parsed_again(parsed, tmp_path: Path) -> None:
    cache, first = _copy(parsed, tmp_path)
    files = {path.name.split("-")[0]: path for path in (cache / "hyphenation").iterdir()}
    english, hungarian = files["hyph_en_GB"], files["hyph_hu_HU"]
    english_bytes = english.read_bytes()
    english.write_bytes(hungarian.read_bytes())        # each a valid file of parsed patterns, swapped
    hungarian.write_bytes(english_bytes)
    assert breaks_in_child(cache, "parse") == first
