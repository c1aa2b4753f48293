"""The home-print cards.pdf as built from the real game: sizes, positions, duplex, marks, text, fonts."""

from __future__ import annotations

import re

import pytest

from generator.build import BuildOptions, build
from tests.conftest import CONTENT
from tests.pdf_probe import all_text, font_report, form_origins_mm, open_pdf, page_size_mm

CARD_W, CARD_H = 63.0, 88.0
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
CARDS_ONLY = frozenset({"cards"})     # option-variant builds draw only what the test reads


# full-bleed cards stand 2 mm apart (imposition/grid.py FULL_BLEED_GAP), centred on the paper
GAP = 2.0
PITCH_X = CARD_W + GAP
# Letter's rows stand 0.7 mm apart, so the top and bottom rows keep 2 mm of bleed inside the margin
# (imposition/grid.py fitted_rows)
PITCH_Y = {"a4": CARD_H + GAP, "letter": CARD_H + 0.7}
GRID = {"a4": (8.5, 14.5), "letter": (11.45, 7.0)}


def occupied_cells(document, index, paper) -> set[tuple[int, int]]:
    """Grid cells (row, column) with something printed 2 mm below their top edge's middle (every front and
    back of the game has its background colour there; a card's centre may be white art)."""
    image, dpi = _render(document, index, dpi=30)
    left, top = GRID[paper]
    return {(row, column) for row in range(3) for column in range(3)
            if _pixel(image, dpi, left + column * PITCH_X + CARD_W / 2, top + row * PITCH_Y[paper] + 2) < 250}


@pytest.mark.parametrize("edition, cards", [("free", 48), ("full", 70)])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_front_page_is_followed_by_its_backs_at_the_paper_size(built_christmas, edition, cards, paper):
    document = open_pdf(built_christmas / edition / "bg" / paper / "cards.pdf")
    sheets = -(-cards // 9)
    assert len(document) == 2 * sheets
    for index in range(len(document)):
        assert page_size_mm(document, index) == pytest.approx(PAPERS[paper], abs=0.05)
    placed = sum(len(occupied_cells(document, i, paper)) for i in range(0, len(document), 2))
    assert placed == cards


@pytest.mark.parametrize("paper, left, top", [("a4", 8.5, 14.5), ("letter", 11.45, 7.0)])
def test_cards_sit_in_a_centred_three_by_three_grid_to_a_tenth_of_a_millimetre(built_christmas, paper, left, top):
    document = open_pdf(built_christmas / "full" / "en" / paper / "cards.pdf")
    origins = form_origins_mm(document, 0)
    expected = [(left + c * PITCH_X, top + r * PITCH_Y[paper] + CARD_H) for r in range(3) for c in range(3)]
    assert len(origins) == 9
    for (x, y), (ex, ey) in zip(origins, expected, strict=False):
        assert x == pytest.approx(ex, abs=0.1)
        assert y == pytest.approx(ey, abs=0.1)   # a form's origin is its trim's bottom-left


def _mirrored(origins, paper_w):
    return [(paper_w - x - CARD_W, y) for x, y in origins]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_long_edge_backs_land_behind_their_fronts(built_christmas, paper):
    document = open_pdf(built_christmas / "full" / "bg" / paper / "cards.pdf")
    paper_w, _ = PAPERS[paper]
    for front in range(0, len(document), 2):
        # every card's back is printed in the mirrored cell, including part-filled sheets
        fronts = occupied_cells(document, front, paper)
        assert occupied_cells(document, front + 1, paper) == {(r, 2 - c) for r, c in fronts}
        # and, where cards are placed as forms, to a tenth of a millimetre
        front_forms = form_origins_mm(document, front)
        back_forms = form_origins_mm(document, front + 1)
        if len(front_forms) == len(back_forms) == 9:
            for (bx, by), (mx, my) in zip(back_forms, _mirrored(front_forms, paper_w), strict=False):
                assert bx == pytest.approx(mx, abs=0.1) and by == pytest.approx(my, abs=0.1)


def test_short_edge_backs_mirror_rows_instead(tmp_path):
    build([CONTENT / "christmas-round"], BuildOptions(editions=("free",), languages=("en",), papers=("a4",),
                                                     out=tmp_path, duplex="short-edge", only=CARDS_ONLY))
    document = open_pdf(tmp_path / "christmas-round" / "free" / "en" / "a4" / "cards.pdf")
    _, paper_h = PAPERS["a4"]
    for front in range(0, len(document), 2):
        fronts = occupied_cells(document, front, "a4")
        assert occupied_cells(document, front + 1, "a4") == {(2 - r, c) for r, c in fronts}
        front_forms = form_origins_mm(document, front)
        back_forms = form_origins_mm(document, front + 1)
        if len(front_forms) == len(back_forms) == 9:
            for (fx, fy), (bx, by) in zip(front_forms, back_forms, strict=False):
                # the back's trim top lies where the front's trim bottom is, mirrored vertically
                assert bx == pytest.approx(fx, abs=0.1)
                assert by - CARD_H == pytest.approx(paper_h - fy, abs=0.1)


def _render(document, index, dpi=150):
    page = document[index]
    return page.render(scale=dpi / 72).to_pil().convert("L"), dpi


def _pixel(image, dpi, x_mm, y_mm):
    return image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))


