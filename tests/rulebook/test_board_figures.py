"""Board figures drawn from the game's own board and pieces, measured in the PDF: the region shown (words of
the board outside it neither drawn nor read back), a pawn standing on its space in its own colour (a change
of the pawn's or of a space's colour changes the figure), moves numbered space by space round the loop,
markers and their notes read back; the spaces a face names (cells, anchored cells, cells of cells);
located errors for a space, a piece or a region that is not there."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from generator.components.cells import loop_places, rotate_region, row_places
from tests.rulebook.test_cover_and_pagination import CARDS, EN, GAME, MINI_CARD, RED_CARD, _build, _texts
from tests.test_content_errors import make_game, pnp, problem_lines

RED = (0xa3, 0x16, 0x21)

BOARD = """\
boards:
  - id: board
    name: board.name
    template: board
    cell_types:
      plain: {tint: "#d8e4f0"}
    fields:
      spaces:
        - {type: plain, id: start, label: board.start}
        - plain
        - plain
        - plain
        - plain
        - plain
        - {type: plain, label: board.far}
        - plain
        - plain
        - plain
        - plain
        - plain
      inner: [plain, plain, plain]
"""

BOARD_TEMPLATE = """\
size: {width: 120mm, height: 120mm}
boxes:
  paper: {kind: rect, area: trim, fill: "#ffffff"}
  track: {kind: cells, cells: "@spaces", cell_template: space, path: loop, x: 0, y: 0, width: 120, height: 120, z: 1}
  lane: {kind: cells, cells: "@inner", cell_template: space, path: column, anchor: {cells: track, cell: 3}, z: 2,
         x: 0, y: 30, width: 30, height: 60}
"""

SPACE = """\
size: {width: 30mm, height: 30mm}
boxes:
  ground: {kind: rect, area: trim, fill: "@tint", stroke: "#333333", stroke_width: 0.3}
  label: {kind: text, text: "@label", when: "@label", x: 1, y: 10, width: 28, height: 10, style: label}
styles:
  label: {font: body, size: 7pt, align: center, valign: middle}
"""

PAWNS = """\
sets:
  - id: pawns
    name: board.pawns
    template: pawn
    standee: {base: 8mm}
    pawns:
      - {id: hot, count: 1, fields: {color: "#ff00ff"}}
      - {id: cold, count: 1, fields: {color: "#00c8c8"}}
"""

PAWN = """\
size: {width: 16mm, height: 24mm}
boxes:
  body: {kind: rect, area: trim, fill: "@color"}
"""

BOARD_EN = EN + """\
    example:
      caption: "Moving three spaces"
      first: "The pawn starts here."
      second: "It ends its move here."
  board:
    name: "Board"
    pawns: "Pawns"
    start: "Startplace"
    far: "Farplace"
"""

FIGURE = """\
        - figure:
            board: board
            region: {spaces: [track.1, track.4], margin: 0mm}
            width: 120mm
            pieces:
              - {piece: pawns/hot, on: track.start}
            moves:
              - {along: [track.1, track.4]}
            callouts:
              - {on: track.1, text: rules.example.first}
              - {on: track.4, text: rules.example.second}
            caption: rules.example.caption
"""


def _rules(figure: str = FIGURE) -> str:
    return ("rulebook:\n  cover: {title: game.title}\n  sections:\n    - heading: rules.heading\n      blocks:\n"
            "        - paragraph: rules.short\n" + figure)


def _board_game(tmp_path, figure: str = FIGURE, pawn: str = PAWN, space: str = SPACE):
    return make_game(tmp_path, {"game.yaml": GAME, "cards.yaml": CARDS, "rules.yaml": _rules(figure),
                                "i18n/en.yaml": BOARD_EN, "board.yaml": BOARD, "pawns.yaml": PAWNS,
                                "templates/green.yaml": RED_CARD, "templates/mini.yaml": MINI_CARD,
                                "templates/board.yaml": BOARD_TEMPLATE, "templates/space.yaml": space,
                                "templates/pawn.yaml": pawn})


def _figure_page(path) -> tuple[int, str]:
    """The page (index, text) that holds the figure (its caption)."""
    return next((index, text) for index, text in enumerate(_texts(path)) if "Moving three spaces" in text)


def _figure_words(path) -> str:
    """The words read from the figure: between the paragraph before it and its caption."""
    return _figure_page(path)[1].split("A short line of filler.")[-1].split("Moving three spaces")[0]


def _page_image(path, dpi: float = 100):
    document = pdfium.PdfDocument(str(path))
    return document[_figure_page(path)[0]].render(scale=dpi / 72).to_pil().convert("RGB")


def _colour_box(image, colour, tolerance: int = 12, dpi: float = 100):
    """The bounding box (mm) of the page's pixels of a colour."""
    pixels = image.load()
    found = [(x, y) for y in range(0, image.height, 2) for x in range(0, image.width, 2)
             if all(abs(a - b) <= tolerance for a, b in zip(pixels[x, y], colour, strict=True))]
    if not found:
        return None
    to_mm = 25.4 / dpi
    xs, ys = [x for x, _ in found], [y for _, y in found]
    return min(xs) * to_mm, min(ys) * to_mm, max(xs) * to_mm, max(ys) * to_mm


