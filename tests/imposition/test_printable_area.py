"""The printable area on the real games: every home file of every shipped game, built once.

Marks, labels and scale bars stay 5 mm inside the paper's edge (read from the imposed
pages, and from the pixels of every fronts page, where no art reaches the margin);
full-bleed pieces stand apart so a 0.5 mm mis-cut shows their own bleed; board seams
and crosses lie in the overlap strips only; every font subset of every file has its own tag.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.build import BuildOptions
from generator.components.piece import Group, Shape, TextPlacement
from generator.errors import Problems
from generator.imposition.grid import PRINTABLE_MARGIN
from generator.imposition.sheet import PAPER_SIZES
from generator.imposition.seams import board_obstacles
from generator.imposition.tiles import tile_layout, tile_region, tile_spec
from generator.render.font_tags import subset_tags
from generator.targets import clean_games, layout_targets
from generator.text.fonts import FontLibrary
from generator.write import caption_maker, home_sections

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(path for path in (ROOT / "content").iterdir() if (path / "game.yaml").exists())
HOME_PIECES = ("cards", "cards-ink-saver", "tokens", "pawns")


@pytest.fixture(scope="session")
def home_build(shipped_build) -> Path:
    """The shared builds' folder with every shipped game in it (tests/conftest.py); tests read its
    home files in each game's source language (home_files)."""
    for game in GAMES:
        folder = shipped_build(game.name)
    return folder.parent


def home_files(root: Path, pattern: str = "**/*.pdf") -> list[Path]:
    """The home files (not the print-shop's) matching `pattern` under root, each game's source language only."""
    sources = {game.name: _first_language(game) for game in GAMES}
    files = []
    for path in sorted(root.glob(pattern)):
        game, _, lang, paper, *_ = path.relative_to(root).parts
        if paper != "print-shop" and lang == sources.get(game):
            files.append(path)
    return files


@pytest.fixture(scope="session")
def home_pages():
    """The imposed pages of every home file of every game (source language, both papers), by file."""
    problems = Problems()
    library = FontLibrary()
    sources = clean_games(GAMES, problems)
    pages = {}
    for source in sources:
        options = BuildOptions(languages=(source.source_language,))
        for target in layout_targets([source], options, problems, library):
            caption = caption_maker(library, target.lang)
            for paper in options.papers:
                for name, section in home_sections(target, options, paper, caption).items():
                    pages[(source.id, target.edition, paper, name)] = section
    assert not problems.errors
    return pages


def _first_language(game: Path) -> str:
    import yaml
    return yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))["languages"][0]


def _extent(item, dx=0.0, dy=0.0):
    """(x0, y0, x1, y1) in page mm of a mark, a text (its runs' baselines, a size's height above) or a group."""
    if isinstance(item, Shape):
        half = item.stroke_width / 2 if item.stroke else 0.0
        x0, x1 = sorted((item.x, item.x + item.w))
        y0, y1 = sorted((item.y, item.y + item.h))
        # a line's butt ends stop at its ends; its width spreads across it
        across_x = half if item.kind != "line" or item.w == 0 else 0.0
        across_y = half if item.kind != "line" or item.h == 0 else 0.0
        return x0 + dx - across_x, y0 + dy - across_y, x1 + dx + across_x, y1 + dy + across_y
    if isinstance(item, TextPlacement):
        boxes = [(item.x + run.x, item.y + run.baseline - run.size * 0.3528 * 0.8,
                  item.x + run.x + len(run.text) * run.size * 0.3528 * 0.6, item.y + run.baseline + run.size * 0.0706)
                 for run in item.runs]
        return (min(b[0] for b in boxes) + dx, min(b[1] for b in boxes) + dy,
                max(b[2] for b in boxes) + dx, max(b[3] for b in boxes) + dy)
    if isinstance(item, Group):      # its frame bounds whatever it draws
        return item.x + dx, item.y + dy, item.x + item.w + dx, item.y + item.h + dy
    raise TypeError(item)


