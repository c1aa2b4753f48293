"""Attack cases on reading a game: bombs, depth, special files, links out of the folder, paths
from option values, number options, many errors at once, Ctrl-C and the exit statuses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.robustness.harness import run_in_process, run_pnp
from tests.test_content_errors import BASE_FILES, make_game, problem_lines

ROOT = Path(__file__).resolve().parents[2]


def check(folder: Path) -> list[str]:
    """`pnp check` in its own process: clean (no traceback, in budget), exit 1; its problem lines. (The
    bombs and depths run in a child: a parser that crashed or blew up would take the test with it; the
    cases about links, codes and messages run in the test's process.)"""
    run = run_pnp("check", str(folder), cwd=folder.parent).assert_clean(1)
    return problem_lines(run.stderr)


def check_here(folder: Path) -> list[str]:
    """`pnp check` in the test's process (run_in_process): for a case that cannot blow up or wait (a folder
    or a dangling link where a file belongs, a broken game.yaml, aliases within the budget): clean, exit 1;
    its problem lines. A child's start cost more than such a check."""
    run = run_in_process("check", str(folder), cwd=folder.parent).assert_clean(1)
    return problem_lines(run.stderr)


# --------------------------------------------------------------- bombs and depth

def billion_laughs(depth: int) -> str:
    """Nine aliases a level: 914 bytes at depth 9 expand to 9^9 strings."""
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{level}: &a{level} [{','.join([f'*a{level - 1}'] * 9)}]" for level in range(1, depth + 1)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("depth", [6, 9])
def test_an_alias_bomb_is_refused_where_it_expands(tmp_path, depth):
    folder = make_game(tmp_path, {"cards.yaml": billion_laughs(depth)})
    assert check(folder) == ["g/cards.yaml:6:5: the aliases (*name) here expand to more than 100,000 values"]


def test_aliases_within_the_budget_still_work(tmp_path):
    shared = BASE_FILES["cards.yaml"].replace("fields: {name: cards.star, art: art/star.svg}",
                                              "fields: &star {name: cards.star, art: art/star.svg}")
    shared += "      - {id: star2, count: 1, fields: *star}\n"
    assert run_in_process("check", str(make_game(tmp_path, {"cards.yaml": shared}))).assert_clean(0)


@pytest.mark.parametrize("depth", [990, 100_000])
def test_lists_nested_too_deep_are_refused_before_they_crash_the_parser(tmp_path, depth):
    # libyaml's composer recurses: at 100,000 levels it takes the interpreter down with it
    folder = make_game(tmp_path, {"cards.yaml": "decks: " + "[" * depth + "]" * depth + "\n"})
    line, = check(folder)
    # where depends on the libyaml: PyYAML 6.0.4's stops scanning at its own cap of 1,000 levels
    assert line.startswith("g/cards.yaml:1:") and line.endswith(": lists and mappings nested more than 64 deep")


def test_a_huge_file_is_refused_before_it_becomes_nodes(tmp_path):
    # 10 MB of `[1,1,…]` took 5.6 GB as YAML nodes and ended in MemoryError
    folder = make_game(tmp_path, {"cards.yaml": "decks: [" + ",".join(["1"] * 5_000_000) + "]\n"})
    assert check(folder) == ["g/cards.yaml:1:500003: more than 250,000 values in one file"]


def test_deep_block_nesting_is_refused_too(tmp_path):
    text = "".join(f"{'  ' * level}k{level}:\n" for level in range(200)) + "  " * 200 + "x\n"
    folder = make_game(tmp_path, {"rules.yaml": text})
    assert check(folder) == ["g/rules.yaml:65:129: lists and mappings nested more than 64 deep"]


# --------------------------------------------------------------- special files and links

def test_a_folder_where_a_yaml_file_belongs(tmp_path):
    folder = make_game(tmp_path, {})
    (folder / "cards.yaml").unlink()
    (folder / "cards.yaml").mkdir()
    assert check_here(folder) == ["g/cards.yaml: is a folder, not a regular file"]


def test_a_fifo_in_place_of_a_catalog_is_refused_without_waiting_for_it(tmp_path):
    folder = make_game(tmp_path, {})
    (folder / "i18n" / "en.yaml").unlink()
    os.mkfifo(folder / "i18n" / "en.yaml")
    assert check(folder) == ["g/i18n/en.yaml: is a named pipe (FIFO), not a regular file"]


SECRET = "TOPSECRET-do-not-print"


@pytest.mark.parametrize("file", ["cards.yaml", "i18n/en.yaml", "templates/card.yaml", "game.yaml"])
def test_a_link_out_of_the_game_folder_is_refused_unread(tmp_path, file):
    folder = make_game(tmp_path, {})
    outside = tmp_path / "outside.yaml"
    outside.write_text(f"root:x:0:0:{SECRET}:/root:/bin/bash\n" + BASE_FILES[file])
    (folder / file).unlink()
    (folder / file).symlink_to(outside)
    run = run_in_process("check", str(folder), cwd=tmp_path).assert_clean(1)
    where = "the templates folder" if file.startswith("templates/") else "the game folder"
    assert problem_lines(run.stderr)[0] == f"g/{file}: leads outside {where} (to {outside})"
    assert SECRET not in run.output


def test_links_inside_the_game_folder_are_followed(tmp_path):
    folder = make_game(tmp_path, {})
    (folder / "cards.yaml").rename(folder / "deck.yaml")
    (folder / "cards.yaml").symlink_to("deck.yaml")
    assert run_in_process("check", str(folder)).assert_clean(0)


def test_a_dangling_link_is_reported_not_skipped(tmp_path):
    folder = make_game(tmp_path, {})
    (folder / "board.yaml").symlink_to("gone.yaml")          # inside the folder, and not there
    assert check_here(folder) == ["g/board.yaml: file not found"]


def test_pnp_schema_never_writes_through_a_link(tmp_path, monkeypatch):
    folder = make_game(tmp_path / "content", {})
    outside = tmp_path / "outside.yaml"
    outside.write_text(BASE_FILES["cards.yaml"])
    (folder / "cards.yaml").unlink()
    (folder / "cards.yaml").symlink_to(outside)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["schema", "--content", "content", "--out", "schemas"])
    assert result.exit_code == 0, result.output
    assert outside.read_text() == BASE_FILES["cards.yaml"]
    assert (folder / "game.yaml").read_text().startswith("# yaml-language-server")


