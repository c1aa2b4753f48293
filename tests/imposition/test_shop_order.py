"""A shop's whole order: every component of a game mapped to one of the shop's products (or said, at its
template, to fit none, with the nearest and the scale it would print at), print-shop/ORDER.txt naming which
file goes to which product, and the chits fitted to their product as the cards are (a tgc medium square chit
is a 300 × 300 px image: 0.75 in and its ⅛ in bleed each side)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from generator.imposition.shops import INCH, SHOP_PRESETS
from tests.test_content_errors import make_game, pnp, problem_lines

CHIT = 0.75 * INCH          # tgc's medium square chit
QUAD = 18 * INCH            # tgc's quad-fold board

FILES = {
    "tokens.yaml": "sets:\n  - id: coins\n    name: deck.cards\n    template: coin\n    back: coin\n"
                   "    tokens:\n      - {id: gold, count: 3}\n",
    "templates/coin.yaml": f"size: {{width: {CHIT}mm, height: {CHIT}mm}}\nbleed: 2mm\nboxes:\n"
                           '  ground: {kind: rect, area: bleed, fill: "#d4a017"}\n',
    "board.yaml": "boards:\n  - {id: main, name: deck.cards, template: board}\n",
    "templates/board.yaml": f"size: {{width: {QUAD}mm, height: {QUAD}mm}}\nbleed: 3.175mm\nboxes:\n"
                            '  ground: {kind: rect, area: bleed, fill: "#2e7d32"}\n',
    "pawns.yaml": "sets:\n  - id: meeples\n    name: deck.cards\n    template: pawn\n    standee: {base: 10mm}\n"
                  "    pawns:\n      - {id: red, count: 2}\n",
    "templates/pawn.yaml": "size: {width: 20mm, height: 30mm}\nboxes:\n"
                           '  ground: {kind: rect, area: trim, fill: "#c62828"}\n',
}


@pytest.fixture(scope="module")
def tgc_order(tmp_path_factory) -> tuple[Path, str, list[str]]:
    tmp = tmp_path_factory.mktemp("order")
    folder = make_game(tmp, FILES)
    out = tmp / "out"
    built = pnp("build", str(folder), "--only", "print-shop,png", "--shop", "tgc", "--out", str(out), "-q")
    assert built.exit_code == 0, built.output
    shop = out / "g" / "standard" / "en" / "print-shop"
    return shop, (shop / "ORDER.txt").read_text(encoding="utf-8"), problem_lines(built.output)


def test_the_order_names_each_files_product(tgc_order) -> None:
    _, order, _ = tgc_order
    lines = order.splitlines()
    assert lines[0] == "g standard en: print-shop files for the tgc preset"
    assert "cards.pdf, pages 1–4: deck 'cards', 2 card(s) of 63 × 88 mm" in lines
    assert "    order as the poker (2.5 × 3.5 in); upload the PNGs in png/cards/ (300 ppi with the bleed)" in lines
    assert "tokens.pdf, pages 1–6: token set 'coins', 3 token(s) of 19.05 × 19.05 mm" in lines
    assert "    order as the medium square chit (0.75 × 0.75 in); upload the PNGs in png/tokens/coins/ " \
           "(300 ppi with the bleed)" in lines
    assert "board.pdf, page 1: board 'main', 1 board(s) of 457.2 × 457.2 mm" in lines
    assert "    order as the quad-fold board (18 × 18 in); upload board.pdf" in lines
    # a fold-over standee has no bleed: it prints at home, and the shop's nearest standee is named
    assert "standee set 'meeples', 2 standee(s) of 20 × 30 mm (fold-over strips of 20 × 80 mm with no bleed: " \
           "not in this folder, they print at home (pawns.pdf))" in lines
    assert "    the nearest tgc product is the medium standee (0.75 × 1.675 in), at 95%" in lines
    assert not (tgc_order[0] / "pawns.pdf").exists()
    assert lines[-1] == "Every page is one face with 3.175 mm bleed; TrimBox is the finished size, fronts before backs."


def test_a_chit_is_the_image_the_shops_uploader_takes(tgc_order) -> None:
    shop, _, _ = tgc_order
    images = sorted((shop / "png" / "tokens" / "coins").glob("*.png"))
    assert len(images) == 6                         # three chits, front and back
    assert {Image.open(path).size for path in images} == {(300, 300)}
    assert {Image.open(path).size for path in (shop / "png" / "cards").glob("*.png")} == {(825, 1125)}


def test_a_component_no_product_fits_is_a_warning_at_its_template(tgc_order) -> None:
    _, _, warnings = tgc_order
    pawns = [line for line in warnings if "standee set 'meeples'" in line]
    assert len(pawns) == 1 and "pawns.yaml:4:15: warning: standee set 'meeples': tgc makes no standee of 20 × 30 " \
                               "mm; the nearest is its medium standee (0.75 × 1.675 in), which would print it at 95%" \
                               in pawns[0], warnings
    assert not [line for line in warnings if "board 'main'" in line or "token set 'coins'" in line], warnings


def test_the_generic_preset_prints_everything_at_its_own_size(tmp_path: Path) -> None:
    folder = make_game(tmp_path, FILES)
    built = pnp("build", str(folder), "--only", "print-shop", "--out", str(tmp_path / "out"), "-q")
    assert built.exit_code == 0 and not [line for line in problem_lines(built.output) if "makes no" in line]
    order = (tmp_path / "out" / "g" / "standard" / "en" / "print-shop" / "ORDER.txt").read_text(encoding="utf-8")
    assert order.count("order at its own size; upload ") == 3, order       # cards, tokens, board
    assert SHOP_PRESETS["generic"].fitting("board", 380, 380).trim == (380, 380)


def test_a_custom_size_board_gets_the_named_shops_bleed_its_ground_run_on(tmp_path: Path) -> None:
    import pypdfium2 as pdfium
    files = {**FILES, "templates/board.yaml": FILES["templates/board.yaml"].replace(f"{QUAD}mm", "380mm")
             .replace("bleed: 3.175mm", "bleed: 3mm")}
    folder = make_game(tmp_path, files)
    built = pnp("build", str(folder), "--only", "print-shop", "--shop", "tgc", "--out", str(tmp_path / "out"), "-q")
    assert built.exit_code == 0, built.output
    document = pdfium.PdfDocument(tmp_path / "out" / "g" / "standard" / "en" / "print-shop" / "board.pdf")
    page = document[0]
    left, bottom, right, top = page.get_trimbox()
    assert left * 25.4 / 72 == pytest.approx(INCH / 8, abs=0.01)          # the shop's 1/8 in, not the template's 3 mm
    assert (right - left) * 25.4 / 72 == pytest.approx(380, abs=0.01)     # at its own size
    image = page.render(scale=0.5).to_pil().convert("RGB")
    assert image.getpixel((0, image.height // 2)) == (0x2E, 0x7D, 0x32)   # the ground runs on to the new edge
    document.close()
    checked = pnp("check", str(folder), "--preflight", "--shop", "tgc", "--out", str(tmp_path / "out"))
    assert "print-shop/board.pdf" in checked.output and "bleed 3.00" not in checked.output, checked.output
