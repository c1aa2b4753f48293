"""Full-bleed cards keep at least 2 mm of their own bleed past every outer trim (issue 29.6): read from the
pixels of a built cards.pdf of a tiny game of nine red full-bleed poker cards, on Letter and A4.

Letter is 279.4 mm tall: three rows of 88 mm cards 2 mm apart stood 5.7 mm from the edge and kept only
0.7 mm of bleed inside the 5 mm printable margin. The rows now stand closer (imposition/grid.py
fitted_rows), the columns keep their 2 mm gutters, and every crop mark stays inside the margin.
"""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops

from generator.imposition.grid import MIN_OUTER_BLEED, GridSpec, fitted_rows, grid_geometry
from generator.print_facts import PAPER_SIZES, PRINTABLE_MARGIN
from tests.robustness.test_outputs import build
from tests.test_content_errors import make_game

DPI = 600
RED_CARD = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
boxes:
  background: {kind: rect, area: bleed, fill: "#cc0000"}
"""


@pytest.fixture(scope="module")
def red_cards(tmp_path_factory):
    """cards.pdf of nine full-bleed red cards on both papers."""
    tmp = tmp_path_factory.mktemp("bleed")
    cards = "decks:\n  - id: cards\n    name: deck.cards\n    template: card\n    back: back\n    cards:\n" \
            "      - {id: star, count: 9, fields: {name: cards.star, art: art/star.svg}}\n"
    game = make_game(tmp, {"cards.yaml": cards, "templates/card.yaml": RED_CARD})
    result = build(game, tmp / "out", "--only", "cards")
    assert result.exit_code == 0, result.output
    return tmp / "out" / "g" / "standard" / "en"


def _red(pixel) -> bool:
    r, g, b = pixel[:3]
    return r > 150 and g < 80 and b < 80


def _reach(image, x_mm: float, y_mm: float, dx: int, dy: int) -> float:
    """How far (mm) red runs from (x, y) in the direction (dx, dy), in 0.05 mm steps."""
    step = 0.05
    distance = 0.0
    while distance < 10:
        x, y = x_mm + dx * (distance + step), y_mm + dy * (distance + step)
        if not _red(image.getpixel((round(x / 25.4 * DPI), round(y / 25.4 * DPI)))):
            break
        distance += step
    return distance


def _red_box(image) -> tuple[float, float, float, float]:
    """The red area's extent in mm (left, top, right, bottom)."""
    r, g, _ = image.convert("RGB").split()
    red = r.point(lambda v: 255 if v > 150 else 0)
    not_green = g.point(lambda v: 255 if v < 80 else 0)
    box = ImageChops.multiply(red, not_green).getbbox()
    assert box is not None
    return tuple(value / DPI * 25.4 for value in box)   # type: ignore[return-value]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_outer_trim_of_a_full_sheet_keeps_two_millimetres_of_bleed_inside_the_margin(red_cards, paper):
    width, height = PAPER_SIZES[paper]
    spec = fitted_rows(GridSpec((width, height), (63.0, 88.0), gap=2.0))
    geometry = grid_geometry(spec)
    assert (geometry.columns, geometry.rows) == (3, 3)
    document = pdfium.PdfDocument(red_cards / paper / "cards.pdf")
    image = document[0].render(scale=DPI / 72).to_pil().convert("RGB")
    grid_w, grid_h = geometry.size(spec)
    top, bottom = geometry.top, geometry.top + grid_h
    left, right = geometry.left, geometry.left + grid_w
    # the red runs past each outer trim, at each row's and each column's middle, by 2 mm (to a pixel)
    for column in range(3):
        x = left + column * (63 + spec.gap) + 31.5
        assert _reach(image, x, top - 0.2, 0, -1) + 0.2 >= MIN_OUTER_BLEED - 0.1, (paper, column, "top")
        assert _reach(image, x, bottom + 0.2, 0, 1) + 0.2 >= MIN_OUTER_BLEED - 0.1, (paper, column, "bottom")
    for row in range(3):
        y = top + row * (88 + spec.gap_y) + 44
        assert _reach(image, left - 0.2, y, -1, 0) + 0.2 >= MIN_OUTER_BLEED - 0.1, (paper, row, "left")
        assert _reach(image, right + 0.2, y, 1, 0) + 0.2 >= MIN_OUTER_BLEED - 0.1, (paper, row, "right")
    # ... and no red lies in the printable margin
    x0, y0, x1, y1 = _red_box(image)
    assert x0 >= PRINTABLE_MARGIN - 0.1 and y0 >= PRINTABLE_MARGIN - 0.1
    assert x1 <= width - PRINTABLE_MARGIN + 0.1 and y1 <= height - PRINTABLE_MARGIN + 0.1
    # the trims are where the grid says: 2 mm inside the red's edge at the top and the left
    assert y0 == pytest.approx(top - MIN_OUTER_BLEED, abs=0.1)
    assert x0 == pytest.approx(left - MIN_OUTER_BLEED, abs=0.1)
    document.close()


def test_letter_rows_stand_closer_and_its_columns_keep_their_gutters():
    spec = fitted_rows(GridSpec(PAPER_SIZES["letter"], (63.0, 88.0), gap=2.0))
    geometry = grid_geometry(spec)
    assert spec.gap == 2.0 and spec.gap_y == pytest.approx(0.7)
    assert geometry.top == pytest.approx(7.0, abs=0.01)
    # A4's rows have room: unchanged
    a4 = GridSpec(PAPER_SIZES["a4"], (63.0, 88.0), gap=2.0)
    assert fitted_rows(a4) == a4


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_no_ink_in_the_margin_but_the_crop_marks_mark_every_cut(red_cards, paper):
    """Black marks stay inside the margin: they are read as dark, not red, pixels."""
    width, height = PAPER_SIZES[paper]
    document = pdfium.PdfDocument(red_cards / paper / "cards.pdf")
    image = document[0].render(scale=100 / 72, grayscale=True).to_pil().convert("L")
    edge = round((PRINTABLE_MARGIN - 0.3) / 25.4 * 100)
    pixels = image.load()
    w, h = image.size
    dark = [(x, y) for y in range(h) for x in range(w)
            if (x < edge or y < edge or x >= w - edge or y >= h - edge) and pixels[x, y] < 235]
    assert not dark, dark[:3]
    document.close()
