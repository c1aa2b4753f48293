"""The rulebook in the print-shop folder: the home book's pages with the shop's bleed, TrimBox the page, and
the colour that runs to the page's edge (the cover's band and background) running on into the bleed."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

import re

from tests.rulebook.test_cover_and_pagination import CARDS, COVER, _game, _texts
from tests.test_content_errors import pnp

MM = 72 / 25.4
BAND, SNOW = (0x12, 0x34, 0x56), (0xE8, 0xF0, 0xF8)


@pytest.mark.parametrize("shop, bleed, trim", [("generic", 3.0, (148.0, 210.0)), ("tgc", 3.175, (139.7, 215.9))])
def test_the_print_shop_rulebook_has_the_shops_bleed_and_its_edges_run_on(tmp_path, shop, bleed, trim):
    folder = _game(tmp_path, COVER)
    poker_only = CARDS[:CARDS.index("  - id: minis")]           # (a US shop makes no 30 × 45 mm card)
    (folder / "cards.yaml").write_text(poker_only, encoding="utf-8")
    out = tmp_path / "out"
    paper = "a4" if shop == "generic" else "letter"
    result = pnp("build", str(folder), "--only", "rules,print-shop", "--paper", paper, "--shop", shop, "--out",
                 str(out), "--jobs", "1", "-q")
    assert result.exit_code == 0, result.output
    home, shop_file = out / "g" / "standard" / "en" / paper / "rules.pdf", \
        out / "g" / "standard" / "en" / "print-shop" / "rules.pdf"
    assert _texts(shop_file) == _texts(home)                  # the same book, page for page
    document = pdfium.PdfDocument(shop_file)
    page = document[0]
    left, bottom, right, top = page.get_trimbox()
    width, height = page.get_size()
    assert (left / MM, bottom / MM) == pytest.approx((bleed, bleed), abs=0.01)
    assert ((right - left) / MM, (top - bottom) / MM) == pytest.approx(trim, abs=0.01)
    assert (width / MM, height / MM) == pytest.approx((trim[0] + 2 * bleed, trim[1] + 2 * bleed), abs=0.01)
    image = page.render(scale=100 / 72).to_pil().convert("RGB")
    dot = 100 / 25.4
    # 1 mm from the page's edge, in the bleed: the band at the top, the background at the foot
    assert image.getpixel((int(image.width / 2), int(1 * dot))) == BAND
    assert image.getpixel((int(image.width / 2), int(image.height - 1 * dot))) == SNOW
    assert image.getpixel((int(1 * dot), int(image.height / 2))) == SNOW
    document.close()
    # the shop's preflight passes it: boxes, bleed, safe zone (the fixture's own cards have no bleed: not asked)
    report = pnp("check", str(folder), "--preflight", "--shop", shop, "--out", str(out)).output.splitlines()
    row = next(index for index, line in enumerate(report) if "print-shop/rules.pdf" in line)
    assert re.search(r"\bok\s+ok\s+inside\b", report[row]), report[row]
    assert not report[row + 1].startswith("    error"), report[row + 1]