def test_every_mark_label_and_bar_of_every_home_file_is_inside_the_printable_area(home_pages):
    checked = 0
    for (game, edition, paper, name), pages in home_pages.items():
        width, height = PAPER_SIZES[paper] if "gutterfold" not in name else (0, 0)
        for page in pages:
            for item in page.marks:
                x0, y0, x1, y1 = _extent(item)
                where = f"{game}/{edition}/{paper}/{name}.pdf {page.label}: {item!r:.120}"
                assert x0 >= PRINTABLE_MARGIN - 1e-6 and y0 >= PRINTABLE_MARGIN - 1e-6, where
                assert x1 <= page.width - PRINTABLE_MARGIN + 1e-6 and y1 <= page.height - PRINTABLE_MARGIN + 1e-6, where
                checked += 1
    assert checked > 1000


def _blank_border(image, dpi: float, margin: float) -> list[tuple[int, int]]:
    """Pixels darker than paper within `margin` mm of the edge."""
    width, height = image.size
    edge = int(margin / 25.4 * dpi)
    pixels = image.load()
    dark = []
    for y in range(height):
        xs = range(width) if y < edge or y >= height - edge else [*range(edge), *range(width - edge, width)]
        for x in xs:
            if pixels[x, y] < 235:
                dark.append((x, y))
    return dark


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_pixel_of_a_fronts_page_lies_in_the_outer_5_mm(home_build, paper):
    """Fronts pages carry the marks and the bar; their art stays under the grid: the border is paper."""
    dpi = 50
    files = [path for name in HOME_PIECES for path in home_files(home_build, f"*/*/*/{paper}/{name}.pdf")]
    assert len(files) >= 8
    for path in files:
        document = pdfium.PdfDocument(path)
        for index in range(len(document)):
            if index % 2 and "pawns" not in path.name:      # backs pages: their panel may bleed into it
                continue
            image = document[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            # 4.7 mm: a pixel at the border's inner edge may be a mark's anti-aliased end at 5 mm
            dark = _blank_border(image, dpi, PRINTABLE_MARGIN - 0.3)
            assert not dark, f"{path.relative_to(home_build)} page {index + 1}: ink at {dark[:3]} px ({dpi} dpi)"
        document.close()


def test_full_bleed_cards_stand_apart_so_a_half_millimetre_miscut_shows_their_own_bleed(home_pages):
    """12 Days' and Christmas Round's cards are full-bleed: 9 to a sheet on both papers, 2 mm apart."""
    for game in ("twelve-days", "christmas-round"):
        for paper in ("a4", "letter"):
            sheets = [pages for (g, _, p, name), pages in home_pages.items() if (g, p, name) == (game, paper, "cards")]
            first = sheets[0][0]
            assert len(first.placements) == 9
            row = sorted((p for p in first.placements if abs(p.y - first.placements[0].y) < 1e-6), key=lambda p: p.x)
            for left, right in zip(row, row[1:], strict=False):
                gutter = right.x - (left.x + left.face.width)
                assert gutter == pytest.approx(2.0)
                # each piece's own art reaches half way across the gutter: 1 mm ≥ a 0.5 mm mis-cut
                assert left.clip[0] + left.clip[2] == pytest.approx(left.x + left.face.width + 1.0)
                assert right.clip[0] == pytest.approx(right.x - 1.0)


def test_a_miscut_into_the_gutter_shows_the_card_s_own_colour(home_build):
    """Pixels 0.5 mm past a card's cut, in the gutter, match that card's edge, not its neighbour's."""
    path = home_files(home_build, "twelve-days/*/*/letter/cards.pdf")[0]
    document = pdfium.PdfDocument(path)
    dpi = 254            # 10 pixels a millimetre
    image = document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    left_edge, top = (215.9 - 3 * 63 - 4) / 2, (279.4 - 3 * 88 - 4) / 2

    def colour(x_mm, y_mm):
        return image.getpixel((round(x_mm * 10), round(y_mm * 10)))
    for column in range(2):
        cut = left_edge + column * 65 + 63          # right cut of this card, left cut of the next at + 2
        for y in (top + 5, top + 44, top + 83):
            assert _near(colour(cut + 0.5, y), colour(cut - 0.3, y)), (column, y)
            assert _near(colour(cut + 1.5, y), colour(cut + 2.3, y)), (column, y)
    document.close()


def _near(a, b, tolerance=40):
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=False))


