"""Shared fixtures: every shipped game built once per test run, shared by every test file and worker.

A whole-game build costs seconds; tests that read a shipped game's PDFs ask `shipped_build(game)`
for its output folder instead of building their own. The builds go into one folder of the run's
temporary directory that all pytest-xdist workers share (the parent of each worker's own basetemp);
a file lock per game lets the first worker that needs a game build it while the others wait, and
pnp's incremental build makes every later request a digest check (no file is written again).

The shared output is read-only for tests: a test that edits, removes or rebuilds files builds its
own copy under tmp_path.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

# Where Python is told to write no bytecode (PYTHONDONTWRITEBYTECODE), each pytest worker compiled and
# rewrote the asserts of every test module and compiled pnp's modules again on every run (7.5 s of
# processor time per worker to collect, 2.7 s with the compiled code kept), and so did each of the
# hundreds of `pnp` processes the tests start (~0.15 s each). The compiled code is kept instead, as
# Python keeps it by default, but outside the source tree: in one folder of pnp's cache
# (PYTHONPYCACHEPREFIX), for this process and the processes it starts. What a test checks does not
# depend on it; a test that is about bytecode sets its children's environment itself.
if sys.dont_write_bytecode and not sys.pycache_prefix:
    sys.pycache_prefix = os.path.join(os.environ.get("PNP_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pnp"), "test-bytecode")
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
    del os.environ["PYTHONDONTWRITEBYTECODE"]

import pytest  # noqa: E402
from filelock import FileLock  # noqa: E402

from generator.build import BuildOptions, build  # noqa: E402  (pnp's modules compiled once, as kept above)
from generator.cache_folder import cache_root  # noqa: E402
from generator.options import HOME_OUTPUTS, OUTPUTS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SHIPPED_GAMES = tuple(sorted(path.name for path in CONTENT.iterdir() if (path / "game.yaml").is_file()))
ALL_BUT_PNGS = frozenset(OUTPUTS) - {"png"}
# What the shared build of a game makes beyond pnp's defaults without print-shop PNGs (every edition,
# language, paper and output): only what tests read of it, in parts (edition, language, paper, output
# options of one BuildOptions each; the other options, and so each target's digest, are the same in every
# part). Print-shop PNGs are the slowest output: tests read christmas-round's full edition's in Bulgarian
# (its other 140 PNGs took 1.6 s). Of Belarus the English files are read on A4 at home only, of
# christmas-trees no print-shop file. A test that reads more adds it here.
SHIPPED_PARTS: Mapping[str, tuple[Mapping[str, Any], ...]] = MappingProxyType({
    "christmas-round": (dict(print_shop_png=True, only=ALL_BUT_PNGS),
                        dict(print_shop_png=True, editions=("full",), languages=("bg",), only=frozenset({"png"}))),
    "must-see-belarus": (dict(languages=("ru",)), dict(languages=("en",), papers=("a4",), only=HOME_OUTPUTS)),
    "christmas-trees": (dict(only=HOME_OUTPUTS),),
})


def shipped_build_options(game: str, out: Path) -> list[BuildOptions]:
    """The option sets of a game's shared build (SHIPPED_PARTS), one build each. Under xdist each worker
    already has a core; a single-process run (-n0) builds on every core (the same bytes either way)."""
    jobs = 1 if os.environ.get("PYTEST_XDIST_WORKER") else (os.cpu_count() or 1)
    parts = SHIPPED_PARTS.get(game, (dict(print_shop_png=False),))
    return [BuildOptions(out=out, jobs=jobs, **{"print_shop_png": False, **part}) for part in parts]


def _run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every worker of this run shares: the parent of the workers' own basetemps under xdist."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def shipped_build(tmp_path_factory) -> Callable[[str], Path]:
    """`shipped_build(game)`: the output folder (<out>/<game>) of a shipped game's build (SHIPPED_PARTS),
    built at most once per run across all workers."""
    out = _run_folder(tmp_path_factory) / "shipped-builds"
    out.mkdir(exist_ok=True)
    ready: dict[str, Path] = {}

    def get(game: str) -> Path:
        if game not in ready:
            assert game in SHIPPED_GAMES, f"{game!r} is not a shipped game: {SHIPPED_GAMES}"
            with FileLock(str(out / f".{game}.lock")):
                for options in shipped_build_options(game, out):
                    report = build([CONTENT / game], options)
                    assert report.written or report.up_to_date, f"{game}: the shared build made nothing"
            ready[game] = out / game
        return ready[game]
    return get


@pytest.fixture(scope="session")
def built_christmas(shipped_build) -> Path:
    """output/ of christmas-round's shared build (both editions, bg and en, A4 and Letter; the full edition's
    print-shop PNGs in Bulgarian)."""
    return shipped_build("christmas-round")


def private_font_cache(cache: Path) -> Path:
    """`cache`, a folder for PNP_CACHE_DIR, holding the font instances pnp has cut already (slow to make):
    a test's faces and texts start cold, but no test waits for a font to be cut. The files are linked, not
    copied: the shared folder held 375 MB here, 4.6 s to copy for every server and session that asked.
    pnp replaces a cache file, never writes into one, and no test that asks for this damages them."""
    fonts = cache_root() / "fonts"
    if fonts.is_dir() and not (cache / "fonts").exists():
        shutil.copytree(fonts, cache / "fonts", copy_function=_link_or_copy)
    return cache


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:                 # another filesystem, or no links there: a copy
        shutil.copy2(source, target)


# How long each of the longest test files takes (seconds its worker spends on it: the sum of its tests'
# times in the full suite's --durations on 2 cores, an empty cache as on a new machine — fonts still to cut —,
# 2026-12-03), longest first.
# pytest-xdist's --dist loadfile hands each worker the next file as it finishes one; run in this order
# (longest first, pyproject.toml's --no-loadscope-reorder keeps it) the two cores end together, where its
# default order — files with the most tests first — left the longest files to the end (a worker ran 22 s
# longer than the other). Only the order of files changes, never a test; a file not listed runs after these,
# in collection order, and a stale figure costs only balance.
LONGEST_FILES: Mapping[str, int] = MappingProxyType({
    "text/test_words_exact.py": 24, "text/test_cjk_cut.py": 19, "games/test_world_scripts.py": 16,
    "robustness/test_serve_bounds.py": 16, "install/test_wheel.py": 15, "robustness/test_outputs_killed.py": 14,
    "imposition/test_printable_area.py": 11, "robustness/test_art_hostile.py": 11,
    "robustness/test_new_commands.py": 10, "robustness/test_outputs.py": 10, "robustness/test_art_and_fonts.py": 9,
    "test_print_formats.py": 8, "robustness/test_bounded_work.py": 8, "robustness/test_loading.py": 8,
    "robustness/test_preview.py": 7, "builds/test_files.py": 7, "serve/test_serve.py": 7,
    "robustness/test_hostile_input.py": 7, "rulebook/test_cover_and_pagination.py": 6,
    "robustness/test_numbers_and_bounds.py": 6, "i18n/test_exchange.py": 5, "robustness/test_swap_journal.py": 5,
    "install/test_project.py": 4, "i18n/test_engine_words_more.py": 4, "robustness/test_cache_damage.py": 4,
    "text/test_hyphenation_cache.py": 4, "robustness/test_content_hostile.py": 3, "games/test_more_games.py": 3,
    "imposition/test_cards_pdf.py": 3, "architecture/test_layers.py": 3,
})


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (pyproject.toml): a worker more than the cores. For about a fifth of the suite a test waits
    on what it started — a build it will kill, a server's head timeout, a browser — and a core idles; one
    more worker fills it: on 2 cores, three pairs of runs back to back on a fresh clone took 199 -> 138 s,
    135 -> 115 s and 125 -> 105 s (the same processor time); a fourth worker only added contention."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


def pytest_collection_modifyitems(config, items) -> None:
    """The longest files first (LONGEST_FILES); the tests of a file keep their order."""
    tests = Path(__file__).resolve().parent

    def seconds(item) -> int:
        try:
            return LONGEST_FILES.get(Path(item.fspath).resolve().relative_to(tests).as_posix(), 0)
        except ValueError:          # outside tests/
            return 0
    items.sort(key=lambda item: -seconds(item))
