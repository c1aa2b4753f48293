"""Benchmark: a generated 1000-card deck through the whole engine vs a plain ReportLab floor.

Run: python tests/benchmarks/bench_cards.py [--cards 1000]
Prints cards per second, peak memory (RSS) of each side, and the ratio of the
engine's time to a straightforward ReportLab script that draws the same pages
(same grid, same text, back and art drawn once as forms) in the same run.

Each side runs --repeat times in fresh processes, alternating, and the best time
of each counts: on a shared machine the minimum is the figure least disturbed
by other work. The engine's time is the whole build call (reading the YAML,
checking, layout, imposition, drawing, writing the file); the floor's is its
drawing and saving, with layout known in advance.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ART = ROOT / "content" / "christmas-round" / "art" / "gifts" / "teddy.svg"
EFFECT = "Move 3 more spaces forward. Deliver at every house you pass. Then do what the new space says."


def make_game(folder: Path, cards: int, distinct: int | None = None) -> Path:
    distinct = distinct or cards
    game = folder / "bench"
    (game / "templates").mkdir(parents=True)
    (game / "i18n").mkdir()
    (game / "art").mkdir()
    (game / "art" / "teddy.svg").write_bytes(ART.read_bytes())
    (game / "game.yaml").write_text(textwrap.dedent("""\
        id: bench
        title: t.title
        languages: [en]
        editions: {standard: {name: t.title}}
        """))
    catalog = ["en:", "  t:", '    title: "Bench"', f'    effect: "{EFFECT}"', "  card:"]
    catalog += [f'    c{n}: "Card number {n}"' for n in range(distinct)]
    (game / "i18n" / "en.yaml").write_text("\n".join(catalog) + "\n")
    deck = ["decks:", "  - id: bench", "    name: t.title", "    template: front", "    back: back", "    cards:"]
    copies = cards // distinct
    deck += [f"      - {{id: c{n}, count: {copies + (1 if n < cards % distinct else 0)}, fields: {{name: card.c{n}}}}}"
             for n in range(distinct)]
    (game / "cards.yaml").write_text("\n".join(deck) + "\n")
    (game / "templates" / "front.yaml").write_text(textwrap.dedent("""\
        extends: poker-card
        boxes:
          bg: {kind: rect, area: bleed, fill: "#1e88e5"}
          panel: {kind: rect, x: 3, y: 3, width: 57, height: 82, radius: 2.5, fill: "#fff8ec"}
          title: {kind: text, text: "@name", x: 5, y: 6, width: 53, height: 9, style: title}
          art: {kind: art, art: art/teddy.svg, x: 14, y: 18, width: 35, height: 30}
          effect: {kind: text, text: t.effect, x: 5, y: 52, width: 53, height: 28, style: body}
        """))
    (game / "templates" / "back.yaml").write_text(textwrap.dedent("""\
        extends: poker-card
        boxes:
          bg: {kind: rect, area: bleed, fill: "#a31621"}
          art: {kind: art, art: art/teddy.svg, x: 10, y: 20, width: 43, height: 43}
        """))
    # the shared poker-card template is found beside content/ by walking up: link it in
    (folder / "templates").mkdir()
    (folder / "templates" / "poker-card.yaml").write_bytes((ROOT / "templates" / "poker-card.yaml").read_bytes())
    return game


ENGINE = """
import sys, time, resource
from pathlib import Path
from generator.build import BuildOptions, build
from generator.text.fonts import FontLibrary
FontLibrary().face("nunito")  # font instances cached on disk beforehand, as in any second build
start = time.perf_counter()
build([Path(sys.argv[1])], BuildOptions(out=Path(sys.argv[2]), papers=("a4",), print_shop=False, kit=False))
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

FLOOR = """
import sys, time, resource, io
from pathlib import Path
from reportlab import rl_config
rl_config.useA85 = 0
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.graphics import renderPDF
from svglib.svglib import svg2rlg
from generator.text.fonts import FontLibrary
cards, art = int(sys.argv[1]), sys.argv[2]
regular = FontLibrary().face("nunito").path
black = FontLibrary().face("nunito", "black").path
start = time.perf_counter()
pdfmetrics.registerFont(TTFont("R", str(regular))); pdfmetrics.registerFont(TTFont("B", str(black)))
drawing = svg2rlg(art)
effect = "Move 3 more spaces forward. Deliver at every house you pass. Then do what the new space says."
lines = ["Move 3 more spaces forward.", "Deliver at every house you", "pass. Then do what the new", "space says."]
c = Canvas(io.BytesIO(), pagesize=(210*mm, 297*mm), invariant=1, initialFontName="R")
c.beginForm("art", 0, 0, drawing.width, drawing.height); renderPDF.draw(drawing, c, 0, 0); c.endForm()
c.beginForm("back", -3*mm, -3*mm, 66*mm, 91*mm)
c.setFillColor(HexColor("#a31621")); c.rect(-3*mm, -3*mm, 69*mm, 94*mm, stroke=0, fill=1)
c.saveState(); c.translate(10*mm, 25*mm); c.scale(43*mm/drawing.width, 43*mm/drawing.height); c.doForm("art"); c.restoreState()
c.endForm()
for sheet in range(0, cards, 9):
    batch = range(sheet, min(sheet + 9, cards))
    for back in (False, True):
        for i in batch:
            row, col = divmod(i - sheet, 3)
            if back: col = 2 - col
            x, y = (10.5 + col * 63) * mm, (297 - 16.5 - (row + 1) * 88) * mm
            c.saveState(); p = c.beginPath(); p.rect(x, y, 63*mm, 88*mm); c.clipPath(p, stroke=0, fill=0)
            c.translate(x, y)
            if back:
                c.doForm("back")
            else:
                c.setFillColor(HexColor("#1e88e5")); c.rect(-3*mm, -3*mm, 69*mm, 94*mm, stroke=0, fill=1)
                c.setFillColor(HexColor("#fff8ec")); c.roundRect(3*mm, 3*mm, 57*mm, 82*mm, 2.5*mm, stroke=0, fill=1)
                c.setFillColor(HexColor("#2b2220")); c.setFont("B", 14)
                c.drawCentredString(31.5*mm, 76*mm, f"Card number {i}")
                c.saveState(); c.translate(14*mm, 40*mm); c.scale(35*mm/drawing.width, 30*mm/drawing.height); c.doForm("art"); c.restoreState()
                c.setFont("R", 8.5)
                for n, line in enumerate(lines):
                    c.drawCentredString(31.5*mm, (30 - n * 3.7)*mm, line)
            c.restoreState()
        c.showPage()
c.save()
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def run(code: str, *args: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         cwd=ROOT).stdout.split()
    return float(out[0]), int(out[1]) / 1024  # seconds, MiB


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--distinct", type=int, default=None,
                        help="distinct card faces (default: every card different, the worst case)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side; the best counts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        game = make_game(folder / "content", args.cards, args.distinct)
        engine_runs, floor_runs = [], []
        for attempt in range(args.repeat):
            engine_runs.append(run(ENGINE, str(game), str(folder / f"out{attempt}")))
            floor_runs.append(run(FLOOR, str(args.cards), str(ART)))
        engine_s, engine_mb = min(engine_runs)
        floor_s, floor_mb = min(floor_runs)
    result = {"cards": args.cards, "distinct": args.distinct or args.cards, "engine_s": round(engine_s, 3), "engine_cards_per_s": round(args.cards / engine_s),
              "engine_peak_mib": round(engine_mb, 1), "floor_s": round(floor_s, 3),
              "floor_peak_mib": round(floor_mb, 1), "ratio": round(engine_s / floor_s, 2)}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
