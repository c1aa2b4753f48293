"""Benchmark: a rulebook target — one edition and language, rules.pdf and rules-booklet.pdf on A4 and Letter — as
the whole command a user runs, reporting the median processor time (user + system of the child).

Run: python tests/benchmarks/bench_rules.py [--repeat 5] [--cold] [--target GAME:EDITION:LANG ...]

Each target is `pnp build content/GAME --edition EDITION --lang LANG --only rules,booklet --force --out TMP -q`
in a child process. One run of each comes first, as in any second build: the fonts cut, pnp's modules compiled
(PYTHONDONTWRITEBYTECODE is unset for the runs: an installed pnp has its bytecode), the art drawings and fitted
texts kept in the cache folder. Then the targets run --repeat times in turn and the median counts; `--cold` adds
the same command with PNP_NO_CACHE=1 (every text fitted and every SVG drawn again). The load average is
printed: a shared machine's load stretches processor time too (caches and cores are shared).

Issue 28 asks for at most 1.5 s for christmas-round full en. Measured here (2 cores shared with seven other
engineers' work, load average 3-4, medians of 7): christmas-round full en 1.29-1.40 s warm, 1.52 s cold; sorry ka
1.11-1.12 s warm, 1.19 s cold. The tree this work started from, interleaved with it in one run: 1.88 s against
1.32 s, the same bytes (2.1-2.5 s on a busier machine; 3.0-3.5 s on platypus). Of christmas-round's, ~0.05 s is
Python's start, ~0.45 s imports (pydantic's models ~0.13 s, ReportLab with reportlab.graphics and platypus
~0.15 s, pikepdf and pdfium for the booklet ~0.1 s), ~0.12 s reading the game, ~0.17 s laying it out (only the
cards the rulebook prints have their art read; kept SVG drawings are unpickled, not drawn by svglib), ~0.15 s
copyfitting both rulebooks (their texts fitted: the first step; the further steps ~5 ms each), ~0.3 s drawing
them and ~0.2 s imposing the two booklets.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ("christmas-round:full:en", "sorry:standard:ka")
BUDGET = 1.5        # seconds of processor time (issue 28, item 9)


def _environment(cold: bool) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    if cold:
        environment["PNP_NO_CACHE"] = "1"
    else:
        environment.pop("PNP_NO_CACHE", None)
    return environment


def run(target: str, out: Path, cold: bool = False) -> float:
    """One whole `pnp build` of the target's rulebook: the child's user + system seconds."""
    game, edition, lang = target.split(":")
    command = [sys.executable, "-m", "generator", "build", str(ROOT / "content" / game), "--edition", edition,
               "--lang", lang, "--only", "rules,booklet", "--force", "--out", str(out), "-q"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(command, cwd=ROOT, env=_environment(cold), capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="also time the builds with PNP_NO_CACHE=1")
    parser.add_argument("--target", action="append", help="GAME:EDITION:LANG (default: %s)" % ", ".join(TARGETS))
    arguments = parser.parse_args()
    targets = tuple(arguments.target or TARGETS)
    cases = [(target, False) for target in targets] + ([(target, True) for target in targets] if arguments.cold
                                                        else [])
    times: dict[tuple[str, bool], list[float]] = {case: [] for case in cases}
    with tempfile.TemporaryDirectory(prefix="pnp-bench-rules-") as folder:
        out = Path(folder)
        for target in targets:
            run(target, out)                  # fonts cut, modules compiled, drawings kept
        for _ in range(arguments.repeat):
            for target, cold in cases:
                times[(target, cold)].append(run(target, out, cold))
    print(f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}; "
          f"median of {arguments.repeat} (processor seconds, user + system)")
    for (target, cold), seconds in times.items():
        median = statistics.median(seconds)
        mark = "  over the 1.5 s budget" if median > BUDGET and not cold else ""
        runs = " ".join(f"{value:.2f}" for value in sorted(seconds))
        print(f"  {target:<26} {'cold' if cold else 'warm'}  {median:5.2f} s   ({runs}){mark}")


if __name__ == "__main__":
    main()
