"""Benchmark: a generated deck through `pnp build --only cards` vs a plain ReportLab script, whole processes.

Run: python tests/benchmarks/bench_cards.py [--cards 1000] [--distinct D] [--text words|rules] [--repeat 3] [--json]

The deck is Russian: every card has its own title and its own 40-word Cyrillic body
(words drawn at random from a list, so no two bodies share their lines), a framed front
with art and one back — the worst case for an engine that reuses what it laid out.
Both sides are whole processes, timed as the kernel counts them (user + system CPU of
the child, and its peak RSS): the engine is `pnp build GAME --only cards --paper a4
--lang ru -q --jobs 1` (home cards only: one cards.pdf), the floor is floor_cards.py, a
straightforward ReportLab script that reads the same catalog and draws the same
sheets (ReportLab's Paragraph wraps each body). Imports count on both sides.

The engine runs twice over: cold (PNP_NO_CACHE=1: every text fitted, as in a first build or
after an engine upgrade: the honest figure) and warm (the per-face layout cache of a
previous build in a fresh PNP_CACHE_DIR). Each of the three runs --repeat times, in turn,
and the median counts; the load average is printed, as the machine may be shared. One run of
each engine side comes first, as in any second build: the font instances cut, pnp's own
modules compiled into __pycache__ (PYTHONDONTWRITEBYTECODE is unset for the runs: an installed pnp has
its bytecode, written by pip at install time).
The engine is the `pnp` installed beside this Python (a venv's, not a pyenv shim).

Measured here (2 cores shared with other engineers' work, load average 1-2, medians of 9):
1,000 cards, --text words: floor 0.56 s; engine cold 0.68 s (1.20×), warm 0.59 s (1.05×);
--text rules: floor 0.51-0.54 s; engine cold 0.62-0.69 s (1.22-1.28×), warm 0.55-0.60 s (1.09-1.11×). The tree this
work started from: cold 0.85 s (1.75×; 2.06× before the session before). 10,000 cards cold:
4.8-5.0 s CPU, 254 MiB peak (cache on: 274 MiB first, 276 MiB warm; before: 6.95 s, 292 MiB);
~0.48 ms a card past a fixed ~0.17 s.
With HarfBuzz shaping and glyph-level PDF text (issue 28, the whole of main at its end; load 3-4,
medians of 3): engine cold 1.48 s, warm 1.16 s, 85 MiB peak; the tree before it at the same load:
cold 1.47 s, warm 1.16 s, 76 MiB (the floor measured 0.91-1.32 s beside them: 1.26-1.62x cold);
run in pairs at load 1, 1.34 s before, 1.66 s after (ICU breaking, bidi and the larger default stack
included); uharfbuzz's import is ~26 ms of it. Of a cold 1,000-card build ~0.18 s is starting and
importing (pydantic and its validators ~0.1 s), ~0.06 s reading the YAML, ~0.25 s laying out
(svglib's import and the fonts' registering included), ~0.12 s drawing.
After the shaping core was finished (bidi per paragraph, format characters, fonts known by stat in a
warm build), load 3-6, medians of 3: cold 1.66-1.75 s, warm 1.60-1.63 s, floor 1.28-1.29 s (1.28-1.37x
cold, 1.24-1.27x warm); the tree before it, interleaved with it at load ~6 (python -m generator, medians
of 4-6): cold 1.80-1.89 s against 1.89-1.96 s (the same within the noise), warm 1.61 s against 1.49 s.
Of a cold build now (process time, load ~3.5): ~0.45 s importing, ~0.6-0.7 s laying out, ~0.3 s
drawing (of which writing the text objects ~0.11-0.15 s); shaping itself is ~12-17 us a distinct word
(~30 ms a deck). ReportLab's ttfonts imports uharfbuzz whenever it is installed (~12 ms, the floor too).
Counted by valgrind's callgrind (instructions, which a loaded machine does not stretch; the tree of
issue 28 item 9, two runs): a cold build 6.34-6.40 G instructions, the floor 5.18 G (1.22-1.24x). The difference is
nearly all imports: the floor's (ReportLab with platypus and reportlab.graphics, svglib, PyYAML) are
1.10 G, the engine's 2.06 G: pydantic itself ~0.32 G, the content schema (its models, what it imports) ~0.14 G,
click, ICU and pyphen ~0.03 G, pnp's own ~150 modules (their ~150 dataclasses, the tables and
patterns) ~0.5 G; the validators built at the first validation (Game, Template, two box kinds) ~40 ms.
Laying out and drawing are within ~0.2 G of the floor's Paragraph and canvas. reportlab.graphics'
renderPDF alone is 0.48 G (it imports all of platypus), imported since by render/pdf.py only when an
SVG is drawn: the floor and this deck (SVG art, read afresh when cold) both pay it.
The processor's time is further apart than the instructions: at load ~0.4, cold 0.96-0.99 s user +
0.07-0.14 s system against the floor's 0.72-0.94 s + 0.03-0.06 s (1.3-1.35x), 17,200 page faults and
87 MiB against 9,100 and 50 MiB; this script's medians, the same tree: 1.36x (load 2.7), 1.51x (2.4),
1.59x (1.1, floor 0.75 s, cold 1.19 s). A cold build does not meet 1.2x yet: what is left is the imports.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ART = ROOT / "content" / "christmas-round" / "art" / "gifts" / "teddy.svg"
FLOOR = Path(__file__).resolve().parent / "floor_cards.py"
BODY_WORDS = 40

# Words the bodies are drawn from: ordinary Russian of several lengths (the hyphenator has work to do).
WORDS = """игрок карта ход поле фишка дом подарок снег звезда ёлка сани олень путь дорога город
река мост замок башня площадь улица переулок вокзал билет поезд вагон станция остановка экскурсия
передвиньте возьмите сбросьте положите покажите выберите обменяйтесь получите отдайте пропустите
следующий предыдущий соседний свободный занятый красный синий зелёный жёлтый белый чёрный
немедленно осторожно внимательно последовательно одновременно самостоятельно дополнительно
на в из под над за перед после между через без для до от по при про с у о об к
каждый любой другой второй третий первый последний один два три четыре пять шесть семь
клетка колода стопка рука сброс очко победа конец начало правило исключение действие
путешественник достопримечательность краеведческий архитектурный национальный заповедник""".split()


def card_text(rng: random.Random, words: int) -> str:
    """A sentence-cased body of `words` words with a few commas and full stops."""
    picked = [rng.choice(WORDS) for _ in range(words)]
    out, start = [], True
    for index, word in enumerate(picked):
        out.append(word.capitalize() if start else word)
        start = False
        if index == words - 1:
            out[-1] += "."
        elif rng.random() < 0.12:
            out[-1] += "."
            start = True
        elif rng.random() < 0.1:
            out[-1] += ","
    return " ".join(out)


def deck_texts(distinct: int, seed: int = 17, text: str = "words") -> list[tuple[str, str]]:
    """(title, body) of each distinct card: the same for the engine and the floor.

    text "words": titles and bodies drawn from WORDS; "rules": real Russian, each body 40 running
    words cut from the shipped games' Russian catalogs (rules, cards, the board: their own
    punctuation, numbers and dashes; ~2,000 different words), each title 1-4 words from there."""
    rng = random.Random(seed)
    if text == "rules":
        tokens = _rules_words()
        cards = []
        for _ in range(distinct):
            start = rng.randrange(len(tokens) - BODY_WORDS)
            words = tokens[rng.randrange(len(tokens) - 4):][:rng.randint(1, 4)]
            title = " ".join(words).strip(" .,;:!?()«»—") or "Карта"
            cards.append((title, " ".join(tokens[start:start + BODY_WORDS])))
        return cards
    return [(f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} №{n + 1}", card_text(rng, BODY_WORDS))
            for n in range(distinct)]


def _rules_words() -> list[str]:
    """The words of the shipped games' Russian texts, in order (quotes and backslashes left out)."""
    import yaml
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, str):
            found.extend(word.replace("**", "") for word in value.split()
                         if '"' not in word and "\\" not in word and "{" not in word and "." not in word.strip("."))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    for file in sorted(ROOT.glob("content/*/i18n/ru.yaml")):
        walk(yaml.safe_load(file.read_text(encoding="utf-8")))
    return found


