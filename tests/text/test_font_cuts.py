"""Fonts pnp cuts (a variable font's instance at a weight) live in a folder of their cut format.

A font an older pnp cut into the cache (format 1 stamped its save time into the head table) has
the very name a new cut would have; were it used, a build's bytes would depend on what pnp ran
before on the machine. Each check runs in a child process with a cache folder of its own.
"""

from __future__ import annotations

import fcntl
import io
import os
import subprocess
import sys
import time
from pathlib import Path

from fontTools.ttLib import TTFont

FACE_PATH = "from generator.text.fonts import FontLibrary; print(FontLibrary().face('nunito', 'black').path)"


def face_path(cache: Path) -> Path:
    result = subprocess.run([sys.executable, "-c", FACE_PATH], capture_output=True, text=True, check=True,
                            env={**os.environ, "PNP_CACHE_DIR": str(cache)})
    return Path(result.stdout.strip())


def _linked_black_cut(cache: Path) -> None:
    """Nunito Black's cut, where pnp's own cache folder holds one, linked into `cache` (as tests/conftest.py
    private_font_cache links every font): the first check finds it, as it would its own, instead of
    cutting it (1.7 s); the second check's cut is then compared with a cut another process made."""
    from generator.cache_folder import cache_root
    from tests.conftest import _link_or_copy
    shared = cache_root() / "fonts"
    files = list(shared.glob("cut-*/Nunito-900-*.ttf*"))
    if len(files) == 2:          # the font and its recorded SHA-256; otherwise the first check cuts its own
        for file in files:
            target = cache / "fonts" / file.relative_to(shared)
            target.parent.mkdir(parents=True, exist_ok=True)
            _link_or_copy(str(file), str(target))


def test_a_font_cut_by_an_older_format_is_not_used(tmp_path: Path) -> None:
    _linked_black_cut(tmp_path / "first")
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


