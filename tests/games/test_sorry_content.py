"""Sorry! (content/sorry): what its board, cards and rules guarantee, measured on the laid-out faces and the PDFs.

The board: each side of the loop tinted in its colour; each Safety zone drawn like a
Slide (a bar of its colour over its five spaces, into the Home circle) with Home clear
of its last space; each Start joined by a short bar to the space its pawns come out
onto, the one that carries the end circle of that side's short Slide. The cards: an index in
each corner, the bottom two upside down; the effect text keeps clear of the rule above it; the
ink-saver backs are light line art. The rules: every rule the seed does not state carries a
Designer's note, in English and in Georgian.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import BuildOptions
from generator.targets import layout_targets, load_games
from generator.components.piece import ArtPlacement, Group, Shape, TextPlacement
from generator.errors import Problems
from generator.text.fonts import FontLibrary
from tests.conftest import CONTENT
from generator.render.ink import page_ink
from tests.pdf_probe import all_text, open_pdf, page_text

BOARD = 380.0
SPACE = 23.0
LOOP_INNER = 6 + SPACE                  # the loop's inner edge, from the board's edge
COLOURS = ("red", "blue", "yellow", "green")    # the sides clockwise from the top: top, right, bottom, left


@pytest.fixture(scope="module")
def sorry():
    problems = Problems()
    sources = load_games([CONTENT / "sorry"], problems)
    targets = {lang: layout_targets(sources, BuildOptions(languages=(lang,)), problems, FontLibrary())[0]
               for lang in ("ka", "en")}
    assert not problems.errors
    return sources[0].game.palette, targets


def _edge_distance(item) -> float:
    return min(item.x, item.y, BOARD - item.x - item.w, BOARD - item.y - item.h)


def _shapes(group: Group, kind: str) -> list[Shape]:
    return [item for item in group.items if isinstance(item, Shape) and item.kind == kind]


def _board(targets, lang="en"):
    items = targets[lang].boards[0].face.items
    loop = [item for item in items if isinstance(item, Group) and (item.w, item.h) == (SPACE, SPACE)
            and _edge_distance(item) <= 6 + 1e-6]
    anchored = [item for item in items if isinstance(item, Group) and item not in loop]
    return loop, anchored


def _anchored_of(anchored, kind: str, fill: str) -> list[Group]:
    return [group for group in anchored if any(shape.fill == fill for shape in _shapes(group, kind))]


def _gap(a, b) -> float:
    """The clear distance between two rectangles (0 if they touch or overlap)."""
    dx = max(b.x - (a.x + a.w), a.x - (b.x + b.w), 0.0)
    dy = max(b.y - (a.y + a.h), a.y - (b.y + b.h), 0.0)
    return max(dx, dy)


def _contains(outer, x: float, y: float, slack: float = 1e-6) -> bool:
    return outer.x - slack <= x <= outer.x + outer.w + slack and outer.y - slack <= y <= outer.y + outer.h + slack


def test_each_side_of_the_loop_is_tinted_in_its_colour(sorry):
    palette, targets = sorry
    loop, _ = _board(targets)
    assert len(loop) == 60
    fills = [_shapes(cell, "rect")[0].fill.lower() for cell in loop]
    for side, colour in enumerate(COLOURS):
        assert fills[15 * side] == "#ffffff"                                     # the corners are plain
        assert set(fills[15 * side + 1:15 * side + 15]) == {palette[f"{colour}_tint"].lower()}, colour


def test_safety_zone_is_drawn_like_a_slide_into_a_home_clear_of_its_spaces(sorry):
    palette, targets = sorry
    _, anchored = _board(targets)
    zones = [group for group in anchored if sum(isinstance(item, Group) for item in group.items) == 5]
    for colour in COLOURS:
        fill = palette[colour]
        zone = next(z for z in zones if _shapes(z.items[0], "rect")[0].fill == palette[f"{colour}_safe"])
        # Home (44 mm: its edge clear of the board's middle lines, where tiles meet) and Start (46 mm)
        circles = [g for g in _anchored_of(anchored, "ellipse", fill) if min(g.w, g.h) in (44, 46)]
        home = max(circles, key=_edge_distance)                                  # Start is the one near the edge
        assert min(home.w, home.h) == pytest.approx(44)
        bar = next(g for g in _anchored_of(anchored, "rect", fill) if max(g.w, g.h) > 115)
        assert _edge_distance(zone) == pytest.approx(LOOP_INNER)               # the zone leaves the loop...
        assert 2 <= _gap(zone, home) <= 6, colour                              # ...and Home is clear of it
        # the bar runs lengthwise over the five spaces to the middle of Home, inside the spaces crosswise
        vertical = zone.h > zone.w
        pos, size = ("y", "h") if vertical else ("x", "w")
        cross, cross_size = ("x", "w") if vertical else ("y", "h")
        along = (getattr(bar, pos), getattr(bar, pos) + getattr(bar, size))
        spaces = (getattr(zone, pos), getattr(zone, pos) + getattr(zone, size))
        home_middle = getattr(home, pos) + getattr(home, size) / 2
        assert along[0] <= min(spaces[0], home_middle) + 1e-6 and along[1] >= max(spaces[1], home_middle) - 1e-6
        assert min(abs(end - home_middle) for end in along) < 1e-6, colour
        assert getattr(zone, cross) < getattr(bar, cross) < getattr(bar, cross) + getattr(bar, cross_size) \
            < getattr(zone, cross) + getattr(zone, cross_size)


def test_start_is_joined_to_its_exit_space_the_end_of_the_short_slide(sorry):
    palette, targets = sorry
    loop, anchored = _board(targets)
    for side, colour in enumerate(COLOURS):
        fill = palette[colour]
        circles = [g for g in _anchored_of(anchored, "ellipse", fill) if min(g.w, g.h) == pytest.approx(46)]
        start = min(circles, key=_edge_distance)
        link = next(g for g in _anchored_of(anchored, "rect", fill) if max(g.w, g.h) < 15)
        exit_space = loop[15 * side + 4]                                        # the side's 5th space
        assert _gap(link, start) == 0 and _gap(link, exit_space) == 0, colour  # touching both
        assert _edge_distance(link) == pytest.approx(LOOP_INNER)                # from the loop's inner edge
        centre = (link.x + link.w / 2, link.y + link.h / 2)
        lengthwise = exit_space.x <= centre[0] <= exit_space.x + exit_space.w or \
            exit_space.y <= centre[1] <= exit_space.y + exit_space.h
        assert lengthwise, colour
        # the short Slide's end circle (the circle the rules send a new pawn to) is on that very space
        ends = [g for g in _anchored_of(anchored, "ellipse", fill) if min(g.w, g.h) == pytest.approx(14)]
        assert any(_contains(exit_space, g.x + g.w / 2, g.y + g.h / 2) for g in ends), colour


@pytest.mark.parametrize("lang", ["ka", "en"])
def test_card_text_keeps_clear_of_the_rule_above_it(sorry, lang):
    _, targets = sorry
    seen = set()
    for copy in targets[lang].sets["cards"][0].copies:
        if copy.card in seen:
            continue
        seen.add(copy.card)
        rule = next(item for item in copy.front.items if isinstance(item, Shape) and item.kind == "line")
        effect = next(item for item in copy.front.items if isinstance(item, TextPlacement) and item.y > rule.y)
        first = min(effect.runs, key=lambda run: run.baseline)
        em_top = effect.y + first.baseline - first.size * 25.4 / 72
        assert em_top - rule.y >= 2.5, (lang, copy.card, em_top - rule.y)
        assert first.size >= 8, (lang, copy.card)                               # and stays readable


def _corner_indices(face) -> list[tuple[float, float, int]]:
    """Where a card's corner indices stand (x, y of their frames, mm) and how each is turned: a number
    set small (not the big one), or the card's icon at corner size."""
    found = []
    for item in face.items:
        inner, turn = (item.items, item.rotation) if isinstance(item, Group) else ((item,), 0)
        frame = item
        for placed in inner:
            small_number = isinstance(placed, TextPlacement) and placed.runs and \
                max(run.size for run in placed.runs) <= 14 and placed.runs[0].text.strip().isdigit()
            small_icon = isinstance(placed, ArtPlacement) and placed.w <= 12
            if small_number or small_icon:
                found.append((frame.x, frame.y, turn))
    return sorted(found)


