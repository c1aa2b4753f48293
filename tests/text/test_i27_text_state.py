"""The text stage keeps what it remembers in the build's caches (issue 27): a font file edited in place
is read again, the per-text tables are emptied once layout is done, and the built-in families are
defined once, from font packages and pnp's own fonts folder."""

from __future__ import annotations

import hashlib
from importlib.resources import files
from pathlib import Path
from types import SimpleNamespace

import pytest

from generator.caches import Caches
from generator.text.fonts import (BUILTIN_FAMILIES, DEFAULT_STACK, STACKS, FamilySource, FontLibrary, _table_tags,
                                  builtin_families, game_families)
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter, forget_text_runs
from tests.text.test_game_fonts import make_cff_font

FONTS = Path(str(files("generator").joinpath("fonts")))
# the files manimgx-fonts 2026.9.26.post1 installed: every text set in them is as it was
SHIPPED = {"NotoSansGeorgian[wght].ttf": "42f4a8bf4fe0af8afd91ee3c19e81e14f1bc74ddbd9b6a59a4182f67a596adb4",
           "NotoSansSymbols[wght].ttf": "63724daeff6755a45933b9a5e3a3b41df5df8fe925c0f4c991f2f68c08a4182d"}


@pytest.fixture
def caches():
    """Empty caches in force (the built-in fonts' cuts are taken from pnp's cache folder, as a build does)."""
    with Caches().active() as fresh:
        yield fresh


@pytest.fixture
def own_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder of the test's own, for the character maps and cuts of the fonts it makes."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))


def _edit_in_place(path: Path, data: bytes) -> None:
    """New bytes in the same file (same inode), as an editor saving over it does."""
    with open(path, "r+b") as file:
        file.truncate(0)
        file.write(data)


def test_a_font_edited_in_place_is_read_again(tmp_path: Path, caches: Caches, own_cache_folder: None) -> None:
    font = tmp_path / "Face.ttf"
    make_cff_font(font)
    assert b"CFF " in _table_tags(font)
    assert FontLibrary({"face": FamilySource("face", font)}).cmap("face") == \
        frozenset([32, *range(ord("A"), ord("Z") + 1)])
    georgian = (FONTS / "NotoSansGeorgian[wght].ttf").read_bytes()
    _edit_in_place(font, georgian)
    assert b"CFF " not in _table_tags(font) and b"fvar" in _table_tags(font)
    assert ord("ა") in FontLibrary({"face": FamilySource("face", font)}).cmap("face")


def test_a_game_font_mended_while_pnp_runs_is_checked_again(tmp_path: Path, caches: Caches,
                                                            own_cache_folder: None) -> None:
    (tmp_path / "fonts").mkdir()
    font = tmp_path / "fonts" / "Box.otf"
    font.write_bytes(b"OTTO not a font at all")
    problems: list[tuple[tuple[str, ...], str]] = []
    styles = {"box": SimpleNamespace(regular="fonts/Box.otf", bold=None, italic=None, bold_italic=None)}

    def report(where: tuple[str, ...], message: str) -> None:
        problems.append((where, message))
    game_families(tmp_path, styles, report)      # (the four fields a FontFile has)
    assert [where for where, _ in problems] == [("font_files", "box", "regular")]
    make_cff_font(tmp_path / "Box.otf")
    _edit_in_place(font, (tmp_path / "Box.otf").read_bytes())
    problems.clear()
    families = game_families(tmp_path, styles, report)
    assert problems == []
    assert b"glyf" in _table_tags(families["box"].upright)    # converted to TrueType outlines, to embed


def test_the_per_text_tables_are_emptied_once_layout_is_done(caches: Caches) -> None:
    setter = TextSetter(FontLibrary())
    style = SetStyle(DEFAULT_STACK, 10, 6, lang="ru")
    fit_text(parse_rich_text("Возьмите **две** карты ★ и გამარჯობა"), 30, 20, style, setter)
    per_text = ("text.font_runs", "text.uncovered_characters", "text.glued_paragraphs", "text.word_pieces")
    filled = caches.sizes()
    assert all(filled.get(name, 0) for name in per_text if name != "text.uncovered_characters"), filled
    forget_text_runs()
    emptied = caches.sizes()
    assert [emptied.get(name, 0) for name in per_text] == [0, 0, 0, 0]
    assert emptied["text.rich_text"] == filled["text.rich_text"]      # what checking and drawing ask again stays


def test_the_stacks_are_defined_once() -> None:
    library = FontLibrary()
    assert library.body_face == library.face("nunito") == library.face(STACKS.body)
    assert library.display_face == library.face(STACKS.display)
    assert DEFAULT_STACK == (STACKS.body, STACKS.symbols, STACKS.georgian, STACKS.arabic, STACKS.hebrew,
                             STACKS.devanagari, STACKS.thai, STACKS.more_symbols, STACKS.cjk)
    assert set(DEFAULT_STACK) <= set(builtin_families()) == set(BUILTIN_FAMILIES)


def test_the_builtin_families_come_from_font_packages_and_pnps_own_folder() -> None:
    for name, source in builtin_families().items():
        for file in (source.upright, source.italic):
            if file is not None:
                assert "manimgx" not in str(file), (name, file)
    assert builtin_families()["noto-sans-georgian"].upright.parent == FONTS
    assert "fontpkg_noto_sans" in str(builtin_families()["noto-sans"].upright)
    for name, digest in SHIPPED.items():
        assert hashlib.sha256((FONTS / name).read_bytes()).hexdigest() == digest, name
    licence = (FONTS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "notofonts/georgian" in licence and "notofonts/symbols" in licence


def test_georgian_and_symbols_are_set_in_the_shipped_fonts(caches: Caches) -> None:
    library = FontLibrary()
    setter = TextSetter(library)
    layout = fit_text(parse_rich_text("ქართული ⚐"), 60, 20, SetStyle(DEFAULT_STACK, 10, 10, lang="ka"), setter)
    fonts = {run.font for run in layout.runs}
    assert library.face("noto-sans-georgian").name in fonts
    assert library.face("noto-sans-symbols").name in fonts
    assert not setter.missing
