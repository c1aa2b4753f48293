"""Decks of one edition and language expanded into physical cards with laid-out faces."""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.context import LayoutContext
from generator.components.faces import Subject, layout_face
from generator.components.piece import Face, PieceCopy
from generator.content.game import card_count


@dataclass(frozen=True)
class LaidOutDeck:
    id: str
    copies: tuple[PieceCopy, ...]
    ink_saver_back: Face | None


def layout_decks(ctx: LayoutContext) -> list[LaidOutDeck]:
    """Every card of the edition, each distinct face laid out once and shared by its copies."""
    source = ctx.source
    decks: list[LaidOutDeck] = []
    if source.cards is None or source.templates is None:
        return decks
    for deck_index, deck in enumerate(source.cards.decks):
        front_template = source.templates.resolve(deck.template)
        back_template = source.templates.resolve(deck.back)
        saver_template = source.templates.resolve(deck.ink_saver_back) if deck.ink_saver_back else None
        if front_template is None or back_template is None:
            continue
        deck_fields = {"deck": deck.name, **deck.fields}

        def deck_mark(name: str, _index=deck_index):
            return source.deck_mark(_index, "fields", name) if name != "deck" else source.deck_mark(_index, "name")

        back_subject = Subject(f"deck {deck.id}, back", deck_fields, deck_mark)
        prefix = f"{source.id}/{ctx.edition}/{ctx.lang}/{deck.id}"
        back = layout_face(back_template, back_subject, ctx, f"{prefix}/back")
        saver = (layout_face(saver_template, back_subject, ctx, f"{prefix}/back-ink-saver")
                 if saver_template is not None else None)
        copies: list[PieceCopy] = []
        for card_index, card in enumerate(deck.cards):
            count = card_count(deck, card_index, ctx.edition)
            if count == 0:
                continue

            def card_mark(name: str, _deck=deck_index, _card=card_index, _fields=card.fields):
                if name in _fields:
                    return source.deck_mark(_deck, "cards", _card, "fields", name)
                return deck_mark(name)

            subject = Subject(f"deck {deck.id}, card {card.id}", {**deck_fields, "id": card.id, **card.fields},
                              card_mark)
            front = layout_face(front_template, subject, ctx, f"{prefix}/{card.id}")
            for _ in range(count):
                copies.append(PieceCopy(deck.id, card.id, len(copies) + 1, front, back))
        decks.append(LaidOutDeck(deck.id, tuple(copies), saver))
    return decks
