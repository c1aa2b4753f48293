"""Issue 32 item 6: a print-and-cut sheet's registration marks stand clear of everything else printed on it,
and the DXF cut files say how big their sheet is.

Silhouette Studio reads its type-1 marks (a 5 mm square, two L's) with an optical sensor that misreads ink
beside them: nothing of a fronts sheet — a piece's bleed, a crop mark, the scale bar or its label — comes
within REGISTRATION_CLEARANCE (2 mm) of a mark's extent (an L's arms span a square), on any sheet pnp lays out
for `--cut silhouette`: cards of every catalogue size, full-bleed or not, portrait or turned landscape, A4
and Letter; tokens square and round, butted, of two sizes on one sheet; pawns; every shipped game. A sheet
whose pieces reach that close to a corner moves (backs with it) rather than losing pieces, and stays on the
printable area. Measured in the laid-out pages (every item's box), and in the written PDF: the pixels round
each mark are paper, what pdfium's page objects show (inside their clip paths) keeps clear, the backs' objects
are the fronts' mirrored. The DXF's header carries the sheet as its limits and extents, read back with ezdxf
(LibreCAD, which would show it, is not installed here).
"""

from __future__ import annotations

import ctypes
import math
from pathlib import Path

import pytest

from generator.build import BuildOptions
from generator.components.piece import Ellipse, Face, Group, PieceCopy, Rect, Shape, TextPlacement
from generator.errors import Problems
from generator.imposition.cut import (REGISTRATION_CLEARANCE, SILHOUETTE_ARM, SILHOUETTE_INSET, SILHOUETTE_LINE,
                                      SILHOUETTE_SQUARE, cut_machine, round_cut_lines, sheet_room, with_registration)
from generator.imposition.grid import impose_mixed, keep_out_move
from generator.imposition.shops import CARD_SIZES
from generator.imposition.standees import standee_block
from generator.print_facts import PAPER_SIZES, PRINTABLE_MARGIN
from generator.targets import clean_games, layout_targets
from generator.text.fonts import FontLibrary
from generator.write import caption_maker, cut_sheet, home_sections
from tests.test_content_errors import make_game, pnp

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(path for path in (ROOT / "content").iterdir() if (path / "game.yaml").exists())
PAPERS = ("a4", "letter")
NEAR = 1e-6


# ------------------------------------------------------------------ the laid-out pages

def _extent(item) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) page mm of a sheet's mark: a shape with half its stroke across it, a group's frame, a
    text's runs (an em above the baseline, 0.6 em a character)."""
    if isinstance(item, Shape):
        half = item.stroke_width / 2 if item.stroke else 0.0
        x0, x1 = sorted((item.x, item.x + item.w))
        y0, y1 = sorted((item.y, item.y + item.h))
        across_x = half if item.kind != "line" or item.w == 0 else 0.0
        across_y = half if item.kind != "line" or item.h == 0 else 0.0
        return x0 - across_x, y0 - across_y, x1 + across_x, y1 + across_y
    if isinstance(item, TextPlacement):
        boxes = [(item.x + run.x, item.y + run.baseline - run.size * 0.3528,
                  item.x + run.x + len(run.text) * run.size * 0.3528 * 0.6, item.y + run.baseline + run.size * 0.1)
                 for run in item.runs]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    if isinstance(item, Group):
        return item.x, item.y, item.x + item.w, item.y + item.h
    raise TypeError(item)


def _gap(a, b) -> float:
    """How far apart two boxes are along the axis that parts them most (negative: they overlap)."""
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


