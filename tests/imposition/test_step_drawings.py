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


def test_the_first_page_shows_the_kits_four_kinds_of_line(free_kit):
    _, _, cover = free_kit
    names = {text for _, text in _texts(cover.marks)}
    assert {"cut", "fold", "glue", "align"} <= names          # the engine words kit.line.*, each beside its sample
    legend_top = min(item.y for item, text in _texts(cover.marks) if text in {"cut", "fold", "glue", "align"})
    drawings = [item for item in cover.marks if isinstance(item, Group)]
    assert all(drawing.y + drawing.h < legend_top for drawing in drawings)   # under the drawings


def test_drawings_the_first_page_has_no_room_for_go_on_its_back(free_kit):
    from dataclasses import replace

    from generator.imposition.cover import kit_pages as cover_kit_pages
    from generator.imposition.instructions import PrintFacts
    target, sections, _ = free_kit
    caption = caption_maker(FontLibrary(), "en")
    long_kit = replace(target.kit, also_needed=" ".join(["You also need scissors, glue and tape."] * 40))
    board = (target.boards[0].face, target.tilings["board", "a4"])
    first, back = cover_kit_pages(PAPER_SIZES["a4"], long_kit, sections, target.setter, target.stack, "en",
                                  caption, PrintFacts(), 6, board)[:2]
    assert not [item for item in first.marks if isinstance(item, Group)]
    assert len([item for item in back.marks if isinstance(item, Group)]) == 3
    assert [text for _, text in _texts(back.marks) if re.fullmatch(r"\d+\.", text)]


def test_a_miniatures_words_are_drawn_but_not_read(tmp_path, free_kit):
    """The board in small prints its words at a tenth of their size: no reader takes them for text (pdfium
    nor poppler), while the drawing's own labels (A1 …) and step numbers read."""
    import subprocess

    import pypdfium2 as pdfium

    from generator.imposition.sheet import Document
    from generator.render.pdf import render_pdf
    from generator.render.settings import DrawingSettings
    target, sections, cover = free_kit
    path = tmp_path / "cover.pdf"
    path.write_bytes(render_pdf(Document([cover]), DrawingSettings(FontLibrary().body_face.name)))
    read = pdfium.PdfDocument(path)[0].get_textpage().get_text_range()
    assert "A1" in read and "Board:" in read
    printed = target.boards[0].face.text + " " + sections["pawns"][0].placements[0].face.text
    for word in ("WORKSHOP", "Clockwise", "Red elf"):      # the board's and the pawn's own words
        assert word in printed and word not in read
    try:
        poppler = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    except FileNotFoundError:
        pytest.skip("poppler's pdftotext is not installed")
    assert "A1" in poppler and "WORKSHOP" not in poppler and "Clockwise" not in poppler