def make_game(folder: Path, cards: int, distinct: int | None = None, text: str = "words") -> Path:
    """A Russian game of `cards` poker cards (`distinct` different faces, all by default) under folder/bench."""
    distinct = distinct or cards
    game = folder / "bench"
    (game / "templates").mkdir(parents=True)
    (game / "i18n").mkdir()
    (game / "art").mkdir()
    (game / "art" / "teddy.svg").write_bytes(ART.read_bytes())
    (game / "game.yaml").write_text(textwrap.dedent("""\
        id: bench
        title: t.title
        languages: [ru]
        editions: {standard: {name: t.title}}
        """), encoding="utf-8")
    catalog = ["ru:", "  t:", '    title: "Проба"', "  card:"]
    for n, (title, body) in enumerate(deck_texts(distinct, text=text)):
        catalog += [f"    c{n}:", f'      title: "{title}"', f'      body: "{body}"']
    (game / "i18n" / "ru.yaml").write_text("\n".join(catalog) + "\n", encoding="utf-8")
    deck = ["decks:", "  - id: bench", "    name: t.title", "    template: front", "    back: back", "    cards:"]
    copies = cards // distinct
    deck += [f"      - {{id: c{n}, count: {copies + (1 if n < cards % distinct else 0)}, "
             f"fields: {{name: card.c{n}.title, body: card.c{n}.body}}}}" for n in range(distinct)]
    (game / "cards.yaml").write_text("\n".join(deck) + "\n", encoding="utf-8")
    (game / "templates" / "front.yaml").write_text(textwrap.dedent("""\
        extends: poker-card
        boxes:
          bg: {kind: rect, area: bleed, fill: "#1e88e5"}
          panel: {kind: rect, x: 3, y: 3, width: 57, height: 82, radius: 2.5, fill: "#fff8ec", stroke: "#2b2220",
                  stroke_width: 0.4}
          title: {kind: text, text: "@name", x: 5, y: 5, width: 53, height: 8, style: title}
          art: {kind: art, art: art/teddy.svg, x: 21.5, y: 14, width: 20, height: 18}
          effect: {kind: text, text: "@body", x: 5, y: 33, width: 53, height: 51, style: body}
        """), encoding="utf-8")
    (game / "templates" / "back.yaml").write_text(textwrap.dedent("""\
        extends: poker-card
        boxes:
          bg: {kind: rect, area: bleed, fill: "#a31621"}
          art: {kind: art, art: art/teddy.svg, x: 10, y: 20, width: 43, height: 43}
        """), encoding="utf-8")
    # the shared poker-card template is found beside content/ by walking up: link it in
    (folder / "templates").mkdir()
    (folder / "templates" / "poker-card.yaml").write_bytes((ROOT / "templates" / "poker-card.yaml").read_bytes())
    return game


