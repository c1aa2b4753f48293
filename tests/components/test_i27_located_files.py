"""Art lookups are a table of the build context's caches, keyed by what the file's stat says: a file
added, edited or replaced by a link leading out is found anew in the same caches (as `pnp serve`
keeps them from one rebuild to the next), with nothing told to forget."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from generator.caches import Caches
from generator.components.subject import resolve_file
from generator.errors import Problems, SourceMark

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
       '<rect width="10" height="10"/></svg>\n')


class _Context(SimpleNamespace):
    """What resolve_file asks of a layout context: the game's folder, the art checks, the problems."""

    def once(self, *key: object) -> bool:
        return True


def _context(folder: Path) -> _Context:
    art = SimpleNamespace(suffixes=frozenset({".svg", ".png", ".jpg", ".jpeg"}), problem=lambda path: None)
    return _Context(source=SimpleNamespace(folder=folder), art=art, problems=Problems())


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "g"
    (folder / "art").mkdir(parents=True)
    return folder


def test_art_added_after_a_failed_lookup_is_found_in_the_same_caches(game: Path):
    with Caches().active() as caches:
        ctx = _context(game)
        assert resolve_file(ctx, "art/star.svg", SourceMark(game / "cards.yaml")) is None
        assert "file not found: art/star.svg" in ctx.problems.errors[0].message
        (game / "art" / "star.svg").write_text(SVG, encoding="utf-8")
        again = _context(game)
        found = resolve_file(again, "art/star.svg", SourceMark(game / "cards.yaml"))
        assert found == (game / "art" / "star.svg").resolve()
        assert not again.problems.errors
        assert caches.sizes()["components.located_files"] == 2      # one lookup for each state of the file


def test_art_replaced_by_a_link_leading_out_is_refused_in_the_same_caches(game: Path, tmp_path: Path):
    star = game / "art" / "star.svg"
    star.write_text(SVG, encoding="utf-8")
    outside = tmp_path / "outside.svg"
    outside.write_text(SVG, encoding="utf-8")
    with Caches().active():
        assert resolve_file(_context(game), "art/star.svg", SourceMark(game)) == star.resolve()
        star.unlink()
        os.symlink(outside, star)
        ctx = _context(game)
        assert resolve_file(ctx, "art/star.svg", SourceMark(game)) is None
        assert "is outside the game folder" in ctx.problems.errors[0].message


def test_a_lookup_unchanged_is_answered_from_the_table(game: Path):
    (game / "art" / "star.svg").write_text(SVG, encoding="utf-8")
    with Caches().active() as caches:
        for _ in range(3):
            resolve_file(_context(game), "art/star.svg", SourceMark(game))
        assert caches.sizes()["components.located_files"] == 1
        caches.files_changed()
        assert caches.sizes()["components.located_files"] == 0
