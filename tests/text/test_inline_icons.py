"""Inline icons in card text: drawn from the game's icon set, and an unknown one reported where it is written."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
from click.testing import CliRunner

from generator.cli import main
from tests.test_content_errors import BASE_FILES, edit, make_game


def _game(tmp_path, star_text: str, icons: str = "icons: {star: art/star.svg}\n"):
    files = edit("i18n/en.yaml", 'star: "Star"', f'star: "{star_text}"')
    files["game.yaml"] = BASE_FILES["game.yaml"] + icons
    return make_game(tmp_path, files)


def test_an_unknown_icon_is_reported_at_its_catalog_line(tmp_path):
    folder = _game(tmp_path, "Gain {icon:sun} now")
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 1
    assert re.search(r"i18n/en\.yaml:8:11: unknown icon '\{icon:sun\}' in 'cards\.star' \(en\)", result.output), \
        result.output
    assert "icons of this game: star" in result.output


def test_the_former_markup_is_reported(tmp_path):
    folder = _game(tmp_path, "Gain :star: now", icons="format: 2\nicons: {star: art/star.svg}\n")
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 1 and "write {icon:star}" in result.output


def test_an_icon_on_a_card_is_drawn_inline_and_its_words_print_as_written(tmp_path):
    folder = _game(tmp_path, "Gain 2 {icon:star} now")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(folder), "--paper", "a4", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    pdf = pdfium.PdfDocument(str(out / "g" / "standard" / "en" / "a4" / "cards.pdf"))
    page = pdf[0]
    text = page.get_textpage().get_text_range()
    assert "Gain 2" in text and "now" in text and "icon" not in text
    # the icon's red square is drawn in the name box, between "2" and "now" (the card's own art is red
    # too, but above y = 50 mm of the card): look for red below it, in the text band
    image = page.render(scale=2).to_pil().convert("RGB")
    width, height = image.size
    red = [(x, y) for y in range(0, height, 2) for x in range(0, width, 2)
           if image.getpixel((x, y))[0] > 180 and image.getpixel((x, y))[1] < 60]
    card_top = (297 - 3 * 88) / 2 * 2 * 72 / 25.4
    in_text_band = [p for p in red if card_top + 59 * 2 * 72 / 25.4 < p[1] < card_top + 70 * 2 * 72 / 25.4]
    assert in_text_band
