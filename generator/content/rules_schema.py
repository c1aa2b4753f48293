"""The shape of rules.yaml, as pydantic models (the rest of the content files: schema.py).

Kept apart so that only a game with a rulebook pays for creating these classes (~4 ms of
every other build's start): the game loader imports this module only for a game with rules.yaml,
and the JSON Schema writer and the rulebook stage import it themselves. It builds on schema.py;
schema.py never imports it.
"""

from __future__ import annotations

from typing import Annotated, Any, List, Literal

from pydantic import AfterValidator, BeforeValidator, Field

from generator.content.schema import MAX_SIZE, Strict, length_json
from generator.units import length_in, number_in

FigureWidth = Annotated[float, BeforeValidator(length_in(0.0, 200.0, above=True, what="a figure's width")),
                        length_json()]


class Shown(Strict):
    """Blocks, rows and sections may be limited to editions and carry the edition badge."""

    editions: list[str] | None = Field(None, description="Only in these editions.")
    badge: bool = Field(False, description="Print the game's edition badge (game.full_badge) beside it.")


class TableRow(Shown):
    cells: list[Any]


class RulesTable(Strict):
    header: list[str] = Field(default_factory=list, description="Translation keys of the column heads.")
    widths: list[Annotated[float, AfterValidator(number_in(0, 1000, above=True, what="a relative width"))]] | None = \
        Field(None, description="Relative column widths.")
    rows: list[list[Any] | TableRow] = Field(
        description="Cells: a translation key, a number, or {count: set} / {count: set.piece}.")


class CardFigure(Strict):
    deck: str
    card: str


Margin = Annotated[float, BeforeValidator(length_in(0.0, 200.0, what="a region's margin")), length_json()]
# a region's corner and size, in mm on the board (a board is at most MAX_SIZE, 1 m, across)
OnBoard = Annotated[float, BeforeValidator(length_in(0.0, MAX_SIZE, what="a region's position or size on the board")),
                    length_json()]
Scale = Annotated[float, AfterValidator(number_in(0.0, 4.0, above=True, what="a figure's scale"))]
SPACE_NAME = ("A space of the board: 'track.5' (the 5th cell of its cells box 'track'), 'track.start' (the cell "
              "whose id is start), 'map.minsk' (a node of its network box 'map'), 'players.2/trees.3' (a cell of "
              "a cell).")


class Region(Strict):
    """The part of a board a figure shows: the spaces it must hold (with a margin round them), or a rectangle."""

    spaces: list[str] | None = Field(None, description="Spaces the region holds: " + SPACE_NAME)
    margin: Margin = Field(4.0, description="Board around those spaces (default 4mm).")
    x: OnBoard | None = Field(None, description="A rectangle of the board instead: its left edge, mm from the "
                                                "trim's.")
    y: OnBoard | None = None
    width: OnBoard | None = None
    height: OnBoard | None = None


class PlacedPiece(Strict):
    piece: str = Field(description="set/piece: a pawn, token or card of the game's YAML, e.g. pawns/red.")
    on: str = Field(description=SPACE_NAME)


class Move(Strict):
    along: list[str] = Field(min_length=2, description="The spaces the move goes through, in order; between two "
                                                       "spaces of one cells box it follows the box's cells (round "
                                                       "a loop forward, or backward).")
    backward: bool = Field(False, description="Round a loop backwards (a move back 4).")
    steps: bool = Field(True, description="Number each space entered (a slide: false).")
    jump: bool = Field(False, description="Straight from space to space as listed, not along the cells, and "
                                          "not numbered (a swap, a pawn sent back to Start).")
    dashed: bool = Field(False, description="A dashed line (a slide, a swap).")
    both_ends: bool = Field(False, description="An arrowhead at each end (a swap).")
    bend: Annotated[float, AfterValidator(number_in(-1, 1, what="a bend"))] = Field(
        0.0, description="A jump between two spaces bowed sideways by this share of its length.")
    colour: str | None = Field(None, description="A palette name or #rrggbb (default the rulebook's red).")


class Marker(Strict):
    on: str = Field(description=SPACE_NAME)
    text: str = Field(description="A translation key: the note printed under the figure by the marker's number.")


class ArrangedCard(Strict):
    card: str = Field(description="deck/card (or set/piece): a card of the game's YAML, e.g. deck/swans.")
    highlight: bool = Field(False, description="Framed in the rulebook's red (the card that wins, the one to play).")
    cross: bool = Field(False, description="Crossed out (a card that cannot be played).")
    count: int | None = Field(None, ge=2, le=99, description="A badge ×N: this card stands for N alike.")
    label: str | None = Field(None, description="A translation key: a word under the card.")


class CardGroup(Strict):
    label: str | None = Field(None, description="A translation key: the group's words under it (a player's name).")
    cards: list[ArrangedCard] = Field(min_length=1)


class CardArrow(Strict):
    from_: int = Field(alias="from", ge=1, description="The card it starts at, numbered from 1 across the groups.")
    to: int = Field(ge=1, description="The card it points at.")
    dashed: bool = False


