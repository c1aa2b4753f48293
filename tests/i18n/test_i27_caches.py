"""The i18n stage's memo tables belong to the build context's caches: the engine's catalogs, the plural
rules and a font's family name; what was read from a file is read again once the file changes."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

from generator.caches import Caches
from generator.i18n.catalog import Catalog
from generator.i18n.engine_text import engine_catalog
from generator.i18n.translation_units import font_family_name

NUNITO = Path(str(files("fontpkg_nunito") / "files" / "Nunito[wght].ttf"))
INTER = Path(str(files("fontpkg_inter") / "files" / "Inter[opsz,wght].ttf"))


def test_engine_catalogs_are_read_once_per_build_context_and_forgotten_with_the_files():
    with Caches().active() as caches:
        first = engine_catalog("de")
        assert engine_catalog("de") is first
        assert caches.sizes()["i18n.engine_catalog"] == 1
        caches.files_changed()
        assert caches.sizes()["i18n.engine_catalog"] == 0
        assert engine_catalog("de") is not first
    with Caches().active() as other:              # another build context starts empty
        assert other.sizes().get("i18n.engine_catalog", 0) == 0


def test_plural_rules_are_a_table_of_the_caches_and_an_unknown_language_counts_as_english():
    with Caches().active() as caches:
        russian = Catalog("ru", Path("ru.yaml"), {})
        assert [russian.plural_category(n) for n in (1, 3, 5)] == ["one", "few", "many"]
        assert Catalog("xx-unknown", Path("x.yaml"), {}).plural_category(1) == "one"
        assert caches.sizes()["i18n.plural_rule"] == 2


def test_a_font_replaced_in_place_gives_its_new_family_name(tmp_path: Path):
    font = tmp_path / "body.ttf"
    shutil.copyfile(NUNITO, font)
    with Caches().active():
        assert font_family_name(font) == "Nunito"
        shutil.copyfile(INTER, font)           # the same path, another file (its size and time differ)
        assert font_family_name(font) == "Inter"
