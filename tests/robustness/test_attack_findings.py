"""The cases this round's attack run still found: each a located message (or a warning) now, not an internal
error and not silence. Every case runs `pnp`'s command line as a user types it (in the test's process; on a
real terminal, in a child, where what the terminal receives is the point)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.robustness.harness import run_in_process
from tests.test_content_errors import BASE_FILES, CARDS, EN, GAME, make_game, problem_lines

ROOT = Path(__file__).resolve().parents[2]
DIGITS = "9" * 5000          # Python converts at most 4,300 digits of an int


@pytest.mark.parametrize("file, old, new", [
    ("game.yaml", "title: game.title", f"title: {DIGITS}"),
    ("cards.yaml", "- id: star", f"- id: {DIGITS}"),
    ("i18n/en.yaml", 'star: "Star"', f"star: {DIGITS}"),
])
def test_a_five_thousand_digit_number_is_text_and_said_cut_short(tmp_path, file, old, new):
    make_game(tmp_path, {file: BASE_FILES[file].replace(old, new)})
    run = run_in_process("build", "g", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.returncode in (0, 1) and "internal error" not in run.output, run.output
    assert DIGITS not in run.output                      # a value a message echoes is cut short


def test_an_explicit_int_tag_of_five_thousand_digits_is_located(tmp_path):
    make_game(tmp_path, {"game.yaml": GAME.replace("title: game.title", f"title: !!int {DIGITS}")})
    run = run_in_process("check", "g", cwd=tmp_path).assert_clean(1)
    assert problem_lines(run.stderr)[0].startswith("g/game.yaml:2:8: '99999")
    assert "cannot be read as the int its tag says" in run.output and DIGITS not in run.output


@pytest.mark.parametrize("old, new, said", [
    ("languages: [en]", "languages: []", "g/game.yaml:3:12: languages: List should have at least 1 item"),
    ("  standard: {name: game.edition}\n", "  {}\n", "g/game.yaml:5:3: editions: Dictionary should have at least 1"),
    ("languages: [en]", "languages: [en, en]", "g/game.yaml:3:12: languages: en listed more than once"),
    ("body: [nunito, inter]", "body: []", "g/game.yaml:7:9: fonts.body: List should have at least 1 item"),
])
def test_a_game_with_no_target_or_a_target_twice_is_refused_by_build_as_by_check(tmp_path, old, new, said):
    assert old in GAME
    make_game(tmp_path, {"game.yaml": GAME.replace(old, new)})
    for command in (("check", "g"), ("build", "g", "--out", str(tmp_path / "out"))):
        run = run_in_process(*command, cwd=tmp_path).assert_clean(1)
        assert any(line.startswith(said) for line in problem_lines(run.stderr)), run.output
    assert not (tmp_path / "out").exists()


def test_a_control_character_written_as_an_escape_is_refused_at_its_line(tmp_path):
    make_game(tmp_path, {"i18n/en.yaml": EN.replace('star: "Star"', 'star: "St\\0ar"')})
    run = run_in_process("check", "g", cwd=tmp_path).assert_clean(1)
    assert problem_lines(run.stderr) == ["g/i18n/en.yaml:8:11: cards.star: the text holds the control character "
                                         "U+0000 (\\x00)"]


def test_a_card_field_nothing_reads_is_a_warning_naming_the_fields_read(tmp_path):
    make_game(tmp_path, {"cards.yaml": CARDS.replace("fields: {", "fields: {nmae: cards.star, ")})
    run = run_in_process("check", "g", cwd=tmp_path).assert_clean(0)
    assert "g/cards.yaml:9:18: warning: no template or text reads the field 'nmae'" in run.stderr
    assert "fields read: art, badge, color, name" in run.stderr


def test_a_csv_value_in_a_column_the_header_does_not_name_is_refused_at_its_cell(tmp_path):
    deck = ("decks:\n  - id: cards\n    name: deck.cards\n    template: card\n    back: back\n"
            "    fields: {art: art/star.svg}\n    cards_from: data/deck.csv\n")
    make_game(tmp_path, {"cards.yaml": deck, "data/deck.csv": "id,count,name\nstar,1,cards.star,extra,extra\n"})
    run = run_in_process("check", "g", cwd=tmp_path).assert_clean(1)
    assert problem_lines(run.stderr) == ["g/data/deck.csv:2:D: a value in column D, which the header row (row 1) "
                                         "does not name"]


@pytest.mark.parametrize("attributes", ['width="-10" height="10"', 'width="10" height="0"',
                                        'viewBox="0 0 -5 10"'])
def test_an_svg_of_no_size_is_refused_as_the_arts_mistake(tmp_path, attributes):
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" {attributes}><rect width="1" height="1"/></svg>'
    make_game(tmp_path, {"art/star.svg": svg})
    run = run_in_process("check", "g", cwd=tmp_path).assert_clean(1)
    assert "art/star.svg: refused: the SVG's" in run.output and "is not a size any art has" in run.output


def _on_a_terminal(args: list[str], cwd: Path) -> str:
    """What `pnp ARGS` writes to a real terminal (click keeps escapes only for one; a pipe strips them)."""
    main, child = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=cwd, stdin=child, stdout=child,
                               stderr=child, env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(child)
    output, deadline = b"", time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:          # the terminal closed: pnp has ended
                break
            if not chunk:
                break
            output += chunk
        elif process.poll() is not None:
            break
    process.wait(timeout=30)
    os.close(main)
    return output.decode("utf-8", "replace")


@pytest.mark.parametrize("args", [
    ["build", "g", "--lang", "e\x1b[2J\x1b]0;pwned\x07n"],
    ["build", "g", "--edition", "s\x1b[2Jx"],
    ["build", "g", "--paper", "a\x1b[2Jx"],
    ["build", "n\x1b[2Jx"],
])
def test_a_usage_error_echoes_what_was_typed_with_its_escapes_shown(tmp_path, args):
    make_game(tmp_path, {})
    output = _on_a_terminal(args, tmp_path)
    assert "Error:" in output and "\x1b" not in output, repr(output)
    assert "\\x1b" in output
