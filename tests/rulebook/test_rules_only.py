"""A rules-only build (`--only rules,booklet`) lays out every piece for its counts and its deck's text sizes but
reads the art of only the cards the rulebook prints (its figures, the cover's cards): its rulebook is the same
bytes as a build that also makes the cards, and a card no page shows costs no art read."""

from __future__ import annotations

import pytest

from tests.pdf_probe import open_pdf, page_text
from tests.test_content_errors import make_game, pnp

GAME = """\
id: g
title: game.title
languages: [en]
editions:
  standard: {name: game.edition, players: "2–4"}
fonts:
  body: [nunito, inter]
"""

# one size per text box across the deck: the long rule of 'far' (in no figure) shrinks 'near''s rule too
CARD = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  body: {font: body, size: 14pt, min_size: 6pt, color: "#222222"}
boxes:
  frame: {kind: art, art: art/frame.svg, x: 4, y: 4, width: 55, height: 20}
  art: {kind: art, art: "@art", x: 10, y: 26, width: 43, height: 30}
  rule: {kind: text, text: "@rule", x: 5, y: 58, width: 53, height: 24, style: body}
"""

BACK = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
boxes:
  name: {kind: text, text: "@deck", x: 5, y: 40, width: 53, height: 10}
"""


def _cards(far_art: str) -> str:
    return f"""\
decks:
  - id: cards
    name: deck.cards
    template: card
    back: back
    cards:
      - {{id: near, count: 2, fields: {{rule: cards.near, art: art/near.svg}}}}
      - {{id: far, count: 3, fields: {{rule: cards.far, art: {far_art}}}}}
  - id: more
    name: deck.more
    template: card
    back: back
    cards:
      - {{id: other, count: 4, fields: {{rule: cards.near, art: art/near.svg}}}}
      - {{id: second, fields: {{rule: cards.near, art: art/second.svg}}}}
      - {{id: third, fields: {{rule: cards.near, art: art/third.svg}}}}
      - {{id: fourth, fields: {{rule: cards.near, art: {far_art}}}}}
"""


RULES = """\
rulebook:
  cover:
    title: game.title
    cards: [{deck: more, card: other}]
  sections:
    - heading: rules.heading
      blocks:
        - paragraph: rules.counts
        - callout:
            title: rules.heading
            blocks:
              - figure: {card: {deck: cards, card: near}, caption: rules.caption}
"""

LONG_RULE = "A long rule that needs a much smaller size than the near card's to fit its box. " * 3


def _en(far_rule: str) -> str:
    return f"""\
en:
  game:
    title: "Sketch Test"
    edition: "Standard"
  deck:
    cards: "Cards"
    more: "More"
  cards:
    near: "Short rule."
    far: "{far_rule}"
  rules:
    heading: "Setup"
    counts: "The game has {{count_cards}} cards, {{count_cards_far}} of them far ones, and {{count_more}} more."
    caption: "The near card"
"""


def _svg(colour: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
            f'<rect width="10" height="10" fill="{colour}"/></svg>\n')


def _game(tmp_path, far_art: str = "art/far.svg", far_rule: str = LONG_RULE, rules: str = RULES):
    return make_game(tmp_path, {
        "game.yaml": GAME, "cards.yaml": _cards(far_art), "rules.yaml": rules, "i18n/en.yaml": _en(far_rule),
        "templates/card.yaml": CARD, "templates/back.yaml": BACK,
        "art/frame.svg": _svg("#0000c0"), "art/near.svg": _svg("#c00000"), "art/far.svg": _svg("#00c000"),
        "art/second.svg": _svg("#c0c000"), "art/third.svg": _svg("#00c0c0"),
        # not SVG at all: any build that reads it fails
        "art/broken.svg": "<svg xmlns='http://www.w3.org/2000/svg' width='10'",
    })


def _build(folder, out, only: str):
    result = pnp("build", str(folder), "--paper", "a4", "--out", str(out), "--only", only, "--jobs", "1", "-q")
    return result


# the cover's own cards, or by default five taken from the decks in turn: near, other, far, second, third
@pytest.mark.parametrize("rules", [RULES, RULES.replace("    cards: [{deck: more, card: other}]\n", "")],
                         ids=["cover-cards", "default-cover"])
def test_a_rules_only_build_writes_the_bytes_a_build_with_the_cards_writes(tmp_path, rules):
    folder = _game(tmp_path, rules=rules)
    alone, together = tmp_path / "alone", tmp_path / "together"
    assert _build(folder, alone, "rules,booklet").exit_code == 0
    assert _build(folder, together, "cards,rules,booklet").exit_code == 0
    for name in ("rules.pdf", "rules-booklet.pdf"):
        mine = (alone / "g" / "standard" / "en" / "a4" / name).read_bytes()
        theirs = (together / "g" / "standard" / "en" / "a4" / name).read_bytes()
        assert mine == theirs, name
    document = open_pdf(alone / "g/standard/en/a4/rules.pdf")
    words = " ".join(" ".join(page_text(document, i).split()) for i in range(len(document)))
    # the counts come from every piece, drawn or not
    assert "The game has 5 cards, 3 of them far ones, and 7 more." in words, words


def test_the_near_cards_rule_is_set_at_its_decks_size_in_the_figure(tmp_path):
    """The figure's card shares its rule's size with a card no page shows: without that card's text, the
    rule would be set larger and the rulebook would differ from the one above."""
    folder = _game(tmp_path / "long")
    short = _game(tmp_path / "short", far_rule="Short.")
    assert _build(folder, tmp_path / "long-out", "rules").exit_code == 0
    assert _build(short, tmp_path / "short-out", "rules").exit_code == 0
    assert (tmp_path / "long-out/g/standard/en/a4/rules.pdf").read_bytes() != \
        (tmp_path / "short-out/g/standard/en/a4/rules.pdf").read_bytes()


def test_art_of_a_card_no_page_shows_is_not_read_by_a_rules_only_build(tmp_path):
    folder = _game(tmp_path, far_art="art/broken.svg")
    rules = _build(folder, tmp_path / "rules", "rules,booklet")
    assert rules.exit_code == 0, rules.output
    cards = _build(folder, tmp_path / "cards", "cards")
    assert cards.exit_code == 1
    assert "broken.svg" in cards.output and "cards.yaml" in cards.output, cards.output
    # pnp check still reads every face's art
    check = pnp("check", str(folder))
    assert check.exit_code == 1 and "broken.svg" in check.output, check.output