# --------------------------------------------------------------- option values that become paths or numbers

@pytest.mark.parametrize("command", [["i18n", "stub", "{game}", "--lang", "../../x"],
                                     ["new", "zoo", "--lang", "../x", "--content", "{content}"]])
def test_a_language_code_never_becomes_a_path(tmp_path, command):
    folder = make_game(tmp_path / "content", {})
    before = sorted(tmp_path.rglob("*"))
    args = [part.format(game=folder, content=tmp_path / "content") for part in command]
    run = run_in_process(*args, cwd=tmp_path).assert_clean(2)
    assert "is not a language code such as bg, en or pt-BR" in run.stderr
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize("option, message", [
    (["--gap", "-50"],
     "--gap takes millimetres from 0 to 20 (got -50): a negative gap would lay cards over each other"),
    (["--gap", "nan"], "--gap takes millimetres from 0 to 20 (got nan)"),
    (["--gap", "inf"], "--gap takes millimetres from 0 to 20 (got inf)"),
    (["--back-offset", "nan,0"], "--back-offset takes two finite numbers of millimetres, such as 1.5,-0.5 "
                                 "(got 'nan,0')"),
])
def test_number_options_are_finite_and_in_range(tmp_path, option, message):
    folder = make_game(tmp_path, {})
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(tmp_path / "out"), *option])
    assert result.exit_code == 2 and f"Error: {message}\n" in result.output, result.output
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------- all the errors, at once, printable, fast

def test_every_file_is_checked_in_one_run_even_with_game_yaml_broken(tmp_path):
    folder = make_game(tmp_path, {
        "game.yaml": BASE_FILES["game.yaml"].replace("fonts:", "colours: 3\nfonts:"),
        "cards.yaml": BASE_FILES["cards.yaml"].replace("count: 2", "count: two"),
        "templates/back.yaml": BASE_FILES["templates/back.yaml"].replace("bleed: 3mm", "bleed: lots"),
        "i18n/en.yaml": BASE_FILES["i18n/en.yaml"] + "fr: {}\n",
    })
    lines = check_here(folder)
    assert any(line.startswith("g/game.yaml:6:1: ") for line in lines), lines
    assert any(line.startswith("g/templates/back.yaml:2:8: ") for line in lines), lines
    assert any(line.startswith("g/i18n/en.yaml:9:1: ") for line in lines), lines
    assert any(line.startswith("g/cards.yaml:8:16: ") for line in lines), lines