def _printed(page, machine) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Everything a fronts page prints but its registration marks, with its box: each piece's bleed box (what
    shows of it), each crop mark, cut line, scale bar and label."""
    count = len(machine.marks((page.width, page.height)))
    assert page.marks[len(page.marks) - count:] == tuple(machine.marks((page.width, page.height))), page.label
    boxes = [(f"piece {p.face.key}", (p.clip[0], p.clip[1], p.clip[0] + p.clip[2], p.clip[1] + p.clip[3]))
             for p in page.placements]
    return boxes + [(type(item).__name__, _extent(item)) for item in page.marks[:len(page.marks) - count]]


def problems_of(page, machine, printer_margin: float = PRINTABLE_MARGIN) -> list[str]:
    """What on a fronts page comes within REGISTRATION_CLEARANCE of a registration mark, or off the printable
    area."""
    problems = []
    printed = _printed(page, machine)
    for mark in machine.mark_boxes((page.width, page.height)):
        for what, box in printed:
            if _gap(mark, box) < REGISTRATION_CLEARANCE - NEAR:
                problems.append(f"{page.label} {page.width:g}×{page.height:g}: {what} {_mm(box)} is "
                                f"{max(_gap(mark, box), 0):.2f} mm from the mark {_mm(mark)}")
    for what, (x0, y0, x1, y1) in printed:
        if min(x0, y0, page.width - x1, page.height - y1) < printer_margin - NEAR:
            problems.append(f"{page.label}: {what} {_mm((x0, y0, x1, y1))} leaves the printable area")
    return problems


def _mm(box) -> str:
    return "(" + ", ".join(f"{v:.2f}" for v in box) + ")"


def _copies(w: float, h: float, count: int, full_bleed: bool, shape: str = "rect", deck: str = "d",
            backs: bool = True) -> list[PieceCopy]:
    ground = (Rect(-3, -3, w + 6, h + 6, fill="#2255aa") if full_bleed else
              Ellipse(0, 0, w, h, fill="#2255aa") if shape == "round" else Rect(0, 0, w, h, fill="#2255aa"))
    front = Face(f"{deck}-{w}x{h}", w, h, 3.0, (ground,), shape=shape)
    back = Face(f"{deck}-back-{w}x{h}", w, h, 3.0, (ground,)) if backs else None
    return [PieceCopy(deck, f"c{i}", i + 1, front, back) for i in range(count)]


def impose_for_cut(copies, paper: str, margin: float = PRINTABLE_MARGIN, duplex: str = "long-edge",
                   butted: frozenset[str] = frozenset(), standees: bool = False, keep_out: bool = True):
    """A run's home sheets as a `--cut silhouette` build imposes them (write.home_sections): on the machine's
    sheet (portrait or turned), inside its border, round pieces' cut lines drawn, the marks on the fronts.
    Gives the machine, the grid options and the pages; `keep_out=False` imposes without the marks' zones."""
    size = PAPER_SIZES[paper]
    machine = cut_machine("silhouette", size, margin)
    border = sheet_room(paper, size, margin, "silhouette").margin
    sheet, options = cut_sheet(copies, size, machine,
                               dict(margin=border) if standees else
                               dict(gap=None, duplex=duplex, back_offset=(0.0, 0.0), margin=border))
    if standees:
        options.update(standee_block(copies, sheet, options["margin"]))
    if not keep_out:
        options["keep_out"] = ()
    pages = impose_mixed(copies, sheet, None, "pieces", butted=butted, **options)
    return machine, options, with_registration([round_cut_lines(page) for page in pages], machine)


def _fronts(pages):
    return [page for page in pages if "fronts" in page.label.split()]


def _mirrored_backs(pages, duplex: str) -> list[str]:
    """Where a fronts sheet's backs are not its fronts mirrored across the flip (long edge: left–right)."""
    wrong = []
    for fronts, backs in zip(pages, pages[1:], strict=False):
        if "fronts" not in fronts.label.split() or "backs" not in backs.label.split():
            continue
        for front, back in zip(fronts.placements, backs.placements, strict=True):
            w, h = front.face.width, front.face.height
            want = ((fronts.width - front.x - w, front.y) if duplex == "long-edge" else
                    (front.x, fronts.height - front.y - h))
            if not (math.isclose(back.x, want[0], abs_tol=1e-6) and math.isclose(back.y, want[1], abs_tol=1e-6)):
                wrong.append(f"{backs.label}: back at ({back.x:.2f}, {back.y:.2f}), its front's mirror {want}")
    return wrong


CARD_CASES = [(size.name, size.width, size.height, full_bleed, paper, count)
              for size in CARD_SIZES for full_bleed in (False, True) for paper in PAPERS for count in (1, 5, 40)]


