"""Hostile and mistaken content that `pnp check` let through, or reported without a place (issue 26).

Each case used to pass `pnp check` and then fail the build with no location, draw nothing
without a word, make pnp work for minutes, or print a message without file and line (or
with raw control characters, or 300 KB long). Now each is one located message and exit 1,
run as the user runs pnp: a child process under the harness's time and memory caps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.robustness.harness import run_pnp
from tests.test_content_errors import BASE_FILES, edit, make_game, problem_lines

CARD = "templates/card.yaml"


def check(tmp_path: Path, files: dict[str, str]):
    """`pnp check g` of the minimal game with `files` written over it, in a child process."""
    make_game(tmp_path, files)
    return run_pnp("check", "g", cwd=tmp_path).assert_clean(1)


def build(tmp_path: Path, files: dict[str, str]):
    """`pnp build g` (cards, A4 only) of the minimal game with `files` written over it."""
    make_game(tmp_path, files)
    return run_pnp("build", "g", "--only", "cards", "--paper", "a4", "--jobs", "1", "-q",
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
    """`pnp check` said ok, and the build failed ('could not convert string to float', no file) or clamped 200 % to 100 %."""
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
    assert lines == [f"g/templates/chip.yaml:5:43: token set chips, token {token}: has no field 'tint', used by the "
                     f"fill of box 'disc' (its fields: colour, deck, id)" for token in ("red", "blue")], checked.output
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
    assert built.seconds < 10, built.seconds


def test_a_hundred_editions_still_check(tmp_path: Path):
    """The caps refuse only what no game needs: 100 editions in 5 languages check clean."""
    make_game(tmp_path, with_editions_and_languages(100, 5))
    run_pnp("check", "g", cwd=tmp_path).assert_clean(0)
