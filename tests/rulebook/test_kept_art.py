"""SVG art drawn once is kept in the cache folder (art/) and read back instead of drawn again by svglib: the
same drawing, a damaged file drawn again, a drawing with text never kept, nothing kept with PNP_NO_CACHE=1;
and a rules build reading kept drawings writes the bytes of one drawing them afresh."""

from __future__ import annotations

import pytest

import generator.render.art as art
from generator.caches import Caches
from tests.conftest import private_font_cache
from tests.rulebook.test_rules_only import _build, _game

SHAPES = ('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10">'
          '<rect width="20" height="10" fill="#123456"/><circle cx="5" cy="5" r="3" fill="#c00" opacity="0.5"/>'
          '<path d="M0 0 L20 10" stroke="#000" stroke-width="0.5"/></svg>\n')
WORDS = ('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">'
         '<text x="1" y="8" font-family="sans-serif" font-size="6">Hi</text></svg>\n')


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    monkeypatch.delenv("PNP_NO_CACHE", raising=False)
    return folder


def _read(path):
    """The art as a fresh process reads it (no table of this one remembers it)."""
    with Caches().active():
        return art.read_art(path)


def _kept(cache) -> list:
    return sorted((cache / "art").rglob("*.drawing")) if (cache / "art").is_dir() else []


def _shape(node) -> object:
    """A drawing as plain values: each node's type and attributes, its contents in order."""
    if isinstance(node, (list, tuple)):
        return [_shape(item) for item in node]
    if hasattr(node, "__dict__"):
        return (type(node).__name__, sorted((name, _shape(value)) for name, value in vars(node).items()))
    return repr(node)


def _no_svglib(monkeypatch):
    def refuse(*args):
        raise AssertionError("svglib drew a kept file again")
    monkeypatch.setattr(art, "draw_svg", refuse)


def test_a_drawing_is_kept_and_read_back_the_same(tmp_path, cache, monkeypatch):
    path = tmp_path / "shapes.svg"
    path.write_text(SHAPES, encoding="utf-8")
    drawn = _read(path)
    assert drawn.problem is None and drawn.size == (15.0, 7.5)      # px as pt
    assert len(_kept(cache)) == 1
    _no_svglib(monkeypatch)
    again = _read(path)
    assert again.drawing is not drawn.drawing
    assert (again.digest, again.size) == (drawn.digest, drawn.size)
    assert _shape(again.drawing) == _shape(drawn.drawing)


def test_an_edited_file_is_drawn_again(tmp_path, cache):
    path = tmp_path / "shapes.svg"
    path.write_text(SHAPES, encoding="utf-8")
    _read(path)
    path.write_text(SHAPES.replace('width="20" height="10" viewBox', 'width="40" height="10" viewBox'),
                    encoding="utf-8")
    assert _read(path).size == (30.0, 7.5)
    assert len(_kept(cache)) == 2


def test_a_damaged_kept_file_is_drawn_again(tmp_path, cache, monkeypatch):
    path = tmp_path / "shapes.svg"
    path.write_text(SHAPES, encoding="utf-8")
    first = _read(path)
    (kept,) = _kept(cache)
    data = bytearray(kept.read_bytes())
    data[-5] ^= 0xFF
    kept.write_bytes(bytes(data))
    drawn = []
    real = art.draw_svg
    monkeypatch.setattr(art, "draw_svg", lambda *args: drawn.append(1) or real(*args))
    again = _read(path)
    assert drawn == [1] and again.problem is None
    assert _shape(again.drawing) == _shape(first.drawing)
    _no_svglib(monkeypatch)          # and kept again, whole
    assert _read(path).size == first.size


def test_another_engines_drawings_are_removed_when_it_keeps_its_first(tmp_path, cache, monkeypatch):
    path = tmp_path / "shapes.svg"
    path.write_text(SHAPES, encoding="utf-8")
    _read(path)
    (before,) = _kept(cache)
    monkeypatch.setattr(art, "engine_digest", lambda: "an engine upgraded since")
    _read(path)
    (after,) = _kept(cache)
    assert after.parent != before.parent and not before.parent.exists()


def test_a_drawing_with_text_is_not_kept(tmp_path, cache):
    path = tmp_path / "words.svg"
    path.write_text(WORDS, encoding="utf-8")
    assert _read(path).problem is None
    assert _kept(cache) == []


def test_nothing_is_kept_with_pnp_no_cache(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    path = tmp_path / "shapes.svg"
    path.write_text(SHAPES, encoding="utf-8")
    assert _read(path).problem is None
    assert _kept(cache) == []


def test_a_rules_build_from_kept_drawings_writes_the_same_bytes(tmp_path, monkeypatch):
    cache = private_font_cache(tmp_path / "cache")
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    folder = _game(tmp_path)
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    assert _build(folder, tmp_path / "fresh", "rules,booklet").exit_code == 0
    monkeypatch.delenv("PNP_NO_CACHE")
    assert _build(folder, tmp_path / "keeping", "rules,booklet").exit_code == 0
    assert _kept(cache)
    _no_svglib(monkeypatch)
    assert _build(folder, tmp_path / "kept", "rules,booklet").exit_code == 0
    for name in ("rules.pdf", "rules-booklet.pdf"):
        fresh = (tmp_path / "fresh/g/standard/en/a4" / name).read_bytes()
        assert (tmp_path / "kept/g/standard/en/a4" / name).read_bytes() == fresh, name