@pytest.mark.parametrize("name, width, height, full_bleed, paper, count", CARD_CASES)
def test_the_marks_stand_clear_on_every_card_sheet(name, width, height, full_bleed, paper, count):
    machine, options, pages = impose_for_cut(_copies(width, height, count, full_bleed), paper)
    assert _fronts(pages)
    problems = [problem for page in _fronts(pages) for problem in problems_of(page, machine)]
    assert not problems, "\n".join(problems[:10])
    assert not _mirrored_backs(pages, options["duplex"])


# sizes (mm) whose sheet reaches within 1 mm of the 16 mm border at the corners (the pieces' own trim, on
# 11 × 59 and 24 × 177 mm plain pieces on A4), and everyday token sizes; square and round
TIGHT = [(10, 11), (10, 17), (11, 14), (11, 22), (11, 59), (12, 17), (12, 89), (17, 18), (24, 177), (25, 25)]
TOKENS = [(w, w) for w in (13, 14, 15, 19, 20, 22, 25, 26, 30, 38, 50)]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("full_bleed", (False, True))
def test_the_marks_stand_clear_on_tight_and_token_sheets(paper, full_bleed):
    problems, moved = [], 0
    for width, height in TIGHT + TOKENS:
        for shape in ("rect", "round") if width == height else ("rect",):
            copies = _copies(width, height, 400, full_bleed, shape)
            machine, options, pages = impose_for_cut(copies, paper)
            problems += [f"{width}×{height} {shape}: {problem}" for page in _fronts(pages)
                         for problem in problems_of(page, machine)]
            problems += _mirrored_backs(pages, options["duplex"])
            _, _, centred = impose_for_cut(copies, paper, keep_out=False)
            assert [len(page.placements) for page in pages] == [len(page.placements) for page in centred]
            moved += (pages[0].placements[0].x, pages[0].placements[0].y) != \
                (centred[0].placements[0].x, centred[0].placements[0].y)
    assert not problems, "\n".join(problems[:10])
    assert moved       # the tight sizes are there to move: a grid that stopped moving would fail above


def test_a_sweep_of_piece_sizes_keeps_every_sheet_clear():
    """Pieces of 10 to 200 mm a side in steps that hit every kind of fit (a whole sweep of every millimetre,
    110,858 layouts, was measured clear once; this keeps a sample of it)."""
    problems, checked = [], 0
    for paper in PAPERS:
        for full_bleed in (False, True):
            for width in range(10, 200, 7):
                for height in range(width, 270, 9):
                    try:
                        machine, _, pages = impose_for_cut(_copies(width, height, 60 if width * height > 2000 else 300,
                                                                   full_bleed), paper)
                    except ValueError:       # not one fits the machine's border: layout reports it
                        continue
                    problems += [f"{width}×{height}: {p}" for p in problems_of(_fronts(pages)[0], machine)]
                    checked += 1
    assert checked > 1500
    assert not problems, "\n".join(problems[:10])


@pytest.mark.parametrize("paper", PAPERS)
def test_butted_chits_two_token_sizes_and_pawns_stand_clear(paper):
    chits = _copies(14, 14, 120, True, deck="chits")
    machine, options, pages = impose_for_cut(chits, paper, butted=frozenset({"chits"}))
    problems = [p for page in _fronts(pages) for p in problems_of(page, machine)]
    mixed = _copies(20, 20, 30, False, "round", deck="small") + _copies(38, 38, 3, True, deck="large")
    machine, options, pages = impose_for_cut(mixed, paper)
    assert any(len({p.face.key for p in page.placements}) == 2 for page in _fronts(pages))   # two bands on a sheet
    problems += [p for page in _fronts(pages) for p in problems_of(page, machine)]
    problems += _mirrored_backs(pages, options["duplex"])
    for width, height, count in ((18, 70, 16), (24, 90, 6), (40, 150, 4)):       # fold-over standees
        machine, _, pages = impose_for_cut(_copies(width, height, count, False, backs=False), paper, standees=True)
        problems += [p for page in _fronts(pages) for p in problems_of(page, machine)]
    assert not problems, "\n".join(problems[:10])


