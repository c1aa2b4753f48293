"""Words no shipped catalog prints: "seed" is the project's own name for a game's source material; the
printed rules say "the original rules"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

CONTENT = Path(__file__).resolve().parents[2] / "content"
ENGINE_WORDS = Path(__file__).resolve().parents[2] / "generator" / "i18n" / "engine"
# the games' catalogs, and the engine's own words (kits, contents, footers) that every kit prints
CATALOGS = sorted(CONTENT.glob("*/i18n/*.yaml")) + sorted(ENGINE_WORDS.glob("*.yaml"))
INTERNAL = re.compile(r"\bseeds?\b", re.IGNORECASE)


def _strings(value, path=()):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _strings(inner, path + (str(key),))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _strings(inner, path + (str(index),))
    elif isinstance(value, str):
        yield ".".join(path), value


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda path: f"{path.parts[-3]}/{path.name}")
def test_no_catalog_prints_the_word_seed(catalog):
    found = [key for key, text in _strings(yaml.safe_load(catalog.read_text(encoding="utf-8")))
             if INTERNAL.search(text)]
    assert not found, f"{catalog}: 'seed' printed at {found} (write 'the original rules')"
