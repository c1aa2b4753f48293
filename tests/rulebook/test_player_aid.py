"""The player aid: rules.yaml's blocks set on a card of their own and printed with the cards, its words the
rules' own (read back from cards.pdf, as many copies as asked, at its size); one longer than its card is an
error where rules.yaml writes it."""

from __future__ import annotations

from tests.pdf_probe import open_pdf, page_text
from tests.rulebook.test_cover_and_pagination import EN, _build, _game
from tests.test_content_errors import pnp, problem_lines

AID_EN = EN + """\
    aid: "Turn in brief"
    step: "1. Draw a card.\\n2. Throw a snowball.\\n3. Duck."
"""

RULES = """\
rulebook:
  cover: {title: game.title}
  player_aid:
    title: rules.aid
    copies: 3
    width: 60mm
    height: 80mm
    blocks:
      - list: rules.step
  sections:
    - heading: rules.heading
      blocks:
        - list: rules.step
"""


def test_the_player_aid_is_printed_with_the_cards_in_the_rules_words(tmp_path):
    cards = _build(tmp_path, _game(tmp_path, RULES, AID_EN), only="cards") / "cards.pdf"
    document = open_pdf(cards)
    texts = [" ".join(page_text(document, index).split()) for index in range(len(document))]
    aid_pages = [text for text in texts if "Turn in brief" in text]
    assert aid_pages, texts
    words = " ".join(aid_pages)
    assert words.count("Turn in brief") == 3                      # three copies
    assert words.count("Throw a snowball.") == 3 and "Duck." in words
    # one-sided: the backs' page behind the sheet holds the cards' backs only
    backs = texts[texts.index(aid_pages[0]) + 1]
    assert "Cards" in backs and "Turn in brief" not in backs


def test_a_player_aid_longer_than_its_card_is_an_error_where_it_is_written(tmp_path):
    long = AID_EN.replace('"1. Draw a card.', '"' + "1. Draw a card and read it aloud to everyone. " * 12)
    result = pnp("check", str(_game(tmp_path, RULES, long)))
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = [line for line in problem_lines(result.output) if "player aid" in line]
    assert lines and "rules.yaml:4:" in lines[0] and "60 × 80 mm card" in lines[0], result.output