@pytest.mark.parametrize("lang", ["ka", "en"])
def test_every_card_has_an_index_in_all_four_corners_the_bottom_two_upside_down(sorry, lang):
    _, targets = sorry
    seen = set()
    for copy in targets[lang].sets["cards"][0].copies:
        if copy.card in seen:
            continue
        seen.add(copy.card)
        corners = _corner_indices(copy.front)
        assert len(corners) == 4, (copy.card, corners)
        for x, y, turn in corners:
            bottom = y > 88 / 2
            assert turn == (180 if bottom else 0), (copy.card, x, y, turn)
        assert {x < 63 / 2 for x, _, _ in corners} == {True, False}, copy.card


@pytest.fixture(scope="module")
def rules(shipped_build) -> Path:
    """Sorry!'s standard edition as shipped: the run's shared build (tests/conftest.py)."""
    return shipped_build("sorry") / "standard"


@pytest.mark.parametrize("lang, title", [("en", "Designer’s note"), ("ka", "დიზაინერის შენიშვნა")])
def test_every_rule_the_seed_does_not_state_carries_a_designers_note(rules, lang, title):
    text = all_text(rules / lang / "a4" / "rules.pdf")
    assert text.count(title) == 6          # age and time, card counts, jumping, sliding, Safety/Home, points



@pytest.mark.parametrize("lang, paper, title", [("ka", "a4", "ბოდიში!"), ("en", "letter", "Sorry!")])
def test_ink_saver_backs_are_light_line_art_with_the_name(rules, lang, paper, title):
    folder = rules / lang / paper
    saver, standard = folder / "cards-ink-saver.pdf", folder / "cards.pdf"
    document = open_pdf(saver)
    assert len(document) == len(open_pdf(standard))
    for index in range(1, 10, 2):                              # 45 cards: 5 sheets of fronts and backs
        light, dark = page_ink(str(saver), index).total, page_ink(str(standard), index).total
        assert dark > 2.0, f"page {index + 1}: the standard backs are the full-bleed navy"
        assert light < 0.10, f"page {index + 1}: {light:.1%}"
        assert page_text(document, index).count(title) == 9   # the name on every back
    # the fronts are the same in both files
    assert page_ink(str(saver), 0).total == pytest.approx(page_ink(str(standard), 0).total, rel=1e-6)
