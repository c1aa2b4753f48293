"""A damaged or swapped font or layout cache is rebuilt, not trusted: the build embeds the very fonts,
and writes the very bytes, of a clean build.

Each font case runs `pnp` in its own process (tests/robustness/harness.py), as a user's next build
would: a process of its own reads the cache folder afresh, with nothing of the damaged files kept in
memory (ReportLab registers fonts per process). Before the fix a truncated cache file exited 70.
Split from tests/robustness/test_bounded_work.py so pytest-xdist's --dist loadfile runs the two apart.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pikepdf
import pytest

from generator.text.fonts import CUT_FORMAT
from tests.robustness.harness import run_pnp
from tests.test_content_errors import make_game


# ------------------------------------------------------------------ a damaged or swapped font cache

BOLD_BACK = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  title: {font: body, size: 12pt, min_size: 8pt, weight: bold, color: ink}
palette:
  ink: "#222222"
boxes:
  name: {kind: text, text: "@deck", x: 5, y: 40, width: 53, height: 10, style: title}
"""


def _fonts_of(pdf: Path) -> dict[str, str]:
    """Each embedded font's name (subset tag aside) → a digest of its embedded program."""
    import hashlib
    fonts = {}
    with pikepdf.open(pdf) as document:
        for item in document.objects:
            if isinstance(item, pikepdf.Dictionary) and item.get("/Type") == "/FontDescriptor":
                program = item.get("/FontFile2")
                name = str(item.FontName).split("+")[-1]
                fonts[name] = hashlib.sha256(program.read_bytes()).hexdigest() if program is not None else ""
    return fonts


