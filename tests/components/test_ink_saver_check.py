"""A deck whose back floods the card with ink asks for an ink-saver back; one that has it asks for an edition
that builds it. Warnings of `pnp check`, located at the deck's keys (components/ink_saver.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.components.ink_saver import INK_HUNGRY, ink_of
from tests.test_content_errors import BACK_TEMPLATE, CARDS, GAME, make_game, pnp, problem_lines

FLOODED = BACK_TEMPLATE.replace("boxes:\n", 'boxes:\n  ground: {kind: rect, area: bleed, fill: "#1846a0"}\n')
PALE = BACK_TEMPLATE.replace("boxes:\n", 'boxes:\n  ground: {kind: rect, area: bleed, fill: "#f4ecd2"}\n')
FRAMED = BACK_TEMPLATE.replace("boxes:\n", 'boxes:\n  ground: {kind: rect, x: 5, y: 5, width: 53, height: 78, '
                                          'fill: "#1846a0"}\n')
LIGHT = BACK_TEMPLATE
SAVER = CARDS.replace("    back: back\n", "    back: back\n    ink_saver_back: light\n")


def _warnings(tmp_path: Path, files: dict[str, str]) -> list[str]:
    result = pnp("check", str(make_game(tmp_path, files)))
    assert result.exit_code == 0, result.output
    return [line for line in problem_lines(result.output) if ": warning: " in line]


def test_inks_of_a_navy_and_a_paper_tint() -> None:
    assert ink_of("#1846a0") > 3 * INK_HUNGRY and ink_of("#f4ecd2") < INK_HUNGRY
    assert ink_of("cmyk(0, 0, 0, 100)") == 1.0


def test_a_navy_back_to_the_bleed_edge_asks_for_an_ink_saver_back_at_the_deck(tmp_path: Path) -> None:
    warnings = _warnings(tmp_path, {"templates/back.yaml": FLOODED})
    cards = tmp_path / "g" / "cards.yaml"
    assert len(warnings) == 1
    assert warnings[0].startswith(f"{cards}:5:11: warning: deck 'cards': its back is #1846a0 to the bleed edge (")
    assert warnings[0].endswith("ink over the whole card) and the deck has no ink_saver_back for home printers")


@pytest.mark.parametrize("back", [PALE, FRAMED], ids=["a paper tint", "a framed panel"])
def test_a_light_or_framed_back_asks_for_nothing(tmp_path: Path, back: str) -> None:
    assert _warnings(tmp_path, {"templates/back.yaml": back}) == []


def test_an_ink_saver_back_no_edition_builds_is_said(tmp_path: Path) -> None:
    files = {"templates/back.yaml": FLOODED, "templates/light.yaml": LIGHT, "cards.yaml": SAVER}
    warnings = _warnings(tmp_path, files)
    cards = tmp_path / "g" / "cards.yaml"
    assert warnings == [f"{cards}:6:21: warning: deck 'cards' has an ink_saver_back that no edition builds"]
    built = GAME.replace("{name: game.edition}", "{name: game.edition, ink_saver: true}")
    assert _warnings(tmp_path / "built", {**files, "game.yaml": built}) == []