def test_the_marks_are_studios_type_one_with_5_mm_arms():
    machine = cut_machine("silhouette", PAPER_SIZES["a4"])
    width, height = 297.0, 210.0
    square, right_across, right_down, foot_along, foot_up = (_extent(item) for item in machine.marks((width, height)))
    inset, arm, line = SILHOUETTE_INSET, SILHOUETTE_ARM, SILHOUETTE_LINE
    assert (inset, arm, line, SILHOUETTE_SQUARE) == (10.0, 5.0, 0.3, 5.0)
    assert square == pytest.approx((inset, inset, inset + 5, inset + 5))
    assert right_across == pytest.approx((width - inset - arm, inset, width - inset, inset + line))
    assert right_down == pytest.approx((width - inset - line, inset, width - inset, inset + arm))
    assert foot_along == pytest.approx((inset, height - inset - line, inset + arm, height - inset))
    assert foot_up == pytest.approx((inset, height - inset - arm, inset + line, height - inset))
    assert machine.mark_boxes((width, height))[1] == pytest.approx((width - 15, 10, width - 10, 15))
    assert cut_machine("cricut", PAPER_SIZES["a4"]).keep_out((210.0, 297.0)) == ()    # Design Space prints its own


@pytest.mark.parametrize("margin", (3.0, 8.0, 10.0))
def test_a_moved_sheet_stays_inside_the_printers_margin(margin):
    """A sheet moves up to 1 mm towards its edges (its scale bar may already lie in the machine's 16 mm border),
    never into what the printer leaves blank: up to the marks' own 10 mm, where a printer must print them."""
    assert sheet_room("a4", PAPER_SIZES["a4"], margin, "silhouette").margin == 16.0
    for width, height in TIGHT:
        machine, _, pages = impose_for_cut(_copies(width, height, 300, False), "a4", margin=margin)
        problems = [p for page in _fronts(pages) for p in problems_of(page, machine, margin)]
        assert not problems, "\n".join(problems[:5])


def test_the_least_move_out_of_a_zone():
    zones = [(8.0, 8.0, 17.0, 17.0), (0, 0, 200, 5), (0, 0, 5, 200), (195, 0, 200, 200), (0, 195, 200, 200)]

    def move(*boxes):
        return keep_out_move(zones, boxes, (200.0, 200.0))
    assert move((20, 20, 30, 30)) == (0.0, 0.0)                                  # clear: stays
    assert move((16, 16.5, 30, 30)) == pytest.approx((0.0, 0.5))                 # the nearer way out
    assert move((16, 16, 190, 30)) == pytest.approx((0.0, 1.0))                  # as short: down first
    assert move((16, 16, 190, 30), (100, 180, 120, 194.5)) == pytest.approx((1.0, 0.0))   # down would leave the area
    assert move((6, 6, 194, 194)) == (0.0, 0.0)                                  # no way out: left for the checks


# ------------------------------------------------------------------ every shipped game, laid out

@pytest.fixture(scope="module")
def shipped_cut_pages():
    """Every home file of every shipped game with `--cut silhouette` (source language, both papers)."""
    problems, library, pages = Problems(), FontLibrary(), {}
    for source in clean_games(GAMES, problems):
        options = BuildOptions(languages=(source.source_language,), cut="silhouette")
        for target in layout_targets([source], options, problems, library):
            caption = caption_maker(library, target.lang)
            for paper in options.papers:
                for name, section in home_sections(target, options, paper, caption).items():
                    if name in ("cards", "cards-ink-saver", "tokens", "pawns"):
                        pages[(source.id, target.edition, paper, name)] = section
    assert not problems.errors
    return pages


def test_every_shipped_sheet_keeps_its_marks_clear(shipped_cut_pages):
    problems, sheets = [], 0
    for (game, edition, paper, name), pages in shipped_cut_pages.items():
        machine = cut_machine("silhouette", PAPER_SIZES[paper])
        for page in _fronts(pages):
            problems += [f"{game}/{edition}/{paper}/{name}.pdf {p}" for p in problems_of(page, machine)]
            sheets += 1
    assert sheets > 100
    assert not problems, "\n".join(problems[:10])


# ------------------------------------------------------------------ the written files

CARD = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
boxes:
  ground: {kind: rect, area: bleed, fill: "#203a80"}
  name: {kind: text, text: "@name", x: 5, y: 60, width: 53, height: 10}
