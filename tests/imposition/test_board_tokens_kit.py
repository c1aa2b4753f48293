"""The rest of the kit from the real game: board tiles, track, tokens, pawns, print-shop pages, kit.pdf."""

from __future__ import annotations

import hashlib
import re
from collections import Counter

import pytest

from generator.components.cells import loop_places
from generator.content.game import load_game
from generator.errors import Problems
from generator.imposition.grid import FULL_BLEED_GAP, GridSpec, grid_geometry
from generator.imposition.tiles import TileSpec, tile_layout, tile_region
from tests.conftest import CONTENT
from tests.pdf_probe import all_text, box_mm, form_origins_mm, open_pdf, page_size_mm

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def _source():
    problems = Problems()
    source = load_game(CONTENT / "christmas-round", problems)
    assert not problems.errors
    return source


# ---------------------------------------------------------------- board

def test_the_track_is_a_closed_loop_of_28_spaces_with_the_seed_counts():
    board = _source().boards.boards[0]
    spaces = board.fields["spaces"]
    kinds = Counter(space if isinstance(space, str) else space["type"] for space in spaces)
    assert kinds == {"workshop": 4, "house": 11, "surprise": 5, "cocoa": 2, "market": 2, "snowdrift": 2, "sleigh": 2}
    assert spaces[0] == {"type": "workshop", "start": "board.start"}       # СТАРТ is a workshop
    assert [cell["value"] if isinstance(cell, dict) else cell for cell in board.fields["night"]] == \
        [*range(16, 0, -1), "morning"]
    starts = {cell["start"]: cell["value"] for cell in board.fields["night"]
              if isinstance(cell, dict) and "start" in cell}
    assert starts == {2: 16, 3: 14, 4: 13, 5: 12, 6: 11}


def test_loop_spaces_do_not_overlap_and_stay_on_the_board():
    places = loop_places((6, 6, 368, 368), 28)
    assert len(places) == 28
    for place in places:
        assert 0 <= place.x and place.x + place.w <= 380 and 0 <= place.y and place.y + place.h <= 380
    for i, a in enumerate(places):
        for b in places[i + 1:]:
            overlap_w = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
            overlap_h = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
            assert overlap_w <= 1e-9 or overlap_h <= 1e-9
    # clockwise from the top-left corner: along the top, down the right side...
    assert places[0].x < places[1].x and places[8].y > places[7].y
    assert {place.rotation for place in places} == {0, 90, 180, 270}


@pytest.mark.parametrize("paper, overlap", [("a4", 8.0), ("letter", 12.0)])
def test_four_tiles_with_inner_overlap_recombine_to_exactly_380_mm(paper, overlap):
    spec = TileSpec(PAPERS[paper])
    layout = tile_layout((380, 380), spec)
    assert (layout.columns, layout.rows) == (2, 2)
    assert layout.overlap == pytest.approx(overlap)
    regions = {(r, c): tile_region((380, 380), layout, r, c) for r in range(2) for c in range(2)}
    assert regions[(0, 0)] == pytest.approx((0, 0, 190 + overlap, 190 + overlap))
    assert regions[(1, 1)] == pytest.approx((190 - overlap, 190 - overlap, 380, 380))
    for x0, _y0, x1, _y1 in regions.values():
        assert x1 - x0 + 2 * spec.margin <= PAPERS[paper][0] + 1e-9     # fits the paper at 100 %


