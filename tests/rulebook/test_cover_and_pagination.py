"""Tiny synthetic rulebooks, measured in the PDF: the illustrated cover (words read back, colours of its
pixels, the cards drawn), the kit's subtitle, located errors for bad cover keys; page breaks (a table
keeps two body rows each side, a heading never ends a page, also before a figure); badges in narrow
columns on one line; card figures' sizes."""

from __future__ import annotations

import re

import pytest

from tests.pdf_probe import PT, open_pdf, page_text
from tests.test_content_errors import make_game, pnp, problem_lines

GAME = """\
id: g
title: game.title
languages: [en]
editions:
  standard: {name: game.edition, players: "2–6"}
age: "6+"
play_time: "30 min"
palette:
  night: "#123456"
  snow: "#e8f0f8"
fonts:
  body: [nunito, inter]
"""

RED_CARD = """\
size: {width: 63mm, height: 88mm}
boxes:
  face: {kind: rect, area: trim, fill: "#00c000"}
"""

MINI_CARD = """\
size: {width: 30mm, height: 45mm}
boxes:
  face: {kind: rect, area: trim, fill: "#00c000"}
"""

CARDS = """\
decks:
  - id: cards
    name: deck.cards
    template: green
    back: back
    cards:
      - {id: one, fields: {name: cards.star}}
      - {id: two, fields: {name: cards.star}}
      - {id: three, fields: {name: cards.star}}
  - id: minis
    name: deck.cards
    template: mini
    back: back
    cards:
      - {id: small, fields: {name: cards.star}}
"""

EN = """\
en:
  game:
    title: "Snowball Fight"
    edition: "Standard"
    full_badge: "FULL EDITION"
  deck:
    cards: "Cards"
  cards:
    star: "Star"
  rules:
    tagline: "Throw first, duck later."
    filler: "{filler}"
    heading: "Heading Alpha"
    other: "Heading Beta"
    figure: "Figure caption"
    head_a: "Name"
    head_b: "What it does"
    long: "{long}"
    row: "Row"
    short: "A short line of filler."
""".format(filler=" ".join(f"Word{i} of the filler text." for i in range(60)),
           long="A long explanation that needs a few lines of its own in this column. " * 2)

COVER = """\
rulebook:
  cover:
    title: game.title
    tagline: rules.tagline
    background: snow
    band: night
    art: art/star.svg
  sections:
    - heading: rules.heading
      blocks:
        - paragraph: rules.filler
"""


def _game(tmp_path, rules: str, en: str = EN, game: str = GAME):
    return make_game(tmp_path, {"game.yaml": game, "cards.yaml": CARDS, "rules.yaml": rules, "i18n/en.yaml": en,
                                "templates/green.yaml": RED_CARD, "templates/mini.yaml": MINI_CARD})


def _build(tmp_path, folder, only="rules"):
    out = tmp_path / "out"
    result = pnp("build", str(folder), "--paper", "a4", "--out", str(out), "--only", only, "--jobs", "1", "-q")
    assert result.exit_code == 0, result.output
    return out / "g" / "standard" / "en" / "a4"


def _texts(path) -> list[str]:
    document = open_pdf(path)
    return [" ".join(page_text(document, i).replace("\u00ad", "").replace("\ufffe", "").split())
            for i in range(len(document))]


def _pixel(image, x_mm: float, y_mm: float, dpi: float = 50) -> tuple[int, int, int]:
    return image.getpixel((int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi)))[:3]


# ------------------------------------------------------------------ the cover

def test_the_cover_shows_title_tagline_edition_and_facts_on_the_game_colours(tmp_path):
    pdf = _build(tmp_path, _game(tmp_path, COVER)) / "rules.pdf"
    cover = _texts(pdf)[0]
    for words in ("Snowball Fight", "Throw first, duck later.", "Standard",
                  "2–6 players · Ages 6+ · Playing time: 30 min"):
        assert words in cover, (words, cover)
    image = open_pdf(pdf)[0].render(scale=50 / 72).to_pil().convert("RGB")
    assert _pixel(image, 4, 4) == (0x12, 0x34, 0x56)              # the band, in the palette's 'night'
    assert _pixel(image, 4, 205) == (0xe8, 0xf0, 0xf8)            # the page, in 'snow'
    # the cards fanned in the illustration: their green shows in the middle of the page
    greens = sum(1 for x in range(20, 128, 2) for y in range(80, 170, 2) if _pixel(image, x, y) == (0, 0xc0, 0))
    assert greens > 300, greens
    # the art (a red square) in the medallion over the band's lower edge, right of the middle
    reds = [(x, y) for x in range(74, 148) for y in range(20, 110) if _pixel(image, x, y) == (0xcc, 0, 0)]
    assert reds and min(x for x, _ in reds) > 100