def test_gap_zero_keeps_single_cut_sheets_edge_to_edge():
    from generator.components.piece import Face, PieceCopy, Rect
    from generator.imposition.grid import impose_mixed
    face = Face("bleed", 63, 88, 3, (Rect(-3, -3, 69, 94, fill="#aa0000"),))
    copies = [PieceCopy("d", "c", n, face, face) for n in range(9)]
    apart = impose_mixed(copies, PAPER_SIZES["letter"])[0]
    together = impose_mixed(copies, PAPER_SIZES["letter"], gap=0.0)[0]
    assert apart.placements[1].x - apart.placements[0].x == pytest.approx(65)
    assert together.placements[1].x - together.placements[0].x == pytest.approx(63)
    assert len(together.placements) == len(apart.placements) == 9


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_seams_and_crosses_lie_in_the_overlap_strips_only(home_pages, paper):
    """Once assembled, only each tile's part up to the seams shows: no mark may fall there."""
    boards = [(key, pages) for key, pages in home_pages.items() if key[2] == paper and key[3] == "board"]
    assert boards
    for (game, _, _, _), pages in boards:
        for page in pages:
            (placement,) = page.placements
            board = (placement.face.width, placement.face.height)
            # the build's tiling: its seams placed off the board's words and spaces (the same function, the
            # same board: the same seams)
            layout = tile_layout(board, tile_spec(PAPER_SIZES[paper], PRINTABLE_MARGIN),
                                 board_obstacles(placement.face))
            label = page.label.rsplit(" ", 1)[1]
            row, column = ord(label[0]) - ord("A"), int(label[1:]) - 1
            x0, y0, x1, y1 = tile_region(board, layout, row, column)
            # what this tile shows of the finished board, in page mm: up to the seams
            xs, ys = (0.0, *layout.across[row], board[0]), (0.0, *layout.down[column], board[1])
            seen_x0, seen_x1 = placement.x + xs[column], placement.x + xs[column + 1]
            seen_y0, seen_y1 = placement.y + ys[row], placement.y + ys[row + 1]
            for item in page.marks:
                mx0, my0, mx1, my1 = _extent(item)
                if my0 >= placement.y + board[1] - 1e-6 or my0 >= placement.y + y1 - y0 + 3:
                    continue        # the label band under the tile
                overlaps = (mx0 < seen_x1 - 1e-6 and mx1 > seen_x0 + 1e-6 and my0 < seen_y1 - 1e-6
                            and my1 > seen_y0 + 1e-6)
                assert not overlaps, f"{game} {paper} tile {label}: a mark over the board: {item!r:.100}"


def test_every_font_subset_of_every_built_file_has_its_own_tag(home_build):
    files = home_files(home_build)
    kits = [path for path in files if path.name == "kit.pdf"]
    assert len(kits) >= 10
    for path in files:
        tags = [tag for tag, _ in subset_tags(path.read_bytes())]
        assert tags and len(tags) == len(set(tags)), f"{path.relative_to(home_build)}: a tag used twice"
    for path in kits:
        data = path.read_bytes()
        # the cross-reference reading missed no font: as many tags as /BaseFont and /FontName entries name
        # (a composite font's Type0 dictionary and its CIDFont name the same subset)
        assert len(subset_tags(data)) == len(set(re.findall(rb"/BaseFont\s*/([A-Z]{6})\+", data)))
        assert len(set(re.findall(rb"/FontName\s*/([A-Z]{6})\+", data))) == len(subset_tags(data))
        assert len(subset_tags(data)) >= 8         # the kit's own subsets and the booklet's, merged


