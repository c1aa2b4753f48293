"""A card figure drawn from its arrangement (card_scene.py): groups of real faces side by side, each group's label
under it — cards in a row, or overlapping as a hand is held — a card framed, crossed out or counted (×N), a
word under a card, and arrows bowed over the cards from one to another.

The faces are the game's own display lists at one scale (a poker card and a mini card keep their sizes to each
other), at most CARD_SCALE of their real size and as large as the width allows."""

from __future__ import annotations

from generator.components.piece import Ellipse, Group, Item, Line, Rect
from generator.rulebook.board_figure import INK, PAPER, RED, Label, arrow_items
from generator.rulebook.board_scene import Arrow, Point
from generator.rulebook.card_scene import CardArrangement
from generator.rulebook.figures import FRAME_COLOUR, FRAME_WIDTH, Drawn
from generator.units import pt_to_mm

CARD_SCALE = 0.5              # a card at most half its real size: a poker card 31.5 mm wide
CARD_GAP, GROUP_GAP = 2.0, 7.0     # mm between cards of a row, between groups
HAND_STEP = 0.42              # a hand's card shows this share of its width beside the next
LABEL_SIZE, CARD_LABEL_SIZE = 7.5, 6.5     # pt
LABEL_ROOM = 4.6              # mm under a group (or a card) for its one-line label
LABEL_GAP = 1.4               # mm between the cards' foot and the labels: clear of a highlight's frame
ARROW_ROOM = 7.0              # mm over the cards for arrows bowed between them
COUNT_DISC = 5.2              # mm: the ×N badge
CROSS, FRAME = 0.9, 0.8       # mm: a cross's and a highlight's line


class CardArrangementDrawing(Drawn):
    """The groups side by side, centred in `width` (mm); its height follows from the cards' scale."""

    def __init__(self, arrangement: CardArrangement, width: float, label: Label, rtl: bool = False,
                 most: float = CARD_SCALE):
        self.arrangement, self.label, self.rtl = arrangement, label, rtl
        natural = self._row_width(1.0)
        gaps = self._row_width(0.0)
        self.scale = min(most, (width - gaps) / (natural - gaps)) if natural > gaps else most
        cards = arrangement.cards
        self.card_height = max(card.face.height for card in cards) * self.scale
        self.card_labels = any(card.label for card in cards)
        self.group_labels = any(group.label for group in arrangement.groups)
        self.top = ARROW_ROOM if arrangement.arrows else (COUNT_DISC / 2 if any(c.count for c in cards) else 0.0)
        labels = self.card_labels + self.group_labels
        height = self.top + self.card_height + (LABEL_GAP + LABEL_ROOM * labels if labels else FRAME)
        super().__init__(self._row_width(self.scale), height)

    def _group_width(self, group, scale: float) -> float:
        widths = [card.face.width * scale for card in group.cards]
        if self.arrangement.layout == "hand":
            return sum(width * HAND_STEP for width in widths[:-1]) + widths[-1]
        return sum(widths) + CARD_GAP * (len(widths) - 1)

    def _row_width(self, scale: float) -> float:
        groups = self.arrangement.groups
        return sum(self._group_width(group, scale) for group in groups) + GROUP_GAP * (len(groups) - 1)

    def items(self, x: float, y: float, scale: float = 1.0) -> list[Item]:
        s = self.scale * scale
        hand = self.arrangement.layout == "hand"
        width = self.width * scale
        top = y + self.top * scale
        below = top + self.card_height * scale          # the cards' foot: they stand on one line

        def mirrored(left: float, w: float) -> float:   # a right-to-left book's first card stands at the right
            return x + width - (left - x) - w if self.rtl else left

        items: list[Item] = []
        frames: list[tuple[float, float, float, float]] = []      # each card's, in order across the groups
        left = x
        for group in self.arrangement.groups:
            start = left
            for index, card in enumerate(group.cards):
                w, h = card.face.width * s, card.face.height * s
                frames.append((mirrored(left, w), below - h, w, h))
                last = index == len(group.cards) - 1
                left += w if last else w * HAND_STEP if hand else w + CARD_GAP
            placed = list(zip(group.cards, frames[-len(group.cards):], strict=True))
            for index, (card, frame) in enumerate(placed):
                # a hand's cards under the next show only their corners: their words are not read back
                items += self._card(card, frame, read=not hand or index == len(placed) - 1)
                if card.label:
                    items += self.label(card.label, CARD_LABEL_SIZE, "bold", INK, frame[0] + frame[2] / 2,
                                        below + LABEL_GAP + LABEL_ROOM / 2)
            items += _highlights(placed)
            if group.label:
                centre = mirrored(start, left - start) + (left - start) / 2
                items += self.label(group.label, LABEL_SIZE, "bold", INK, centre,
                                    below + LABEL_GAP + LABEL_ROOM * self.card_labels + LABEL_ROOM / 2)
            left += GROUP_GAP
        for start_card, end_card, dashed in self.arrangement.arrows:
            a, b = frames[start_card], frames[end_card]
            begin: Point = (a[0] + a[2] / 2, a[1] - 0.6)
            end: Point = (b[0] + b[2] / 2, b[1] - 0.6)
            bend = -0.3 if end[0] > begin[0] else 0.3         # bowed upwards, whichever way it goes
            items += arrow_items([begin, end], Arrow((), False, dashed, False, bend, None), (None, None))
        return items

    def _card(self, card, frame, read: bool = True) -> list[Item]:
        x, y, w, h = frame
        face = card.face
        items: list[Item] = [Group(x, y, w, h, face.width, face.height, 0, face.items, read=read),
                             Rect(x, y, w, h, stroke=FRAME_COLOUR, stroke_width=pt_to_mm(FRAME_WIDTH))]
        if card.cross:
            for width, colour in ((CROSS * 2.2, PAPER), (CROSS, RED)):
                items.append(Line(x + 1, y + 1, w - 2, h - 2, stroke=colour, stroke_width=width))
                items.append(Line(x + w - 1, y + 1, -(w - 2), h - 2, stroke=colour, stroke_width=width))
        if card.count:
            cx, cy = x + w - COUNT_DISC * 0.35, y + COUNT_DISC * 0.1
            items.append(Ellipse(cx - COUNT_DISC / 2, cy - COUNT_DISC / 2, COUNT_DISC, COUNT_DISC, fill=RED,
                                 stroke=PAPER, stroke_width=0.3))
            items += self.label(f"×{card.count}", 7.0, "black", PAPER, cx, cy)
        return items



def _highlights(placed: list) -> list[Item]:
    """One red frame round each run of highlighted cards side by side (a hand's overlapping pair is framed as
    one), drawn over the cards."""
    items: list[Item] = []
    run: list[tuple[float, float, float, float]] = []
    for card, frame in placed + [(None, None)]:
        if card is not None and card.highlight:
            run.append(frame)
            continue
        if run:
            left, top = min(f[0] for f in run), min(f[1] for f in run)
            right, bottom = max(f[0] + f[2] for f in run), max(f[1] + f[3] for f in run)
            items.append(Rect(left - FRAME, top - FRAME, right - left + 2 * FRAME, bottom - top + 2 * FRAME,
                              stroke=RED, stroke_width=FRAME, radius=FRAME * 2))
            run = []
    return items