def test_a_board_figure_shows_its_region_with_the_pawn_on_its_space(tmp_path):
    folder = _board_game(tmp_path)
    rules = _build(tmp_path, folder) / "rules.pdf"
    text = _figure_page(rules)[1]
    # the start space is in the region, the far one (the loop's 7th, across the board) is not
    assert "Startplace" in text and "Farplace" not in text
    # the caption and the markers' notes, numbered as on the figure, read back exactly
    assert "Moving three spaces" in text
    assert "1. The pawn starts here." in text and "2. It ends its move here." in text
    image = _page_image(rules)
    pawn = _colour_box(image, (255, 0, 255))
    spaces = _colour_box(image, (0xd8, 0xe4, 0xf0))
    assert pawn is not None and spaces is not None
    # the region is four of the loop's 30 mm spaces at their real size: 120 × 30 mm on the page, at most
    # (a5's text width is narrower: the figure is as wide as it)
    width, height = spaces[2] - spaces[0], spaces[3] - spaces[1]
    assert 3.6 < width / height < 4.4
    scale = width / 120
    # the pawn stands in the first space: its 16 × 24 mm front in 90 % of the space's height
    pawn_height = pawn[3] - pawn[1]
    assert abs(pawn_height - 27 * scale) < 1.5
    assert pawn[0] - spaces[0] < 30 * scale and pawn[2] - spaces[0] < 30 * scale


def test_the_figure_follows_the_game(tmp_path):
    """A pawn's colour and a space's colour changed in the game: the figure changes with them."""
    folder = _board_game(tmp_path, pawn=PAWN.replace('"@color"', '"#10a010"'),
                         space=SPACE.replace('"@tint"', '"#f0c000"'))
    image = _page_image(_build(tmp_path, folder) / "rules.pdf")
    assert _colour_box(image, (255, 0, 255)) is None
    assert _colour_box(image, (0x10, 0xa0, 0x10)) is not None
    assert _colour_box(image, (0xf0, 0xc0, 0x00)) is not None


def test_a_move_is_numbered_space_by_space_round_the_loop(tmp_path):
    """From the 11th space forward to the 2nd: 12, 1, 2 are entered (the loop closes), three numbers; a move
    backward from the 2nd to the 12th enters 1 and 12, two numbers."""
    figure = FIGURE.replace("region: {spaces: [track.1, track.4], margin: 0mm}",
                            "region: {spaces: [track.11, track.2]}")
    figure = figure.replace("{along: [track.1, track.4]}", "{along: [track.11, track.2]}")
    words = _figure_words(_build(tmp_path, _board_game(tmp_path, figure)) / "rules.pdf").split()
    assert [word for word in words if word.isdigit()] == ["1", "2", "3", "1", "2"]     # steps, then markers
    backward = figure.replace("{along: [track.11, track.2]}", "{along: [track.2, track.12], backward: true}")
    (tmp_path / "second").mkdir()
    words = _figure_words(_build(tmp_path / "second", _board_game(tmp_path / "second", backward)) / "rules.pdf")
    assert [word for word in words.split() if word.isdigit()] == ["1", "2", "1", "2"]


def test_a_face_names_its_spaces_where_they_are_drawn(tmp_path):
    """The loop's cells by number and id where loop_places puts them, an anchored box's cells turned with
    the cell they hang from (the 3rd, on the top edge: turned 180°), as board_scene reads them."""
    from generator.components.board import layout_boards
    from generator.components.context import LayoutContext
    from generator.errors import Problems
    from generator.render.art_files import ART_FILES
    from generator.targets import load_games, game_font_library
    from generator.text.fonts import FontLibrary
    from generator.text.setter import TextSetter

    folder = _board_game(tmp_path)
    problems = Problems()
    source = load_games([folder], problems)[0]
    setter = TextSetter(game_font_library(source, problems, FontLibrary()))
    ctx = LayoutContext(source, "standard", "en", setter, problems, False, art=ART_FILES)
    face = layout_boards(ctx)[0].face
    places = loop_places((0, 0, 120, 120), 12)
    for number, place in enumerate(places, 1):
        assert face.space(f"track.{number}") == (place.x, place.y, place.w, place.h)
    assert face.space("track.start") == face.space("track.1")
    # the lane hangs from the 3rd cell (on the top edge, turned 180°): its cells as row_places puts them in
    # the box's own frame (x 0, y 30 of the cell as it reads), turned with the cell onto the board
    anchor = places[2]
    assert anchor.rotation == 180
    for number, cell in enumerate(row_places((0, 30, 30, 60), 3, 1.0, vertical=True), 1):
        expected = rotate_region(anchor, cell.x, cell.y, cell.w, cell.h)
        assert face.space(f"lane.{number}") == pytest.approx(expected)
    lane = [face.space(f"lane.{n}") for n in (1, 2, 3)]
    # turned: the column runs upwards from the cell, towards the board's top edge … and past it, as written
    assert lane[0][1] > lane[1][1] > lane[2][1]
    assert all(abs(frame[0] - anchor.x) < 1e-6 for frame in lane)