def _letters_fonts(pdf: Path) -> set[tuple[str, str]]:
    """(letter, the name of the font it is drawn in) for every letter of the file, read back by pdfium."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    found = set()
    document = pdfium.PdfDocument(pdf)
    for page in document:
        text = page.get_textpage()
        for index in range(text.count_chars()):
            buffer = ctypes.create_string_buffer(256)
            raw.FPDFText_GetFontInfo(text, index, buffer, 256, None)
            letter = chr(raw.FPDFText_GetUnicode(text, index))
            if letter.strip():
                found.add((letter, buffer.value.decode().split("+")[-1]))
    document.close()
    return found


@pytest.fixture(scope="module")
def cached(tmp_path_factory) -> tuple[Path, Path, bytes]:
    """A game set in Nunito regular and bold, the font cache its first build filled, and its cards.pdf."""
    root = tmp_path_factory.mktemp("font-cache")
    game = make_game(root, {"templates/back.yaml": BOLD_BACK})
    cache = root / "cache"
    _nunito_cuts_linked(cache)
    _cards_build(game, root / "out", cache).assert_clean(0)
    return game, cache, (root / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf").read_bytes()


def _nunito_cuts_linked(cache: Path) -> None:
    """Nunito's regular and bold cuts and its character map, where pnp's own cache folder holds them,
    linked into `cache`'s fonts folder (tests/conftest.py private_font_cache, for these files only): the
    first build then reads them as it reads its own cuts, and no test waits for the two to be cut (3 s of
    its 4 s). The cases damage a copy of the folder (copytree copies the bytes), never these files."""
    from generator.cache_folder import cache_root
    from tests.conftest import _link_or_copy
    shared = cache_root() / "fonts"
    files = [*shared.glob(f"cut-{CUT_FORMAT}/Nunito-[47]00-*.ttf*"), *shared.glob("Nunito-*.cmap2")]
    if len(files) != 5:              # a cold cache, or cuts of other sources: the build cuts its own
        return
    for file in files:
        target = cache / "fonts" / file.relative_to(shared)
        target.parent.mkdir(parents=True, exist_ok=True)
        _link_or_copy(str(file), str(target))


def _cards_build(game: Path, out: Path, cache: Path):
    return run_pnp("build", str(game), "--only", "cards", "--paper", "a4", "--jobs", "1", "--out", str(out), "-q",
                   env={"PNP_CACHE_DIR": str(cache)}, timeout=120)


def _rebuilt_with(cached, tmp_path: Path, damage) -> None:
    """The cached build again over a copy of the cache that `damage(fonts folder)` changed: it succeeds
    and embeds the very fonts (names and programs) of the clean build, in the same bytes."""
    game, cache, clean = cached
    copy = tmp_path / "cache"
    shutil.copytree(cache, copy)
    damage(copy / "fonts")
    _cards_build(game, tmp_path / "out", copy).assert_clean(0)
    built = tmp_path / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf"
    reference = tmp_path / "clean.pdf"
    reference.write_bytes(clean)
    names = _fonts_of(reference)
    assert {name.split("-")[1] for name in names} == {"400", "700"}, names
    assert _fonts_of(built) == names
    # the card's name in the regular cut, the back's deck name in the bold one, as in the clean build
    letters = _letters_fonts(reference)
    assert ("S", [name for name in names if "-400-" in name][0]) in letters, letters
    assert ("C", [name for name in names if "-700-" in name][0]) in letters, letters
    assert _letters_fonts(built) == letters
    assert built.read_bytes() == clean


def _cut(fonts: Path, weight: int) -> Path:
    (found,) = (fonts / f"cut-{CUT_FORMAT}").glob(f"Nunito-{weight}-*.ttf")
    return found


def test_a_truncated_cached_font_is_cut_again(cached, tmp_path):
    def truncate(fonts: Path) -> None:
        font = _cut(fonts, 400)
        font.write_bytes(font.read_bytes()[:5000])
    _rebuilt_with(cached, tmp_path, truncate)


def test_a_cached_font_of_garbage_is_cut_again(cached, tmp_path):
    def garbage(fonts: Path) -> None:
        font = _cut(fonts, 700)
        font.write_bytes(random.Random(7).randbytes(font.stat().st_size))
    _rebuilt_with(cached, tmp_path, garbage)


def test_two_swapped_cached_fonts_are_not_embedded(cached, tmp_path):
    def swap(fonts: Path) -> None:
        regular, bold = _cut(fonts, 400), _cut(fonts, 700)
        regular_bytes = regular.read_bytes()
        regular.write_bytes(bold.read_bytes())
        bold.write_bytes(regular_bytes)
    _rebuilt_with(cached, tmp_path, swap)


def test_a_damaged_cached_character_map_is_read_again(cached, tmp_path):
    def truncate(fonts: Path) -> None:
        (cmap,) = fonts.glob("Nunito-*.cmap*")      # .cmap2 now, .cmap before
        cmap.write_bytes(cmap.read_bytes()[:-3])
    _rebuilt_with(cached, tmp_path, truncate)


def _records(data: bytes) -> tuple[bytes, int, list[tuple[bytes, bytes, bytes]]]:
    """A layouts file's header, the bytes of each record's head beyond its digest and length (format 3: a
    checksum; format 2: none), and its records as (digest, that extra, pickle)."""
    head = len(b"pnp-layouts\n") + 4
    extra = 4 if int.from_bytes(data[head - 4:head], "little") >= 3 else 0
    records, offset = [], head
    while offset < len(data):
        digest, length = data[offset:offset + 64], int.from_bytes(data[offset + 64:offset + 68], "little")
        start = offset + 68 + extra
        records.append((digest, data[offset + 68:start], data[start:start + length]))
        offset = start + length
    return data[:head], extra, records


def test_fitted_texts_swapped_in_the_layout_cache_are_set_again(tmp_path):
    from tests.test_face_cache import _build, _game
    game = _game(tmp_path)
    cache = tmp_path / "cache"
    clean = _build(game, tmp_path / "fill", cache)
    (records,) = (cache / "layouts").glob("*.records")
    head, _, entries = _records(records.read_bytes())
    pickles = [entry[2] for entry in entries]
    assert len(set(pickles)) > 1
    moved = pickles[1:] + pickles[:1]         # each text's lines filed under the next text's digest
    records.write_bytes(head + b"".join(digest + len(data).to_bytes(4, "little") + extra + data
                                        for (digest, extra, _), data in zip(entries, moved, strict=True)))
    assert _build(game, tmp_path / "swapped", cache) == clean
