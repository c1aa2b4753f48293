"""Preflight reads built PDFs like a print shop: fonts, image resolution, boxes, bleed, safe zone, ink."""

from __future__ import annotations

import io

from click.testing import CliRunner
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.cli import main
from generator.preflight import FileReport, inspect
from tests.test_content_errors import make_game


def test_a_clean_build_passes_and_problems_are_named(tmp_path, monkeypatch):
    game = make_game(tmp_path, {})
    Image.new("RGB", (20, 20), "#c00").save(game / "art" / "tiny.png")     # 20 px over 40 mm: 13 ppi
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build", "g", "--content", ".", "--paper", "a4", "--jobs", "1",
                                     "--out", "out"]).exit_code == 0
    clean = CliRunner().invoke(main, ["check", "--preflight", "g", "--content", ".", "--out", "out"])
    assert clean.exit_code == 0, clean.output
    assert "print-shop/cards.pdf" in clean.output and "0 problem(s)" in clean.output
    cards = (game / "cards.yaml").read_text().replace("art/star.svg", "art/tiny.png")
    (game / "cards.yaml").write_text(cards)
    assert CliRunner().invoke(main, ["build", "g", "--content", ".", "--jobs", "1", "--out", "out"]).exit_code == 0
    low = CliRunner().invoke(main, ["check", "--preflight", "g", "--content", ".", "--out", "out"])
    assert low.exit_code == 1
    assert "an image at 13 ppi (needs 300)" in low.output and "an image at 13 ppi (needs 150)" in low.output


def _shop_file(tmp_path, draw) -> FileReport:
    """A one-page print-shop PDF drawn by `draw(canvas)`, inspected."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(195.59, 266.46))
    draw(canvas)
    canvas.save()
    path = tmp_path / "print-shop" / "cards.pdf"
    path.parent.mkdir()
    path.write_bytes(buffer.getvalue())
    return inspect(path, shop=True)


def test_unembedded_fonts_and_missing_boxes_are_errors(tmp_path):
    def draw(canvas):
        canvas.setFont("Helvetica", 12)
        canvas.drawString(20, 20, "plain")
    report = _shop_file(tmp_path, draw)
    assert "font Helvetica is not embedded" in report.errors
    assert "page 1: TrimBox or BleedBox missing" in report.errors


def test_art_that_stops_at_the_trim_is_reported(tmp_path):
    def draw(canvas):
        canvas.setTrimBox((8.504, 8.504, 187.09, 257.95))
        canvas.setBleedBox((0, 0, 195.59, 266.46))
        canvas.setFillColorRGB(0.8, 0.1, 0.1)
        canvas.rect(8.504, 8.504, 178.58, 249.45, stroke=0, fill=1)      # colour to the trim only
    report = _shop_file(tmp_path, draw)
    assert "art runs to the trim but not on into the bleed: extend it 3 mm past the trim" in report.errors


def test_cmyk_output_has_no_rgb_and_keeps_under_the_ink_limit(tmp_path, built_christmas):
    from generator.build import BuildOptions, build
    from generator.preflight import colour_operators
    from tests.conftest import CONTENT
    # the full edition: the free one offers no print-shop files; only the files read below are drawn
    options = dict(editions=("full",), languages=("en",), papers=("a4",),
                   only=frozenset({"print-shop", "cards", "tokens", "board", "rules"}))
    build([CONTENT / "christmas-round"], BuildOptions(out=tmp_path / "cmyk", color="cmyk", ink_limit=2.4, **options))
    rgb = built_christmas / "full" / "en"          # the same files in RGB: the shared build (tests/conftest.py)
    cmyk = tmp_path / "cmyk" / "christmas-round" / "full" / "en"
    rgb_operators, most = colour_operators((cmyk / "print-shop" / "cards.pdf").read_bytes())
    assert rgb_operators == 0 and 1.5 < most <= 2.4
    assert colour_operators((rgb / "print-shop" / "cards.pdf").read_bytes())[0] > 0
    # the home files and the rulebook (platypus colours, its card figures) too
    home = cmyk / "a4"
    for name in ("cards.pdf", "tokens.pdf", "board.pdf", "rules.pdf"):
        rgb_operators, most = colour_operators((home / name).read_bytes())
        assert rgb_operators == 0 and most <= 2.4 + 1e-9, name
    assert colour_operators((rgb / "a4" / "rules.pdf").read_bytes())[0] > 0


def test_separation_puts_grey_on_black_and_limits_total_ink():
    from generator.render.colour import colour_object, separate
    assert separate(0.5, 0.5, 0.5, 3.0) == (0.0, 0.0, 0.0, 0.5)
    c, m, y, k = separate(0.35, 0.05, 0.1, 2.4)
    assert c + m + y + k <= 2.4 + 1e-9 and k == 0.65
    given = colour_object("cmyk(0, 100, 100, 0)", "cmyk", 3.0)
    assert (given.cyan, given.magenta, given.yellow, given.black) == (0, 1, 1, 0)


def test_a_palette_may_give_cmyk_colours(tmp_path):
    game = make_game(tmp_path, {})
    text = (game / "templates" / "card.yaml").read_text().replace('ink: "#222222"', 'ink: "cmyk(0, 0, 0, 100)"')
    (game / "templates" / "card.yaml").write_text(text)
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 0, result.output


def test_a_graphics_state_a_page_selects_but_lacks_is_an_error(tmp_path):
    """A content stream selecting a graphics state its resources do not have: other readers draw it opaque."""
    import pikepdf
    document = pikepdf.new()
    document.add_blank_page(page_size=(200, 200))
    page = document.pages[0]
    page.Contents = document.make_stream(b"q /G0 gs 1 0 0 rg 10 10 100 100 re f Q")
    path = tmp_path / "cards.pdf"
    document.save(path)
    report = inspect(path, shop=False)
    assert any("/G0 gs selects a" in error and "its resources lack" in error for error in report.errors), report.errors