def test_control_characters_from_the_content_are_escaped_in_messages(tmp_path):
    folder = make_game(tmp_path, {
        "cards.yaml": BASE_FILES["cards.yaml"].replace("name: cards.star", 'name: "cards.\\e[2J\\e[31mred\\u202e"')})
    run = run_in_process("check", str(folder), cwd=tmp_path).assert_clean(1)
    assert "\x1b" not in run.output and "\u202e" not in run.output
    assert "missing translation key 'cards.\\x1b[2J\\x1b[31mred\\u202e' for language 'en'" in run.stderr


def test_thousands_of_errors_are_all_reported(tmp_path):
    cards = "".join(f"      - {{id: c{i}, count: 1, fields: {{name: cards.missing{i}, art: art/star.svg}}}}\n"
                    for i in range(6000))
    folder = make_game(tmp_path, {"cards.yaml": BASE_FILES["cards.yaml"].split("      - id: star")[0] + cards})
    run = run_in_process("check", str(folder), cwd=tmp_path).assert_clean(1)
    assert "6000 error(s)" in run.stderr


def test_collecting_thousands_of_problems_compares_each_with_few_others(monkeypatch):
    """The check above took 232 s when the collector compared each problem with all before it (a list's
    `in`): 18 million comparisons for 6,000. Counted, not timed: each problem is compared with the few
    of the same hash, whether it is new or found again (as each edition × language run finds it)."""
    from generator import errors
    compared = 0
    equal = errors.Problem.__eq__

    def counted(self, other):
        nonlocal compared
        compared += 1
        return equal(self, other)
    monkeypatch.setattr(errors.Problem, "__eq__", counted)
    problems = errors.Problems()
    for _ in range(2):
        for index in range(6000):
            problems.add(None, f"missing translation key 'cards.missing{index}' for language 'en'")
    assert len(problems.items) == 6000
    assert compared < 2 * 6000, compared


# --------------------------------------------------------------- exit statuses: Ctrl-C and bugs

def test_ctrl_c_exits_130_without_a_traceback(tmp_path):
    """Ctrl-C once the build draws (its first file is in the staging folder; a fixed 2.5 s into a whole
    shipped game's build was the machine's speed): one line saying so, 130, no traceback."""
    from tests.robustness.test_outputs import cards_game
    from tests.robustness.test_outputs_killed import ctrl_c_heard, wait_for_staging
    game = cards_game(tmp_path / "game", cards=12, languages=("en", "de"))
    command = [sys.executable, "-m", "generator", "build", str(game), "--out", str(tmp_path / "out"), "--jobs", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=ctrl_c_heard)
    wait_for_staging(tmp_path / "out", process, timeout=60)       # past the imports and layout, into writing
    assert process.poll() is None, "the build ended before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)           # as a terminal does: the whole process group
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    assert "Traceback" not in stderr.decode() and "interrupted" in stderr.decode()


def test_a_bug_in_pnp_is_one_line_and_exit_70(tmp_path, monkeypatch):
    import generator.cli
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(generator.cli, "check", broken)
    result = CliRunner().invoke(main, ["check", str(make_game(tmp_path, {}))])
    assert result.exit_code == 70
    assert result.output.startswith("pnp: internal error: ZeroDivisionError: a bug\n    hint: this is a bug in pnp")
    assert "Traceback" not in result.output


def test_one_games_broken_file_does_not_hide_another_games_layout_problems(tmp_path):
    broken = make_game(tmp_path / "a", {"cards.yaml": BASE_FILES["cards.yaml"].replace("count: 2", "count: two")})
    untranslated = make_game(tmp_path / "b", {
        "game.yaml": BASE_FILES["game.yaml"].replace("id: g", "id: h"),
        "cards.yaml": BASE_FILES["cards.yaml"].replace("cards.star", "cards.nope")})
    for command in (["check"], ["build", "--out", str(tmp_path / "out")]):
        run = run_in_process(*command, str(broken), str(untranslated), cwd=tmp_path).assert_clean(1)
        assert problem_lines(run.stderr) == [
            "a/g/cards.yaml:8:16: decks[0].cards[0].count: expected a positive whole number, got 'two'",
            "b/g/cards.yaml:9:24: missing translation key 'cards.nope' for language 'en' (in b/g/i18n/en.yaml)"]
    assert not (tmp_path / "out").exists()