@pytest.fixture(scope="module")
def christmas_tilings():
    """The full edition's board tilings as the build makes them, by (language, paper): the seams placed off
    the board's words and spaces (imposition/seams.py)."""
    from generator.build import BuildOptions
    from generator.targets import layout_targets
    from generator.text.fonts import FontLibrary
    problems = Problems()
    targets = layout_targets([_source()], BuildOptions(editions=("full",)), problems, FontLibrary())
    assert not problems.errors
    return {(target.lang, paper): layout for target in targets for (_, paper), layout in target.tilings.items()}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_tiles_meet_on_the_middle_lines_kept_clear(christmas_tilings, paper):
    """The template keeps x = 189–191 mm clear and y = 189–191 mm too (A4 may meet at y = 143–145, between
    spaces): the seams go there, crossing nothing; on A4 and Letter alike."""
    for lang in ("bg", "en"):
        layout = christmas_tilings[lang, paper]
        assert layout.shape == "grid" and layout.crossings == ()
        assert layout.across == ((190.0,), (190.0,))
        (y,), _ = layout.down
        assert 189 <= y <= 191 or (paper == "a4" and 143 <= y <= 145)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiles_in_the_pdf_place_the_board_at_100_percent_and_cover_it(built_christmas, christmas_tilings, paper):
    """Each tile page holds the whole board as one form, shifted: read back which part shows."""
    document = open_pdf(built_christmas / "full" / "bg" / paper / "board.pdf")
    spec = TileSpec(PAPERS[paper])
    layout = christmas_tilings["bg", paper]
    (sx,), _ = layout.across
    (sy,), _ = layout.down
    starts = []
    for index in range(4):
        (origin_x, origin_y), = form_origins_mm(document, index)      # the board's bottom-left corner
        region = tile_region((380, 380), layout, *divmod(index, 2))
        left = (PAPERS[paper][0] - (region[2] - region[0])) / 2
        starts.append((round(left - origin_x, 2), round(spec.margin - (origin_y - 380), 2)))
    o = layout.overlap
    assert starts == [(0, 0), (sx - o, 0), (0, sy - o), (sx - o, sy - o)]