def test_cover_cards_board_and_colours_are_checked_where_written(tmp_path):
    rules = COVER.replace("    art: art/star.svg\n", "    art: art/star.svg\n    cards: [{deck: cards, card: nine}]\n"
                                                      "    board: main\n").replace("band: night", "band: dusk")
    result = pnp("check", str(_game(tmp_path, rules)))
    assert result.exit_code == 1
    lines = [line.replace(str(tmp_path) + "/", "") for line in problem_lines(result.output)]
    assert lines == ["g/rules.yaml:6:11: unknown colour 'dusk'",
                     "g/rules.yaml:8:13: no card cards/nine in edition 'standard'",
                     "g/rules.yaml:9:12: no board 'main'"], result.output


def test_cards_none_keeps_the_art_alone_large_in_the_middle(tmp_path):
    rules = COVER.replace("    art: art/star.svg\n", "    art: art/star.svg\n    cards: []\n")
    pdf = _build(tmp_path, _game(tmp_path, rules)) / "rules.pdf"
    image = open_pdf(pdf)[0].render(scale=50 / 72).to_pil().convert("RGB")
    assert _pixel(image, 74, 120) == (0xcc, 0, 0)                  # the art, centred
    assert not any(_pixel(image, x, y) == (0, 0xc0, 0) for x in range(0, 148, 3) for y in range(0, 210, 3))


def test_the_kit_subtitle_names_the_players_age_and_time_in_words(tmp_path):
    folder = _build(tmp_path, _game(tmp_path, COVER), only="kit")
    first = _texts(folder / "kit.pdf")[0]
    assert "Standard · 2–6 players · Ages 6+ · Playing time: 30 min" in first, first


# ------------------------------------------------------------------ page breaks

def _fillers(count: int) -> str:
    """One-line paragraphs: each moves the next block down by one step, to try every place of a page break."""
    return "".join("        - paragraph: rules.short\n" for _ in range(count))


def _table_rules(fillers: int, rows: int, badge_row: int | None = None, widths: str = "[1, 3]",
                 lead: str = "heading") -> str:
    """A table after `fillers` short paragraphs, under a section heading of its own or after a paragraph."""
    body = "".join(f"              - {{cells: [rules.row, {n}]{', badge: true' if n == badge_row else ''}}}\n"
                   for n in range(1, rows + 1))
    before = ("    - heading: rules.other\n      blocks:\n" if lead == "heading" else
              "        - paragraph: rules.other\n")
    return COVER + _fillers(fillers) + before + f"""\
        - table:
            header: [rules.head_a, rules.head_b]
            widths: {widths}
            rows:
{body}"""


def _row_pages(texts: list[str], rows: int) -> dict[int, list[int]]:
    """Page (from 1) → the rows of the table on it, read back as 'Row <n>'."""
    pages: dict[int, list[int]] = {}
    for page, text in enumerate(texts, start=1):
        for number in map(int, re.findall(r"\bRow (\d+)\b", text)):
            if number <= rows:
                pages.setdefault(page, []).append(number)
    return pages


