"""Board tiles' seams placed off words, spaces and pictures (imposition/seams.py), on tiny synthetic boards."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.components.board import LaidOutFace
from generator.components.piece import ArtPlacement, Ellipse, Face, Group, Rect, TextPlacement
from generator.imposition.seams import TEXT_MARGIN, board_obstacles
from generator.imposition.tiles import TileSpec, impose_board, tile_boards, tile_layout, tile_spec
from generator.print_facts import PAPER_SIZES
from generator.text.fonts import FontLibrary
from generator.write import caption_maker
from tests.test_content_errors import make_game, pnp, problem_lines

A4 = PAPER_SIZES["a4"]


@pytest.fixture(scope="module")
def caption():
    return caption_maker(FontLibrary(), "en")


def _board(*items, width: float = 380.0, height: float = 380.0) -> Face:
    return Face("board", width, height, 3.0, (Rect(-3, -3, width + 6, height + 6, fill="#ddeeff"), *items))


def _word_box(face: Face, word: str) -> tuple[float, float, float, float]:
    (box,) = [obstacle.box for obstacle in board_obstacles(face) if obstacle.name == word]
    return box


def test_a_seam_moves_off_a_word_on_the_even_division(caption):
    # "8" centred on x = 190 (the even division) and a line of words across y = 190: the tiles (2 × 2 on A4,
    # the vertical seam within 187–193 mm, the horizontal one within 140–240) meet off both
    eight = caption("8", 14)
    line = caption("a line of words right across the middle of the board", 14, 300)
    face = _board(TextPlacement(190 - 1.7, 100, eight), TextPlacement(40, 186, line))
    layout = tile_layout((380, 380), TileSpec(A4), board_obstacles(face))
    assert layout.crossings == ()
    (x,), _ = layout.across
    (y,), _ = layout.down
    x0, _, x1, _ = _word_box(face, "8")
    assert 187 <= x <= 193 and not x0 - TEXT_MARGIN < x < x1 + TEXT_MARGIN
    _, y0, _, y1 = _word_box(face, "middle")
    assert y1 + 3 <= y or y <= y0 - 3            # the full clearance where the window allows it


def test_a_seam_runs_along_the_edge_where_two_spaces_meet(caption):
    # two labelled spaces meeting at x = 190 (a track): the seam lies on their shared edge, crossing neither
    def space(x: float, label: str) -> Group:
        return Group(x, 20, 46, 46, 46, 46, 0,
                     (Rect(0, 0, 46, 46, fill="#cfe8d5"), TextPlacement(10, 30, caption(label, 9))))
    face = _board(space(144, "HOUSE"), space(190, "COCOA"))
    kinds = {obstacle.kind for obstacle in board_obstacles(face)}
    assert kinds == {"space"}                     # a group on a filled shape of its own is one space
    layout = tile_layout((380, 380), TileSpec(A4), board_obstacles(face))
    assert layout.across == ((190.0,), (190.0,)) and layout.crossings == ()


def test_rows_of_bricks_where_no_straight_seam_is_clean():
    # 600 × 420 mm on A4: 4 columns, 2 rows. A picture in the top half covers x = 20–115, one in the bottom
    # half x = 110–200: no vertical line from top to bottom misses both where the first seam can lie
    # (31–193 mm), but each row has its own place
    top = ArtPlacement(Path("top.svg"), 20, 50, 95, 20)
    bottom = ArtPlacement(Path("bottom.svg"), 110, 320, 90, 20)
    face = _board(top, bottom, width=600, height=420)
    layout = tile_layout((600, 420), TileSpec(A4), board_obstacles(face))
    assert (layout.columns, layout.rows, layout.shape) == (4, 2, "rows")
    assert layout.crossings == ()
    assert layout.across[0][0] > 115 and layout.across[1][0] < 110
    assert layout.down[0] == layout.down[1]          # the horizontal seam runs right across


def test_a_seam_no_position_spares_is_warned_of_and_marked_on_the_map(caption):
    # a picture 100 mm wide over the middle: the vertical seam (187–193 mm on A4) cannot miss it
    face = _board(ArtPlacement(Path("art/star.svg"), 140, 100, 100, 100))
    warned = []
    tilings = tile_boards([LaidOutFace("b", "components.board", face)], ("a4",), 0.0,
                          lambda board, message, hint: warned.append((board, message, hint)))
    layout = tilings["b", "a4"]
    assert [(c.axis, c.obstacle.name) for c in layout.crossings] == [(0, "star.svg")]
    ((board, message, hint),) = warned
    assert board == "b" and "star.svg" in message and "on A4" in message
    assert "x = 187–193 mm" in hint
    pages = impose_board(face, TileSpec(A4), layout, caption, "b")
    red = [item for page in pages for item in page.marks if isinstance(item, Ellipse) and item.fill == "#d0021b"]
    assert len(red) == len(pages)                 # each tile's map shows the crossing


BOARD = """\
boards:
  - id: big
    name: deck.cards
    template: big
