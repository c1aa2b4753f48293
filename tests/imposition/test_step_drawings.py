"""The kit's first page draws its assembly steps from the game's own pieces (issue 29.3): the board cut into its
tiles, a pawn flat and standing, the booklet folded — each under its step's number."""

from __future__ import annotations

import re

import pytest

from generator.build import BuildOptions
from generator.components.piece import Group, Line, TextPlacement
from generator.errors import Problems
from generator.imposition.step_drawings import GAP, HEIGHT
from generator.print_facts import PAPER_SIZES
from generator.targets import clean_games, layout_targets
from generator.text.fonts import FontLibrary
from generator.write import caption_maker, home_sections, kit_pages
from tests.conftest import CONTENT


@pytest.fixture(scope="module")
def free_kit():
    """Christmas Round's free English kit on A4, its first page and what went into it."""
    problems, library = Problems(), FontLibrary()
    options = BuildOptions(editions=("free",), languages=("en",), papers=("a4",))
    (target,) = layout_targets(clean_games([CONTENT / "christmas-round"], problems), options, problems, library)
    caption = caption_maker(library, "en")
    sections = home_sections(target, options, "a4", caption)
    board = (target.boards[0].face, target.tilings["board", "a4"])
    pages = kit_pages(target, sections, PAPER_SIZES["a4"], caption, options, 6, board)
    return target, sections, pages[0]


def _texts(items):
    """Each text item and its words, line by line (its runs joined along each baseline)."""
    found = []
    for item in items:
        if isinstance(item, TextPlacement):
            lines: dict[float, list] = {}
            for run in item.runs:
                lines.setdefault(round(run.baseline, 3), []).append(run)
            found.append((item, "\n".join("".join(run.text for run in sorted(line, key=lambda run: run.x))
                                          for _, line in sorted(lines.items()))))
    return found


def test_each_drawing_stands_under_the_number_of_its_step(free_kit):
    target, _, cover = free_kit
    steps = dict(re.findall(r"^(\d+)\. ?(.+)$", "\n".join(text for _, text in _texts(cover.marks)), re.M))
    numbers = {key: number for number, text in steps.items() for key, start in
               (("board", "Board:"), ("pawns", "Pawns:"), ("booklet", "Rulebook,")) if text.startswith(start)}
    assert set(numbers) == {"board", "pawns", "booklet"}
    labels = [(item, text) for item, text in _texts(cover.marks) if re.fullmatch(r"\d+\.", text)]
    drawings = [item for item in cover.marks if isinstance(item, Group)]
    assert [text for _, text in labels] == [f"{numbers[k]}." for k in ("booklet", "pawns", "board")]
    assert len(drawings) == 3
    for (label, _), drawing in zip(labels, drawings, strict=True):
        assert drawing.x == pytest.approx(label.x) and drawing.y > label.y    # each under its number
        assert drawing.h == pytest.approx(HEIGHT)
    # the steps' text ends above the row
    text_bottom = max(item.y + max(run.baseline for run in item.runs) for item, text in _texts(cover.marks)
                      if not re.fullmatch(r"\d+\.", text) and item.y < drawings[0].y)
    assert text_bottom < labels[0][0].y


def test_the_board_drawing_is_the_board_cut_where_its_tiles_meet(free_kit):
    target, _, cover = free_kit
    face, layout = target.boards[0].face, target.tilings["board", "a4"]
    board = [item for item in cover.marks if isinstance(item, Group)][-1]
    (miniature,) = [item for item in board.items if isinstance(item, Group)]
    assert miniature.items == face.items                        # the game's own board, drawn small
    scale = HEIGHT / face.height
    assert miniature.w == pytest.approx(face.width * scale)
    seams = [item for item in board.items if isinstance(item, Line) and item.stroke == "#ffffff"]
    (x,), _ = layout.across
    (y,), _ = layout.down
    assert {round(line.x, 3) for line in seams if line.w == 0} == {round(x * scale, 3)}
    assert {round(line.y, 3) for line in seams if line.h == 0} == {round(y * scale, 3)}
    assert all(line.stroke_width == GAP for line in seams)
    labels = {text for _, text in _texts(board.items)}
    assert labels == {"A1", "A2", "B1", "B2"}                   # as the tile pages are labelled


def test_the_pawn_drawing_is_the_games_own_pawn(free_kit):
    _, sections, cover = free_kit
    pawn = sections["pawns"][0].placements[0].face
    drawing = [item for item in cover.marks if isinstance(item, Group)][1]
    faces = [item for item in drawing.items if isinstance(item, Group)]
    assert faces[0].items == pawn.items                         # flat, as printed (its folds dashed)
    front = next(item for item in pawn.items if isinstance(item, Group) and item.rotation == 0)
    assert faces[1].items == front.items                        # and standing: its front upright
    assert faces[1].h / faces[1].w == pytest.approx(front.h / front.w)