def _render(path, index, dpi):
    return open_pdf(path)[index].render(scale=dpi / 72).to_pil().convert("L")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_neighbouring_tiles_show_the_same_board_in_their_shared_strip(built_christmas, christmas_tilings, paper):
    path = built_christmas / "full" / "en" / paper / "board.pdf"
    document = open_pdf(path)
    assert len(document) == 4
    spec = TileSpec(PAPERS[paper])
    layout = christmas_tilings["en", paper]
    (sx,), _ = layout.across
    (sy,), _ = layout.down
    dpi = 254        # 10 pixels a millimetre: tile offsets fall on whole pixels on both pages
    images = [_render(path, i, dpi) for i in range(4)]

    def crop(index, row, column, bx0, by0, bx1, by1):
        x0, y0, x1, y1 = tile_region((380, 380), layout, row, column)
        left = (PAPERS[paper][0] - (x1 - x0)) / 2
        def px(mm):
            return round(mm / 25.4 * dpi)
        return images[index].crop((px(left + bx0 - x0), px(spec.margin + by0 - y0),
                                   px(left + bx0 - x0) + px(bx1 - bx0), px(spec.margin + by0 - y0) + px(by1 - by0)))

    o = layout.overlap
    # the shared strip's half past the seam: cut off the first tile (past its cut line), seen on the second;
    # the half before it is the glue strip, hatched on the tile that goes under
    pairs = [  # (tile index, row, column) × 2 and that half of the shared board strip
        ((0, 0, 0), (1, 0, 1), (sx + 1, 20, sx + o, sy - 20)),
        ((0, 0, 0), (2, 1, 0), (20, sy + 1, sx - 20, sy + o)),
        ((1, 0, 1), (3, 1, 1), (sx + 20, sy + 1, 360, sy + o)),
    ]
    for first, second, strip in pairs:
        a, b = crop(*first, *strip), crop(*second, *strip)
        # a quarter-pixel shift between pages is not a difference: compare at a coarser grain
        a, b = (image.resize((image.width // 3, image.height // 3)) for image in (a, b))
        pixels_a, pixels_b = list(a.get_flattened_data()), list(b.get_flattened_data())
        mean = sum(abs(p - q) for p, q in zip(pixels_a, pixels_b, strict=False)) / len(pixels_a)
        # each tile's cut line and glue strip lie in its own half of the shared strip (cut off or glued under)
        assert mean < 4, f"tiles {first} and {second} differ in their overlap by {mean:.1f} levels"
        assert max(pixels_a) - min(pixels_a) > 100     # the strip really shows something


def test_board_print_shop_page_has_bleed_and_trim_boxes(built_christmas):
    document = open_pdf(built_christmas / "full" / "bg" / "print-shop" / "board.pdf")
    assert len(document) == 1
    assert page_size_mm(document, 0) == pytest.approx((386, 386), abs=0.01)
    assert box_mm(document, "trim", 0) == pytest.approx((3, 3, 383, 383), abs=0.01)
    assert box_mm(document, "bleed", 0) == pytest.approx((0, 0, 386, 386), abs=0.01)
    image = document[0].render(scale=20 / 72).to_pil().convert("RGB")
    assert image.getpixel((0, 0)) != (255, 255, 255)        # background to the bleed edge


# ---------------------------------------------------------------- tokens

def _page_hashes(path):
    document = open_pdf(path)
    return [hashlib.sha1(document[i].render(scale=40 / 72).to_pil().tobytes()).hexdigest()
            for i in range(len(document))]


def test_tokens_by_gift_and_star_value(built_christmas):
    """In the print-shop file every token is a page: identical faces count the copies (the full edition's:
    the free one offers no print-shop files)."""
    snowflakes = 9
    hashes = _page_hashes(built_christmas / "full" / "en" / "print-shop" / "tokens.pdf")
    fronts = hashes[0::2]
    assert len(fronts) == 48 + snowflakes + 1
    wishes = Counter(fronts[:48])
    assert sorted(wishes.values()) == sorted([5, 2, 1] * 6)       # per gift: 5 × 2★, 2 × 3★, 1 × 4★
    assert len(set(hashes[1:96:2])) == 1                          # one common back
    rest = Counter(fronts[48:])
    assert sorted(rest.values()) == sorted([v for v in (snowflakes, 1) if v])


def test_token_pages_have_their_finished_size_as_trim_box(built_christmas):
    document = open_pdf(built_christmas / "full" / "en" / "print-shop" / "tokens.pdf")
    assert page_size_mm(document, 0) == pytest.approx((32, 32), abs=0.01)
    assert box_mm(document, "trim", 0) == pytest.approx((3, 3, 29, 29), abs=0.01)
    assert page_size_mm(document, len(document) - 1) == pytest.approx((21, 21), abs=0.01)
    assert box_mm(document, "trim", len(document) - 1) == pytest.approx((3, 3, 18, 18), abs=0.01)


def _occupied(document, index, left, top, size, columns, rows, pitch=None):
    image = document[index].render(scale=30 / 72).to_pil().convert("L")
    def px(mm):
        return round(mm / 25.4 * 30)
    pitch = pitch or size
    return {(r, c) for r in range(rows) for c in range(columns)
            if image.getpixel((px(left + c * pitch + size / 2), px(top + r * pitch + size / 2))) < 250}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_token_backs_are_mirrored_for_long_edge_duplex_and_pages_come_in_pairs(built_christmas, paper):
    document = open_pdf(built_christmas / "full" / "bg" / paper / "tokens.pdf")
    assert len(document) % 2 == 0
    width, height = PAPERS[paper]
    # the wish tokens are full-bleed: 2 mm apart inside the 5 mm printable margin (imposition/grid.py)
    geometry = grid_geometry(GridSpec((width, height), (26, 26), gap=FULL_BLEED_GAP))
    columns, left, top = geometry.columns, geometry.left, geometry.top
    held_rows = -(-48 // columns)          # the 15 mm snowflakes and Santa fill a band below these rows
    fronts = _occupied(document, 0, left, top, 26, columns, held_rows, 26 + FULL_BLEED_GAP)
    backs = _occupied(document, 1, left, top, 26, columns, held_rows, 26 + FULL_BLEED_GAP)
    assert len(fronts) == 48
    assert backs == {(r, columns - 1 - c) for r, c in fronts}
    for index in range(len(document)):
        assert page_size_mm(document, index) == pytest.approx(PAPERS[paper], abs=0.05)


# ---------------------------------------------------------------- pawns and kit

@pytest.mark.parametrize("edition, names", [
    ("free", ["Red elf", "Green elf", "Blue elf", "Yellow elf"]),
    ("full", ["Elfie", "Ruby the Reindeer", "Snowy", "Ginger", "Hazel the Squirrel", "Polly the Bear"]),
])
def test_pawns_are_fold_over_standees_with_names_on_both_halves(built_christmas, edition, names):
    text = all_text(built_christmas / edition / "en" / "a4" / "pawns.pdf")
    for name in names:
        assert text.count(name) == 2, name                   # front and turned back half
    assert ("Elfie" in text) == (edition == "full")
    assert "Santa" not in text                                # Santa is a token on the night track, not a pawn


@pytest.mark.parametrize("edition", ["free", "full"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_kit_holds_everything_in_print_order(built_christmas, edition, paper):
    folder = built_christmas / edition / "en" / paper
    kit = open_pdf(folder / "kit.pdf")
    parts = {name: len(open_pdf(folder / f"{name}.pdf"))
             for name in ("cards", "tokens", "pawns", "board", "rules-booklet")}
    # cover + blank, then double-sided parts as they are, single-sided parts with blank backs, then the booklet;
    # the free edition's pawns share the cards' last sheet (imposition/shared_sheets.py: test_kit_files.py)
    pawns = 2 * parts["pawns"] if edition == "full" else 0
    assert len(kit) == (2 + parts["cards"] + parts["tokens"] + pawns + 2 * parts["board"]
                        + parts["rules-booklet"])
    last = kit[len(kit) - 1].get_size()
    assert last[0] > last[1]                      # the booklet's landscape sheets close the kit
    assert len(kit) % 2 == 0
    cover = " ".join(kit[0].get_textpage().get_text_range().split())
    expected = ["36 × Gift cards", "48 × Wish tokens", "1 × Santa token"]
    # the seed's parts lists: 4 elf pawns (free) or 6 helper pawns (full), and 1 Santa token in both
    expected += ["21 × Surprise cards", "9 × Snowflake tokens", "6 × Pawns"] if edition == "full" else \
        ["12 × Surprise cards", "4 × Pawns"]
    for line in expected:
        assert line in cover, (line, cover)
    assert "100 %" in cover


@pytest.mark.parametrize("file", ["a4/board.pdf", "letter/tokens.pdf", "a4/pawns.pdf", "letter/kit.pdf",
                                  "print-shop/board.pdf"])
def test_no_bulgarian_in_english_files(built_christmas, file):
    assert not CYRILLIC.findall(all_text(built_christmas / "full" / "en" / file))


def test_bad_board_content_gives_located_messages(tmp_path, monkeypatch):
    import shutil

    from click.testing import CliRunner

    from generator.cli import main
    game = tmp_path / "content" / "christmas-round"
    shutil.copytree(CONTENT / "christmas-round", game)
    shutil.copytree(CONTENT.parent / "templates", tmp_path / "templates")
    board = (game / "board.yaml").read_text()
    board = board.replace("        - cocoa\n", "        - igloo\n", 1)               # an unknown space type
    board = board.replace("        - surprise                               # 28\n", "")  # 27 spaces: odd
    (game / "board.yaml").write_text(board)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "christmas-round", "--edition", "free", "--lang", "en"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    line = board.splitlines().index("        - igloo") + 1
    assert (f"content/christmas-round/board.yaml:{line}:11: board board: cell 5 of 'spaces': "
            f"unknown cell type 'igloo'") in result.output
    assert "box 'track': a loop needs an even number of at least 4 cells, got 27" in result.output
