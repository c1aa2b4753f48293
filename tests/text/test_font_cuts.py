"""Fonts pnp cuts (a variable font's instance at a weight) live in a folder of their cut format.

A font an older pnp cut into the cache (format 1 stamped its save time into the head table) has
the very name a new cut would have; were it used, a build's bytes would depend on what pnp ran
before on the machine. Each check runs in a child process with a cache folder of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FACE_PATH = "from generator.text.fonts import FontLibrary; print(FontLibrary().face('nunito', 'black').path)"


def face_path(cache: Path) -> Path:
    result = subprocess.run([sys.executable, "-c", FACE_PATH], capture_output=True, text=True, check=True,
                            env={**os.environ, "PNP_CACHE_DIR": str(cache)})
    return Path(result.stdout.strip())


def test_a_font_cut_by_an_older_format_is_not_used(tmp_path: Path) -> None:
    cut = face_path(tmp_path / "first")
    assert cut.parent.name.startswith("cut-") and cut.stat().st_size > 10_000, cut
    # the same name in the cache's old place, as format 1 left it: another cut is made, and used
    stale = tmp_path / "second" / "fonts" / cut.name
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"not the font an older pnp cut")
    kept = stale.with_name("Nunito-0123456789abcdef.cmap")
    kept.write_bytes(b"a character map")
    again = face_path(tmp_path / "second")
    assert again != stale and again.parent.name == cut.parent.name
    assert again.read_bytes() == cut.read_bytes()    # and two cuts of one source are the same bytes
    assert not stale.exists(), "an older format's cut is removed once the new folder is made"
    assert kept.read_bytes() == b"a character map", "the character maps beside it are kept"


def test_the_table_directory_is_read_as_fonttools_reads_it(tmp_path: Path) -> None:
    # whether a face is variable, or CFF to be converted, is read from the file's table directory
    from fontTools.ttLib import TTFont

    from generator.text.fonts import FontLibrary, _is_variable, _table_tags
    from tests.text.test_game_fonts import make_cff_font
    make_cff_font(tmp_path / "Box.otf")
    files = [(tmp_path / "Box.otf", 0)]
    for source in FontLibrary().families.values():
        files += [(Path(file), source.index) for file in (source.upright, source.italic, source.bold) if file]
    for file, index in files:    # a collection's fonts (Noto Sans CJK's, where installed) each by its index
        with TTFont(str(file), lazy=True, fontNumber=index) as font:
            expected = {tag.encode("latin-1") for tag in font.keys()} - {b"GlyphOrder"}
        assert _table_tags(file, index) == expected, (file, index)
    assert b"CFF " in _table_tags(tmp_path / "Box.otf")
    assert _is_variable(Path(FontLibrary().families["nunito"].upright))
