"""Benchmark: a deck of 10,000 rows read from an XLSX workbook (and the same as CSV), loaded and checked.

Run: python tests/benchmarks/bench_spreadsheet.py [--rows 10000] [--repeat 5]

Times `load_game` (reading game.yaml, the catalog, the templates and the sheet, every row
checked as a YAML card is) and, apart, the table read alone (python-calamine or csv), best
of --repeat runs. The issue's budget: the 10,000-row XLSX loads within a second. Peak RSS
is the process's, once loaded.
"""

from __future__ import annotations

import argparse
import io
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.content.game import load_game  # noqa: E402
from generator.content.spreadsheet import read_table  # noqa: E402
from generator.errors import Problems  # noqa: E402

HEADER = ["id", "count", "name", "name@en", "art", "cost", "color"]


def rows(count: int) -> list[list]:
    return [[f"card-{index}", index % 4 + 1, f"cards.c{index}", f"Card number {index}", "art/a.svg", index % 7,
             "red"] for index in range(count)]


def make_game(folder: Path, count: int) -> Path:
    import openpyxl
    game = folder / "bench"
    (game / "templates").mkdir(parents=True)
    (game / "i18n").mkdir()
    (game / "data").mkdir()
    (game / "game.yaml").write_text("id: bench\ntitle: t.title\nlanguages: [en]\neditions: {standard: {name: t.e}}\n")
    (game / "i18n" / "en.yaml").write_text('en:\n  t: {title: "Bench", e: "Standard", deck: "Deck"}\n')
    (game / "templates" / "card.yaml").write_text(
        "size: {width: 63mm, height: 88mm}\nboxes:\n"
        "  name: {kind: text, text: '@name', x: 5, y: 5, width: 53, height: 10}\n"
        "  art: {kind: art, art: '@art', x: 5, y: 20, width: 53, height: 40}\n"
        "  cost: {kind: text, literal: '@cost', x: 5, y: 70, width: 10, height: 8}\n"
        "  bg: {kind: rect, area: trim, fill: '@color'}\n")
    (game / "cards.yaml").write_text("decks:\n  - {id: deck, name: t.deck, template: card, back: card, "
                                     "cards_from: data/deck.xlsx}\n")
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("deck")
    sheet.append(HEADER)
    for row in rows(count):
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    (game / "data" / "deck.xlsx").write_bytes(buffer.getvalue())
    (game / "data" / "deck.csv").write_text("\n".join(",".join(map(str, row)) for row in [HEADER, *rows(count)]))
    return game


def best(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        game = make_game(Path(temporary), arguments.rows)
        size = (game / "data" / "deck.xlsx").stat().st_size

        def load() -> None:
            problems = Problems()
            source = load_game(game, problems)
            assert not problems.errors, [str(problem) for problem in problems.errors]
            assert len(source.pieces["cards"].sets[0].cards) == arguments.rows
            assert len(source.catalogs["en"].entries) == arguments.rows + 3

        read_xlsx = best(lambda: read_table(game, "data/deck.xlsx"), arguments.repeat)
        read_csv = best(lambda: read_table(game, "data/deck.csv"), arguments.repeat)
        loaded = best(load, arguments.repeat)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{arguments.rows:,} rows ({size / 1024:,.0f} KB XLSX), best of {arguments.repeat}:")
        print(f"  table read: XLSX {read_xlsx * 1000:.0f} ms, CSV {read_csv * 1000:.0f} ms")
        print(f"  load_game with the XLSX deck: {loaded * 1000:.0f} ms (budget 1000 ms)  peak RSS {peak:.0f} MB")
        if loaded >= 1.0:
            sys.exit(f"over budget: {loaded:.2f} s")


if __name__ == "__main__":
    main()