"""
CARD_BACK = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
boxes:
  ground: {kind: rect, area: bleed, fill: "#802020"}
"""
CHIT = """\
size: {width: 17mm, height: 18mm}
bleed: 3mm
boxes:
  ground: {kind: rect, area: bleed, fill: "#2d6a2d"}
"""
COIN = """\
size: {width: 20mm, height: 20mm}
bleed: 3mm
shape: round
boxes:
  disc: {kind: ellipse, area: trim, fill: "#aa3322"}
"""
PAWN = """\
size: {width: 18mm, height: 30mm}
boxes:
  ground: {kind: rect, area: trim, fill: "#ffffff", stroke: "#2b2220", stroke_width: 0.6}
  bar: {kind: rect, x: 0, y: 27, width: 18, height: 3, fill: "#2b2220"}
"""
FILES = {
    "cards.yaml": "decks:\n  - id: cards\n    name: deck.cards\n    template: card\n    back: back\n    cards:\n"
                  "      - id: star\n        count: 9\n        fields: {name: cards.star}\n",
    "templates/card.yaml": CARD, "templates/back.yaml": CARD_BACK,
    "templates/chit.yaml": CHIT, "templates/coin.yaml": COIN, "templates/pawn.yaml": PAWN,
    # 17 × 18 mm full-bleed chits fill A4 and Letter to within 1 mm of the border at the corners: they move
    "tokens.yaml": "sets:\n  - id: chits\n    name: deck.cards\n    template: chit\n    back: chit\n    tokens:\n"
                   "      - {id: chit, count: 130}\n"
                   "  - id: coins\n    name: deck.cards\n    template: coin\n    back: coin\n    tokens:\n"
                   "      - {id: coin, count: 6}\n",
    "pawns.yaml": "sets:\n  - id: pawns\n    name: deck.cards\n    template: pawn\n    standee: {base: 10mm}\n"
                  "    pawns:\n      - {id: red, count: 4}\n",
}
DPI = 300