"""

BIG = """\
size: {width: 380mm, height: 380mm}
boxes:
  ground: {kind: rect, area: trim, fill: "#88aa66"}
  star: {kind: art, art: art/star.svg, x: 140, y: 100, width: 100, height: 100}
"""


def test_check_names_the_board_file_and_line_of_a_crossing(tmp_path):
    folder = make_game(tmp_path, {"board.yaml": BOARD, "templates/big.yaml": BIG})
    result = pnp("check", str(folder))
    assert result.exit_code == 0, result.output
    lines = [line for line in problem_lines(result.output) if "seam" in line]
    assert len(lines) == 2                          # A4 and Letter
    assert all(line.startswith(f"{folder / 'board.yaml'}:2:") and "warning" in line and "star.svg" in line
               for line in lines), lines
    assert "keep words, spaces and pictures off a line" in result.output


def _ticks(page):
    """The page's align ticks: short solid black strokes across or along, above the label band."""
    from generator.components.piece import Line
    from generator.imposition.line_kinds import ALIGN, ALIGN_TICK
    (placement,) = page.placements
    band = placement.clip[1] + placement.clip[3] + 6
    return [(item, placement) for item in page.marks
            if isinstance(item, Line) and item.stroke == ALIGN.colour and item.dash is None and item.y < band
            and (item.w == 0) != (item.h == 0) and max(abs(item.w), abs(item.h)) <= ALIGN_TICK + 1e-9]


def test_align_ticks_meet_across_each_seam_outside_the_board(caption):
    # 300 × 380 mm on A4 (5 mm printable margin): 2 × 2 tiles narrow enough to leave room beside them; the
    # top edge has none (the board's trim is 6 mm from the paper's edge)
    face = _board(width=300, height=380)
    spec = tile_spec(A4, 5.0)
    layout = tile_layout((300, 380), spec, ())
    pages = impose_board(face, spec, layout, caption, "b", line_names=("cut", "fold", "glue", "align"))
    (sx,), _ = layout.across
    (sy,), _ = layout.down
    seen = {}
    for page in pages:
        for tick, placement in _ticks(page):
            bx, by = tick.x - placement.x, tick.y - placement.y          # the tick on the board (mm)
            if tick.w == 0:      # below the board at the vertical seam
                assert bx == pytest.approx(sx) and by > 380 and by + tick.h > 380
            else:                # beside the board at the horizontal seam
                assert by == pytest.approx(sy) and (bx < 0 or bx > 300)
                assert spec.printable <= tick.x <= A4[0] - spec.printable
                assert spec.printable <= tick.x + tick.w <= A4[0] - spec.printable
            seen.setdefault(page.label, []).append("v" if tick.w == 0 else "h")
    # B1 and B2 meet at the vertical seam's bottom end; A1/B1 at the horizontal seam's left, A2/B2 its right
    assert sorted(seen["b A1"]) == ["h"] and sorted(seen["b A2"]) == ["h"]
    assert sorted(seen["b B1"]) == ["h", "v"] and sorted(seen["b B2"]) == ["h", "v"]
    names = [run.text for page in pages[2:] for item in page.marks if isinstance(item, TextPlacement)
             for run in item.runs]
    assert "align" in names                       # the legend names the ticks where a tile has them