def _with_bytecode(environment: os._Environ[str]) -> dict[str, str]:
    """The environment without PYTHONDONTWRITEBYTECODE: pip compiles an installed pnp's modules, so a
    user's pnp starts from bytecode; an editable checkout under that variable would compile on every run."""
    return {name: value for name, value in environment.items() if name != "PYTHONDONTWRITEBYTECODE"}


def measure(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(user + system CPU seconds, peak RSS in MiB) of one whole child process."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**_with_bytecode(os.environ), **(env or {})})
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{error}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def engine_command(game: Path, out: Path) -> list[str]:
    # the console script installed beside this Python, as in a venv, rather than whatever `pnp` is
    # first on PATH: a pyenv shim there runs bash and pyenv (~40 processes, ~0.04 s of CPU) before
    # pnp starts, which the floor, run by this Python directly, never pays
    beside = Path(sys.executable).with_name("pnp")
    pnp = str(beside) if beside.exists() else (shutil.which("pnp") or "pnp")
    return [pnp, "build", str(game), "--only", "cards", "--paper", "a4", "--lang", "ru", "-q", "--jobs", "1",
            "--force", "--out", str(out)]


def floor_command(game: Path, out: Path) -> list[str]:
    from generator.text.fonts import FontLibrary
    library = FontLibrary()
    return [sys.executable, str(FLOOR), str(game), str(out / "floor.pdf"),
            str(library.face("nunito").path), str(library.face("nunito", "black").path)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--text", choices=("words", "rules"), default="words",
                        help="bodies of random words (default) or cut from the shipped games' Russian texts")
    parser.add_argument("--distinct", type=int, default=None,
                        help="distinct card faces (default: every card different, the worst case)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side; the median counts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        game = make_game(folder / "content", args.cards, args.distinct, args.text)
        (folder / "out").mkdir()
        engine, floor = engine_command(game, folder / "out"), floor_command(game, folder / "out")
        cold, warm = {"PNP_NO_CACHE": "1"}, {"PNP_CACHE_DIR": str(folder / "cache"), "PNP_NO_CACHE": ""}
        # one run of each first, as any second build: the font instances cut, pnp's own modules compiled
        # (into __pycache__: PYTHONDONTWRITEBYTECODE is unset for the runs, see measure),
        # and the warm runs' layout cache filled
        measure(engine, cold)
        measure(engine, warm)
        runs: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": [], "floor": []}
        for _ in range(args.repeat):
            runs["cold"].append(measure(engine, cold))
            runs["warm"].append(measure(engine, warm))
            runs["floor"].append(measure(floor))
    cpu = {side: statistics.median(seconds for seconds, _ in found) for side, found in runs.items()}
    peak = {side: max(mib for _, mib in found) for side, found in runs.items()}
    result = {"cards": args.cards, "distinct": args.distinct or args.cards,
              "engine_cold_cpu_s": round(cpu["cold"], 3), "engine_warm_cpu_s": round(cpu["warm"], 3),
              "floor_cpu_s": round(cpu["floor"], 3),
              "ratio_cold": round(cpu["cold"] / cpu["floor"], 2), "ratio_warm": round(cpu["warm"] / cpu["floor"], 2),
              "engine_peak_mib": round(max(peak["cold"], peak["warm"]), 1), "floor_peak_mib": round(peak["floor"], 1),
              "load_average": round(os.getloadavg()[0], 2)}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>16}: {value}")


if __name__ == "__main__":
    main()
