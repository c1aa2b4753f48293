"""Hostile and mistaken content that `pnp check` let through, or reported without a place (issue 26).

Each case used to pass `pnp check` and then fail the build with no location, draw nothing
without a word, make pnp work for minutes, or print a message without file and line (or
with raw control characters, or 300 KB long). Now each is one located message and exit 1,
run through pnp's command line in the test's process (tests/robustness/harness.py: run_in_process).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.robustness.harness import run_in_process
from tests.test_content_errors import BASE_FILES, edit, make_game, problem_lines

CARD = "templates/card.yaml"


def check(tmp_path: Path, files: dict[str, str]):
    """`pnp check g` of the minimal game with `files` written over it, in a child process."""
    make_game(tmp_path, files)
    return run_in_process("check", "g", cwd=tmp_path).assert_clean(1)


def build(tmp_path: Path, files: dict[str, str]):
    """`pnp build g` (cards, A4 only) of the minimal game with `files` written over it."""
    make_game(tmp_path, files)
    return run_in_process("build", "g", "--only", "cards", "--paper", "a4", "--jobs", "1", "-q",
                   "--out", str(tmp_path / "out"), cwd=tmp_path).assert_clean(1)


# ------------------------------------------------------------- colours and sizes the drawing met first

BAD_COLOURS = [
    pytest.param(edit(CARD, "color: ink}", 'color: "cmyk(1.2.3,0,0,0)"}'),
                 "g/templates/card.yaml:5:56: styles.body.color: 'cmyk(1.2.3,0,0,0)' is not a colour", id="two-points"),
    pytest.param(edit(CARD, '"#222222"', '"cmyk(., ., ., .)"'),
                 "g/templates/card.yaml:7:8: palette.ink: 'cmyk(., ., ., .)' is not a colour", id="dots"),
    pytest.param(edit(CARD, '"#222222"', '"cmyk(200, 0, 0, 0)"'),
                 "g/templates/card.yaml:7:8: palette.ink: 'cmyk(200, 0, 0, 0)' is not a colour: its cyan is 200 %",
                 id="over-100"),
]


@pytest.mark.parametrize(("files", "expected"), BAD_COLOURS)
def test_a_bad_cmyk_colour_is_refused_where_it_is_written(tmp_path: Path, files: dict[str, str], expected: str):
    """`pnp check` said ok, and the build failed ('could not convert string to float', no file) or clamped
    200 % to 100 %."""
    checked = check(tmp_path, files)
    assert [line for line in problem_lines(checked.stderr) if line.startswith(expected)], checked.output
    built = build(tmp_path, files)
    assert expected in built.output and "could not draw" not in built.output, built.output
    assert not (tmp_path / "out" / "g").exists()


def test_min_size_above_size_is_refused(tmp_path: Path):
    """A style that may never shrink to its min_size was set at its size without a word."""
    checked = check(tmp_path, edit(CARD, "min_size: 8pt", "min_size: 14pt"))
    assert problem_lines(checked.stderr) == [
        "g/templates/card.yaml:5:44: styles.body.min_size: min_size 14 pt is larger than its size, 10 pt: "
        "text shrinks from its size down to min_size"], checked.output


def test_a_min_size_a_child_template_outgrows_is_found_in_the_merged_style(tmp_path: Path):
    """The parent says min_size 8pt, the child size 6pt: the merged style is what is checked."""
    files = {"templates/small.yaml": "extends: card\nstyles:\n  body: {size: 6pt}\n",
             **edit("cards.yaml", "template: card", "template: small")}
    checked = check(tmp_path, files)
    assert problem_lines(checked.stderr) == [      # said where the min_size is written
        "g/templates/card.yaml:5:44: styles.body.min_size: min_size 8 pt is larger than its size, 6 pt: "
        "text shrinks from its size down to min_size"], checked.output


TINTED_TOKENS = {
    "tokens.yaml": "sets:\n  - id: chips\n    name: deck.cards\n    template: chip\n    back: chip-back\n    tokens:\n"
                   "      - {id: red, count: 2, fields: {colour: '#c00000'}}\n"
                   "      - {id: blue, count: 2, fields: {colour: '#0000c0'}}\n",
    "templates/chip.yaml": "size: {width: 20mm, height: 20mm}\nbleed: 2mm\nshape: round\n"
                           "boxes:\n  disc: {kind: ellipse, area: trim, fill: \"@tint\"}\n",
    "templates/chip-back.yaml": "extends: chip\nboxes:\n  disc: {fill: '#808080'}\n",
}


def test_a_fill_from_a_field_the_tokens_lack_is_refused_at_the_fill(tmp_path: Path):
    """`fill: "@tint"` on tokens that have `colour`, not `tint`, drew nothing at all and said nothing."""
    checked = check(tmp_path, TINTED_TOKENS)
    lines = problem_lines(checked.stderr)
    errors = [line for line in lines if ": warning: " not in line]
    assert errors == [f"g/templates/chip.yaml:5:43: token set chips, token {token}: has no field 'tint', used by the "
                      f"fill of box 'disc' (its fields: colour, deck, id)" for token in ("red", "blue")], checked.output
    warnings = [line for line in lines if ": warning: " in line]    # and the field they have instead is read by none
    assert len(warnings) == 2 and all(line.endswith("no template or text reads the field 'colour'")
                                      for line in warnings), checked.output
    assert "add `tint:` to its fields, or `when: '@tint'` to the box" in checked.stderr


# ------------------------------------------------------------- counts that make pnp build for minutes

def with_editions_and_languages(editions: int, languages: int) -> dict[str, str]:
    """The minimal game with `editions` editions and `languages` languages, each with its catalog."""
    codes = ["en"] + [f"{chr(97 + index // 26)}{chr(97 + index % 26)}" for index in range(languages + 1)
                      if f"{chr(97 + index // 26)}{chr(97 + index % 26)}" != "en"][:languages - 1]
    listed = "".join(f"  e{index}: {{name: game.edition}}\n" for index in range(editions))
    files = edit("game.yaml", "  standard: {name: game.edition}\n", listed)
    files["game.yaml"] = files["game.yaml"].replace("[en]", f"[{', '.join(codes)}]")
    for code in codes[1:]:
        files[f"i18n/{code}.yaml"] = BASE_FILES["i18n/en.yaml"].replace("en:", f"{code}:", 1)
    return files


@pytest.mark.parametrize(("editions", "languages", "expected"), [
    pytest.param(1_000, 1, "g/game.yaml:5:3: editions: 1,000 given, at most 100 allowed", id="1000-editions"),
    pytest.param(1, 101, "g/game.yaml:3:12: languages: 101 given, at most 100 allowed", id="101-languages"),
    pytest.param(50, 11, "g/game.yaml:5:3: editions: 50 editions in 11 languages make 550 targets to build, "
                         "more than the 500 a game may have", id="550-targets"),
])
def test_editions_and_languages_are_bounded(tmp_path: Path, editions: int, languages: int, expected: str):
    """1,000 editions of a one-card game were built at 0.25 s each (minutes), with no cap."""
    built = build(tmp_path, with_editions_and_languages(editions, languages))
    assert problem_lines(built.stderr) == [expected], built.output
    assert not (tmp_path / "out").exists()            # refused before a single target is laid out


def test_a_hundred_editions_still_check(tmp_path: Path):
    """The caps refuse only what no game needs: 100 editions in 5 languages check clean."""
    make_game(tmp_path, with_editions_and_languages(100, 5))
    run_in_process("check", "g", cwd=tmp_path).assert_clean(0)


# ------------------------------------------------------------- messages with a place, printed safely

def test_a_nul_byte_in_any_yaml_file_is_located(tmp_path: Path):
    """It said 'unacceptable character #x0000 … in "<unicode string>", position 130': no file, no line."""
    checked = check(tmp_path, edit("cards.yaml", "id: star", "id: st\0ar"))
    assert problem_lines(checked.stderr) == [
        "g/cards.yaml:7:15: YAML does not allow the character U+0000 (\\x00) anywhere in a file"], checked.output
    assert "<unicode string>" not in checked.output and "position" not in checked.output


def test_an_escape_character_in_a_catalog_is_located_after_non_ascii_text(tmp_path: Path):
    """libyaml counts bytes: the place is found by character, so text before it in Georgian counts right."""
    checked = check(tmp_path, edit("i18n/en.yaml", '"Test game"', '"თამაში \x1b[2J"'))
    assert problem_lines(checked.stderr) == [
        "g/i18n/en.yaml:3:20: YAML does not allow the character U+001B (\\x1b) anywhere in a file"], checked.output
    assert "\x1b" not in checked.output


def test_invalid_utf8_is_located_by_line_and_column(tmp_path: Path):
    """It said 'invalid start byte at byte 31': the line and the column (in characters) are what an editor finds."""
    game = make_game(tmp_path, {})
    text = BASE_FILES["game.yaml"].replace("title: game.title", "title: gäme.title\xff").encode("utf-8")
    (game / "game.yaml").write_bytes(text.replace("\xff".encode("utf-8"), b"\xff"))
    checked = run_in_process("check", "g", cwd=tmp_path).assert_clean(1)
    assert problem_lines(checked.stderr)[0] == (
        "g/game.yaml:2:18: not UTF-8 text: byte 0xff cannot be read (invalid start byte)"), checked.output


def test_a_message_echoes_a_long_list_abridged(tmp_path: Path):
    """A dash pattern of 100,000 numbers was echoed whole: one 300 KB line."""
    numbers = ", ".join(["1"] * 100_000)
    frame = f"  frame: {{kind: rect, width: 5, height: 5, dash: [{numbers}]}}\n"
    checked = check(tmp_path, {CARD: BASE_FILES[CARD] + frame})
    assert problem_lines(checked.stderr) == [
        "g/templates/card.yaml:11:50: boxes.frame.dash: a dash pattern is up to 16 lengths from 0 to 2,000 mm, "
        "not all 0, got 100,000 lengths"], checked.output
    assert len(checked.stderr) < 1_000


def test_a_list_of_100000_bad_values_is_three_lines_and_a_count(tmp_path: Path):
    """Each of 100,000 texts in a dash pattern was its own message (12 MB of output)."""
    words = ", ".join(["a"] * 100_000)
    frame = f"  frame: {{kind: rect, width: 5, height: 5, dash: [{words}]}}\n"
    checked = check(tmp_path, {CARD: BASE_FILES[CARD] + frame})
    assert problem_lines(checked.stderr) == [
        "g/templates/card.yaml:11:51: boxes.frame.dash[0]: expected a number, got 'a'",
        "g/templates/card.yaml:11:54: boxes.frame.dash[1]: expected a number, got 'a'",
        "g/templates/card.yaml:11:57: boxes.frame.dash[2]: expected a number, got 'a'",
        "g/templates/card.yaml:11:50: boxes.frame.dash: 99,997 more entries like these"], checked.output


def test_a_few_bad_values_of_a_list_are_each_said(tmp_path: Path):
    """Only a long run of bad items is counted: six are six lines."""
    checked = check(tmp_path, {CARD: BASE_FILES[CARD] + "  frame: {kind: rect, width: 5, height: 5, "
                                                       "dash: [a, a, a, a, a, a]}\n"})
    assert [line.split(": ", 1)[0] for line in problem_lines(checked.stderr)] == [
        f"g/templates/card.yaml:11:{51 + 3 * index}" for index in range(6)], checked.output


def test_a_long_text_is_echoed_abridged(tmp_path: Path):
    checked = check(tmp_path, edit("cards.yaml", "count: 2", f"count: {'x' * 200_000}"))
    assert problem_lines(checked.stderr) == [
        f"g/cards.yaml:8:16: decks[0].cards[0].count: expected a positive whole number, got '{'x' * 80}'… "
        "(199,920 more characters)"], checked.output


@pytest.mark.parametrize("separator", ["\\L", "\\P", "\\u200b"], ids=["U+2028", "U+2029", "U+200B"])
def test_line_separators_in_a_message_are_printed_escaped(tmp_path: Path, separator: str):
    """A key holding U+2028 (written "\\L" in YAML) was printed raw: the terminal broke the line there."""
    checked = check(tmp_path, edit("cards.yaml", "{name: cards.star,", f'{{name: "cards.st{separator}ar",'))
    character = {"\\L": "\u2028", "\\P": "\u2029", "\\u200b": "\u200b"}[separator]
    escaped = character.encode("unicode_escape").decode("ascii")
    assert f"missing translation key 'cards.st{escaped}ar'" in checked.stderr, checked.output
    assert character not in checked.output


@pytest.mark.parametrize("title", ["Bell\x07 game", "Two\u2028lines", "Back\u202eward"])
def test_a_title_with_a_control_character_is_refused_up_front(tmp_path: Path, title: str):
    """`pnp new --title` wrote it raw into the catalog, and the new game failed `pnp check`."""
    made = run_in_process("new", "mygame", "--title", title, cwd=tmp_path).assert_clean(2)
    assert "holds a control character" in made.stderr and "type it again without it" in made.stderr, made.output
    assert not (tmp_path / "mygame").exists()
    assert all(character not in made.output for character in "\x07\u2028\u202e")


def test_a_title_with_quotes_braces_and_backslashes_checks_clean(tmp_path: Path):
    """`Say "hi"` broke the catalog's YAML, and '{ok}' read as a placeholder with no value."""
    title = 'Say "hi" \\ {ok} it\'s'
    run_in_process("new", "mygame", "--title", title, cwd=tmp_path).assert_clean(0)
    run_in_process("check", "mygame", cwd=tmp_path).assert_clean(0)
    from generator.i18n.catalog import interpolate
    catalog = yaml_text(tmp_path / "mygame" / "i18n" / "en.yaml")
    assert interpolate(catalog["en"]["game"]["title"], {}) == title


def yaml_text(path: Path):
    import yaml
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_a_game_id_with_an_escape_sequence_is_echoed_escaped(tmp_path: Path):
    """`pnp new $'a\\x1b[2Jb'` printed the raw ESC: the terminal cleared the screen instead of saying why."""
    made = run_in_process("new", "a\x1b[2Jb", cwd=tmp_path).assert_clean(2)
    assert "'a\\x1b[2Jb' is not a game id" in made.stderr and "\x1b" not in made.output, made.output
