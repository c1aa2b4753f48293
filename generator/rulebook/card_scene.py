"""A card figure's arrangement: real faces of the game (cards, tokens) in groups side by side — a hand, a trick,
a face-up row — with what the figure marks on them (a highlight, a cross, a count, a label) and arrows from card
to card, resolved from rules.yaml. card_figure.py draws it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

from generator.components.piece import Face
from generator.components.pieces import LaidOutSet
from generator.content.rules_schema import CardGroup
from generator.content.rules_schema import Figure as FigureSpec
from generator.errors import SourceMark
from generator.rulebook.board_scene import piece_face


@dataclass(frozen=True)
class ArrangedCard:
    face: Face
    highlight: bool = False
    cross: bool = False
    count: int | None = None
    label: str = ""


@dataclass(frozen=True)
class FaceGroup:
    label: str
    cards: tuple[ArrangedCard, ...]


@dataclass(frozen=True)
class CardArrangement:
    groups: tuple[FaceGroup, ...]
    layout: str                                  # 'row' or 'hand'
    arrows: tuple[tuple[int, int, bool], ...]    # from card, to card (0-based across the groups), dashed

    @property
    def cards(self) -> tuple[ArrangedCard, ...]:
        return tuple(card for group in self.groups for card in group.cards)


def has_cards(spec: FigureSpec) -> bool:
    return spec.cards is not None or spec.groups is not None


def card_arrangement(spec: FigureSpec, sets: dict[str, list[LaidOutSet]], words: Callable[..., str],
                     mark: Callable[..., SourceMark], problem: Callable[[SourceMark, str, str], None]) \
        -> CardArrangement | None:
    """The figure's groups of faces (`cards` is one group without a label), or None where no card of it is there
    (each missing one reported where it is written)."""
    if spec.cards is not None and spec.groups is not None:
        problem(mark("cards"), "a figure has either cards (one group) or groups, not both", "keep one of the two")
        return None
    written = [CardGroup(label=None, cards=spec.cards)] if spec.cards is not None else list(spec.groups or [])
    inside: tuple = ("cards",) if spec.cards is not None else ("groups",)
    groups, missing = [], False
    for group_index, group in enumerate(written):
        at = inside if spec.cards is not None else inside + (group_index, "cards")
        cards = []
        for index, card in enumerate(group.cards):
            where = mark(*at, index, "card")
            face = piece_face(card.card, sets, partial(problem, where))
            if face is None:
                missing = True
                continue
            label = words(card.label, *at, index, "label") if card.label else ""
            cards.append(ArrangedCard(face, card.highlight, card.cross, card.count, label))
        label = words(group.label, *inside, group_index, "label") if group.label else ""
        groups.append(FaceGroup(label, tuple(cards)))
    if missing:              # each told where it is written; the figure is not drawn without them
        return None
    count = sum(len(group.cards) for group in groups)
    arrows = []
    for index, arrow in enumerate(spec.arrows):
        if arrow.from_ > count or arrow.to > count:
            problem(mark("arrows", index), f"an arrow from card {arrow.from_} to card {arrow.to}, and the figure "
                    f"has {count} card(s)", "number the cards from 1, in order across the groups")
            continue
        arrows.append((arrow.from_ - 1, arrow.to - 1, arrow.dashed))
    return CardArrangement(tuple(groups), spec.layout, tuple(arrows))