class Figure(Strict):
    card: CardFigure | None = Field(None, description="A card drawn from its template.")
    cards: list[ArrangedCard] | None = Field(None, description="Real faces side by side (a hand, a trick, a row).")
    groups: list[CardGroup] | None = Field(None, description="Groups of faces side by side, each with its label "
                                                            "(the cards each player played).")
    layout: Literal["row", "hand"] = Field("row", description="row: cards side by side; hand: overlapping, fanned "
                                                              "out as held.")
    arrows: list[CardArrow] = Field(default_factory=list, description="Arrows from card to card.")
    board: str | None = Field(None, description="A board id (or a sheet's: sheets.yaml): drawn whole, or its "
                                                "region with pieces and moves.")
    art: str | None = Field(None, description="An art file.")
    caption: str | None = None
    width: FigureWidth | None = Field(
        None, description="The figure's printed width (default: a card at its real size, at most a third of the "
                          "text's width, cards in a row side by side; a board or art the text's width).")
    scale: Scale | None = Field(None, description="A board figure at this share of the board's real size "
                                                  "(instead of a width).")
    region: Region | None = Field(None, description="Only this part of the board.")
    overview: Literal["top-left", "top-right", "bottom-left", "bottom-right"] | None = Field(
        None, description="A close-up's small picture of the whole board in this corner, the region marked on it.")
    pieces: list[PlacedPiece] = Field(default_factory=list, description="Pieces drawn on spaces of the board.")
    moves: list[Move] = Field(default_factory=list, description="Arrows from space to space.")
    highlight: list[str] = Field(default_factory=list, description="Spaces ringed: " + SPACE_NAME)
    marks: list[str] = Field(default_factory=list, description="Spaces filled in as a player's pencil does (the "
                                                               "cells of a roll-and-write sheet): " + SPACE_NAME)
    callouts: list[Marker] = Field(default_factory=list, description="Numbered markers on spaces, each with its "
                                                                     "note under the figure.")


class FaqEntry(Shown):
    q: str
    a: str


class Block(Shown):
    """Exactly one of the content keys below."""

    paragraph: str | None = None
    list: str | None = Field(None, description="One key whose lines are '- item' or '1. item'.")
    subheading: str | None = None
    table: RulesTable | None = None
    callout: "Callout | None" = None
    faq: "List[FaqEntry] | None" = None   # typing.List: the field `list` shadows the builtin here
    figure: Figure | None = None


class Callout(Strict):
    title: str | None = None
    blocks: list[Block]


class Section(Shown):
    heading: str
    blocks: list[Block] = Field(default_factory=list)


class Cover(Strict):
    """The rulebook's cover: a band with the title, an illustration from the game's own art, the edition
    and the game's facts (players, age, playing time)."""

    title: str
    tagline: str | None = None
    age: str | None = Field(None, description="Translation key of the age; default: game.yaml `age`.")
    time: str | None = Field(None, description="Translation key of the playing time; default: game.yaml "
                                               "`play_time`.")
    art: str | list[str] | None = Field(None, description="Art files drawn in the illustration, in front of "
                                                          "the cards.")
    background: str | None = Field(None, description="The page's colour: a palette name, '#rrggbb' or "
                                                     "'cmyk(...)' (default: a light cream).")
    band: str | None = Field(None, description="The title band's colour (default: the rulebook's red).")
    cards: list[CardFigure] | None = Field(
        None, description="Cards fanned across the illustration (default: the first card of each deck, up to 5; "
                          "[] for none).")
    board: str | None = Field(None, description="A board id, drawn behind the cards (faded into the page).")


class BackCover(Strict):
    """The booklet's back cover: a page of its own after the rules, on the outside back of the folded booklet,
    where the booklet's sheets leave a spare page."""

    blocks: list[Block] = Field(min_length=1, description="What it says, as a section's blocks: a turn in "
                                                          "brief, what another edition adds …")
    credits: str | None = Field(None, description="Translation key of the credits, in small type at the foot.")
    always: bool = Field(False, description="Print it even where the rules fill their sheets (it then takes a "
                                            "sheet of its own, with three blank pages).")


class PlayerAid(Strict):
    """A player aid: a card of the rules in brief (a turn, what each card does), set from the rulebook's own
    blocks and printed with the cards."""

    title: str = Field(description="Translation key of its title, in the band at its top.")
    blocks: list[Block] = Field(min_length=1, description="What it says, as a section's blocks.")
    copies: int = Field(1, ge=1, le=20, description="How many are printed (one a player, say).")
    width: FigureWidth = Field(63.0, description="Its size (default a poker card, 63 × 88 mm).")
    height: FigureWidth = 88.0


class Rulebook(Strict):
    leaflet: bool = Field(False, description="A short leaflet: title on the first page, no cover page "
                                             "and no table of contents.")
    icons: dict[str, str] = Field(default_factory=dict, description="Inline icons, written :name: in texts.")
    cover: Cover
    sections: list[Section] = Field(min_length=1)
    back_cover: BackCover | None = None
    player_aid: PlayerAid | None = None


class RulesFile(Strict):
    rulebook: Rulebook
