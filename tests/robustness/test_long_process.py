"""A long process (`pnp serve`) lays out the same game again and again: each layout sees the files as they
are now, not as the first one found them."""

from __future__ import annotations

import os
from pathlib import Path

from generator.build import check
from generator.face_cache import file_digest
from generator.options import BuildOptions
from tests.robustness.test_outputs import cards_game


def test_art_replaced_by_a_link_leading_outside_is_refused_by_the_next_layout(tmp_path):
    game = cards_game(tmp_path, cards=2)
    options = BuildOptions(out=tmp_path / "out")
    assert not check([game], options).errors
    outside = tmp_path / "outside.svg"
    (game / "art" / "star.svg").rename(outside)
    os.symlink(outside, game / "art" / "star.svg")
    problems = check([game], options)
    assert any("outside the game folder" in problem.message for problem in problems.errors), problems.items


def test_a_file_edited_in_place_gets_its_new_digest_even_with_its_old_size_and_time(tmp_path):
    path = Path(tmp_path / "font.bin")
    path.write_bytes(b"first")
    before, status = file_digest(path), os.stat(path)
    path.write_bytes(b"other")                                   # same size
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))  # and its old time put back
    assert file_digest(path) != before
