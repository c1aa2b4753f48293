"""You Must See This (ru, en): the content guarantees of issues 15 and 31, measured on the laid-out faces
and the built files.

Colour symbols on every coloured route segment (told apart without hue), the original rules' 8 white
segments Turov–Mozyr, excursion maps whose numbered dots never overlap, and the network
features behind them (bent routes, symbols) on a small made-up game. Issue 31 (the publisher's review):
light ink-saver backs, one word for a landmark in each language, player colours told apart by shape,
a Winning Ticket apart from the yellow cards, the landmarks in an appendix by region and a points table
that never splits, labels off the border line, border passages through the neighbouring countries, markers
that can run out at every player count, and excursion cards with room for two-line names and one map size.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.build import BuildOptions, build
from generator.targets import layout_targets, load_games
from generator.components.network import Lane, chain_segments, point_in_polygon
from generator.components.piece import ArtPlacement, Group, Polygon, Shape, TextPlacement
from generator.errors import Problems
from generator.imposition.seams import board_obstacles
from generator.render.ink import page_ink
from generator.text.fonts import FontLibrary
from tests.conftest import CONTENT
from tests.pdf_probe import open_pdf, page_text

GAME = CONTENT / "must-see-belarus"


@pytest.fixture(scope="module")
def belarus():
    problems = Problems()
    sources = load_games([GAME], problems)
    assert not problems.errors, [str(p) for p in problems.errors]
    targets = layout_targets(sources, BuildOptions(languages=("en",)), problems, FontLibrary())
    assert not problems.errors, [str(p) for p in problems.errors]
    return sources[0], targets[0]


def _placed(items, dx=0.0, dy=0.0, scale=1.0):
    """Every shape and art of a face in face coordinates (groups here are unrotated)."""
    for item in items:
        if isinstance(item, Group):
            sx = item.w / item.width
            yield from _placed(item.items, dx + item.x * scale, dy + item.y * scale, scale * sx)
        elif isinstance(item, (Shape, ArtPlacement)):
            yield item, dx, dy, scale
        elif isinstance(item, TextPlacement):
            yield item, dx, dy, scale


def _network_items(face):
    return [item for item, dx, dy, scale in _placed(face.items) if dx == 0 and dy == 0 and scale == 1]


def test_every_segment_of_a_coloured_route_carries_its_colours_symbol(belarus):
    source, target = belarus
    board = source.boards.boards[0]
    symbols = {row["color"]: (GAME / row["symbol"]).resolve() for row in board.fields["colours"] if "symbol" in row}
    ticket = (GAME / "art/icons/ticket.svg").resolve()
    wave = (GAME / "art/icons/wave.svg").resolve()
    palette = {name: value.lower() for name, value in source.game.palette.items()}
    by_fill = {palette[name]: name for name in symbols}
    items = _network_items(target.boards[0].face)
    segments = [s for s in items if isinstance(s, Shape) and s.kind == "polygon" and s.points
                and len(s.points) == 4 and s.stroke == "#2b2220"]
    art = [a for a in items if isinstance(a, ArtPlacement)]
    routes = board.fields["routes"]
    assert len(segments) == sum(route["length"] for route in routes)

    def inside(segment):
        return [a.file.resolve() for a in art if point_in_polygon((a.x + a.w / 2, a.y + a.h / 2), list(segment.points))]

    carrying = Counter()
    for segment in segments:
        marks = inside(segment)
        colour = by_fill.get((segment.fill or "").lower())
        if colour is None:                                  # white: any one colour, no symbol
            assert symbols.keys().isdisjoint(m for m in marks), segment
            continue
        if marks == [ticket]:                               # the border passage's ticket segment
            carrying[colour, "ticket"] += 1
            continue
        assert symbols[colour] in marks, (colour, segment.points[0])
        carrying[colour, "symbol"] += 1
        if segment.dash:                                    # water: the wave on every segment too
            assert wave in marks
    for colour in symbols:
        of_colour = [r for r in routes if r.get("color") == colour]
        borders = sum(1 for r in of_colour if r.get("kind") == "border")
        assert carrying[colour, "symbol"] == sum(r["length"] for r in of_colour) - borders, colour
        assert carrying[colour, "ticket"] == borders, colour


def test_six_colours_each_have_a_symbol_that_differs_from_the_others(belarus):
    source, _ = belarus
    board = source.boards.boards[0]
    symbols = [row["symbol"] for row in board.fields["colours"] if "symbol" in row]
    route_colours = {r["color"] for r in board.fields["routes"]} - {"white"}
    assert len(symbols) == len(set(symbols)) == len(route_colours) == 6
    cards = {card.fields["color"]: card.fields.get("emblem") for card in source.pieces["cards"].sets[0].cards}
    for row in board.fields["colours"]:
        if "symbol" in row:
            assert cards[row["color"]] == row["symbol"]     # the card and the route show one symbol


def test_turov_mozyr_is_the_original_rules_8_white_segments(belarus):
    source, _ = belarus
    routes = source.boards.boards[0].fields["routes"]
    route = next(r for r in routes if {r["from"], r["to"]} == {"turov", "mozyr"})
    assert route["length"] == 8 and route["color"] == "white"
    assert [8, 21] in source.boards.boards[0].fields["scoring"]


def test_a_bent_route_has_equal_segments_that_leave_the_nodes_clear():
    points = [(0.0, 0.0), (20.0, 40.0), (60.0, 40.0), (80.0, 0.0)]
    polygons = chain_segments(points, 8, 7, Lane(7, 1.2))
    lengths = [math.hypot(p[1][0] - p[0][0], p[1][1] - p[0][1]) for p in polygons]
    assert len(polygons) == 8 and max(lengths) - min(lengths) < 0.3
    for polygon in polygons:
        for x, y in polygon:
            assert math.hypot(x, y) > 7 - 3.6 and math.hypot(x - 80, y) > 7 - 3.6
    assert chain_segments(points, 100, 7, Lane(7, 1.2)) is None          # 100 do not fit


def _mini(root: Path, routes: str, symbols: str) -> Path:
    game = root / "mini"
    files = {
        "game.yaml": "id: mini\ntitle: t\nlanguages: [en]\neditions: {standard: {name: t}}\n",
        "i18n/en.yaml": 'en:\n  t: "Mini"\n  b: "Board"\n',
        "art/a.svg": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                      '<circle cx="5" cy="5" r="4"/></svg>'),
        "board.yaml": "boards:\n  - id: board\n    name: b\n    template: map\n    fields:\n"
                      "      nodes:\n        - {id: a, lon: 24.0, lat: 53.0}\n        - {id: b, lon: 30.0, lat: 53.0}\n"
                      "      routes:\n" + "".join(f"        {line}\n" for line in routes.splitlines())
                      + f"      symbols: {symbols}\n",
        "templates/map.yaml": textwrap.dedent("""\
            size: {width: 300mm, height: 200mm}
            palette: {red: "#d32f2f", blue: "#1d3f8a"}
            boxes:
              map:
                kind: network
                x: 10
                y: 10
                width: 280
                height: 180
                network: {nodes: "@nodes", routes: "@routes", symbols: "@symbols", node_template: node,
                          projection: {west: 23, east: 31, south: 51, north: 55}}
            """),
        "templates/node.yaml": "size: {width: 10mm, height: 10mm}\nboxes:\n  d: {kind: ellipse, area: trim}\n",
    }
    for name, text in files.items():
        path = game / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return game


def _problems(game: Path) -> list[str]:
    problems = Problems()
    sources = load_games([game], problems)
    layout_targets(sources, BuildOptions(), problems, FontLibrary())
    return [str(p) for p in problems.errors]


def test_a_colour_without_a_symbol_and_a_bad_via_are_located_errors(tmp_path):
    game = _mini(tmp_path, "- {from: a, to: b, length: 3, color: blue}\n"
                           "- {from: a, to: b, length: 3, color: red, via: [[27, 99]]}",
                 "[{color: red, symbol: art/a.svg}]")
    messages = _problems(game)
    assert any("board.yaml:10:" in m and "colour 'blue' has no symbol in '@symbols'" in m for m in messages), messages
    assert any("board.yaml:11:" in m and "via must be a list of at most 20 [lon, lat] points" in m
               for m in messages), messages


def test_symbols_and_a_bent_route_on_a_made_up_map(tmp_path):
    game = _mini(tmp_path, "- {from: a, to: b, length: 5, color: red, via: [[27, 52]]}\n"
                           "- {from: a, to: b, length: 2, color: white}",
                 "[{color: red, symbol: art/a.svg}, {color: white}]")
    problems = Problems()
    sources = load_games([game], problems)
    targets = layout_targets(sources, BuildOptions(), problems, FontLibrary())
    assert not problems.errors, [str(p) for p in problems.errors]
    items = list(targets[0].boards[0].face.items)
    red = [s for s in items if isinstance(s, Shape) and s.kind == "polygon" and s.fill == "#d32f2f"]
    marks = [a for a in items if isinstance(a, ArtPlacement) and a.file.name == "a.svg"]
    assert len(red) == 5 and len(marks) == 5
    # the bent route dips south of the straight line between the nodes (both at latitude 53)
    white = [s for s in items if isinstance(s, Shape) and s.kind == "polygon" and s.fill == "#ffffff"]
    assert len(white) == 2
    assert max(y for s in red for _, y in s.points) > max(y for s in white for _, y in s.points) + 20


def test_the_numbered_discs_of_an_excursion_map_never_overlap(belarus):
    source, target = belarus
    faces = {copy.card: copy.front for laid in target.sets["cards"] if laid.id == "excursions"
             for copy in laid.copies}
    assert len(faces) == 29
    moved = 0
    for card_id, face in faces.items():
        stops = [item for item in face.items if isinstance(item, Group) and item.width == 12 and item.height == 12]
        discs, pins = [], []
        for stop in stops:
            for shape in stop.items:
                if isinstance(shape, Shape) and shape.kind == "ellipse":
                    centre = (stop.x + shape.x + shape.w / 2, stop.y + shape.y + shape.h / 2)
                    (discs if shape.w > 3 else pins).append(centre)
            if any(isinstance(s, Shape) and s.kind == "ellipse" and s.w < 3 for s in stop.items):
                moved += 1
            else:                                   # an unmoved disc sits on the place itself
                pins.append((stop.x + 6, stop.y + 6))
        assert len(discs) == len(stops) >= 2, card_id
        for i, a in enumerate(discs):
            for b in discs[i + 1:]:
                assert math.dist(a, b) >= 3.2 + 0.35, (card_id, a, b)       # discs and their white rings
            for pin in pins:
                if math.dist(a, pin) > 0.01:
                    assert math.dist(a, pin) >= 1.6 + 0.65, (card_id, a, pin)   # no disc hides another place
    assert moved >= 10                              # the close pairs (Mir–Nesvizh …) were moved apart


# ---------------------------------------------------------------------------------------------- issue 31

def _catalog(lang: str) -> dict:
    return yaml.safe_load((GAME / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8"))[lang]


def _strings(value):
    if isinstance(value, dict):
        for inner in value.values():
            yield from _strings(inner)
    elif isinstance(value, str):
        yield value


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The rulebook in both languages on both papers, and the English A4 cards with their ink-saver backs."""
    out = tmp_path_factory.mktemp("belarus")
    build([GAME], BuildOptions(out=out, only=frozenset({"rules"}), jobs=1, print_shop=False))
    build([GAME], BuildOptions(out=out, only=frozenset({"cards", "ink-saver"}), languages=("en",), papers=("a4",),
                               jobs=1, print_shop=False))
    return out / "must-see-belarus" / "standard"


