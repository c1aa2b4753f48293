"""A language or edition taken out of game.yaml: the next build of the whole game removes its output.

A tiny two-language game is built, then German is removed from game.yaml. A build of some languages
leaves the German folder alone; a build of the whole game removes what pnp made there (and only that: a
file of the user's own stays), says so, and leaves English byte for byte as it was. A build that fails
removes nothing, and the pseudo-locale (built only when asked for) is never removed.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_content_errors import EN, GAME, make_game, pnp

DE = EN.replace("en:", "de:", 1).replace('"Test game"', '"Testspiel"')
TWO = GAME.replace("languages: [en]", "languages: [en, de]")


def _build(folder: Path, out: Path, *args: str):
    return pnp("build", str(folder), "--out", str(out), "--paper", "a4", "--only", "cards", "--jobs", "1", *args)


def _files(folder: Path) -> dict[str, bytes]:
    """The folder's files and their bytes (the build stamp aside: it holds the game's digest)."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name != ".pnp-build.json"}


def test_a_removed_language_goes_with_the_next_whole_build_and_only_it(tmp_path):
    game, out = make_game(tmp_path, {"game.yaml": TWO, "i18n/de.yaml": DE}), tmp_path / "out"
    assert _build(game, out).exit_code == 0
    german, english = out / "g" / "standard" / "de", out / "g" / "standard" / "en"
    assert (german / "a4" / "cards.pdf").is_file()
    (german / "notes.txt").write_text("mine")
    before = _files(english)
    (game / "game.yaml").write_text(GAME)               # German taken out

    assert _build(game, out, "--lang", "en").exit_code == 0
    assert (german / "a4" / "cards.pdf").is_file(), "a build of some languages leaves the others alone"

    result = _build(game, out)
    assert result.exit_code == 0, result.output
    assert "removed the output of g/standard/de" in result.output
    assert _files(german) == {"notes.txt": b"mine"} and not (german / ".pnp-build.json").exists()
    assert _files(english) == before                     # pnp's files gone, the user's own kept, English as it was


def test_nothing_is_removed_by_a_build_that_fails_nor_the_pseudo_locale(tmp_path):
    game, out = make_game(tmp_path, {"game.yaml": TWO, "i18n/de.yaml": DE}), tmp_path / "out"
    assert _build(game, out).exit_code == 0
    assert _build(game, out, "--lang", "qps-ploc").exit_code == 0
    pseudo, german = out / "g" / "standard" / "qps-ploc", out / "g" / "standard" / "de"
    assert (pseudo / "a4" / "cards.pdf").is_file()
    (game / "game.yaml").write_text(GAME)
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text().replace("count: 2", "count: many"))
    failed = _build(game, out)
    assert failed.exit_code == 1 and (german / "a4" / "cards.pdf").is_file()
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text().replace("count: many", "count: 2"))
    assert _build(game, out).exit_code == 0
    assert not german.exists() and (pseudo / "a4" / "cards.pdf").is_file()