def test_no_mark_label_or_bar_reaches_into_a_piece_s_art(home_pages):
    """Labels and the 50 mm bar keep off every placed piece's drawn area (its trim and the bleed it
    keeps): on Letter's narrow margin the bar up the left side once ran into the first column's
    bleed. (Board tiles are apart: their seam lines are drawn over the art on purpose.)"""
    checked = 0
    for (game, edition, paper, name), pages in home_pages.items():
        if name not in HOME_PIECES:
            continue
        for page in pages:
            areas = [p.clip for p in page.placements if getattr(p, "clip", None)]
            for item in page.marks:
                if not isinstance(item, (Group, TextPlacement)) and \
                        max(getattr(item, "w", 0), getattr(item, "h", 0)) < 40:
                    continue         # crop marks: in a gutter they stand on the bleed on purpose
                x0, y0, x1, y1 = _extent(item)
                for cx, cy, cw, ch in areas:
                    overlap = min(x1, cx + cw) - max(x0, cx), min(y1, cy + ch) - max(y0, cy)
                    assert min(overlap) <= 1e-6, f"{game}/{edition}/{paper}/{name}.pdf {page.label}: {item!r:.120}"
                checked += 1
    assert checked > 20


def _words_mm(page, height_mm: float) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The words pdfium reads on a page, each with its box in page mm from the top-left."""
    text = page.get_textpage()
    words, current, box = [], "", None
    for index in range(text.count_chars()):
        char = text.get_text_range(index, 1)
        left, bottom, right, top = text.get_charbox(index)
        if not char.strip() or (box is not None and (left < box[2] - 1 or abs(top - box[3]) > 4)):
            if current:
                words.append((current, box))
            current, box = "", None
            if not char.strip():
                continue
        current += char
        box = (left, bottom, right, top) if box is None else \
            (min(box[0], left), min(box[1], bottom), max(box[2], right), max(box[3], top))
    if current:
        words.append((current, box))
    mm = 25.4 / 72
    return [(word, (b[0] * mm, height_mm - b[3] * mm, b[2] * mm, height_mm - b[1] * mm)) for word, b in words]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_word_of_a_shipped_board_is_crossed_by_a_tiles_cut_line(home_pages, home_build, paper):
    """The issue's own measure (29): the words pdfium reads on each tile page, against the solid cut lines at
    the seams (what is cut, and where the glued board shows an edge): none runs through a word."""
    import pypdfium2 as pdfium
    from generator.components.piece import Line
    from generator.imposition.line_kinds import CUT
    boards = [(key, pages) for key, pages in home_pages.items() if key[2] == paper and key[3] == "board"]
    assert {key[0] for key, _ in boards} == {"christmas-round", "must-see-belarus", "sorry"}
    for (game, edition, _, _), pages in boards:
        lang = _first_language(ROOT / "content" / game)
        document = pdfium.PdfDocument(home_build / game / edition / lang / paper / "board.pdf")
        assert len(document) == len(pages)
        checked = 0
        for page, pdf_page in zip(pages, document, strict=True):
            (placement,) = page.placements
            bottom = placement.clip[1] + placement.clip[3]
            cuts = [item for item in page.marks if isinstance(item, Line) and item.stroke == CUT.colour
                    and item.dash is None and item.y < bottom and (item.w == 0 or item.h == 0)]
            for word, (x0, y0, x1, y1) in _words_mm(pdf_page, page.height):
                if y0 >= bottom:
                    continue              # the label band under the tile
                for cut in cuts:
                    low_x, high_x = sorted((cut.x, cut.x + cut.w))
                    low_y, high_y = sorted((cut.y, cut.y + cut.h))
                    if cut.w == 0:
                        crossed = x0 + 0.1 < cut.x < x1 - 0.1 and y0 < high_y and y1 > low_y
                    else:
                        crossed = y0 + 0.1 < cut.y < y1 - 0.1 and x0 < high_x and x1 > low_x
                    assert not crossed, f"{game} {paper} {page.label}: a cut line runs through {word!r}"
                checked += 1
        assert checked > 20, game
