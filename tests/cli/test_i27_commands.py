"""The command line as a thin layer (issue 27): `pnp upgrade` is listed by `pnp --help` without its module
(which loads the content schema) being imported, and runs as its own module defines it; the output names
`--only` takes come from the one output table."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from generator.cli import main
from generator.options import HOME_OUTPUTS, OUTPUT_OF_STEM, OUTPUT_TABLE, OUTPUTS, PAPER_FREE_OUTPUTS, output_of

LOADED_AT_EXIT = """\
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules))))
sys.argv = ["pnp"] + ARGS
from generator.__main__ import run
run()
"""


def _loaded(args: list[str]) -> tuple[str, set[str]]:
    result = subprocess.run([sys.executable, "-c", LOADED_AT_EXIT.replace("ARGS", repr(args))],
                            capture_output=True, text=True, timeout=60)
    output, _, modules = result.stdout.rstrip("\n").rpartition("\n")
    return output, set(json.loads(modules))


def test_help_lists_upgrade_without_importing_it():
    output, modules = _loaded(["--help"])
    assert "upgrade    Rewrite GAME from an older game format" in output
    assert "generator.upgrade" not in modules and "pydantic" not in modules


def test_upgrade_runs_as_its_module_defines_it(tmp_path):
    from generator.upgrade import upgrade_command
    help_text = CliRunner().invoke(main, ["upgrade", "--help"]).output
    assert help_text.split("\n", 1)[1] == CliRunner().invoke(upgrade_command, ["--help"]).output.split("\n", 1)[1]
    refused = CliRunner().invoke(main, ["upgrade", str(tmp_path / "none"), "--content", str(tmp_path)])
    assert refused.exit_code == 2 and "no game" in refused.output


def test_the_output_names_come_from_one_table():
    assert OUTPUTS == tuple(output.name for output in OUTPUT_TABLE)
    assert HOME_OUTPUTS == frozenset(OUTPUTS) - frozenset(PAPER_FREE_OUTPUTS) == \
        frozenset({"cards", "ink-saver", "tokens", "pawns", "board", "sheets", "rules", "booklet", "kit"})
    assert PAPER_FREE_OUTPUTS == ("print-shop", "png")
    assert (OUTPUT_OF_STEM["cards-ink-saver"], OUTPUT_OF_STEM["rules-booklet"]) == ("ink-saver", "booklet")
    assert [output_of(name) for name in ("a4/cards.pdf", "letter/cards-ink-saver.pdf", "a4/rules-booklet.pdf",
                                         "a4/cut/cards-ink-saver-2.svg", "print-shop/cards.pdf",
                                         "print-shop/png/x.png", "a4/other.pdf")] == \
        ["cards", "ink-saver", "booklet", "ink-saver", "print-shop", "png", None]
    build_help = CliRunner().invoke(main, ["build", "--help"], terminal_width=400).output
    assert f"comma-separated from {', '.join(OUTPUTS)}" in build_help