def test_a_space_piece_or_region_not_there_is_told_where_it_is_written(tmp_path):
    figure = FIGURE.replace("on: track.start}", "on: track.99}").replace("pawns/hot", "pawns/lukewarm")
    folder = _board_game(tmp_path, figure)
    result = pnp("check", str(folder))
    assert result.exit_code == 1
    lines = problem_lines(result.output)
    space = [line for line in lines if "no space 'track.99'" in line]
    piece = [line for line in lines if "no piece 'pawns/lukewarm'" in line]
    assert space and piece, result.output
    assert "rules.yaml:" in space[0] and "rules.yaml:" in piece[0]
    assert "Traceback" not in result.output
    both = FIGURE.replace("margin: 0mm}", "margin: 0mm, x: 0, y: 0, width: 10, height: 10}")
    (tmp_path / "second").mkdir()
    result = pnp("check", str(_board_game(tmp_path / "second", both)))
    assert result.exit_code == 1 and "either spaces or x, y, width and height" in result.output


def test_a_move_along_a_column_goes_straight_and_a_jump_is_not_numbered(tmp_path):
    """Along the lane (a column of 3, not a loop) from its 3rd cell to its 1st: 2 and 1 entered, never round
    past its end; a jump from the 1st space to the 4th: a line, no numbers."""
    figure = FIGURE.replace("region: {spaces: [track.1, track.4], margin: 0mm}",
                            "region: {spaces: [track.1, track.4, lane.1, lane.3]}")
    column = figure.replace("{along: [track.1, track.4]}", "{along: [lane.3, lane.1]}")
    words = _figure_words(_build(tmp_path, _board_game(tmp_path, column)) / "rules.pdf").split()
    assert [word for word in words if word.isdigit()] == ["1", "2", "1", "2"]     # steps, then markers
    jump = figure.replace("{along: [track.1, track.4]}", "{along: [track.1, track.4], jump: true, bend: 0.3}")
    (tmp_path / "second").mkdir()
    words = _figure_words(_build(tmp_path / "second", _board_game(tmp_path / "second", jump)) / "rules.pdf").split()
    assert [word for word in words if word.isdigit()] == ["1", "2"]                # the markers only


def _top_right(image):
    """The top right corner of the board figure on the page (its spaces' colour marks it)."""
    left, top, right, bottom = (value / 25.4 * 100 for value in _colour_box(image, (0xd8, 0xe4, 0xf0)))
    return image.crop((int(left + (right - left) * 0.6), int(top), int(right) + 2, int(top + (bottom - top) * 0.4)))


def test_a_close_up_shows_the_whole_board_small_with_the_region_marked(tmp_path):
    """With `overview`, the whole board stands small in the figure's corner, the region framed in red on it;
    its words are a miniature's, not read back (the far space's name stays out of the page's text)."""
    line = "            overview: top-right\n"
    figure = FIGURE.replace("            pieces:", line + "            pieces:")
    figure = figure.replace("region: {spaces: [track.1, track.4], margin: 0mm}",
                            "region: {spaces: [track.1, track.2, track.12, track.11], margin: 0mm}")
    rules = _build(tmp_path, _board_game(tmp_path, figure)) / "rules.pdf"
    assert "Farplace" not in _figure_page(rules)[1]
    assert _colour_box(_top_right(_page_image(rules)), RED, tolerance=30) is not None
    (tmp_path / "second").mkdir()
    plain = _build(tmp_path / "second", _board_game(tmp_path / "second", figure.replace(line, ""))) / "rules.pdf"
    assert _colour_box(_top_right(_page_image(plain)), RED, tolerance=30) is None


def test_marks_fill_spaces_in_as_a_pencil_does(tmp_path):
    figure = FIGURE.replace("            pieces:", "            marks: [track.2, track.3]\n            pieces:")
    image = _page_image(_build(tmp_path, _board_game(tmp_path, figure)) / "rules.pdf")
    pencil = _colour_box(image, (0x6f, 0x7a, 0x86))
    spaces = _colour_box(image, (0xd8, 0xe4, 0xf0))
    assert pencil is not None and spaces is not None
    # the 2nd and 3rd of four spaces: the middle half of the figure, each inset by an eighth of a space
    quarter = (spaces[2] - spaces[0]) / 4
    assert abs(pencil[0] - (spaces[0] + quarter * 1.12)) < 1.0 and abs(pencil[2] - (spaces[0] + quarter * 2.88)) < 1.0


def test_a_region_may_lie_anywhere_on_a_board_of_up_to_a_metre():
    """A region's rectangle is in mm on the board: You Must See This's Turov lies at x 220, y 324 of its
    600 × 420 mm board. More than a board can be (1 m) is refused."""
    import pydantic

    from generator.content.rules_schema import Region
    assert Region.model_validate({"x": 210, "y": 312, "width": 95, "height": 56}).y == 312
    with pytest.raises(pydantic.ValidationError):
        Region.model_validate({"x": 1200, "y": 0, "width": 10, "height": 10})
