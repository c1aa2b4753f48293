"""A piece must fit the room the build will impose it in — inside `--margin`, or inside a cut machine's
border on a sheet that may turn landscape — and layout says so at the template's size, before anything
is drawn (a piece that fit the paper but not the machine's border once stopped the build as a bug)."""

from __future__ import annotations

import pytest

from generator.imposition.cut import sheet_room
from generator.print_facts import SheetRoom
from generator.print_facts import PAPER_SIZES
from tests.test_content_errors import edit, make_game, pnp, problem_lines


def _game(tmp_path, width: str, height: str):
    return make_game(tmp_path, edit("templates/card.yaml", "size: {width: 63mm, height: 88mm}",
                                    f"size: {{width: {width}, height: {height}}}"))


def test_a_silhouette_sheet_holds_less_than_the_paper_and_may_turn():
    letter = PAPER_SIZES["letter"]
    room = sheet_room("letter", letter, 5.0, "silhouette")
    assert room.turnable and room.margin == pytest.approx(16.0)
    assert room.fits((63, 88)) and not room.fits((180, 250))
    assert sorted(room.area()) == pytest.approx(sorted((letter[0] - 32, letter[1] - 32)))
    assert room.fits((240, 170)) and not SheetRoom("letter", letter, 16.0).fits((240, 170))   # turned
    assert SheetRoom("letter", letter).fits((180, 250))                       # the plain sheet holds it


def test_a_piece_too_big_for_the_cut_machine_is_a_located_error(tmp_path):
    game = _game(tmp_path, "180mm", "250mm")
    result = pnp("build", str(game), "--paper", "letter", "--cut", "silhouette", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    lines = problem_lines(result.output)
    assert len(lines) == 1 and lines[0].startswith(str(game / "templates" / "card.yaml")), result.output
    assert "does not fit on a sheet of Letter paper" in lines[0] and "cut machine's border" in lines[0]
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))


def test_a_piece_too_big_for_the_margin_asked_is_a_located_error(tmp_path):
    game = _game(tmp_path, "151mm", "88mm")
    assert pnp("check", str(game)).exit_code == 0
    result = pnp("build", str(game), "--paper", "a4", "--margin", "30", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    lines = problem_lines(result.output)
    assert len(lines) == 1 and "printer's margins (30 mm)" in lines[0] and "at most 150.0 × 237.0 mm" in lines[0]
