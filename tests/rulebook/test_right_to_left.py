"""A right-to-left rulebook mirrors (issue 28): a tiny Hebrew game, its block positions measured in the PDF — text
flush right, list markers at the right, table columns and card figures from the right, the contents' numbers at
the left, the footer's page number at each page's outer edge of a book bound on the right, and its booklet
bound at the right."""

from __future__ import annotations

import pytest

from tests.pdf_probe import PT, open_pdf, pdftotext
from tests.test_content_errors import make_game, pnp

GAME = """\
id: g
title: game.title
languages: [he]
editions:
  standard: {name: game.edition, players: "2–6"}
age: "6+"
play_time: "30 min"
palette:
  night: "#123456"
  snow: "#e8f0f8"
"""
CARD = """\
size: {width: 30mm, height: 45mm}
boxes:
  face: {kind: rect, area: trim, fill: "#00c000"}
"""
CARD2 = CARD.replace("#00c000", "#0000c0")
CARDS = """\
decks:
  - id: cards
    name: deck.cards
    template: green
    back: back
    cards:
      - {id: one, fields: {name: cards.star}}
  - id: blues
    name: deck.cards
    template: blue
    back: back
    cards:
      - {id: two, fields: {name: cards.star}}
"""
HE = """\
he:
  game:
    title: "קרב כדורי שלג"
    edition: "רגילה"
  deck:
    cards: "קלפים"
  cards:
    star: "כוכב"
  rules:
    tagline: "זורקים קודם, מתכופפים אחר כך."
    heading: "על המשחק QA"
    other: "הכנה QB"
    filler: "%s"
    items: "- פריט ראשון XA\\n- פריט שני XB"
    head_a: "שם HA"
    head_b: "מה זה עושה HB"
    row: "שורה"
""" % " ".join(["משפט ארוך של מילים בעברית כדי למלא את הדף."] * 40)
RULES = """\
rulebook:
  cover:
    title: game.title
    tagline: rules.tagline
    background: snow
    band: night
  sections:
    - heading: rules.heading
      blocks:
        - paragraph: rules.filler
        - list: rules.items
        - table:
            header: [rules.head_a, rules.head_b]
            widths: [1, 2]
            rows:
              - [rules.row, rules.row]
        - figure: {card: {deck: cards, card: one}}
        - figure: {card: {deck: blues, card: two}}
    - heading: rules.other
      blocks:
        - paragraph: rules.filler
"""

PAGE_WIDTH, MARGIN = 148.0, 13.0


