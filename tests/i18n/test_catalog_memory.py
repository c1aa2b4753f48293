"""A catalog keeps its texts and their marks, never the YAML document they were read from.

Loading runs with the collector paused (generator/heap.py): anything a reference cycle holds
stays for the whole build. A catalog's document (its data and the position of every value) is
~17 MiB for a 10,000-card deck; it must go as soon as the catalog is made.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from generator.errors import Problems
from generator.i18n import catalog as catalog_module


def test_the_document_is_freed_once_its_catalog_is_made(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "i18n").mkdir()
    (tmp_path / "i18n" / "en.yaml").write_text(
        "en:\n  card:\n    a: {title: Alpha, body: One}\n    b: {title: Beta, body: Two}\n"
        "  count: {one: '{count} card', other: '{count} cards'}\n", encoding="utf-8")
    documents = []
    read = catalog_module.load_yaml

    def load_and_watch(*args, **kwargs):
        document = read(*args, **kwargs)
        documents.append(weakref.ref(document))
        return document
    monkeypatch.setattr(catalog_module, "load_yaml", load_and_watch)
    enabled = gc.isenabled()
    gc.disable()
    try:
        catalog = catalog_module.load_catalog(tmp_path, "en", Problems())
        assert catalog is not None and catalog.entries["card.b.body"].text == "Two"
        assert catalog.entries["card.a.title"].mark.line == 3
        assert len(documents) == 1 and documents[0]() is None, "a reference cycle keeps the document alive"
    finally:
        if enabled:
            gc.enable()
