"""Whole-process time and peak memory of `pnp build` for generated decks of 1,000 / 5,000 / 10,000 cards.

Run: python tests/benchmarks/bench_scale.py [--distinct 100 | --all-different] [--jobs 1]
Uses /usr/bin/time -v (GNU time) for wall-clock time and maximum resident set size. The build
writes everything a real one does: cards.pdf, kit.pdf, the print-shop PDF and a PNG per card side.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cards import compile_engine, make_game  # noqa: E402


def measure(cards: int, distinct: int, jobs: int) -> tuple[str, int]:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        game = make_game(folder / "content", cards, distinct)
        pnp = shutil.which("pnp") or "pnp"
        result = subprocess.run(["/usr/bin/time", "-v", pnp, "build", str(game), "--paper", "a4", "--jobs", str(jobs),
                                 "-q", "--out", str(folder / "out")], capture_output=True, text=True, check=True)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", result.stderr).group(1)
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1)) // 1024
    return wall, peak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--distinct", type=int, default=100)
    parser.add_argument("--all-different", action="store_true", help="every card its own face (the worst case)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (pnp build's --jobs)")
    args = parser.parse_args()
    compile_engine()
    print(f"{'cards':>7} {'wall clock':>11} {'peak MiB':>9}")
    for cards in (1000, 5000, 10000):
        wall, peak = measure(cards, cards if args.all_different else args.distinct, args.jobs)
        print(f"{cards:>7} {wall:>11} {peak:>9}")


if __name__ == "__main__":
    main()
