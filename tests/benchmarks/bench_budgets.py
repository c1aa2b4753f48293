"""Benchmark: the time budgets the test suite no longer asserts, each case a whole `pnp` process.

Run: python tests/benchmarks/bench_budgets.py [CASE...] [--repeat 3] [--list]

A test that asserts seconds fails on a loaded machine and passes on a fast one for the same
code, so the suite checks what each case does (its message, its pages, what was drawn, its
memory) and this script times it: the same inputs, built by the tests' own helpers, run as
the tests run them (tests/robustness/harness.py: a child process, its peak memory read from
/proc), each --repeat times. It prints the median wall-clock time, the median processor time
(user + system, the child's and its workers'), which other work on a shared machine does not
stretch, and the budget the test had; a case over its budget on the processor is marked.
The load average is printed: wall-clock times on a shared machine are the machine's.

The budgets (the issue each came from, in brackets where the test's name says it):
up-to-date build 1 s (in-process); rulebook of a 5,000-row table or a 2 MB paragraph 30 s (85 s and over
a minute before); check --preflight of a deflate bomb, 9 streams of 120 MiB or a FIFO 10 s;
check of 6,000 errors 10 s (232 s); i18n import of 400,000 PO units 10 s; i18n stub with a
FIFO catalog, check of an SVG of 30,001 elements, of art linked to a FIFO and of a 40 MB font
10 s; build of 1,000 editions 10 s; check of a 7 MB path 4 s (16-38 s) and its count alone
in-process 1 s; a 16-megapixel PNG separated to CMYK 10 s of processor time (98 s); `pnp --help` and a no-op
build 0.3 s of processor time past a bare Python's start.
`pnp serve`'s budgets are timed by bench_serve.py.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.robustness.harness import run_pnp  # noqa: E402
from tests.test_content_errors import BASE_FILES, make_game  # noqa: E402


@dataclass(frozen=True)
class Timed:
    wall: float
    processor: float
    peak_mib: float


def timed_pnp(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Timed:
    """One `pnp` child as the tests run it: wall-clock and processor seconds, peak MiB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = run_pnp(*args, cwd=cwd, env=env, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert "Traceback" not in run.output, run.output
    processor = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Timed(run.seconds, processor, run.peak_bytes / 2**20)


def timed_call(function: Callable[[], object]) -> Timed:
    """An in-process call: wall-clock and processor seconds of this process."""
    started, cpu = time.perf_counter(), time.process_time()
    function()
    return Timed(time.perf_counter() - started, time.process_time() - cpu, 0.0)


# ---------------------------------------------------------------- the cases: folder -> one timed run

def up_to_date_build(folder: Path) -> Timed:
    """In-process, as tests/builds/test_files.py builds: the second build's own time (no start-up)."""
    from generator.build import BuildOptions, build
    game = make_game(folder, {})
    options = BuildOptions(out=folder / "out", papers=("a4",), print_shop_png=False)
    build([game], options)
    return timed_call(lambda: build([game], options))


def long_table(folder: Path) -> Timed:
    from tests.robustness.test_bounded_work import long_table_game
    game = long_table_game(folder, 5000)
    return timed_pnp("build", str(game), "--only", "rules", "--paper", "a4", "--lang", "en", "--jobs", "1",
                     "--out", str(folder / "out"), "-q")


def long_paragraph(folder: Path) -> Timed:
    from tests.robustness.test_bounded_work import long_paragraph_game, long_paragraph_words
    game = long_paragraph_game(folder, long_paragraph_words(330_000))
    return timed_pnp("build", str(game), "--only", "rules", "--paper", "a4", "--lang", "en", "--jobs", "1",
                     "--out", str(folder / "out"), "-q")


def _preflight(folder: Path, damage: Callable[[Path], None]) -> Timed:
    game = make_game(folder, {})
    out = folder / "out"
    timed_pnp("build", str(game), "--only", "cards", "--paper", "a4", "--jobs", "1", "--out", str(out), "-q")
    damage(out / "g" / "standard" / "en" / "a4" / "cards.pdf")
    return timed_pnp("check", "--preflight", str(game), "--out", str(out))


def preflight_bomb(folder: Path) -> Timed:
    from tests.robustness.test_bounded_work import bomb_pdf
    return _preflight(folder, lambda cards: cards.write_bytes(bomb_pdf()))


def preflight_streams(folder: Path) -> Timed:
    from tests.robustness.test_bounded_work import bomb_pdf
    return _preflight(folder, lambda cards: cards.write_bytes(bomb_pdf(streams=9, inflated=120 * 2**20)))


def preflight_fifo(folder: Path) -> Timed:
    def fifo(cards: Path) -> None:
        cards.unlink()
        os.mkfifo(cards)
    return _preflight(folder, fifo)


def six_thousand_errors(folder: Path) -> Timed:
    cards = "".join(f"      - {{id: c{i}, count: 1, fields: {{name: cards.missing{i}, art: art/star.svg}}}}\n"
                    for i in range(6000))
    game = make_game(folder, {"cards.yaml": BASE_FILES["cards.yaml"].split("      - id: star")[0] + cards})
    return timed_pnp("check", str(game), cwd=folder)


def huge_po_import(folder: Path) -> Timed:
    from tests.robustness.test_new_commands import _exchange_game, _exported
    game = _exchange_game(folder)
    po = _exported(game, folder / "p", "po")
    (folder / "huge.po").write_text(po + "".join(f'\nmsgctxt "k{index}"\nmsgid "x"\nmsgstr "y"\n'
                                                 for index in range(400_000)))
    return timed_pnp("i18n", "import", str(game), str(folder / "huge.po"))


def fifo_catalog_stub(folder: Path) -> Timed:
    game = make_game(folder, {})
    os.mkfifo(game / "i18n" / "de.yaml")
    return timed_pnp("i18n", "stub", str(game), "--lang", "de")


def svg_of_many_elements(folder: Path) -> Timed:
    from tests.robustness.test_art_and_fonts import SVG_HEAD, game_with_art
    game_with_art(folder, "star.svg", f"{SVG_HEAD}{'<rect/>' * 30_001}</svg>".encode())
    return timed_pnp("check", "g", cwd=folder)


def art_linked_to_fifo(folder: Path) -> Timed:
    from tests.robustness.test_art_and_fonts import game_with_art
    game = game_with_art(folder, "star.svg", None)
    os.mkfifo(game / "art" / "pipe")
    (game / "art" / "star.svg").symlink_to("pipe")
    return timed_pnp("build", "g", "--out", str(folder / "out"), cwd=folder)


def forty_megabyte_font(folder: Path) -> Timed:
    from tests.robustness.test_art_and_fonts import game_with_font, nunito_bytes
    game = game_with_font(folder)
    with open(game / "face.ttf", "wb") as handle:
        handle.write(nunito_bytes())
        handle.truncate(40 * 2**20)
    return timed_pnp("check", "g", cwd=folder)


def thousand_editions(folder: Path) -> Timed:
    from tests.robustness.test_content_hostile import with_editions_and_languages
    make_game(folder, with_editions_and_languages(1_000, 1))
    return timed_pnp("build", "g", "--only", "cards", "--paper", "a4", "--jobs", "1", "-q",
                     "--out", str(folder / "out"), cwd=folder)


def huge_path(folder: Path) -> Timed:
    from tests.robustness.test_art_hostile import huge_path_svg
    game = make_game(folder, {})
    env = {"PNP_CACHE_DIR": str(folder / "cache")}
    timed_pnp("check", "g", cwd=folder, env=env)              # the font cache warm, as in any second check
    (game / "art" / "star.svg").write_bytes(huge_path_svg())
    return timed_pnp("check", "g", cwd=folder, env=env)


def huge_path_count(folder: Path) -> Timed:
    from generator.render.svg_guard import SvgRefused, checked_svg_root
    from tests.robustness.test_art_hostile import huge_path_svg
    data = huge_path_svg()

    def refuse() -> None:
        try:
            checked_svg_root(data)
        except SvgRefused:
            return
        raise AssertionError("the 7 MB path was not refused")
    return timed_call(refuse)


def cmyk_png(folder: Path) -> Timed:
    from tests.robustness.test_art_and_fonts import game_with_art
    from tests.robustness.test_art_hostile import sixteen_megapixel_png
    game_with_art(folder, "big.png", sixteen_megapixel_png())
    return timed_pnp("build", "g", "--out", "out", "--paper", "a4", "--only", "cards", "--color", "cmyk", "-q",
                     cwd=folder)


def _start(folder: Path, args: list[str]) -> Timed:
    """Processor time of `pnp ARGS` in a `pnp new` game's folder past a bare Python's (the best of 3 each),
    as tests/install/test_project.py timed it."""
    import subprocess
    from click.testing import CliRunner

    from generator.cli import main as cli
    previous = os.getcwd()
    os.chdir(folder)
    try:
        assert CliRunner().invoke(cli, ["new", "mygame"]).exit_code == 0
    finally:
        os.chdir(previous)

    def child(code: str) -> tuple[float, float]:
        before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, check=True, timeout=120)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (time.perf_counter() - started,
                after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    pnp = f"import sys; sys.argv = ['pnp'] + {args!r}; from generator.__main__ import run; run()"
    child(f"import sys; sys.argv = ['pnp'] + {['build', 'mygame', '--paper', 'a4', '-q']!r}; "
          "from generator.__main__ import run; run()")       # built once: the no-op build has nothing to do
    bare = min(child("pass") for _ in range(3))
    best = min(child(pnp) for _ in range(3))
    return Timed(best[0] - bare[0], best[1] - bare[1], 0.0)


def help_start(folder: Path) -> Timed:
    return _start(folder, ["--help"])


def no_op_build_start(folder: Path) -> Timed:
    return _start(folder, ["build", "mygame", "--paper", "a4"])


# name -> (the case, its budget in seconds)
CASES: dict[str, tuple[Callable[[Path], Timed], float]] = {
    "up-to-date-build": (up_to_date_build, 1.0),
    "rulebook-5000-rows": (long_table, 30.0),
    "rulebook-2mb-paragraph": (long_paragraph, 30.0),
    "preflight-deflate-bomb": (preflight_bomb, 10.0),
    "preflight-9-streams": (preflight_streams, 10.0),
    "preflight-fifo": (preflight_fifo, 10.0),
    "check-6000-errors": (six_thousand_errors, 10.0),
    "import-400000-po-units": (huge_po_import, 10.0),
    "stub-fifo-catalog": (fifo_catalog_stub, 10.0),
    "svg-30001-elements": (svg_of_many_elements, 10.0),
    "art-linked-to-fifo": (art_linked_to_fifo, 10.0),
    "font-40mb": (forty_megabyte_font, 10.0),
    "build-1000-editions": (thousand_editions, 10.0),
    "check-7mb-path": (huge_path, 4.0),
    "count-7mb-path-in-process": (huge_path_count, 1.0),
    "cmyk-16-megapixel-png": (cmyk_png, 10.0),
    "help-start-past-python": (help_start, 0.3),
    "no-op-build-past-python": (no_op_build_start, 0.3),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("cases", nargs="*", help="the cases to run (all by default)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--list", action="store_true", help="name the cases and their budgets")
    args = parser.parse_args()
    if args.list:
        for name, (_, budget) in CASES.items():
            print(f"{name:28} {budget:5.1f} s")
        return
    unknown = sorted(set(args.cases) - set(CASES))
    if unknown:
        parser.error(f"no such case: {', '.join(unknown)} (--list names them)")
    random.seed(0)
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'case':28} {'wall s':>7} {'cpu s':>7} {'budget':>7} {'peak MiB':>9}")
    over = []
    for name in args.cases or CASES:
        case, budget = CASES[name]
        runs = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as temporary:
                runs.append(case(Path(temporary)))
        wall = statistics.median(run.wall for run in runs)
        processor = statistics.median(run.processor for run in runs)
        peak = max(run.peak_mib for run in runs)
        mark = "  OVER" if processor >= budget else ""
        if mark:
            over.append(name)
        print(f"{name:28} {wall:7.2f} {processor:7.2f} {budget:7.1f} {peak:9.0f}{mark}", flush=True)
    if over:
        sys.exit(f"over budget on the processor: {', '.join(over)}")


if __name__ == "__main__":
    main()