def _pen_glyph(drawn, glyph_id: int, max_error: float, cubic: bool):
    """A glyph as fontTools' own pens make it from HarfBuzz's drawing (what cff.py did before it wrote glyf itself)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    pen = TTGlyphPen(None)
    drawn.draw_glyph_with_pen(glyph_id, Cu2QuPen(pen, max_error, reverse_direction=True) if cubic else pen)
    glyph = pen.glyph()
    glyph.recalcBounds(None)
    return glyph


class _Chosen:
    """Some glyphs of a HarfBuzz font, drawn as a font of their own."""

    def __init__(self, drawn, chosen: list[int]):
        self.drawn, self.chosen = drawn, chosen

    def draw_glyph_with_pen(self, glyph_id: int, pen) -> None:
        self.drawn.draw_glyph_with_pen(self.chosen[glyph_id], pen)


def test_the_glyf_table_cff_writes_holds_what_fontTools_pens_make(tmp_path: Path) -> None:
    # cff.py writes glyf data itself (a CJK face's 65,535 glyphs in seconds): every glyph must decompile to
    # the points, on-curve flags, contour ends and bounds fontTools' pens give, emboldened or not
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables._g_l_y_f import Glyph

    from generator.text.cff import _draw_outlines, _harfbuzz_font
    from generator.text.fonts import FontLibrary
    from tests.text.test_game_fonts import make_cff_font
    make_cff_font(tmp_path / "Box.otf")
    library = FontLibrary()
    cases = [(tmp_path / "Box.otf", 0, 0.0, 1), (library.face("nunito").path, 0, 0.04, 3)]
    if "noto-sans-cjk-jp" in library.families:
        cases.append((library.families["noto-sans-cjk-jp"].upright, 0, 0.04, 211))    # 311 of its glyphs
    for path, index, embolden, step in cases:
        font = TTFont(str(path), fontNumber=index)
        drawn = _harfbuzz_font(font, path, index, embolden)
        chosen = list(range(0, font["maxp"].numGlyphs, step))
        cubic = "glyf" not in font

        outlines = _draw_outlines(_Chosen(drawn, chosen), len(chosen), 1.0, reverse=cubic)
        drawn_somewhere = 0
        for position, glyph_id in enumerate(chosen):
            expected, written = _pen_glyph(drawn, glyph_id, 1.0, cubic), Glyph(outlines.data[position])
            written.expand(None)
            assert written.numberOfContours == expected.numberOfContours, (path, glyph_id)
            if expected.numberOfContours:
                drawn_somewhere += 1
                assert list(written.coordinates) == list(expected.coordinates), (path, glyph_id)
                assert [flag & 1 for flag in written.flags] == [flag & 1 for flag in expected.flags], (path, glyph_id)
                assert list(written.endPtsOfContours) == list(expected.endPtsOfContours), (path, glyph_id)
                assert (written.xMin, written.yMin, written.xMax, written.yMax) == \
                    (expected.xMin, expected.yMin, expected.xMax, expected.yMax), (path, glyph_id)
        assert drawn_somewhere > len(chosen) // 2, path


# ------------------------------------------------------------- instances: HarfBuzz's, one cutter at a time

def _nunito_file() -> Path:
    from generator.text.fonts import FontLibrary
    return Path(FontLibrary().families["nunito"].upright)


def test_an_instance_is_the_weight_fonttools_would_cut(tmp_path: Path) -> None:
    """HarfBuzz's instance of Nunito at 700 (an intermediate weight: interpolated, not a master) has
    fontTools' glyphs, advances within a unit of rounding, outlines within two, no variation tables,
    and the weight class of the weight."""
    from generator.text.fonts import _fonttools_instance, _harfbuzz_instance
    source = _nunito_file()
    data = _harfbuzz_instance(source, 700)
    assert data is not None
    ours, theirs = TTFont(io.BytesIO(data)), _fonttools_instance(source, 700)
    assert not {"fvar", "gvar", "HVAR", "MVAR"} & set(ours.keys())
    assert ours["OS/2"].usWeightClass == theirs["OS/2"].usWeightClass == 700
    order = theirs.getGlyphOrder()
    assert ours.getGlyphOrder() == order
    advances = [abs(ours["hmtx"][name][0] - theirs["hmtx"][name][0]) for name in order]
    assert max(advances) <= 1 and sum(advances) < len(order) / 10
    worst = 0
    for name in order:
        a, b = ours["glyf"][name], theirs["glyf"][name]
        points_a = a.getCoordinates(ours["glyf"])[0] if a.numberOfContours else []
        points_b = b.getCoordinates(theirs["glyf"])[0] if b.numberOfContours else []
        assert len(points_a) == len(points_b), name
        worst = max([worst, *(max(abs(x1 - x2), abs(y1 - y2))
                              for (x1, y1), (x2, y2) in zip(points_a, points_b, strict=True))])
    assert worst <= 2
    # and the bold is bolder than the regular: the weight was applied, not the default kept
    regular = TTFont(io.BytesIO(_harfbuzz_instance(source, 400) or b""))
    assert ours["hmtx"]["o"][0] > regular["hmtx"]["o"][0]


def test_an_older_formats_folder_is_removed_when_the_new_one_is_made(tmp_path: Path) -> None:
    old = tmp_path / "fonts" / "cut-2"
    old.mkdir(parents=True)
    (old / "Nunito-900-0123456789abcdef.ttf").write_bytes(b"cut by fontTools")
    _linked_black_cut(tmp_path)
    assert face_path(tmp_path).parent.name != "cut-2"
    assert not old.exists()


WAITING_CUT = """
import sys, time
from pathlib import Path
from generator.text.fonts import _static_instance
print("ready", flush=True)
print(_static_instance(Path(sys.argv[1]), 700))
"""


def test_a_process_waits_for_the_cut_another_is_making_and_takes_it(tmp_path: Path) -> None:
    """While one process holds a cut's lock, another that needs the same cut waits, and then takes the
    file the first saved (its bytes, not a cut of its own) instead of cutting it again."""
    from generator.text.fonts import CUT_FORMAT, _save_atomically, file_digest
    source = _nunito_file()
    target = tmp_path / "fonts" / f"cut-{CUT_FORMAT}" / f"Nunito-700-{file_digest(source)}.ttf"
    target.parent.mkdir(parents=True)
    with open(target.with_name(target.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        waiting = subprocess.Popen([sys.executable, "-c", WAITING_CUT, str(source)], stdout=subprocess.PIPE,
                                   text=True, env={**os.environ, "PNP_CACHE_DIR": str(tmp_path)})
        assert waiting.stdout is not None and waiting.stdout.readline() == "ready\n"
        time.sleep(0.5)           # a cut takes ~0.05 s: one that did not wait would be done
        assert waiting.poll() is None, "the second process did not wait for the lock"
        # as the first cutter would: the font saved with its recorded digest (here, the variable font as it is)
        _save_atomically(TTFont(str(source)), target)
        first = target.read_bytes()
        fcntl.flock(lock, fcntl.LOCK_UN)
    out, _ = waiting.communicate(timeout=60)
    assert Path(out.strip()) == target
    assert target.read_bytes() == first, "the waiting process cut the font again"
