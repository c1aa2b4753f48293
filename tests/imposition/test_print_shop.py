"""Print-shop export: one face per page with 3 mm bleed, TrimBox/BleedBox, 300 dpi PNGs."""

import pytest
from PIL import Image

from tests.pdf_probe import all_text, box_mm, open_pdf, page_size_mm


def test_one_face_per_page_with_bleed_and_trim_boxes(built_christmas):
    cards = 70
    # the free edition offers no print-shop files (game.yaml print_shop: false): the seed sells them with the full one
    assert not (built_christmas / "free" / "en" / "print-shop").exists()
    document = open_pdf(built_christmas / "full" / "en" / "print-shop" / "cards.pdf")
    assert len(document) == 2 * cards             # every copy, front then back
    for index in range(len(document)):
        assert page_size_mm(document, index) == pytest.approx((69.0, 94.0), abs=0.01)
        assert box_mm(document, "bleed", index) == pytest.approx((0, 0, 69.0, 94.0), abs=0.01)
        assert box_mm(document, "trim", index) == pytest.approx((3.0, 3.0, 66.0, 91.0), abs=0.01)


def test_fronts_come_before_their_backs(built_christmas):
    document = open_pdf(built_christmas / "full" / "en" / "print-shop" / "cards.pdf")
    first_front = " ".join(document[0].get_textpage().get_text_range().split())
    first_back = " ".join(document[1].get_textpage().get_text_range().split())
    assert "Teddy bear" in first_front
    assert first_back == "GIFT"


def test_art_runs_to_the_bleed_edge(built_christmas):
    document = open_pdf(built_christmas / "full" / "en" / "print-shop" / "cards.pdf")
    image = document[0].render(scale=100 / 72).to_pil().convert("RGB")
    corners = [(0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1)]
    for corner in corners:
        assert image.getpixel(corner) != (255, 255, 255)


def test_pngs_exist_for_every_copy_at_300_dpi_with_bleed(built_christmas):
    folder = built_christmas / "full" / "bg" / "print-shop" / "png"
    counts = {deck.name: len(list(deck.glob("*-front.png"))) for deck in folder.iterdir() if deck.name != "tokens"}
    assert counts == {"gifts": 36, "surprises": 21, "helpers": 6, "reference": 6, "team-night": 1}
    # the chits too, in a folder of their own (a token set may share its id with a deck)
    tokens = {chits.name: len(list(chits.glob("*-front.png"))) for chits in (folder / "tokens").iterdir()}
    assert tokens == {"wishes": 48, "snowflakes": 9, "santa": 1}
    for path in (folder / "gifts" / "001-front.png", folder / "team-night" / "001-back.png"):
        with Image.open(path) as image:
            assert image.size == (815, 1110)
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_no_bulgarian_in_english_print_files(built_christmas):
    text = all_text(built_christmas / "full" / "en" / "print-shop" / "cards.pdf")
    assert not any("\u0400" <= char <= "\u04ff" for char in text)


@pytest.mark.parametrize("shop, page, png, first", [
    ("mpc", (69.60, 95.00), (822, 1122), "front"),
    ("tgc", (69.85, 95.25), (825, 1125), "front"),
    ("drivethrucards", (69.85, 95.25), (825, 1125), "back"),
])
def test_shop_presets_set_size_bleed_and_page_order(tmp_path, shop, page, png, first):
    """The minimal game's poker-size deck (63 × 88 mm, 3 mm bleed; fronts say Star, backs Cards) under each
    shop's preset: its trim, bleed, PNG size and which side comes first."""
    from generator.build import BuildOptions, build
    from tests.test_content_errors import make_game
    game = make_game(tmp_path, {})
    build([game], BuildOptions(out=tmp_path / "out", papers=("a4",), shop=shop, only=frozenset({"print-shop", "png"})))
    folder = tmp_path / "out" / "g" / "standard" / "en" / "print-shop"
    document = open_pdf(folder / "cards.pdf")
    assert len(document) == 4                                                    # two copies, front and back
    assert page_size_mm(document, 0) == pytest.approx(page, abs=0.02)
    x0, y0, x1, y1 = box_mm(document, "trim", 0)
    assert (x1 - x0, y1 - y0) == pytest.approx((63.5, 88.9), abs=0.02)         # 2.5 × 3.5 in
    with Image.open(folder / "png" / "cards" / "001-front.png") as image:
        assert image.size == png
    text = " ".join(document[0].get_textpage().get_text_range().split())
    assert text == {"front": "Star", "back": "Cards"}[first]


def test_pngs_rendered_in_worker_processes_match_one_process(built_christmas, tmp_path, monkeypatch):
    """A big deck's PNGs are shared among processes; the files are the same bytes either way."""
    from generator.render import png
    pdf = (built_christmas / "full" / "en" / "print-shop" / "cards.pdf").read_bytes()
    serial = {index: [tmp_path / "serial" / f"{index}.png"] for index in range(4)}
    shared = {index: [tmp_path / "shared" / f"{index}.png", tmp_path / "shared" / f"{index}-copy.png"]
              for index in range(4)}
    png.write_pages_png(pdf, serial, 300, {index: (815, 1110) for index in range(4)})
    monkeypatch.setattr(png, "PAGES_PER_WORKER", 1)    # four pages are enough for two workers
    png.write_pages_png(pdf, shared, 300, {index: (815, 1110) for index in range(4)}, jobs=2)
    for index in range(4):
        expected = serial[index][0].read_bytes()
        assert all(path.read_bytes() == expected for path in shared[index])
        with Image.open(serial[index][0]) as image:
            assert image.size == (815, 1110)


def test_each_decks_pngs_have_its_own_size(tmp_path):
    """A deck of mini cards beside poker cards: each PNG at its own card's size with bleed."""
    from generator.build import BuildOptions, build
    from tests.components.test_conditions_and_halo import make_game
    game = make_game(tmp_path)
    (game / "templates" / "mini.yaml").write_text(
        "size: {width: 44mm, height: 63mm}\nbleed: 3mm\nboxes:\n  bg: {kind: rect, area: bleed, fill: '#d32f2f'}\n")
    cards = (game / "cards.yaml").read_text() + (
        "  - id: minis\n    name: t\n    template: mini\n    back: mini\n    cards:\n      - {id: one, count: 2}\n")
    (game / "cards.yaml").write_text(cards)
    build([game], BuildOptions(out=tmp_path / "out", papers=("a4",), kit=False))
    folder = tmp_path / "out" / "conditions" / "standard" / "en" / "print-shop" / "png"
    with Image.open(folder / "places" / "001-front.png") as image:
        assert image.size == (744, 1039)                  # 63 × 88 mm, no bleed in that template
    for name in ("001-front.png", "002-back.png"):
        with Image.open(folder / "minis" / name) as image:
            assert image.size == (591, 815)               # 50 × 69 mm: 44 × 63 and 3 mm of bleed
            assert image.getpixel((295, 407))[0] > 150    # red all over, not a stretched poker card
