"""The booklet's back cover (rules.yaml `back_cover`), on tiny synthetic rulebooks: it takes a spare page of
the booklet's last sheet and stands on the outside back, the blanks before it; it costs no sheet unless
`always`; it carries its blocks of the edition, the facts and the credits on the cover's colours; one too
long for its page is an error where rules.yaml writes it."""

from __future__ import annotations

from tests.pdf_probe import open_pdf
from tests.rulebook.test_cover_and_pagination import COVER, EN, _build, _game, _pixel, _texts
from tests.test_content_errors import pnp, problem_lines

BACK = """\
  back_cover:
    blocks:
      - subheading: rules.back.heading
      - list: rules.back.turn
      - paragraph: rules.back.other
        editions: [deluxe]
    credits: rules.back.credits
"""
EN_BACK = EN + """\
    back:
      heading: "A turn in brief"
      turn: "- Roll the snowball.\\n- Throw it."
      other: "Only in the deluxe edition."
      credits: "Game by A. Tester. Illustrations by B. Drawer."
"""
FILLER = "        - paragraph: rules.filler\n"


def _rules(fillers: int = 1, back: str = BACK) -> str:
    """COVER's rulebook with `fillers` filler paragraphs (1: 3 pages, 3: 4) and the back cover."""
    return COVER.replace("  sections:\n", back + "  sections:\n").replace(FILLER, FILLER * fillers)


def _halves(booklet) -> list[tuple[str, str]]:
    """Each booklet side's (left, right) half's words."""
    halves = []
    for page in open_pdf(booklet):
        width, height = page.get_size()
        text = page.get_textpage()
        halves.append(tuple(" ".join(text.get_text_bounded(*box).replace("\u00ad", "").split())
                            for box in ((0, 0, width / 2, height), (width / 2, 0, width, height))))
    return halves


def test_a_spare_page_carries_the_back_cover_on_the_outside_back(tmp_path):
    folder = _build(tmp_path, _game(tmp_path, _rules(1), EN_BACK), only="rules,booklet")
    pages = _texts(folder / "rules.pdf")
    assert len(pages) == 4                            # cover, contents, a body page, the back cover
    back = pages[-1]
    for words in ("Snowball Fight", "A turn in brief", "Roll the snowball.", "Throw it.",
                  "2–6 players · Ages 6+ · Playing time: 30 min · Standard",
                  "Game by A. Tester. Illustrations by B. Drawer."):
        assert words in back, (words, back)
    assert "Only in the deluxe edition." not in back and "Rules" not in back       # no other edition, no footer
    image = open_pdf(folder / "rules.pdf")[3].render(scale=50 / 72).to_pil().convert("RGB")
    assert _pixel(image, 4, 4) == (0x12, 0x34, 0x56)              # the band, in the cover's colour
    assert _pixel(image, 4, 205) == (0xe8, 0xf0, 0xf8)            # the page, in the cover's
    # one sheet: its front is the back cover beside the cover, its back the contents beside the body page
    sides = _halves(folder / "rules-booklet.pdf")
    assert len(sides) == 2
    assert sides[0][0] == back and sides[0][1].startswith("Snowball Fight")
    assert sides[1] == (pages[1], pages[2])


def test_the_blanks_go_before_the_back_cover(tmp_path):
    folder = _build(tmp_path, _game(tmp_path, _rules(1).replace("rulebook:\n", "rulebook:\n  leaflet: true\n"),
                                    EN_BACK), only="rules,booklet")
    pages = _texts(folder / "rules.pdf")
    assert len(pages) == 2 and "A turn in brief" in pages[1]      # a one-page leaflet and its back cover
    sides = _halves(folder / "rules-booklet.pdf")
    assert sides[0] == (pages[1], pages[0]) and sides[1] == ("", "")     # pages 2 and 3 blank


def test_rules_that_fill_their_sheets_have_no_back_cover_unless_always(tmp_path):
    plain = _build(tmp_path / "plain", _game(tmp_path / "plain", _rules(3), EN_BACK), only="rules,booklet")
    pages = _texts(plain / "rules.pdf")
    assert len(pages) == 4 and not any("A turn in brief" in page for page in pages)
    always = _rules(3, BACK + "    always: true\n")
    folder = _build(tmp_path / "always", _game(tmp_path / "always", always, EN_BACK), only="rules,booklet")
    pages = _texts(folder / "rules.pdf")
    assert len(pages) == 5 and "A turn in brief" in pages[-1]
    sides = _halves(folder / "rules-booklet.pdf")
    assert len(sides) == 4 and sides[0][0] == pages[-1]          # page 8, the outside back; 6 and 7 blank
    assert [half for side in sides for half in side].count("") == 3


def test_a_back_cover_longer_than_its_page_is_an_error_where_it_is_written(tmp_path):
    long_turn = "\\n".join(f"- Step {n}: throw the snowball at the one who threw it at you last." for n in range(60))
    en = EN_BACK.replace('turn: "- Roll the snowball.\\n- Throw it."', f'turn: "{long_turn}"')
    result = pnp("check", str(_game(tmp_path, _rules(1), en)))
    assert result.exit_code == 1
    lines = [line.replace(str(tmp_path) + "/", "") for line in problem_lines(result.output)]
    assert len(lines) == 1 and lines[0].startswith("g/rules.yaml:9:5: the back cover is "), result.output
    assert "longer than its A5 page" in lines[0] and "hint: shorten its blocks" in result.output


def test_a_card_figure_on_the_back_cover_is_drawn(tmp_path):
    back = BACK.replace("      - list: rules.back.turn\n",
                        "      - list: rules.back.turn\n      - figure: {card: {deck: minis, card: small}}\n")
    rules = _rules(1, back).replace("    band: night\n", "    band: night\n    cards: []\n")
    folder = _build(tmp_path, _game(tmp_path, rules, EN_BACK), only="rules")
    document = open_pdf(folder / "rules.pdf")
    assert len(document) == 4
    image = document[3].render(scale=50 / 72).to_pil().convert("RGB")
    greens = sum(1 for x in range(0, 148, 2) for y in range(40, 190, 2) if _pixel(image, x, y) == (0, 0xc0, 0))
    assert greens > 50, greens                    # the mini card's green face, drawn from its template
