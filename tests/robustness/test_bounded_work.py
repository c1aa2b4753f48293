"""Work bounded by what a real game needs: a long rulebook sets in linear time and `check --preflight` reads
a hostile file within bounds (a damaged or swapped font cache: tests/robustness/test_cache_damage.py).

Each case runs `pnp` as a user does (tests/robustness/harness.py: its own process, its memory
measured) and failed on the code before the fix: the 5,000-row table took 85 s, a 2 MB paragraph over a
minute, a deflate bomb aborted preflight at 1.5 GB, a FIFO hung it, a truncated cache file exited 70.
What is asserted is what was set and refused (pages, messages) and memory; the times (30 s for a
rulebook, 10 s for preflight) are the machine's speed and are measured by
tests/benchmarks/bench_budgets.py.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import zlib
from pathlib import Path

import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from tests.robustness.harness import run_pnp
from tests.test_content_errors import EN, make_game

KiB, MiB = 1 << 10, 1 << 20
PREFLIGHT_BYTES = 500 * MiB


# ------------------------------------------------------------------ a long rulebook

def _rules_game(tmp_path: Path, blocks: str, texts: str) -> Path:
    rules = ("rulebook:\n  cover: {title: game.title}\n  sections:\n    - heading: game.title\n      blocks:\n"
             + blocks)
    return make_game(tmp_path, {"rules.yaml": rules, "i18n/en.yaml": EN + "  rules:\n" + texts})


def _build_rules(game: Path, out: Path):
    return run_pnp("build", str(game), "--only", "rules", "--paper", "a4", "--lang", "en", "--jobs", "1",
                   "--out", str(out), "-q", timeout=240)


def _page_count(pdf: Path) -> int:
    with pikepdf.open(pdf) as document:
        return len(document.pages)


def _pages_text(pdf: Path) -> list[str]:
    """Each page's text, read back by pdfium."""
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


# The suite sets a table and a paragraph long enough to fill many pages; the sizes that once took
# minutes (5,000 rows: 85 s, 2 MB: over a minute) are timed by tests/benchmarks/bench_budgets.py.
TABLE_ROWS = 600
PARAGRAPH_WORDS = 30_000          # ~190 KB


def long_table_game(folder: Path, rows: int) -> Path:
    body = "".join(f"              - [rules.name, {index}]\n" for index in range(rows))
    return _rules_game(folder, "        - table:\n            header: [rules.name, rules.what]\n"
                               "            rows:\n" + body,
                       '    name: "Alpha"\n    what: "What it does"\n')


def long_paragraph_words(count: int) -> list[str]:
    return random.Random(1).choices(["alpha", "beta", "gamma", "delta", "epsilon", "kappa"], k=count)


def long_paragraph_game(folder: Path, words: list[str]) -> Path:
    return _rules_game(folder, "        - paragraph: rules.long\n", f'    long: "{" ".join(words)}"\n')


def test_a_long_table_sets_every_row_under_a_header_on_every_page(tmp_path):
    game = long_table_game(tmp_path, TABLE_ROWS)
    _build_rules(game, tmp_path / "out").assert_clean(0)
    pages = _pages_text(tmp_path / "out" / "g" / "standard" / "en" / "a4" / "rules.pdf")
    table = [page for page in pages if "Alpha" in page]
    assert len(table) > 10                                   # the table runs over many pages
    assert all("What it does" in page for page in table)      # the header repeated on each
    numbers = iter(int(word) for page in table for word in page.split() if word.isdigit())
    assert all(row in numbers for row in range(TABLE_ROWS))   # every row, in order (among the page numbers)


def test_a_long_paragraph_sets_every_word(tmp_path):
    words = long_paragraph_words(PARAGRAPH_WORDS)
    game = long_paragraph_game(tmp_path, words)
    _build_rules(game, tmp_path / "out").assert_clean(0)
    pages = _pages_text(tmp_path / "out" / "g" / "standard" / "en" / "a4" / "rules.pdf")
    assert len(pages) > 10
    printed = [word.strip("-\u00ad\ufffe\x02") for page in pages for word in page.split()]
    known = set(words)
    body = [word for word in printed if word in known]        # the running footer (read after the body) left out
    assert body[-4:] == words[-4:]                            # down to the last words


def test_a_table_longer_than_any_rulebook_prints_is_refused_where_it_is_written(tmp_path):
    rows = "".join(f"              - [{index}, {index}]\n" for index in range(10_001))
    game = _rules_game(tmp_path, "        - table:\n            header: [rules.name, rules.what]\n"
                                 "            rows:\n" + rows, '    name: "Alpha"\n    what: "What it does"\n')
    run = run_pnp("check", str(game), timeout=120).assert_clean(1)
    assert "g/rules.yaml:9:15: a table of 10,001 rows: more than 10,000, which no rulebook prints" in run.output, \
        run.output


def test_a_rulebook_of_more_words_than_any_prints_is_refused_at_the_text_that_passes_the_bound(tmp_path):
    text = " ".join(random.Random(2).choices(["alpha", "beta", "gamma"], k=250_000))     # ~1.4 MB
    blocks = "".join("        - paragraph: rules.long\n" for _ in range(3))
    game = _rules_game(tmp_path, blocks, f'    long: "{text}"\n')
    run = run_pnp("check", str(game), timeout=120).assert_clean(1)
    assert "g/rules.yaml:8:22: the rulebook's words pass 4,000,000 characters with 'rules.long'" in run.output, \
        run.output


