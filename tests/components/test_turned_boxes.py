"""A box's `turn`: its contents turned clockwise about the centre of the frame it keeps on the face.

A card with its name three times — as it reads, turned 180° (a bottom corner index) and turned 90° (up the
side) — is built through the real command line; the letters' boxes read back from the PDF say which way each
copy runs and where it lies.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from tests.test_content_errors import CARD_TEMPLATE, make_game, pnp, problem_lines

MM = 72 / 25.4

TURNED = CARD_TEMPLATE.replace(
    '  name: {kind: text, text: "@name", x: 5, y: 60, width: 53, height: 10, style: body}\n',
    '  name: {kind: text, text: "@name", x: 5, y: 60, width: 20, height: 8, style: body}\n'
    '  down: {kind: text, text: "@name", x: 38, y: 74, width: 20, height: 8, style: body, turn: 180}\n'
    '  side: {kind: text, text: "@name", x: 47, y: 20, width: 8, height: 30, style: body, turn: 90}\n')


def _letters(pdf: Path) -> list[tuple[str, float, float]]:
    """Each printed letter of the first page with its centre (mm from the page's top-left)."""
    document = pdfium.PdfDocument(pdf)
    page = document[0]
    text = page.get_textpage()
    height = page.get_height()
    letters = []
    for index in range(text.count_chars()):
        char = text.get_text_range(index, 1)
        if not char.strip():
            continue
        left, bottom, right, top = text.get_charbox(index)
        letters.append((char, (left + right) / 2 / MM, (height - (top + bottom) / 2) / MM))
    document.close()
    return letters


def _copies(letters, word: str) -> list[list[tuple[float, float]]]:
    """The centres of each run of `word`'s letters in the order the PDF holds them."""
    runs, run = [], []
    for char, x, y in letters:
        if char == word[len(run)]:
            run.append((x, y))
            if len(run) == len(word):
                runs.append(run)
                run = []
        else:
            run = [(x, y)] if char == word[0] else []
    return runs


@pytest.fixture(scope="module")
def first_card(tmp_path_factory) -> list[list[tuple[float, float]]]:
    folder = make_game(tmp_path_factory.mktemp("turn"), {"templates/card.yaml": TURNED})
    out = folder.parent / "out"
    result = pnp("build", str(folder), "--only", "cards", "--paper", "a4", "--lang", "en", "-q", "--out", str(out))
    assert result.exit_code == 0, result.output
    copies = _copies(_letters(out / "g" / "standard" / "en" / "a4" / "cards.pdf"), "Star")
    assert len(copies) >= 3          # the first card's three names (and the second copy's)
    return copies[:3]


def test_a_box_as_it_reads_runs_left_to_right(first_card) -> None:
    upright = first_card[0]
    assert [x for x, _ in upright] == sorted(x for x, _ in upright)
    assert max(y for _, y in upright) - min(y for _, y in upright) < 0.5


def test_a_box_turned_half_way_reads_upside_down_in_its_own_frame(first_card) -> None:
    upright, down = first_card[0], first_card[1]
    assert [x for x, _ in down] == sorted((x for x, _ in down), reverse=True)     # right to left on the page
    # left-aligned as it reads: it ends at its frame's right edge, turned, below the upright name
    card_left = upright[0][0] - 5          # the upright name starts near its frame's left edge, 5 mm in
    assert 38 + 20 - 3 < down[0][0] - card_left < 38 + 20 + 0.5
    assert down[0][1] > upright[0][1] + 10


def test_a_box_turned_a_quarter_reads_downwards_inside_its_footprint(first_card) -> None:
    upright, side = first_card[0], first_card[2]
    assert [y for _, y in side] == sorted(y for _, y in side)                      # top to bottom
    assert max(x for x, _ in side) - min(x for x, _ in side) < 0.5
    card_left = upright[0][0] - 5
    assert 47 < side[0][0] - card_left < 47 + 8                                    # inside its 8 mm width


def test_a_cells_box_is_not_turned(tmp_path: Path) -> None:
    board_cells = CARD_TEMPLATE + '  track: {kind: cells, cells: 3, cell_template: back, path: row, ' \
                                  'x: 5, y: 72, width: 53, height: 8, turn: 90}\n'
    folder = make_game(tmp_path, {"templates/card.yaml": board_cells})
    result = pnp("check", str(folder))
    assert result.exit_code == 1
    lines = problem_lines(result.output)
    assert any(line.startswith(f"{folder / 'templates' / 'card.yaml'}:11:") and "a cells box is not turned" in line
               for line in lines), lines
