"""Card figures drawn from the game's own faces, measured in the PDF: groups side by side at one scale (a mini
card keeps its size beside a poker card), a highlighted card framed in red, a crossed-out one crossed, the
groups' labels and the caption read back exactly, a hand's covered cards not read; located errors for a card
that is not there and an arrow to a card the figure lacks."""

from __future__ import annotations

from tests.rulebook.test_board_figures import _colour_box
from tests.rulebook.test_cover_and_pagination import EN, _build, _game, _texts
from tests.test_content_errors import pnp

import pypdfium2 as pdfium

CARDS_EN = EN + """\
    left: "Leftgroup"
    right: "Rightgroup"
    hand: "Handcaption"
"""

FIGURE = """\
rulebook:
  cover: {title: game.title}
  sections:
    - heading: rules.heading
      blocks:
        - paragraph: rules.short
        - figure:
            groups:
              - label: rules.left
                cards: [{card: cards/one, highlight: true}, {card: cards/two, cross: true}]
              - label: rules.right
                cards: [{card: minis/small}]
            arrows: [{from: 1, to: 3}]
            caption: rules.hand
"""

GREEN, RED = (0, 0xc0, 0), (0xa3, 0x16, 0x21)


def _figure_page(path):
    texts = _texts(path)
    index = next(i for i, text in enumerate(texts) if "Handcaption" in text)
    image = pdfium.PdfDocument(str(path))[index].render(scale=100 / 72).to_pil().convert("RGB")
    return texts[index], image


def test_groups_of_real_faces_side_by_side_framed_and_crossed(tmp_path):
    text, image = _figure_page(_build(tmp_path, _game(tmp_path, FIGURE, CARDS_EN)) / "rules.pdf")
    assert "Leftgroup" in text and "Rightgroup" in text and "Handcaption" in text
    assert text.index("Leftgroup") < text.index("Rightgroup") < text.index("Handcaption")
    # the green faces: two poker cards and a mini, side by side on one foot line, at one scale
    pixels = image.load()
    columns = [x for x in range(image.width) if any(pixels[x, y] == GREEN for y in range(0, image.height, 2))]
    runs = []
    for x in columns:
        if runs and x - runs[-1][1] <= 2:
            runs[-1][1] = x
        else:
            runs.append([x, x])
    widths = [(end - start + 1) * 25.4 / 100 for start, end in runs]
    assert len(widths) == 3, widths
    assert abs(widths[0] - widths[1]) < 0.6 and abs(widths[0] / widths[2] - 63 / 30) < 0.15
    # the red: a frame round the first card (beyond its green on the left), a cross inside the second
    red = _colour_box(image, RED, tolerance=30)
    assert red is not None
    first_left = runs[0][0] * 25.4 / 100
    assert red[0] < first_left            # the highlight's frame stands just outside the first card
    second = (runs[1][0] + runs[1][1]) / 2
    middle_rows = [y for y in range(image.height) if all(abs(a - b) <= 30 for a, b in
                                                        zip(pixels[int(second), y], RED, strict=True))]
    assert middle_rows, "no cross over the second card"


def test_a_hands_covered_cards_are_drawn_but_not_read(tmp_path):
    en = CARDS_EN + '  cards:\n    star: "Starword"\n'
    en = en.replace('  cards:\n    star: "Star"\n', "")
    template = """\
size: {width: 63mm, height: 88mm}
boxes:
  face: {kind: rect, area: trim, fill: "#00c000"}
  name: {kind: text, text: "@name", x: 4, y: 40, width: 55, height: 10}
"""
    hand = FIGURE.replace("            groups:", "            layout: hand\n            groups:")
    folder = _game(tmp_path, hand, en)
    (folder / "templates" / "green.yaml").write_text(template, encoding="utf-8")
    text, _ = _figure_page(_build(tmp_path, folder) / "rules.pdf")
    assert text.count("Starword") == 1        # the left group's top card only: the one under it is covered


def test_a_card_or_an_arrow_not_there_is_told_where_it_is_written(tmp_path):
    folder = _game(tmp_path, FIGURE.replace("cards/two", "cards/twenty").replace("to: 3", "to: 7"), CARDS_EN)
    result = pnp("check", str(folder))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "rules.yaml:" in result.output and "no piece 'cards/twenty'" in result.output
    (tmp_path / "second").mkdir()
    folder = _game(tmp_path / "second", FIGURE.replace("to: 3", "to: 7"), CARDS_EN)
    result = pnp("check", str(folder))
    assert result.exit_code == 1 and "an arrow from card 1 to card 7, and the figure has 3 card(s)" in result.output
