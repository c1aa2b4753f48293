"""Sorry! (ka, en) and 12 Days of Christmas (hu, en): the engine proving general on new games."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.targets import layout_targets, load_games
from generator.components.piece import Group, Shape, walk
from generator.errors import Problems
from generator.text.fonts import FontLibrary
from tests.conftest import CONTENT
from tests.pdf_probe import all_text, open_pdf, page_size_mm

GEORGIAN = re.compile(r"[\u10a0-\u10ff\u1c90-\u1cbf]")


def _front_counts(path: Path) -> Counter:
    """In a print-shop file each copy is a page: identical fronts count the copies of a card."""
    document = open_pdf(path)
    return Counter(hashlib.sha1(document[i].render(scale=30 / 72).to_pil().tobytes()).hexdigest()
                   for i in range(0, len(document), 2))


# ---------------------------------------------------------------- Sorry!

def test_sorry_deck_has_45_cards_five_1s_and_four_of_each_other_value(shipped_build):
    counts = _front_counts(shipped_build("sorry") / "standard" / "en" / "print-shop" / "cards.pdf")
    assert sum(counts.values()) == 45
    assert sorted(counts.values()) == [4] * 10 + [5]          # 2 3 4 5 7 8 10 11 12 Sorry! and five 1s
    text = all_text(shipped_build("sorry") / "standard" / "en" / "a4" / "cards.pdf")
    assert " 6 " not in f" {text} " and " 9 " not in f" {text} "


def _sorry_board():
    problems = Problems()
    sources = load_games([CONTENT / "sorry"], problems)
    targets = layout_targets(sources, BuildOptions(languages=("en",)), problems, FontLibrary())
    assert not problems.errors
    return targets[0].boards[0].face


def test_sorry_board_has_a_60_space_loop_safety_zones_and_slides_in_place():
    face = _sorry_board()
    cells = [item for item in face.items if isinstance(item, Group) and (item.width, item.height) == (23, 23)]
    assert len(cells) == 60
    band = 6 + 23                                              # the loop's inner edge from the board's edge
    for cell in cells:
        assert min(cell.x, cell.y, 380 - cell.x - cell.w, 380 - cell.y - cell.h) <= 6 + 1e-6
    anchored = [item for item in face.items if isinstance(item, Group) and item not in cells]
    safety = [g for g in anchored if sum(isinstance(i, Group) for i in g.items) == 5]
    assert len(safety) == 4
    for zone in safety:   # five spaces leading straight in from the loop's inner edge
        long_side, short_side = max(zone.w, zone.h), min(zone.w, zone.h)
        assert (round(long_side, 3), round(short_side, 3)) == (115, 23)
        edges = (zone.x, zone.y, 380 - zone.x - zone.w, 380 - zone.y - zone.h)
        assert min(edges) == pytest.approx(band)
    slides = [g for g in anchored if any(isinstance(i, Shape) and i.kind.startswith("triangle") for i in g.items)]
    assert len(slides) == 8
    for slide in slides:  # the slide heads lie on the loop, one side's band
        assert min(slide.x, slide.y, 380 - slide.x - slide.w, 380 - slide.y - slide.h) < band
    bars = [g for g in anchored if any(isinstance(i, Shape) and i.kind == "rect" for i in g.items)
            and max(g.w, g.h) > 60]
    on_loop = [g for g in bars if min(g.x, g.y, 380 - g.x - g.w, 380 - g.y - g.h) < band]
    assert sorted(round(max(g.w, g.h)) for g in on_loop) == [69] * 4 + [92] * 4   # slides over 4 and 5 spaces
    # the Safety zones' bars run inward from the loop into Home, as a Slide's bar runs to its end circle
    assert sorted(round(max(g.w, g.h)) for g in bars if g not in on_loop) == [139] * 4   # to the middle of Home


@pytest.mark.parametrize("paper, size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_sorry_board_tiles_and_print_shop_page(shipped_build, paper, size):
    tiles = open_pdf(shipped_build("sorry") / "standard" / "ka" / paper / "board.pdf")
    assert len(tiles) == 4
    assert page_size_mm(tiles, 0) == pytest.approx(size, abs=0.05)
    shop = open_pdf(shipped_build("sorry") / "standard" / "ka" / "print-shop" / "board.pdf")
    assert page_size_mm(shop, 0) == pytest.approx((386, 386), abs=0.05)


@pytest.mark.parametrize("file", ["a4/cards.pdf", "a4/pawns.pdf", "a4/board.pdf", "letter/rules.pdf", "a4/kit.pdf"])
def test_sorry_georgian_renders_and_stays_out_of_english(shipped_build, file):
    georgian = all_text(shipped_build("sorry") / "standard" / "ka" / file)
    english = all_text(shipped_build("sorry") / "standard" / "en" / file)
    assert GEORGIAN.search(georgian)
    assert not GEORGIAN.search(english)


def test_sorry_rules_toc_and_footer_show_georgian(shipped_build):
    document = open_pdf(shipped_build("sorry") / "standard" / "ka" / "a4" / "rules.pdf")
    toc = document[1].get_textpage().get_text_range()
    assert len(GEORGIAN.findall(toc)) > 50
    footer_page = document[2].get_textpage().get_text_range()
    assert "ბოდიში" in footer_page


# ---------------------------------------------------------------- 12 Days of Christmas

def test_twelve_days_deck_is_78_ranked_cards_plus_12_gifts(shipped_build):
    counts = _front_counts(shipped_build("twelve-days") / "standard" / "en" / "print-shop" / "cards.pdf")
    assert sum(counts.values()) == 78 + 12 == sum(range(1, 13)) + 12
    ranked = sorted(v for v in counts.values())
    assert ranked == sorted(list(range(1, 13)) + [1] * 12)     # rank n in n copies, and 12 single gift cards


def test_twelve_days_text_per_language(shipped_build):
    hungarian = all_text(shipped_build("twelve-days") / "standard" / "hu" / "a4" / "cards.pdf")
    english = all_text(shipped_build("twelve-days") / "standard" / "en" / "a4" / "cards.pdf")
    assert "ő" in hungarian or "ű" in hungarian
    assert "ő" not in english and "ű" not in english
    rules = open_pdf(shipped_build("twelve-days") / "standard" / "hu" / "a4" / "rules.pdf")
    assert page_size_mm(rules, 0) == pytest.approx((148, 210), abs=0.05)


# ---------------------------------------------------------------- Christmas trees

def test_christmas_trees_sheet_has_five_players_with_six_trees_of_six_cells():
    problems = Problems()
    sources = load_games([CONTENT / "christmas-trees"], problems)
    targets = layout_targets(sources, BuildOptions(languages=("ru",)), problems, FontLibrary())
    assert not problems.errors
    sheet = targets[0].sheets[0].face
    assert (sheet.width, sheet.height) <= (196, 266)

    def groups(items):
        return [item for item in items if isinstance(item, Group)]
    players = [group for group in groups(sheet.items) if len(groups(group.items)) == 6]
    assert len(players) == 5
    for player in players:
        for tree in groups(player.items):
            assert len(groups(tree.items)) == 6        # rows 1, 2, 3: the cells to colour in


@pytest.mark.parametrize("copies", [1, 4])
def test_christmas_trees_sheets_pdf_copies(tmp_path, copies):
    build([CONTENT / "christmas-trees"], BuildOptions(out=tmp_path, languages=("en",), papers=("a4",),
                                                      copies=copies, print_shop=False))
    document = open_pdf(tmp_path / "christmas-trees" / "standard" / "en" / "a4" / "sheets.pdf")
    assert len(document) == copies
    assert not GEORGIAN.search(all_text(tmp_path / "christmas-trees" / "standard" / "en" / "a4" / "sheets.pdf"))
    assert "PLAYER 5" in all_text(tmp_path / "christmas-trees" / "standard" / "en" / "a4" / "sheets.pdf")


# ---------------------------------------------------------------- You Must See This (Belarus)

def _belarus():
    problems = Problems()
    sources = load_games([CONTENT / "must-see-belarus"], problems)
    assert not problems.errors
    source = sources[0]
    board = source.boards.boards[0]
    template = source.templates.resolve(board.template).model
    box = next(b for b in template.boxes.values() if b.kind == "network" and b.network.routes)
    return source, board, box


def test_belarus_routes_are_drawn_with_as_many_segments_as_their_length():
    source, board, box = _belarus()
    targets = layout_targets([source], BuildOptions(languages=("en",)), Problems(), FontLibrary())
    face = targets[0].boards[0].face
    segments = [item for item in walk(face.items) if isinstance(item, Shape) and item.kind == "polygon"
                and item.points and len(item.points) == 4 and item.stroke == box.network.segment_stroke]
    routes = board.fields["routes"]
    assert 25 <= len(source.game.fields["places"]) <= 40
    assert len(segments) == sum(route["length"] for route in routes)
    colours = Counter(route.get("color") for route in routes)
    assert colours["white"] > 0 and len(colours) >= 6
    kinds = Counter(route.get("kind", "land") for route in routes)
    assert kinds["border"] > 0 and kinds["water"] > 0


def test_belarus_nodes_do_not_overlap_and_lie_inside_the_outline():
    from generator.components.network import point_in_polygon, project
    source, board, box = _belarus()
    node_size = source.templates.resolve(box.network.node_template).model.size
    to_mm = project(box.network.projection, (box.x, box.y, box.width, box.height))
    outline = [to_mm(lon, lat) for lon, lat in source.game.fields["outline"]]
    points = {node["id"]: to_mm(node["lon"], node["lat"]) for node in source.game.fields["places"]}
    for node_id, point in points.items():
        assert point_in_polygon(point, outline), node_id
    names = list(points)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (ax, ay), (bx, by) = points[a], points[b]
            assert ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 > node_size.width, (a, b)


def test_belarus_deck_has_132_cards_six_colours_of_20_tickets_and_inspectors(shipped_build):
    counts = _front_counts(shipped_build("must-see-belarus") / "standard" / "ru" / "print-shop" / "cards.pdf")
    source, board, _ = _belarus()
    decks = {deck.id: deck for deck in source.pieces["cards"].sets}
    travel = {card.id: card.count for card in decks["travel"].cards}
    assert sum(travel.values()) == 132
    assert sorted(travel.values()) == [2, 10] + [20] * 6
    colours = {card.fields["color"] for card in decks["travel"].cards if card.count == 20}
    route_colours = {route.get("color") for route in board.fields["routes"]} - {"white"}
    assert colours == route_colours                    # every route colour has its 20 cards, and no other
    # the built deck agrees: 8 distinct travel faces with those multiplicities (other decks are singles)
    assert sorted(v for v in counts.values() if v > 1) == [2, 10] + [20] * 6
