"""A font stack of one language (`body@ka`): that language's text is set in it, the others in the stack of
its name; a stack for a language the game does not have is a located error."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf

from tests.test_content_errors import EN, GAME, make_game, pnp, problem_lines

TWO_LANGUAGES = GAME.replace("languages: [en]", "languages: [en, de]")
DE = EN.replace("en:", "de:", 1).replace('"Star"', '"Stern"')


def _fonts(pdf: Path) -> set[str]:
    """The families the cards' own text is set in: every font the pages and their forms use above 6.5 pt (the
    sheet's small print, in the engine's own face, is 6 pt)."""
    used: set[str] = set()

    def read(resources, content: bytes) -> None:
        fonts = resources.get("/Font", {})
        names = {str(name): str(font.BaseFont).split("+")[-1].split("-")[0] for name, font in fonts.items()}
        for name, size in re.findall(rb"(/F\d+) ([\d.]+) Tf", content):
            if float(size) > 6.5:
                used.add(names[name.decode()])
        for form in resources.get("/XObject", {}).values():
            if form.get("/Subtype") == "/Form":
                read(form.get("/Resources", {}), form.read_bytes())
    with pikepdf.open(pdf) as document:
        for page in document.pages:
            read(page.Resources, page.Contents.read_bytes())
    return used


def test_a_language_stack_sets_that_language_only(tmp_path: Path) -> None:
    game = TWO_LANGUAGES.replace("  body: [nunito, inter]\n", "  body: [nunito, inter]\n  body@de: [inter, nunito]\n")
    folder = make_game(tmp_path, {"game.yaml": game, "i18n/de.yaml": DE})
    out = tmp_path / "out"
    result = pnp("build", str(folder), "--only", "cards", "--paper", "a4", "-q", "--out", str(out))
    assert result.exit_code == 0, result.output
    english, german = (_fonts(out / "g" / "standard" / lang / "a4" / "cards.pdf") for lang in ("en", "de"))
    assert english == {"Nunito"} and german == {"Inter"}, (english, german)


def test_a_stack_for_a_language_the_game_lacks_is_an_error_at_its_key(tmp_path: Path) -> None:
    game = GAME.replace("  body: [nunito, inter]\n", "  body: [nunito, inter]\n  body@fr: [inter]\n")
    folder = make_game(tmp_path, {"game.yaml": game})
    result = pnp("check", str(folder))
    assert result.exit_code == 1
    assert f"{folder / 'game.yaml'}:8:3: font stack 'body@fr' is for language 'fr', which game.yaml's " \
           "languages do not list" in problem_lines(result.output), result.output
