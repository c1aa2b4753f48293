"""What a command line asks that would be silently wrong is refused, and an output that cannot be written
is the user's problem to fix (exit 1, the path, what to do), never an internal error (exit 70).

Each case runs `pnp`'s command line as a user types it, in the test's process (tests/robustness/harness.py:
run_in_process): what is checked is what it says and writes, not its process.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.robustness.harness import run_in_process
from tests.robustness.test_outputs import cards_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def game(tmp_path) -> Path:
    return cards_game(tmp_path, cards=2)


@pytest.mark.parametrize("flags, said", [
    (("--only", ""), "--only was given no value"),
    (("--only", " , "), "--only was given no value"),
    (("--lang", "en,en"), "--lang names 'en' more than once"),
    (("--paper", "a4,a4"), "--paper names 'a4' more than once"),
    (("--edition", "standard,standard"), "--edition names 'standard' more than once"),
    (("--ink-limit", "250"), "--ink-limit limits the ink of CMYK colours"),
])
def test_a_build_asked_something_it_would_do_wrong_is_refused(game, tmp_path, flags, said):
    run = run_in_process("build", str(game), "--out", str(tmp_path / "out"), *flags, cwd=ROOT).assert_clean(2)
    assert said in run.output
    assert not (tmp_path / "out").exists()


def test_the_same_game_twice_is_refused(game, tmp_path):
    run = run_in_process("build", str(game), str(game) + "/", "--out", str(tmp_path / "out"), cwd=ROOT).assert_clean(2)
    assert "more than once" in run.output and not (tmp_path / "out").exists()
    (tmp_path / "content").mkdir()
    game.rename(tmp_path / "content" / "g")                  # by its name and by its path: the same game
    run = run_in_process("build", "g", "content/g", "--out", str(tmp_path / "out"), cwd=tmp_path).assert_clean(2)
    assert "names the game content/g more than once ('g', 'content/g')" in run.output


def test_ink_limit_with_cmyk_is_taken(game, tmp_path):
    run_in_process("build", str(game), "--out", str(tmp_path / "out"), "--only", "cards", "--paper", "a4",
            "--color", "cmyk", "--ink-limit", "250", cwd=ROOT).assert_clean(0)


def test_preflight_refuses_an_ink_limit_it_would_not_check(game, tmp_path):
    run = run_in_process("check", str(game), "--preflight", "--out", str(tmp_path), "--ink-limit", "250",
                  cwd=ROOT).assert_clean(2)
    assert "--ink-limit limits the ink of CMYK colours" in run.output


def test_an_output_folder_inside_the_game_is_refused(game):
    inside = run_in_process("build", str(game), "--out", str(game / "output"), cwd=ROOT).assert_clean(2)
    assert "is inside the game folder" in inside.output and not (game / "output").exists()
    here = run_in_process("build", ".", cwd=game).assert_clean(2)          # `pnp build .` run inside the game
    assert "is inside the game folder" in here.output and "cd .. && pnp build g" in here.output
    assert not (game / "output").exists()
    preview = run_in_process("preview", str(game), "--out", str(game), cwd=ROOT).assert_clean(2)
    assert "is inside the game folder" in preview.output


def test_outputs_under_a_regular_file_are_a_located_problem_not_an_internal_error(game, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    under = blocker / "sub"
    runs = {
        "schema": run_in_process("schema", str(game), "--out", str(under), "--no-annotate", cwd=ROOT),
        "preview": run_in_process("preview", str(game), "--out", str(under), cwd=ROOT),
        "calibrate": run_in_process("calibrate", "--out", str(under), cwd=ROOT),
        "new": run_in_process("new", str(under / "newgame"), cwd=ROOT),
        "export": run_in_process("i18n", "export", str(game), "--lang", "en", "--out", str(under), cwd=ROOT),
    }
    for command, run in runs.items():
        run.assert_clean(1)
        assert "internal error" not in run.output, (command, run.output)
        assert str(blocker) in run.output and "hint:" in run.output, (command, run.output)
    assert blocker.read_text() == "mine"


def test_schema_never_writes_through_a_link_out_of_the_game(game, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, game / "schemas")
    run = run_in_process("schema", str(game), cwd=ROOT).assert_clean(1)
    assert "is a link leading out of" in run.output and "--out" in run.output
    assert list(outside.iterdir()) == []


def test_a_game_templates_folder_linked_outside_is_not_read(game, tmp_path):
    outside = tmp_path / "elsewhere"
    (game / "templates").rename(outside)
    os.symlink(outside, game / "templates")
    run = run_in_process("check", str(game), cwd=ROOT).assert_clean(1)
    assert f"{game / 'templates'}: is a link leading outside the game folder" in run.output
    assert "project's templates" in run.output


def test_a_project_template_edit_rebuilds_a_game_that_has_no_templates_of_its_own(tmp_path):
    project = tmp_path / "project"
    game = cards_game(project / "games", cards=2)
    (project / "templates").mkdir(parents=True)
    for template in (game / "templates").iterdir():
        template.rename(project / "templates" / template.name)
    (game / "templates").rmdir()
    (project / "pnp.yaml").write_text("games: [games]\ntemplates: templates\n")
    run_in_process("build", "g", "--only", "cards", "--paper", "a4", cwd=project).assert_clean(0)
    card = project / "templates" / "card.yaml"
    card.write_text(card.read_text() + "\n# edited\n")
    again = run_in_process("build", "g", "--only", "cards", "--paper", "a4", "--json", cwd=project).assert_clean(0)
    assert '"files": []' not in again.stdout          # the template was part of what the game is built from


def test_preview_never_writes_through_a_link_out_of_the_output_folder(game, tmp_path):
    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    out.mkdir()
    os.symlink(outside, out / "g")
    run = run_in_process("preview", str(game), "--out", str(out), cwd=ROOT).assert_clean(1)
    assert f"{out / 'g'}: a link leading out of the output folder is in the way" in run.output
    assert list(outside.iterdir()) == []
