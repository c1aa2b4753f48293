"""Butted chits (issue 29.5): a token set's `butted: true` prints its tokens touching — one cut between two
neighbours separates both, each front clipped to its trim there, the bleed on the block's outer edges only —
and a round set cannot be butted (a located error)."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from generator.components.piece import Face, Line, PieceCopy, Rect
from generator.imposition.grid import FULL_BLEED_GAP, SCALE_BAR, impose_mixed
from generator.imposition.sheet import Document
from generator.print_facts import PAPER_SIZES
from generator.render.pdf import render_pdf
from generator.render.settings import DrawingSettings
from generator.text.fonts import FontLibrary
from tests.test_content_errors import make_game, pnp, problem_lines
from tests.test_print_formats import ROUND_TOKEN, TOKENS

A4 = PAPER_SIZES["a4"]


def _full_bleed(key: str, colour: str) -> Face:
    return Face(key, 25, 25, 3.0, (Rect(-3, -3, 31, 31, fill=colour),))


def _copies(deck: str, colours: list[str]) -> list[PieceCopy]:
    back = _full_bleed(f"{deck}-back", "#222222")
    return [PieceCopy(deck, f"t{n}", n + 1, _full_bleed(f"{deck}-{colour}", colour), back)
            for n, colour in enumerate(colours)]


def _row(placements, y):
    return sorted((p for p in placements if abs(p.y - y) < 1e-6), key=lambda p: p.x)


def test_a_butted_set_touches_and_a_plain_one_keeps_its_gap():
    chits = _copies("chits", ["#cc0000", "#0000cc"] * 4)
    coins = _copies("coins", ["#00aa00"] * 4)
    fronts, backs = impose_mixed(chits + coins, A4, label="tokens", butted=frozenset({"chits"}))
    row = _row(fronts.placements, fronts.placements[0].y)
    assert [p.face.key.split("-")[0] for p in row] == ["chits"] * len(row) and len(row) >= 4
    for left, right in zip(row, row[1:], strict=False):
        assert right.x - left.x == pytest.approx(25)                   # touching: one cut between them
        assert left.clip[0] + left.clip[2] == pytest.approx(right.x)    # each front clipped at the shared cut
    assert row[0].clip[1] < row[0].y          # the block's outer (top) edge: its bleed, as far as the margin allows
    coin_row = _row(fronts.placements, next(p.y for p in fronts.placements if p.face.key.startswith("coins")))
    assert coin_row[1].x - coin_row[0].x == pytest.approx(25 + FULL_BLEED_GAP)   # the other set keeps apart
    # every back lands on its front, long-edge flip
    for front in fronts.placements:
        assert any(abs(back.x - (A4[0] - front.x - 25)) < 0.01 and abs(back.y - front.y) < 0.01
                   for back in backs.placements)


def test_no_colour_crosses_a_shared_cut():
    chits = _copies("chits", ["#cc0000", "#0000cc"] * 4)
    (fronts, _) = impose_mixed(chits, A4, label="tokens", butted=frozenset({"chits"}))
    pdf = render_pdf(Document([fronts]), DrawingSettings(FontLibrary().body_face.name))
    dpi = 600
    image = pdfium.PdfDocument(pdf)[0].render(scale=dpi / 72).to_pil().convert("RGB")
    row = _row(fronts.placements, fronts.placements[0].y)

    def pixel(x_mm, y_mm):
        return image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))
    middle = row[0].y + 12.5
    for left, right in zip(row, row[1:], strict=False):
        cut = right.x
        red_or_blue = {"#cc0000": (204, 0, 0), "#0000cc": (0, 0, 204)}
        want_left = red_or_blue[left.face.key.split("-")[1]]
        want_right = red_or_blue[right.face.key.split("-")[1]]
        assert pixel(cut - 0.15, middle) == pytest.approx(want_left, abs=12)
        assert pixel(cut + 0.15, middle) == pytest.approx(want_right, abs=12)


# the round coins of the print-format tests, marked butted
ROUND_TOKENS = TOKENS.replace("    back: coin\n", "    back: coin\n    butted: true\n")


def test_a_round_set_cannot_be_butted(tmp_path):
    folder = make_game(tmp_path, {"templates/coin.yaml": ROUND_TOKEN, "tokens.yaml": ROUND_TOKENS})
    result = pnp("check", str(folder))
    assert result.exit_code == 1, result.output
    (line,) = [line for line in problem_lines(result.output) if "butted" in line]
    assert line.startswith(f"{folder / 'tokens.yaml'}:6:") and "round token" in line
    assert "remove `butted: true`" in result.output


def test_the_block_bleeds_at_its_foot_and_along_a_part_filled_last_row():
    # a full row and a part-filled one: the block's outer edge runs under row one's chits where row two
    # ends, and past row two's last chit; there, and under row two, the fronts (and backs) keep their bleed
    chits = _copies("chits", ["#cc0000", "#0000cc"] * 4 + ["#cc0000"])
    fronts, backs = impose_mixed(chits, A4, label="tokens", butted=frozenset({"chits"}))
    first = _row(fronts.placements, fronts.placements[0].y)
    second = _row(fronts.placements, fronts.placements[0].y + 25)
    assert 0 < len(second) < len(first)

    def reach(placement):         # how far the clip runs past the trim: right and below
        x, y, w, h = placement.clip
        return round(x + w - placement.x - 25, 6), round(y + h - placement.y - 25, 6)
    assert all(reach(chit)[1] == 2.0 for chit in second)                  # the block's foot
    assert reach(second[-1])[0] == 2.0                                    # the last chit's open side
    assert all(reach(chit)[0] == 0 for chit in second[:-1])               # shared cuts: to the trim
    assert [reach(chit)[1] for chit in first] == [0] * len(second) + [2.0] * (len(first) - len(second))
    for front in fronts.placements:           # each back's clip the mirror of its front's, 3 mm bleed
        (back,) = [back for back in backs.placements
                   if abs(back.x - (A4[0] - front.x - 25)) < 0.01 and abs(back.y - front.y) < 0.01]
        fx, fy, fw, fh = front.clip
        bx, by, bw, bh = back.clip
        assert (by + bh - back.y - 25 > 0) == (fy + fh - front.y - 25 > 0)
        assert (back.x - bx > 0) == (fx + fw - front.x - 25 > 0)          # the open right side, mirrored left


def test_crop_marks_lie_outside_the_block_in_line_with_every_cut():
    chits = _copies("chits", ["#cc0000", "#0000cc"] * 4 + ["#cc0000"])
    (fronts, _) = impose_mixed(chits, A4, label="tokens", butted=frozenset({"chits"}))
    left = min(p.x for p in fronts.placements)
    top = min(p.y for p in fronts.placements)
    right = max(p.x for p in fronts.placements) + 25
    bottom = max(p.y for p in fronts.placements) + 25
    xs = {round(left + 25 * k, 6) for k in range(round((right - left) / 25) + 1)}
    ys = {round(top + 25 * k, 6) for k in range(round((bottom - top) / 25) + 1)}
    lines = [mark for mark in fronts.marks if isinstance(mark, Line)]
    (bar,) = [mark for mark in lines if mark.w == SCALE_BAR]           # the scale bar and its ticks aside
    lines = [mark for mark in lines if mark is not bar and not (
        mark.w == 0 and bar.x <= mark.x <= bar.x + SCALE_BAR and mark.y <= bar.y <= mark.y + mark.h)]
    vertical = [mark for mark in lines if mark.w == 0]
    horizontal = [mark for mark in lines if mark.h == 0]
    for mark in vertical:            # above or below the block (past its 2 mm bleed), on a column cut
        assert round(mark.x, 6) in xs
        assert mark.y + mark.h <= top - 2 or mark.y >= bottom + 2
    for mark in horizontal:          # left or right of it, on a row cut
        assert round(mark.y, 6) in ys
        assert mark.x + mark.w <= left - 2 or mark.x >= right + 2
    # every cut marked at both ends: a ruler laid across the sheet finds each one
    assert {(round(m.x, 6), m.y < top) for m in vertical} == {(x, side) for x in xs for side in (True, False)}
    assert {(round(m.y, 6), m.x < left) for m in horizontal} == {(y, side) for y in ys for side in (True, False)}


def test_a_row_holds_whole_pieces_so_no_row_mixes_two():
    # 5 colours of 10 copies (You Must See This's markers): 10 a row, each row one colour, where a full row
    # of 14 mm chits would hold 13 and run the first colour into the second
    colours = ["#cc0000", "#0000cc", "#00aa00", "#aaaa00", "#aa00aa"]
    chits = [PieceCopy("chits", colour, n + 1, Face(f"c-{colour}", 14, 14, 2.0,
                                                    (Rect(-2, -2, 18, 18, fill=colour),)), None)
             for colour in colours for n in range(10)]
    pages = impose_mixed(chits, A4, label="tokens", butted=frozenset({"chits"}))
    rows: dict[float, set[str]] = {}
    for placement in pages[0].placements:
        rows.setdefault(round(placement.y, 3), set()).add(placement.face.key)
    assert len(rows) == 5 and all(len(keys) == 1 for keys in rows.values()), rows
    assert all(len([p for p in pages[0].placements if round(p.y, 3) == y]) == 10 for y in rows)