def test_backs_run_three_millimetres_past_the_grid_and_fronts_leave_room_for_marks(built_christmas):
    document = open_pdf(built_christmas / "full" / "bg" / "a4" / "cards.pdf")
    back, dpi = _render(document, 1)
    front, _ = _render(document, 0)
    left, top = GRID["a4"]
    for offset in (0.5, 2.0, 2.8):     # backs reach 3 mm past every outer edge
        assert _pixel(back, dpi, left - offset, top + 40) < 200
        assert _pixel(back, dpi, left + 40, top - offset) < 200
        assert _pixel(back, dpi, 210 - left + offset, top + 40) < 200
    assert _pixel(back, dpi, left - 3.6, top + 40) > 250     # and no further
    assert _pixel(front, dpi, left - 1.8, top + 40) < 200     # fronts: 2 mm past the grid, inside the margin
    assert _pixel(front, dpi, left - 2.4, top + 40) > 250


def test_crop_marks_and_the_fifty_millimetre_scale_bar_are_drawn(built_christmas):
    document = open_pdf(built_christmas / "full" / "bg" / "a4" / "cards.pdf")
    image, dpi = _render(document, 0, dpi=300)
    left, top = GRID["a4"]
    for x in (8.5, 71.5, 73.5, 136.5, 138.5, 201.5):    # a mark above every vertical cut (9.5 mm room: 2.5 + 5)
        assert min(_pixel(image, dpi, x + dx, top - 4.5) for dx in (-0.05, 0, 0.05)) < 128
    # 3.5 mm of room beside the grid hold its 2 mm bleed but no mark past it: every horizontal cut is
    # marked across the gutters between the columns instead
    for y in (14.5, 102.5, 104.5, 192.5, 194.5, 282.5):
        for gutter in (left + CARD_W + 1.0, left + 2 * CARD_W + GAP + 1.0):
            assert min(_pixel(image, dpi, gutter, y + dy) for dy in (-0.05, 0, 0.05)) < 128
        assert _pixel(image, dpi, left - 3.0, y) > 250
    bar_y = top + 3 * CARD_H + 2 * GAP + 2.9 + 4.2 - 0.8
    bar_start = left + (CARD_W - 50) / 2
    for step in range(0, 51, 5):
        # a 0.09 mm line half-way between two 300 dpi pixels greys both: darker than paper is enough
        assert min(_pixel(image, dpi, bar_start + step, bar_y + dy) for dy in (-0.1, -0.06, 0, 0.06, 0.1)) < 180
    assert _pixel(image, dpi, bar_start - 1, bar_y) > 250 and _pixel(image, dpi, bar_start + 51, bar_y) > 250
    second, _ = _render(document, 2, dpi=300)
    assert _pixel(second, dpi, bar_start + 25, bar_y) > 250       # only on the first page
    assert b"/PrintScaling /None" in (built_christmas / "full" / "bg" / "a4" / "cards.pdf").read_bytes()


def test_text_is_in_the_right_language(built_christmas):
    bg = " ".join(all_text(built_christmas / "full" / "bg" / "a4" / "cards.pdf").split())
    en = " ".join(all_text(built_christmas / "full" / "en" / "a4" / "cards.pdf").split())
    for name in ("Плюшено мече", "Кученцето Чорапчо", "Еленчето Рубинка", "Отборна нощ", "ПЪЛНО ИЗДАНИЕ"):
        assert name in bg
    for name in ("Teddy bear", "Socks the Puppy", "Ruby the Reindeer", "Team night", "FULL EDITION", "46 53 60"):
        assert name in en
    assert not CYRILLIC.findall(en), "Bulgarian left in the English cards"


def test_the_free_edition_leaves_out_full_edition_cards(built_christmas):
    free = all_text(built_christmas / "free" / "en" / "a4" / "cards.pdf")
    assert "Tailwind" in free and "Teddy bear" in free
    for name in ("Socks the Puppy", "Golden Ribbon", "Elfie", "Team night", "FULL EDITION"):
        assert name not in free
    assert not (built_christmas / "free" / "en" / "a4" / "cards-ink-saver.pdf").exists()
    assert (built_christmas / "full" / "en" / "a4" / "cards-ink-saver.pdf").exists()


