"""A deck whose back floods the card with ink, and no ink-saver back for home printers: said at the deck.

A home printer prints a deck's backs on as many pages as its fronts; a back filled to its bleed edge with a
dark colour is most of a cartridge. pnp builds cards-ink-saver.pdf (the same sheets with light backs) for
an edition with `ink_saver: true` from a deck's `ink_saver_back`; this check says where one is missing, and
where a deck has one that no edition builds.
"""

from __future__ import annotations

from generator.components.context import LayoutContext
from generator.components.piece import Face, Rect
from generator.content.colours import separate, written_inks
from generator.errors import SourceMark
from generator.print_facts import INK_LIMIT

# The total ink (C + M + Y + K, 1.0 = 100 %) of a full-bleed back's fill from which a light back is asked
# for: a paper-coloured ground (#f4ecd2: ~0.2) is not, a mid tone (#c62f3a: ~1.2) or navy (~1.8) is.
INK_HUNGRY = 0.5
EPSILON = 0.05     # mm: a ground drawn to the bleed edge, as written


def flooding_ink(face: Face) -> tuple[str, float] | None:
    """The fill and total ink of the rectangle that covers the face to its bleed edge, if one does."""
    bleed = face.bleed
    for item in face.items:
        if isinstance(item, Rect) and item.fill and item.x <= -bleed + EPSILON and item.y <= -bleed + EPSILON \
                and item.x + item.w >= face.width + bleed - EPSILON \
                and item.y + item.h >= face.height + bleed - EPSILON:
            return item.fill, ink_of(item.fill)
    return None


def ink_of(colour: str) -> float:
    inks = written_inks(colour)
    if inks is not None:
        return sum(float(ink) for ink in inks) / 100
    red, green, blue = (int(colour[index:index + 2], 16) / 255 for index in (1, 3, 5))
    return sum(separate(red, green, blue, INK_LIMIT))


def report_ink_hungry_back(ctx: LayoutContext, deck: str, back: Face | None, saver: Face | None,
                           back_mark: SourceMark, saver_mark: SourceMark) -> None:
    editions = ctx.source.game.editions
    if saver is not None:
        if not any(edition.ink_saver for edition in editions.values()) and ctx.once("saver-unbuilt", deck):
            ctx.problems.warn(saver_mark, f"deck '{deck}' has an ink_saver_back that no edition builds",
                              "set ink_saver: true on the editions in game.yaml that offer cards-ink-saver.pdf")
        return
    flood = flooding_ink(back) if back is not None else None
    if flood is None or flood[1] < INK_HUNGRY or not ctx.once("ink-hungry-back", deck):
        return
    fill, ink = flood
    ctx.problems.warn(back_mark, f"deck '{deck}': its back is {fill} to the bleed edge ({ink:.0%} ink over the "
                                 "whole card) and the deck has no ink_saver_back for home printers",
                      "add an ink_saver_back (a light back: an outline, the game's mark, the deck's name) and "
                      "ink_saver: true on the edition in game.yaml: the kit then says to print cards-ink-saver.pdf")