@pytest.mark.parametrize("lead", ["heading", "paragraph"])
@pytest.mark.parametrize("fillers", range(0, 13))
def test_a_table_keeps_two_rows_each_side_and_its_heading_with_them(tmp_path, fillers, lead):
    rows = 6
    texts = _texts(_build(tmp_path, _game(tmp_path, _table_rules(fillers, rows, lead=lead))) / "rules.pdf")
    pages = _row_pages(texts, rows)
    assert sorted(n for numbers in pages.values() for n in numbers) == list(range(1, rows + 1)), pages
    for numbers in pages.values():
        assert len(numbers) >= 2, pages
    for page in pages:
        assert "What it does" in texts[page - 1]                   # the header repeats on every page
    if lead != "heading":
        return
    heading_page = next(page for page, text in enumerate(texts, start=1) if "Heading Beta" in text and page > 2)
    assert 1 in pages[heading_page], (heading_page, pages)       # the heading stands over the first rows


@pytest.mark.parametrize("kind", ["figure", "callout"])
def test_a_heading_never_ends_a_page_before_a_figure_or_a_callout(tmp_path, kind):
    block = {"figure": "        - figure: {card: {deck: cards, card: one}, caption: rules.figure}\n",
             "callout": "        - callout: {title: rules.head_a, blocks: [{paragraph: rules.figure}]}\n"}[kind]
    for fillers in range(0, 13):
        rules = COVER + _fillers(fillers) + "        - subheading: rules.other\n" + block
        texts = _texts(_build(tmp_path / str(fillers), _game(tmp_path / str(fillers), rules)) / "rules.pdf")
        heading = [page for page, text in enumerate(texts) if "Heading Beta" in text and page > 1]
        caption = [page for page, text in enumerate(texts) if "Figure caption" in text]
        assert heading == caption, (fillers, heading, caption)


def test_a_badge_in_a_narrow_column_stays_on_one_line_inside_it(tmp_path):
    pdf = _build(tmp_path, _game(tmp_path, _table_rules(1, 4, badge_row=2, widths="[0.15, 3]"))) / "rules.pdf"
    document = open_pdf(pdf)
    for index in range(len(document)):
        textpage = document[index].get_textpage()
        searcher = textpage.search("FULL EDITION")
        found = searcher.get_next()
        if found is None:
            continue
        start, count = found
        boxes = [textpage.get_charbox(i) for i in range(start, start + count)]
        assert max(box[3] for box in boxes) - min(box[1] for box in boxes) < 10     # one line (7 pt badge)
        badge_right = max(box[2] for box in boxes)
        second = textpage.search("2", match_whole_word=True).get_next()           # the row's second cell
        assert second is not None
        assert badge_right < textpage.get_charbox(second[0])[0], "the badge runs into the next column"
        return
    pytest.fail("no badge drawn")


# ------------------------------------------------------------------ card figures

