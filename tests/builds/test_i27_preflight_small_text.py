"""Preflight reports text a game deliberately set below 6 pt (game.yaml min_text_size): a warning
per page of the print-shop files, read from the PDF itself; game text at 6 pt or more says nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.test_content_errors import CARD_TEMPLATE, GAME, make_game


def _game(tmp_path: Path, size: str) -> Path:
    game = GAME.replace("id: g\n", "id: g\nformat: 2\nmin_text_size: 5pt\n")
    template = CARD_TEMPLATE.replace("size: 10pt, min_size: 8pt", f"size: {size}, min_size: {size}")
    return make_game(tmp_path, {"game.yaml": game, "templates/card.yaml": template})


@pytest.mark.parametrize("size, warned", [("5.5pt", True), ("6pt", False)])
def test_print_shop_text_below_6_pt_is_a_preflight_warning(tmp_path, monkeypatch, size, warned):
    _game(tmp_path, size)
    monkeypatch.chdir(tmp_path)
    built = CliRunner().invoke(main, ["build", "g", "--content", ".", "--out", "out", "--only", "print-shop",
                                      "--jobs", "1", "-q"])
    assert built.exit_code == 0, built.output
    checked = CliRunner().invoke(main, ["check", "--preflight", "g", "--content", ".", "--out", "out"])
    warnings = [line.strip() for line in checked.output.splitlines() if line.strip().startswith("warning:")]
    if warned:
        assert "warning: page 1: text at 5.5 pt, below 6 pt" in warnings, checked.output
    else:
        assert warnings == [], checked.output
    assert checked.exit_code == 0, checked.output       # a warning, never a failed preflight