@pytest.mark.parametrize("file", ["a4/cards.pdf", "letter/cards-ink-saver.pdf", "print-shop/cards.pdf"])
def test_every_font_is_embedded_and_bold_is_a_real_bold_face(built_christmas, file):
    fonts = font_report(built_christmas / "full" / "bg" / file)
    assert fonts and all(fonts.values()), fonts
    assert not any("Helvetica" in name for name in fonts)
    weights = {re.search(r"-(\d{3})-", name).group(1) for name in fonts if "Nunito" in name}
    assert {"400", "700", "900"} <= weights



def test_back_offset_moves_every_back_and_nothing_else(tmp_path):
    options = dict(editions=("free",), languages=("en",), papers=("a4",), only=CARDS_ONLY)
    build([CONTENT / "christmas-round"], BuildOptions(out=tmp_path / "plain", **options))
    build([CONTENT / "christmas-round"], BuildOptions(out=tmp_path / "moved", back_offset=(1.5, -0.5), **options))
    plain = open_pdf(tmp_path / "plain" / "christmas-round" / "free" / "en" / "a4" / "cards.pdf")
    moved = open_pdf(tmp_path / "moved" / "christmas-round" / "free" / "en" / "a4" / "cards.pdf")
    assert form_origins_mm(plain, 0) == form_origins_mm(moved, 0)            # fronts stay
    for (px, py), (mx, my) in zip(form_origins_mm(plain, 1), form_origins_mm(moved, 1), strict=False):
        assert (mx - px, my - py) == pytest.approx((1.5, -0.5), abs=0.01)


@pytest.mark.parametrize("paper, size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_calibration_sheet_is_two_sided_with_a_red_cross_behind_the_centre(tmp_path, paper, size):
    from click.testing import CliRunner
    from generator.cli import main
    result = CliRunner().invoke(main, ["calibrate", "--paper", paper, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = open_pdf(tmp_path / f"calibration-{paper}-long-edge.pdf")
    assert len(document) == 2 and page_size_mm(document, 0) == pytest.approx(size, abs=0.05)
    back = document[1].render(scale=150 / 72).to_pil().convert("RGB")
    centre = (round(size[0] / 2 / 25.4 * 150), round(size[1] / 2 / 25.4 * 150))
    red, green, blue = back.getpixel(centre)
    assert red > 150 and green < 100 and blue < 100
    assert "back-offset" in document[0].get_textpage().get_text_range()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutterfold_puts_each_back_across_the_fold_from_its_front(tmp_path, paper):
    build([CONTENT / "christmas-round"], BuildOptions(editions=("free",), languages=("en",), papers=(paper,),
                                                     out=tmp_path, layout="gutterfold", only=CARDS_ONLY))
    document = open_pdf(tmp_path / "christmas-round" / "free" / "en" / paper / "cards.pdf")
    width, height = page_size_mm(document, 0)
    assert width > height                                    # landscape, one side only
    assert len(document) == -(-48 // 4)
    forms = form_origins_mm(document, 0)                     # teddy fronts and gift backs: all forms
    fronts, backs = forms[0::2], forms[1::2]
    assert len(fronts) == len(backs) == 4
    fold = width / 2
    for (fx, fy), (bx, by) in zip(fronts, backs, strict=False):
        assert fx + CARD_W <= fold and bx >= fold
        assert bx == pytest.approx(2 * fold - fx - CARD_W, abs=0.1) and by == pytest.approx(fy, abs=0.1)


@pytest.mark.parametrize("lang, word", [("en", "long edge"), ("bg", "дългата страна"), ("ru", "длинному краю"),
                                        ("hu", "hosszú élén"), ("ka", "გრძელ კიდეზე"), ("de", "langen Kante"),
                                        ("fr", "bord long")])
def test_calibration_instructions_in_the_users_language_stay_on_the_page(tmp_path, lang, word):
    from click.testing import CliRunner
    from generator.cli import main
    from generator.i18n.engine_text import calibration_instructions
    from generator.text.fonts import FontLibrary
    from generator.text.setter import TextSetter
    result = CliRunner().invoke(main, ["calibrate", "--paper", "letter", "--lang", lang, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    name = f"calibration-letter-long-edge{'' if lang == 'en' else '-' + lang}.pdf"
    page = open_pdf(tmp_path / name)[0]
    text = page.get_textpage()
    assert word in " ".join(text.get_text_range().split()) and "--back-offset" in text.get_text_range()
    width, _ = page.get_size()
    rightmost = max(text.get_charbox(index)[2] for index in range(text.count_chars()))
    assert rightmost <= width - 14 / 25.4 * 72                      # inside a 14 mm right margin
    setter = TextSetter(FontLibrary())
    assert not setter.uncovered(calibration_instructions(lang, "long-edge"), ("nunito", "inter", "noto-sans-georgian"))
