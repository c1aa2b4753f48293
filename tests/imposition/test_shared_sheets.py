"""Parts sharing a card-stock sheet in the kit (imposition/shared_sheets.py): a double-sided part (tokens)
under a deck's last row, its backs on the deck's backs page, landing on their fronts however the sheet flips."""

from __future__ import annotations

import pytest

from generator.components.piece import Face, PieceCopy, Rect
from generator.imposition.grid import impose_mixed
from generator.imposition.shared_sheets import share_sheets
from generator.print_facts import PAPER_SIZES

A4 = PAPER_SIZES["a4"]


def _copies(deck: str, count: int, size: tuple[float, float], colour: str) -> list[PieceCopy]:
    front = Face(f"{deck}-front", *size, 0.0, (Rect(0, 0, *size, fill=colour),))
    back = Face(f"{deck}-back", *size, 0.0, (Rect(0, 0, *size, fill="#222222"),))
    return [PieceCopy(deck, deck, number, front, back) for number in range(1, count + 1)]


def _sections(duplex: str):
    # 12 cards: a full sheet and a second with one row; 6 tokens of 25 mm: a sheet of their own
    options = {"duplex": duplex}
    return {"cards": impose_mixed(_copies("cards", 12, (63, 88), "#aa0000"), A4, label="cards", **options),
            "tokens": impose_mixed(_copies("tokens", 6, (25, 25), "#00aa00"), A4, label="tokens", **options)}


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_tokens_go_under_the_last_row_of_cards_their_backs_onto_the_cards_backs(duplex):
    sections = _sections(duplex)
    assert [page.label for page in sections["tokens"]] == ["tokens fronts 1", "tokens backs 1"]
    before = len(sections["cards"][2].placements)
    shared = share_sheets(sections, duplex=duplex)
    assert "tokens" not in shared and len(shared["cards"]) == 4           # 6 pages printed as 4
    fronts, backs = shared["cards"][2], shared["cards"][3]
    tokens = [p for p in fronts.placements if p.face.key == "tokens-front"]
    token_backs = [p for p in backs.placements if p.face.key == "tokens-back"]
    assert len(tokens) == len(token_backs) == 6 and len(fronts.placements) == before + 6
    cards_bottom = max(p.y + p.face.height for p in fronts.placements if p.face.key == "cards-front")
    assert min(p.y for p in tokens) > cards_bottom                         # under the cards' row
    width, height = A4
    # every token's back lands on its front once the sheet is turned over its flip edge
    for front in tokens:
        if duplex == "long-edge":
            landing = (width - front.x - 25, front.y)
        else:
            landing = (front.x, height - front.y - 25)
        assert any(abs(back.x - landing[0]) < 0.01 and abs(back.y - landing[1]) < 0.01 for back in token_backs)
    # and nothing of the cards' own backs moved
    assert backs.placements[:len(sections["cards"][3].placements)] == sections["cards"][3].placements


def test_tokens_that_do_not_fit_keep_their_sheets():
    sections = _sections("long-edge")
    sections["cards"] = impose_mixed(_copies("cards", 9, (63, 88), "#aa0000"), A4, label="cards")   # sheet full
    shared = share_sheets(sections)
    assert shared["tokens"] == sections["tokens"] and shared["cards"] == sections["cards"]
