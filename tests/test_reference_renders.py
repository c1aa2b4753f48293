"""A few pages compared with reference renders, for what numbers cannot guard (the look).

To accept a deliberate change of look, run `PNP_UPDATE_REFERENCES=1 pytest tests/test_reference_renders.py`,
look at the new PNGs in tests/references/, and commit them. On a failure the
render and a difference image are written to tests/_failures/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.pdf_probe import open_pdf

REFERENCES = Path(__file__).parent / "references"
FAILURES = Path(__file__).parent / "_failures"
DPI = 60
MEAN_TOLERANCE = 1.5        # mean absolute difference, in levels of 255
PIXEL_TOLERANCE = 0.005     # share of pixels that may differ by more than 40 levels

CASES = {
    "full-bg-a4-gift-fronts": ("full/bg/a4/cards.pdf", 0),
    "full-bg-a4-gift-backs": ("full/bg/a4/cards.pdf", 1),
    "full-bg-a4-surprises-helpers": ("full/bg/a4/cards.pdf", 12),
    "full-en-letter-reference-cards": ("full/en/letter/cards.pdf", 14),
    "full-en-a4-reference-backs": ("full/en/a4/cards.pdf", 15),          # their own back, not the helpers'
    "full-en-a4-ink-saver-backs": ("full/en/a4/cards-ink-saver.pdf", 13),
    "full-bg-print-shop-helper": ("full/bg/print-shop/cards.pdf", 2 * (36 + 21) + 2),
    "full-en-print-shop-board": ("full/en/print-shop/board.pdf", 0),
    "full-bg-a4-board-tile-b2": ("full/bg/a4/board.pdf", 3),
    "full-bg-letter-tokens": ("full/bg/letter/tokens.pdf", 0),
    "free-en-a4-pawns": ("free/en/a4/pawns.pdf", 0),
    "full-bg-a4-kit-cover": ("full/bg/a4/kit.pdf", 0),
    "full-bg-a4-rules-board-page": ("full/bg/a4/rules.pdf", 4),
    "free-en-letter-rules-booklet-side": ("free/en/letter/rules-booklet.pdf", 1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_page_looks_as_reviewed(built_christmas, name):
    file, index = CASES[name]
    document = open_pdf(built_christmas / file)
    rendered = document[index].render(scale=DPI / 72).to_pil().convert("RGB")
    reference_path = REFERENCES / f"{name}.png"
    if os.environ.get("PNP_UPDATE_REFERENCES"):
        rendered.save(reference_path)
        pytest.skip("reference written")
    assert reference_path.exists(), f"no reference {reference_path.name}: run with PNP_UPDATE_REFERENCES=1"
    with Image.open(reference_path) as reference:
        reference = reference.convert("RGB")
        assert rendered.size == reference.size
        difference = ImageChops.difference(rendered, reference).convert("L")
    histogram = difference.histogram()
    pixels = rendered.width * rendered.height
    mean = sum(level * count for level, count in enumerate(histogram)) / pixels
    large = sum(histogram[41:]) / pixels
    if mean > MEAN_TOLERANCE or large > PIXEL_TOLERANCE:
        FAILURES.mkdir(exist_ok=True)
        rendered.save(FAILURES / f"{name}-actual.png")
        difference.point(lambda level: min(255, level * 4)).save(FAILURES / f"{name}-diff.png")
    assert mean <= MEAN_TOLERANCE and large <= PIXEL_TOLERANCE, \
        f"{name}: mean difference {mean:.2f}, {large:.2%} pixels differ (see tests/_failures/)"