@pytest.fixture(scope="module")
def silhouette_build(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("registration")
    game = make_game(folder, FILES)
    result = pnp("build", str(game), "--only", "cards,tokens,pawns", "--cut", "silhouette", "--out",
                 str(folder / "out"), "--jobs", "1")
    assert result.exit_code == 0, result.output
    return folder / "out" / "g" / "standard" / "en"


def _clip_bounds(obj) -> tuple[float, float, float, float]:
    """What shows of a page object: its bounds (PDF points, y up) inside its clip path's."""
    import pypdfium2.raw as pdfium_c
    left, bottom, right, top = obj.get_bounds()
    clip = pdfium_c.FPDFPageObj_GetClipPath(obj.raw)
    if clip:
        xs, ys = [], []
        for path in range(pdfium_c.FPDFClipPath_CountPaths(clip)):
            for index in range(pdfium_c.FPDFClipPath_CountPathSegments(clip, path)):
                segment = pdfium_c.FPDFClipPath_GetPathSegment(clip, path, index)
                x, y = ctypes.c_float(), ctypes.c_float()
                pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
                xs.append(x.value)
                ys.append(y.value)
        if xs:
            left, bottom, right, top = max(left, min(xs)), max(bottom, min(ys)), min(right, max(xs)), min(top, max(ys))
    return left, bottom, right, top


def _is_marks_form(obj, width: float, height: float) -> bool:
    """Whether a page object is the form the renderer draws the registration marks in (they recur on every
    fronts sheet): a form spanning them exactly, 10 mm in from every edge."""
    x0, y0, x1, y1 = (v / 72 * 25.4 for v in obj.get_bounds())
    inset = SILHOUETTE_INSET
    return obj.type == 5 and all(math.isclose(a, b, abs_tol=0.01) for a, b in
                                 zip((x0, y0, x1, y1), (inset, inset, width - inset, height - inset), strict=True))


def _shown(page, width: float, height: float) -> list[tuple[float, float, float, float]]:
    """What each object of a PDF page shows, PDF points: each piece's form inside its clip, each mark and
    label; the registration marks' form as the marks in it."""
    boxes, marks = [], None
    for obj in page.get_objects(max_depth=2):
        if obj.level == 0:
            marks = obj.get_matrix() if _is_marks_form(obj, width, height) else None
            if marks is None:
                boxes.append(_clip_bounds(obj))
        elif obj.level == 1 and marks is not None:
            boxes.append(marks.on_rect(*obj.get_bounds()))
    return boxes


def _page_mm(box, height: float) -> tuple[float, float, float, float]:
    left, bottom, right, top = (v / 72 * 25.4 for v in box)
    return left, height - top, right, height - bottom


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("name", ("cards", "tokens", "pawns"))
def test_the_printed_marks_have_paper_round_them(silhouette_build, paper, name):
    """Rendered at 300 dpi: each mark is there (the square filled, each L's arms 5 mm and no longer), and the
    2 mm round it and the rest of its extent are paper; no page object but the marks shows within 2 mm."""
    import numpy as np
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(silhouette_build / paper / f"{name}.pdf"))
    px = DPI / 25.4
    checked = 0
    try:
        for number in range(len(document)):
            page = document[number]
            width, height = (v / 72 * 25.4 for v in page.get_size())
            gray = np.asarray(page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L")).astype(int)
            machine = cut_machine("silhouette", (width, height))
            has_marks = gray[round(12.5 * px), round(12.5 * px)] < 60
            if name == "pawns" or number % 2 == 0:
                assert has_marks, f"{name}.pdf page {number + 1}: no registration square"
            else:                                               # a backs page: no marks, it is not cut from
                assert not has_marks
                continue
            ink = gray < 250
            for item in machine.marks((width, height)):          # the marks' own ink, and a pixel round it
                x0, y0, x1, y1 = _extent(item)
                assert ink[round((y0 + y1) / 2 * px), round((x0 + x1) / 2 * px)]
                rows, columns = slice(math.floor(y0 * px) - 1, math.ceil(y1 * px) + 1), \
                    slice(math.floor(x0 * px) - 1, math.ceil(x1 * px) + 1)
                ink[rows, columns] = False
            for x0, y0, x1, y1 in machine.mark_boxes((width, height)):
                c = REGISTRATION_CLEARANCE - 1 / px          # (a box touching the 2 mm line shades its pixel)
                zone = ink[math.ceil((y0 - c) * px):math.floor((y1 + c) * px),
                           math.ceil((x0 - c) * px):math.floor((x1 + c) * px)]
                assert not zone.any(), f"{name}.pdf page {number + 1}: ink within 2 mm of the mark at {x0:g}, {y0:g}"
            # an L's arm ends at 5 mm: paper 0.4 mm past it
            right = round((width - 10.15) * px)
            assert gray[round(14.6 * px), right] < 90 and gray[round(15.4 * px), right] > 245
            foot = round((height - 10.15) * px)
            assert gray[foot, round(14.6 * px)] < 90 and gray[foot, round(15.4 * px)] > 245
            objects = [_page_mm(box, height) for box in _shown(page, width, height)]
            for mark in machine.mark_boxes((width, height)):
                near = [box for box in objects if _gap(mark, box) < REGISTRATION_CLEARANCE - 0.01
                        and not (mark[0] - 0.01 <= box[0] and box[2] <= mark[2] + 0.01
                                 and mark[1] - 0.01 <= box[1] and box[3] <= mark[3] + 0.01)]
                assert not near, f"{name}.pdf page {number + 1}: objects {near} within 2 mm of {mark}"
            checked += 1
    finally:
        document.close()
    assert checked >= 1


def _form_boxes(page, width: float, height: float) -> list[tuple[float, ...]]:
    """The page's pieces: its forms' bounds (each face with its whole bleed, before its clip), page mm."""
    return sorted(tuple(round(v, 2) for v in _page_mm(obj.get_bounds(), height))
                  for obj in page.get_objects(max_depth=1)
                  if obj.type == 5 and not _is_marks_form(obj, width, height))      # FPDF_PAGEOBJ_FORM


@pytest.mark.parametrize("paper", PAPERS)
def test_a_moved_sheet_keeps_its_backs_behind_its_fronts_and_its_cut_lines_on_its_pieces(silhouette_build, paper):
    """The chits' sheet moved off the marks' corners: its backs page holds the fronts mirrored across the flip
    (landscape: the short edge, top to bottom), and the DXF's cut lines are the pieces' trims."""
    import ezdxf
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(silhouette_build / paper / "tokens.pdf"))
    try:
        fronts, backs = document[0], document[1]
        width, height = (v / 72 * 25.4 for v in fronts.get_size())
        assert width > height                          # the chits' sheet turned landscape
        front_boxes, back_boxes = _form_boxes(fronts, width, height), _form_boxes(backs, width, height)
        mirrored = sorted((x0, round(height - y1, 2), x1, round(height - y0, 2)) for x0, y0, x1, y1 in front_boxes)
        # (flattened: pytest 9.2's approx compares no nested sequences)
        flat, flat_backs = ([value for box in boxes for value in box] for boxes in (mirrored, back_boxes))
        assert len(front_boxes) > 100 and flat == pytest.approx(flat_backs, abs=0.02)
        # not centred: the sheet moved right or down, towards the corner with no mark
        left, top = min(b[0] for b in front_boxes), min(b[1] for b in front_boxes)
        right, bottom = max(b[2] for b in front_boxes), max(b[3] for b in front_boxes)
        assert (left - (width - right)) + (top - (height - bottom)) > 0.5
    finally:
        document.close()
    cut = ezdxf.readfile(silhouette_build / paper / "cut" / "tokens-1.dxf")
    trims = []
    for polyline in cut.modelspace().query("LWPOLYLINE"):
        xs, ys = zip(*polyline.get_points("xy"), strict=True)
        trims.append((round(min(xs) - 3, 2), round(height - max(ys) - 3, 2), round(max(xs) + 3, 2),
                      round(height - min(ys) + 3, 2)))
    chits = [box for box in front_boxes if round(box[2] - box[0], 1) == 23.0]        # 17 mm and its 3 mm bleed
    assert [value for box in sorted(trims) for value in box] == \
        pytest.approx([value for box in sorted(chits) for value in box], abs=0.02)     # (flat: pytest 9.2)