# ------------------------------------------------------------------ check --preflight on hostile files

@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The minimal game and its cards.pdf (A4, English), built once for this file's preflight cases."""
    root = tmp_path_factory.mktemp("preflight")
    game = make_game(root, {})
    run_pnp("build", str(game), "--only", "cards", "--paper", "a4", "--jobs", "1", "--out", str(root / "out"),
            "-q").assert_clean(0)
    return game, root / "out"


def _copy(built, tmp_path: Path) -> tuple[Path, Path, Path]:
    game, out = built
    copy = tmp_path / "out"
    shutil.copytree(out, copy, symlinks=True)
    return game, copy, copy / "g" / "standard" / "en" / "a4" / "cards.pdf"


def _preflight(game: Path, out: Path):
    run = run_pnp("check", "--preflight", str(game), "--out", str(out), timeout=60)
    run.assert_clean(1)
    assert run.peak_bytes < PREFLIGHT_BYTES, f"{run.peak_bytes / MiB:.0f} MiB"
    return run


def _problem_of(run, name: str) -> str:
    """The error line printed under the report line of the file `name`."""
    lines = run.stdout.splitlines()
    for index, line in enumerate(lines):
        if line.split(" ")[0].endswith(name):
            assert lines[index + 1].startswith("    error: "), run.stdout
            return lines[index + 1]
    raise AssertionError(run.stdout)


def deflate_bomb(inflated: int = 1 << 30) -> bytes:
    """A zlib stream of `inflated` zero bytes in about a thousandth of that: one fully flushed block
    of a MiB of zeros repeated (each block stands alone), its checksum correct; under a MiB, zlib's own."""
    if inflated < MiB:
        return zlib.compress(bytes(inflated), 9)
    zero = bytes(MiB)
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw.compress(zero)
    raw.flush(zlib.Z_FULL_FLUSH)
    block = raw.compress(zero) + raw.flush(zlib.Z_FULL_FLUSH)
    adler = 1
    for _ in range(inflated // MiB):
        adler = zlib.adler32(zero, adler)
    return b"\x78\xda" + block * (inflated // MiB) + raw.flush() + adler.to_bytes(4, "big")


def bomb_pdf(streams: int = 1, inflated: int = 1 << 30) -> bytes:
    """A valid one-page PDF of about a MiB a stream whose page content is `streams` streams, each inflating
    to `inflated` bytes."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200))
    canvas.drawString(10, 10, "x")
    canvas.save()
    data = deflate_bomb(inflated)
    with pikepdf.open(io.BytesIO(buffer.getvalue())) as document:
        contents = []
        for _ in range(streams):
            stream = pikepdf.Stream(document, data)
            stream.Filter = pikepdf.Name.FlateDecode
            contents.append(document.make_indirect(stream))
        document.pages[0].Contents = contents[0] if streams == 1 else pikepdf.Array(contents)
        out = io.BytesIO()
        document.save(out)
    return out.getvalue()


def test_a_deflate_bomb_is_refused_as_that_files_problem(built, tmp_path):
    game, out, cards = _copy(built, tmp_path)
    cards.write_bytes(bomb_pdf())
    assert cards.stat().st_size < 2 * MiB
    run = _preflight(game, out)
    assert "a stream that inflates past 128 MiB" in _problem_of(run, "a4/cards.pdf"), run.stdout


def test_many_streams_under_the_bound_each_are_refused_past_it_in_all(built, tmp_path):
    """Streams each under the bound for one, refused once they pass the bound for all: nine of 120 KiB
    (1.05 MiB) past 1 MiB, eight (960 KiB) not. The bounds are preflight's settings lowered 1,024 times
    (DecodeBounds; pnp's own are 128 MiB and 1 GiB, and nine 120 MiB streams took 4 s of processor time to
    count); the bomb above is refused at pnp's own bound, in a child whose memory is measured."""
    from generator.preflight import DecodeBounds, preflight
    game, out, cards = _copy(built, tmp_path)
    bounds = DecodeBounds(stream=128 * KiB, total=MiB)
    for streams, refused in ((8, False), (9, True)):
        cards.write_bytes(bomb_pdf(streams=streams, inflated=120 * KiB))
        (report,) = [report for report in preflight(out, [("g", "standard", "en")], bounds=bounds)
                     if report.path == cards]
        inflated = [error for error in report.errors if "inflate" in error]
        assert inflated == (["its streams inflate past 1 MiB in all: run `pnp build` to rebuild it"] if refused
                            else []), (streams, report.errors)


def test_a_fifo_in_place_of_a_pdf_is_refused_not_waited_on(built, tmp_path):
    game, out, cards = _copy(built, tmp_path)
    cards.unlink()
    os.mkfifo(cards)
    run = _preflight(game, out)
    assert "not a regular file but a FIFO" in _problem_of(run, "a4/cards.pdf"), run.stdout


def test_a_link_out_of_the_output_folder_is_not_followed(built, tmp_path):
    game, out, cards = _copy(built, tmp_path)
    outside = tmp_path / "elsewhere.pdf"
    outside.write_bytes(cards.read_bytes())
    cards.unlink()
    cards.symlink_to(outside)
    run = _preflight(game, out)
    assert "a link leading out of the output folder" in _problem_of(run, "a4/cards.pdf"), run.stdout