@pytest.fixture(scope="module")
def hebrew(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hebrew")
    folder = make_game(tmp, {"game.yaml": GAME, "cards.yaml": CARDS, "rules.yaml": RULES, "i18n/he.yaml": HE,
                             "templates/green.yaml": CARD, "templates/blue.yaml": CARD2})
    result = pnp("build", str(folder), "--paper", "a4", "--out", str(tmp / "out"), "--only", "rules,booklet",
                 "--jobs", "1", "-q")
    assert result.exit_code == 0, result.output
    return tmp / "out" / "g" / "standard" / "he" / "a4"


def _boxes(page, words: str) -> tuple[float, float, float, float]:
    """Left, top, right, bottom (mm from the page's top-left) of the first place the words are found."""
    textpage = page.get_textpage()
    found = textpage.search(words).get_next()
    assert found is not None, words
    start, count = found
    boxes = [textpage.get_charbox(index) for index in range(start, start + count)]
    height = page.get_size()[1]
    return (min(box[0] for box in boxes) * PT, (height - max(box[3] for box in boxes)) * PT,
            max(box[2] for box in boxes) * PT, (height - min(box[1] for box in boxes)) * PT)


def _page_with(document, words: str, after: int = 0) -> int:
    return next(index for index in range(after, len(document))
                if words in document[index].get_textpage().get_text_range())


def _line_ends(page) -> list[tuple[float, float]]:
    """(left, right) mm of each line of text between the page's margins (the footer left out): characters
    grouped by their middle's height, a line being 4.5 mm from the next."""
    textpage, height = page.get_textpage(), page.get_size()[1]
    chars = []
    for index in range(textpage.count_chars()):
        left, bottom, right, top = textpage.get_charbox(index)
        middle = (height - (bottom + top) / 2) * PT
        if right - left > 0.1 and middle < 193:
            chars.append((middle, left * PT, right * PT))
    lines: list[list[tuple[float, float, float]]] = []
    for char in sorted(chars):
        if lines and char[0] - lines[-1][-1][0] < 1.5:
            lines[-1].append(char)
        else:
            lines.append([char])
    return [(min(char[1] for char in line), max(char[2] for char in line)) for line in lines]


def test_running_text_is_set_flush_right(hebrew):
    document = open_pdf(hebrew / "rules.pdf")
    page = document[_page_with(document, "QA", 2)]
    ends = _line_ends(page)
    assert len(ends) > 10
    rights = [right for _, right in ends]
    assert max(rights) == pytest.approx(PAGE_WIDTH - MARGIN, abs=0.6)
    assert sum(1 for right in rights if right > PAGE_WIDTH - MARGIN - 1) > 0.8 * len(ends)   # ragged left
    assert len({round(left) for left, _ in ends}) > 3


def test_list_markers_table_columns_and_figures_run_from_the_right(hebrew):
    document = open_pdf(hebrew / "rules.pdf")
    page = document[_page_with(document, "XA", 2)]
    marker, item = _boxes(page, "•"), _boxes(page, "XA")
    assert marker[0] > item[2] and marker[2] == pytest.approx(PAGE_WIDTH - MARGIN, abs=1)   # the marker at the right
    first, second = _boxes(page, "HA"), _boxes(page, "HB")
    assert first[0] > second[2] and first[0] > PAGE_WIDTH / 2     # the first column at the right
    figures = document[_page_with(document, "QB", 2)].render(scale=50 / 72).to_pil().convert("RGB")
    greens = [x for x in range(figures.width) for y in range(0, figures.height, 4)
              if figures.getpixel((x, y)) == (0, 0xc0, 0)]
    blues = [x for x in range(figures.width) for y in range(0, figures.height, 4)
             if figures.getpixel((x, y)) == (0, 0, 0xc0)]
    assert greens and blues and min(greens) > max(blues)  # the first card figure at the right


def test_contents_numbers_stand_at_the_left_and_the_footer_mirrors(hebrew):
    document = open_pdf(hebrew / "rules.pdf")
    contents = document[1]
    entry, number = _boxes(contents, "QA"), _boxes(contents, "3")
    assert number[2] < MARGIN + 3 and number[2] < entry[0] - 20       # dots lead left to the number
    for index in (1, 2, 3):              # page 2, 3, 4: an odd page's number at the left (its outer edge)
        page = document[index]
        digit = _boxes(page, str(index + 1))
        outer_left = (index + 1) % 2 == 1
        assert (digit[2] < PAGE_WIDTH / 2) == outer_left, (index + 1, digit)
        assert digit[1] > 195                # in the footer


def test_the_booklet_is_bound_at_the_right(hebrew):
    pages = open_pdf(hebrew / "rules.pdf")
    booklet = open_pdf(hebrew / "rules-booklet.pdf")
    assert len(pages) == 4 and len(booklet) == 2
    width, height = booklet[0].get_size()
    # read by poppler, which places a page's text where its form is drawn (pdfium gives a right-to-left
    # line's marked text the form's own coordinates: both halves' lines would be in the left one)
    sheet = hebrew / "rules-booklet.pdf"
    half = ("-f", "1", "-l", "1", "-y", "0", "-W", str(int(width / 2)), "-H", str(int(height)))
    left = pdftotext(sheet, *half, "-x", "0")
    right = pdftotext(sheet, *half, "-x", str(int(width / 2)))
    cover = pdftotext(hebrew / "rules.pdf", "-f", "1", "-l", "1")
    last = pdftotext(hebrew / "rules.pdf", "-f", "4", "-l", "4")
    assert left.split() == cover.split() and right.split() == last.split()   # the cover on the left half