def test_every_deck_has_a_light_ink_saver_back_that_the_edition_builds(belarus, built):
    source, _ = belarus
    decks = source.pieces["cards"].sets
    assert all(deck.ink_saver_back for deck in decks), [deck.id for deck in decks if not deck.ink_saver_back]
    assert source.game.editions["standard"].ink_saver
    standard, saver = built / "en" / "a4" / "cards.pdf", built / "en" / "a4" / "cards-ink-saver.pdf"
    pages = len(open_pdf(saver))
    assert pages == len(open_pdf(standard)) == 36            # 162 cards on 18 sheets, fronts and backs
    for index in range(1, pages, 2):                        # every back page: light, a fraction of the dark one
        light, dark = page_ink(str(saver), index).total, page_ink(str(standard), index).total
        assert dark > 2.0 and light < 0.12 and light <= dark / 15, (index + 1, light, dark)
    assert page_ink(str(standard), 0).total == pytest.approx(page_ink(str(saver), 0).total, rel=1e-6)
    # the same identity: the game's title and the deck's name on every back
    assert "You Must See This" in page_text(open_pdf(saver), 1) and "TRAVEL" in page_text(open_pdf(saver), 1)


# Machado, Oliveira and Fernandes (2009), severity 1: how protan, deutan and tritan eyes see a colour
_CVD = {"protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
        "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
        "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900))}


def _linear(hex_colour: str) -> tuple[float, ...]:
    channels = (int(hex_colour[index:index + 2], 16) / 255 for index in (1, 3, 5))
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)