@pytest.mark.parametrize("cut", ("dxf", "silhouette"))
def test_the_dxf_carries_its_sheet_extent(tmp_path, cut):
    """The header's limits and extents are the sheet (A4 portrait; A4 landscape for --cut silhouette's cards),
    every cut line lies inside them, and the sheet is not drawn: only layer CUT holds anything."""
    import ezdxf
    from ezdxf import bbox
    game = make_game(tmp_path, FILES)
    result = pnp("build", str(game), "--only", "cards,tokens,pawns", "--paper", "a4", "--cut", cut, "--out",
                 str(tmp_path / "out"), "--jobs", "1")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "g" / "standard" / "en" / "a4" / "cut"
    import pypdfium2 as pdfium
    files = sorted(folder.glob("*.dxf"))
    assert {path.name.rsplit("-", 1)[0] for path in files} == {"cards", "tokens", "pawns"}
    sheets = set()
    for path in files:
        kind, number = path.stem.rsplit("-", 1)
        pdf = pdfium.PdfDocument(str(folder.parent / f"{kind}.pdf"))
        fronts = pdf[(int(number) - 1) * (1 if kind == "pawns" else 2)]       # pawns have no backs pages
        sheet = tuple(round(v / 72 * 25.4, 3) for v in fronts.get_size())
        pdf.close()
        document = ezdxf.readfile(path)
        auditor = document.audit()
        assert not auditor.has_errors, (path.name, [str(e) for e in auditor.errors])
        header = document.header
        width, height = header["$LIMMAX"]
        assert (round(width, 3), round(height, 3)) == sheet, path.name     # the fronts sheet it cuts
        sheets.add(sheet)
        assert tuple(header["$LIMMIN"]) == (0, 0)
        assert tuple(header["$EXTMIN"]) == (0, 0, 0) and tuple(header["$EXTMAX"]) == (width, height, 0)
        assert document.units == ezdxf.units.MM
        entities = list(document.modelspace())
        assert entities and {entity.dxf.layer for entity in entities} == {"CUT"}
        drawn = bbox.extents(entities)
        assert drawn.extmin.x >= 0 and drawn.extmin.y >= 0 and drawn.extmax.x <= width and drawn.extmax.y <= height
    assert (297.0, 210.0) in sheets if cut == "silhouette" else sheets == {(210.0, 297.0)}