def _green_boxes(pdf, page: int, top: float, bottom: float) -> list[tuple[float, float, float, float]]:
    """Bounding boxes (mm) of the separate green areas of a page between two heights (mm), left to right."""
    dpi = 100
    image = open_pdf(pdf)[page].render(scale=dpi / 72).to_pil().convert("RGB")
    rows = range(int(top / 25.4 * dpi), int(bottom / 25.4 * dpi))
    columns = [x for x in range(image.width) if any(image.getpixel((x, y)) == (0, 0xc0, 0) for y in rows)]
    runs, boxes = [], []
    for x in columns:
        if runs and x == runs[-1][-1] + 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    for run in runs:
        ys = [y for y in rows if image.getpixel((run[len(run) // 2], y)) == (0, 0xc0, 0)]
        boxes.append((run[0] * 25.4 / dpi, ys[0] * 25.4 / dpi, (run[-1] + 1) * 25.4 / dpi, (ys[-1] + 1) * 25.4 / dpi))
    return boxes


def _text_top(pdf, page: int, words: str) -> float:
    """How far below the page's top the words stand (mm)."""
    document = open_pdf(pdf)
    textpage = document[page].get_textpage()
    start, count = textpage.search(words).get_next()
    _, height = document[page].get_size()
    return (height - textpage.get_charbox(start)[3]) * PT


def test_card_figures_stand_side_by_side_at_most_real_size_or_as_asked(tmp_path):
    rules = COVER.replace("        - paragraph: rules.filler\n", """\
        - figure: {card: {deck: cards, card: one}, caption: rules.figure}
        - figure: {card: {deck: minis, card: small}, caption: rules.figure}
    - heading: rules.other
      blocks:
        - figure: {card: {deck: cards, card: two}, width: 50mm}
""")
    pdf = _build(tmp_path, _game(tmp_path, rules)) / "rules.pdf"
    texts = _texts(pdf)
    first = next(page for page, text in enumerate(texts) if "Heading Alpha" in text and page > 1)
    heading = _text_top(pdf, asked := next(page for page, text in enumerate(texts)
                                           if "Heading Beta" in text and page > 1), "Heading Beta")
    assert asked == first
    poker, mini = _green_boxes(pdf, first, 0, heading)
    assert poker[2] - poker[0] == pytest.approx(122 * 0.34, abs=0.6)     # a third of the text's width
    assert mini[2] - mini[0] == pytest.approx(30, abs=0.6)                # its real size, not enlarged
    assert abs(poker[1] - mini[1]) < 1                                     # side by side, tops aligned
    wide, = _green_boxes(pdf, asked, heading, 210)
    assert wide[2] - wide[0] == pytest.approx(50, abs=0.6)


def test_a_leaflet_opens_with_the_band_of_its_cover(tmp_path):
    rules = COVER.replace("rulebook:\n", "rulebook:\n  leaflet: true\n")
    pdf = _build(tmp_path, _game(tmp_path, rules)) / "rules.pdf"
    texts = _texts(pdf)
    assert ("Snowball Fight Throw first, duck later. 2–6 players · Ages 6+ · Playing time: 30 min · Standard "
            "Heading Alpha") in texts[0], texts[0][:160]
    image = open_pdf(pdf)[0].render(scale=50 / 72).to_pil().convert("RGB")
    assert _pixel(image, 1, 1) == (0x12, 0x34, 0x56)              # the band reaches the paper's top corner
    assert _pixel(image, 74, 160) == (255, 255, 255)              # the rest of the page is the text's paper
    reds = [x for x in range(0, 148) for y in range(0, 45) if _pixel(image, x, y) == (0xcc, 0, 0)]
    assert reds and min(reds) > 100                                # the art at the band's right


def test_the_rulebook_is_byte_identical_when_built_again(tmp_path):
    folder = _game(tmp_path, COVER.replace("    art: art/star.svg\n", "    art: art/star.svg\n    board: main\n"))
    (folder / "board.yaml").write_text("boards:\n  - {id: main, name: deck.cards, template: green}\n")
    first = (_build(tmp_path / "a", folder) / "rules.pdf").read_bytes()
    second = (_build(tmp_path / "b", folder) / "rules.pdf").read_bytes()
    assert first == second


LEAD_EN = EN + """\
    lead: "The free edition has these cards:"
    long_lead: "{long_lead}"
    items: "- First item of the list\\n- Second item of the list\\n- Third item of the list"
""".format(long_lead="A lead-in long enough to need several lines of its own before what it introduces. " * 3
           + "They are these:")


@pytest.mark.parametrize("introduced", ["table", "list"])
@pytest.mark.parametrize("lead", ["lead", "long_lead"])
def test_a_paragraph_ending_with_a_colon_is_never_left_at_a_page_foot(tmp_path, lead, introduced):
    block = ("        - table:\n            header: [rules.head_a, rules.head_b]\n            rows:\n" +
             "".join(f"              - [rules.row, {n}]\n" for n in range(1, 5)) if introduced == "table"
             else "        - list: rules.items\n")
    moved = False
    for fillers in range(0, 14):
        rules = COVER + _fillers(fillers) + f"        - paragraph: rules.{lead}\n" + block
        texts = _texts(_build(tmp_path / str(fillers), _game(tmp_path / str(fillers), rules, en=LEAD_EN))
                       / "rules.pdf")
        ending = next(page for page, text in enumerate(texts) if "They are these:" in text
                      or "has these cards:" in text)
        first = next(page for page, text in enumerate(texts) if "Row 1" in text or "First item" in text)
        assert ending == first, (fillers, ending, first)
        starts = [page for page, text in enumerate(texts) if "A lead-in long" in text or "The free edition" in text]
        moved |= starts[0] != ending      # a long lead-in split: its head on one page, its end with the table
    if lead == "long_lead" and introduced == "table":
        assert moved