def _lab(rgb) -> tuple[float, float, float]:
    r, g, b = (min(max(c, 0.0), 1.0) for c in rgb)
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [c ** (1 / 3) if c > 0.008856 else 7.787 * c + 16 / 116 for c in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def test_the_winning_ticket_is_apart_from_the_yellow_cards_in_greyscale_and_for_colour_blind_eyes(belarus):
    source, _ = belarus
    palette = source.game.palette
    ticket, yellow = _linear(palette["ticket"]), _linear(palette["yellow"])
    assert abs(_lab(ticket)[0] - _lab(yellow)[0]) >= 20          # lightness: apart in greyscale
    for matrix in _CVD.values():
        seen = [tuple(sum(m * c for m, c in zip(row, colour, strict=True)) for row in matrix)
                for colour in (ticket, yellow)]
        assert math.dist(_lab(seen[0]), _lab(seen[1])) >= 20, matrix
    art = (GAME / "art/cards/ticket.svg").read_text() + (GAME / "art/icons/ticket.svg").read_text()
    assert palette["ticket"].lower() in art.lower() and "#e3a51a" not in art.lower()


def _outline_shape(face) -> tuple:
    """The white outline a token face draws round its art: its kind and corner count."""
    outlines = [item for item, *_ in _placed(face.items) if isinstance(item, Shape) and item.stroke == "#ffffff"]
    assert len(outlines) == 1, outlines
    shape = outlines[0]
    return shape.kind, len(getattr(shape, "points", None) or ())


def test_each_player_colour_has_a_shape_of_its_own_on_markers_and_score_markers(belarus):
    _, target = belarus
    shapes: dict[str, dict[str, tuple]] = {}
    for laid in target.sets["tokens"]:
        for copy in laid.copies:
            shapes.setdefault(laid.id, {})[copy.card] = _outline_shape(copy.front)
            assert _outline_shape(copy.back) == shapes[laid.id][copy.card]          # both sides
    markers, scores = shapes["markers"], shapes["scores"]
    assert markers == scores and len(markers) == 5
    assert len(set(markers.values())) == 5, markers                                 # five different shapes
    for a, b in (("orange", "pink"), ("purple", "sky")):                            # the risky pairs
        assert markers[a][0] != markers[b][0] or markers[a][1] != markers[b][1]
    for lang, words in (("en", ("circle", "square", "hexagon", "diamond", "triangle")),
                        ("ru", ("круг", "квадрат", "шестиугольник", "ромб", "треугольник"))):
        listed = _catalog(lang)["rules"]["components"]["list"]
        assert all(word in listed for word in words), lang


def test_one_word_for_a_landmark_in_each_language():
    english = [text for text in _strings(_catalog("en")) if re.search(r"\b(sights?|places?)\b", text, re.IGNORECASE)]
    assert not english, english
    assert "landmark" in _catalog("en")["excursions"]["rule"]
    russian = [text for text in _strings(_catalog("ru")) if re.search(r"(?<![а-яё])мест(о|а|ах|ам|ами|е|у)?(?![а-яё])",
                                                                       text, re.IGNORECASE)]
    assert not russian, russian
    assert "достопримечательности" in _catalog("ru")["excursions"]["rule"]


def _sections():
    return yaml.safe_load((GAME / "rules.yaml").read_text(encoding="utf-8"))["rulebook"]["sections"]


def test_the_landmarks_stand_in_an_appendix_after_the_rules_grouped_by_region(belarus):
    source, _ = belarus
    sections = _sections()
    headings = [section["heading"] for section in sections]
    assert headings.index("rules.appendix.heading") > headings.index("rules.setup.heading")
    assert headings[-1] == "rules.appendix.heading"
    board = sections[headings.index("rules.board.heading")]
    assert not any("table" in block for block in board["blocks"])                   # the board's section is short
    region_of = {place["id"]: place["tint"].removeprefix("region_") for place in source.game.fields["places"]}
    blocks, listed, region = sections[-1]["blocks"], [], None
    for block in blocks:
        if "subheading" in block:
            region = block["subheading"].removeprefix("regions.")
        elif "table" in block:
            for place, _ in block["table"]["rows"]:
                place = place.removeprefix("board.places.")
                assert region_of[place] == region, (place, region)
                listed.append(place)
    assert sorted(listed) == sorted(region_of) and len(listed) == 33


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_points_table_never_splits_and_the_appendix_follows_the_setup(built, lang, paper):
    document = open_pdf(built / lang / paper / "rules.pdf")
    texts = [page_text(document, index) for index in range(len(document))]
    title = "Points for a journey" if lang == "en" else "Очки за путешествие"
    pages = [index for index, text in enumerate(texts) if title in text]
    assert len(pages) == 1, pages
    rows = re.findall(r"^\s*(\d+)\s+(\d+)\s*$", texts[pages[0]], re.MULTILINE)
    assert ("6", "15") in rows and ("8", "21") in rows and ("1", "1") in rows                # all 7 on one page
    appendix = "Appendix: the landmarks" if lang == "en" else "Приложение: достопримечательности"
    setup = "Setup" if lang == "en" else "Подготовка к игре"
    first = [index for index, text in enumerate(texts) if appendix in text]
    assert first[-1] > max(index for index, text in enumerate(texts) if setup in text and index > 2)
    assert not any(re.search(r"\bseeds?\b", text, re.IGNORECASE) for text in texts)


def _outline_points(face):
    return max((item for item in face.items if isinstance(item, Polygon) and item.points and len(item.points) > 40),
               key=lambda item: len(item.points)).points


def _crosses(box, polygon) -> bool:
    x0, y0, x1, y1 = box
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        for step in range(201):
            t = step / 200
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            if x0 <= x <= x1 and y0 <= y <= y1:
                return True
    return False


@pytest.mark.parametrize("lang, words", [("en", ("Belovezhskaya", "Pushcha")), ("ru", ("Беловежская", "пуща"))])
def test_no_landmark_name_sits_on_the_border_line(lang, words):
    problems = Problems()
    sources = load_games([GAME], problems)
    target = layout_targets(sources, BuildOptions(languages=(lang,)), problems, FontLibrary())[0]
    face = target.boards[0].face
    outline = list(_outline_points(face))
    catalog = _catalog(lang)["board"]["places"]
    names = {word for name in catalog.values() for word in name.split()}
    found = [obstacle for obstacle in board_obstacles(face) if obstacle.kind == "word" and obstacle.name in names]
    assert {word for word in words} <= {obstacle.name for obstacle in found}
    on_line = [obstacle.name for obstacle in found
               if _crosses((obstacle.box[0] - 0.3, obstacle.box[1] - 0.3, obstacle.box[2] + 0.3, obstacle.box[3] + 0.3),
                           outline)]
    assert not on_line, on_line
    for obstacle in found:                      # Belovezhskaya Pushcha's name stands inside Belarus
        if obstacle.name in words:
            centre = ((obstacle.box[0] + obstacle.box[2]) / 2, (obstacle.box[1] + obstacle.box[3]) / 2)
            assert point_in_polygon(centre, outline), obstacle


def test_border_passages_run_through_the_neighbouring_countries(belarus):
    source, target = belarus
    board = source.boards.boards[0]
    face = target.boards[0].face
    outline = list(_outline_points(face))
    ticket = (GAME / "art/icons/ticket.svg").resolve()
    tickets = [a for a in _network_items(face) if isinstance(a, ArtPlacement) and a.file.resolve() == ticket]
    borders = [route for route in board.fields["routes"] if route.get("kind") == "border"]
    assert len(tickets) == len(borders) == 5
    for art in tickets:                         # the ticket segment, in the middle of each, lies outside Belarus
        assert not point_in_polygon((art.x + art.w / 2, art.y + art.h / 2), outline), art
    assert all(route.get("via") for route in borders)
    lengths = {length for length, _ in board.fields["scoring"]}
    assert all(route["length"] in lengths for route in board.fields["routes"])    # every length scores


# markers each player plays with, by the number of players (rules.setup.steps): never more than the landmarks
MARKERS = {2: 10, 3: 10, 4: 8, 5: 6}


def test_at_every_player_count_the_markers_can_run_out_before_the_landmarks(belarus):
    source, _ = belarus
    landmarks = len(source.game.fields["places"])
    assert landmarks == 33
    for players, each in MARKERS.items():
        assert players * each <= landmarks, players
    assert {token.count for token in source.pieces["tokens"].sets[0].tokens} == {MARKERS[2]}   # 10 of each colour
    english, russian = _catalog("en")["rules"], _catalog("ru")["rules"]
    assert "8 with 4 players, 6 with 5 players" in english["setup"]["steps"]
    assert "8 при 4 игроках, 6 при 5 игроках" in russian["setup"]["steps"]
    assert "33 landmarks" in english["end"]["designer"] and "33 достопримечательности" in russian["end"]["designer"]


def test_excursion_names_have_room_for_two_lines_and_every_map_is_one_size(belarus):
    _, target = belarus
    faces = {copy.card: copy.front for laid in target.sets["cards"] if laid.id == "excursions" for copy in laid.copies}
    outlines = set()
    for card, face in faces.items():
        maps = [item for item in face.items if isinstance(item, Polygon) and item.points and len(item.points) > 40]
        assert len(maps) == 1, card
        xs, ys = [x for x, _ in maps[0].points], [y for _, y in maps[0].points]
        outlines.add(tuple(round(v, 3) for v in (min(xs), min(ys), max(xs), max(ys))))
    assert len(outlines) == 1, outlines
    panel_top = 16.5
    for card in ("radziwill", "dnieper-sozh"):          # the two-line names
        names = [item for item in faces[card].items if isinstance(item, TextPlacement)
                 and 15 < item.y < 22 and item.runs and item.runs[0].size >= 11]
        assert names, card
        lines = sorted({round(run.baseline, 2) for run in names[0].runs})
        assert len(lines) == 2, (card, lines)
        size_mm = names[0].runs[0].size * 25.4 / 72
        assert names[0].y + lines[0] - size_mm >= panel_top + 1.5, card       # an em above the baseline: 1.5 mm clear
