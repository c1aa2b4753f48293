"""`pnp preview` at any --dpi and deck size stays within the memory budget."""

from __future__ import annotations

import pytest
from PIL import Image

from tests.robustness.harness import run_pnp
from tests.test_content_errors import make_game

BOARD = """\
boards:
  - id: huge
    name: deck.cards
    template: huge
"""

HUGE = """\
size: {width: 1000mm, height: 1000mm}
boxes:
  ground: {kind: rect, area: trim, fill: "#88aa66"}
"""


def test_a_metre_board_at_600_dpi_previews_within_a_gigabyte(tmp_path):
    folder = make_game(tmp_path, {"board.yaml": BOARD, "templates/huge.yaml": HUGE})
    run = run_pnp("preview", str(folder), "--dpi", "600", "--paper", "a4", "--out", str(tmp_path / "out"))
    run.assert_clean(0)
    print(f"preview at 600 dpi: {run.seconds:.1f} s, {run.peak_bytes / 2**20:.0f} MiB")
    preview = tmp_path / "out" / "g" / "standard" / "en" / "preview"
    with Image.open(preview / "boards" / "huge.png") as image:
        assert 39_000_000 < image.width * image.height <= 40_000_000     # lowered from 23,622² px
    with Image.open(preview / "cards" / "cards" / "star-front.png") as image:
        assert image.size == pytest.approx((63 / 25.4 * 600, 88 / 25.4 * 600), abs=1)   # a card keeps its 600 dpi


def test_many_distinct_faces_make_one_bounded_contact_sheet(tmp_path):
    cards = "".join(f"      - {{id: c{i}, count: 1, fields: {{name: cards.star, art: art/star.svg}}}}\n"
                    for i in range(400))
    folder = make_game(tmp_path, {"cards.yaml": open_deck() + cards})
    run_pnp("preview", str(folder), "--dpi", "100", "--out", str(tmp_path / "out")).assert_clean(0)
    with Image.open(tmp_path / "out" / "g" / "standard" / "en" / "preview" / "cards-cards.png") as sheet:
        assert sheet.width * sheet.height <= 32_000_000


def open_deck() -> str:
    from tests.test_content_errors import BASE_FILES
    return BASE_FILES["cards.yaml"].split("      - id: star")[0]
