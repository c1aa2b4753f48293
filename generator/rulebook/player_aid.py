"""The player aid: rules.yaml's `player_aid` set on a card of its own — a turn in brief, what each card does —
printed with the cards (cards.pdf and the kit), one copy a player.

It is the rulebook's own blocks set in a leaflet's smaller type under a band with its title, on the rulebook's
cream: the same words as the rules (the same catalog keys), so a changed rule changes the aid. It never runs
on: it is set at the loosest copyfitting step it fits, and where its blocks are longer than the card even at
the tightest, the build stops with an error at rules.yaml's `player_aid` (player_aid_problems, at layout).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.components.piece import Face, Item, PieceCopy, Rect
from generator.errors import Problems
from generator.rulebook.copyfit import STEPS
from generator.rulebook.flow import StoryBuilder, rule_book
from generator.rulebook.keeping import keep_with_next
from generator.rulebook.pages import Frame, paginate
from generator.rulebook.resolve import PlayerAid, RuleDoc
from generator.rulebook.set_text import Book, TextBlock
from generator.text.setter import TextSetter
from generator.units import pt_to_mm

PAPER, BAND = "#fdf6e8", "#a31621"      # the rulebook's cream and red
MARGIN = 3.5            # mm round the blocks
BAND_HEIGHT = 10.0      # mm
TITLE_SIZE = 11.0       # pt, white on the band
TALL = 1e6              # mm: a frame no aid fills, to measure how tall its blocks are
DECK = "player-aid"     # the deck its copies are listed under with the cards


@dataclass(frozen=True)
class AidFace:
    face: Face
    overflow: float          # mm its blocks are longer than the room under the band (0 where they fit)


def set_player_aid(doc: RuleDoc, book: Book) -> AidFace | None:
    """The aid at the loosest copyfitting step it fits, else at the tightest, its overflow told."""
    aid = doc.player_aid
    if aid is None:
        return None
    result = None
    for fit in STEPS:
        result = _set(doc, aid, StoryBuilder(doc, book, aid.width - 2 * MARGIN, aid.width, fit, compact=True))
        if result.overflow <= 0:
            break
    return result


def _set(doc: RuleDoc, aid: PlayerAid, builder: StoryBuilder) -> AidFace:
    width, height = aid.width, aid.height
    text_width = width - 2 * MARGIN
    items: list[Item] = [Rect(0, 0, width, height, fill=PAPER),
                         Rect(0, 0, width, BAND_HEIGHT, fill=BAND)]
    title_style = replace(builder.styles.h1, size=TITLE_SIZE, leading=TITLE_SIZE * 1.15, color="#ffffff",
                          align="center", space_before=0, space_after=0)
    for paragraph in builder.paragraphs(aid.title, title_style):
        assert isinstance(paragraph, TextBlock)
        title_height = paragraph.height(text_width, BAND_HEIGHT)
        items += paragraph.items(MARGIN, (BAND_HEIGHT - title_height) / 2 + pt_to_mm(0.5), text_width, title_height)
    top = BAND_HEIGHT + MARGIN
    pagination = paginate(keep_with_next(builder.items(aid.items)), Frame(MARGIN, top, text_width, TALL))
    for placed in pagination.pages[0]:
        items += placed.block.items(placed.x, placed.y, placed.width, placed.height)
    room = height - MARGIN - top
    face = Face(f"{doc.title}/{doc.lang}/player-aid", width, height, 0.0, tuple(items))
    return AidFace(face, max(0.0, pagination.last_fill * TALL - room))


def player_aid_copies(doc: RuleDoc | None, setter: TextSetter, stack: tuple[str, ...]) -> tuple[PieceCopy, ...]:
    """The aid's copies, one-sided, to print with the cards (none for a rulebook without one)."""
    if doc is None or doc.player_aid is None:
        return ()
    aid = set_player_aid(doc, rule_book(doc, setter, stack))
    assert aid is not None
    return tuple(PieceCopy(DECK, DECK, number, aid.face, None) for number in range(1, doc.player_aid.copies + 1))


def player_aid_problems(doc: RuleDoc, setter: TextSetter, stack: tuple[str, ...], problems: Problems) -> None:
    """An aid longer than its card, even at the tightest spacing: an error where rules.yaml writes it."""
    if doc.player_aid is None:
        return
    aid = set_player_aid(doc, rule_book(doc, setter, stack))
    if aid is not None and aid.overflow > 0:
        spec = doc.player_aid
        problems.add(spec.mark, f"the player aid's words are {aid.overflow:.1f} mm longer than its "
                     f"{spec.width:g} × {spec.height:g} mm card, even set as tight as a leaflet",
                     "say less (a turn in brief), or give it a larger size (width, height)")
