"""The shape of every content file, as pydantic models: the schema is the documentation.

Lengths accept units ('63mm', '2.5in', '9pt'); bare numbers are millimetres,
except font sizes, which are points. Values written '@name' refer to a field of
the card being drawn; anything else in a text slot is a translation key.
"""

from __future__ import annotations

import difflib
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Literal, Mapping, Union, get_args

from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag,
                      ValidationInfo, WithJsonSchema, field_validator, model_validator)

from generator.content.colours import COLOUR_FORMS, colour_problem, written_as_colour
from generator.errors import abridged
from generator.print_facts import SHEET_MAX_SIZE
from generator.units import MAX_FONT_SIZE, MAX_LENGTH, OutOfRange, length_in, number_in

_LENGTH_JSON = MappingProxyType({
    "anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?\d*\.?\d+\s*(mm|cm|in|pt)?$"}],
    "description": "A length: 63mm, 2.5in, 9pt, 1cm or a number of millimetres."})


def length_json() -> WithJsonSchema:
    """The JSON Schema of every length: the plain length form, whatever range the model keeps it in."""
    return WithJsonSchema(dict(_LENGTH_JSON))


MAX_SIZE = 1000.0    # mm: a template's width and height (the largest real board: 600 × 420 mm; previews
                     # render whole faces, 1 m at 100 dpi is already 15 million pixels)
MAX_BLEED = 25.0     # mm: print shops ask 3 mm (1/8 in); more only makes huge print-shop PNGs
MAX_SAFE = 100.0     # mm: shared cards use 4 mm

# Every length is finite and in a range no real game leaves: NaN, 1e30 or a negative
# width would otherwise reach the PDF (or a 40,000-pixel PNG) before anyone noticed.
# (Each is written out as an Annotated alias, not made by a function, so a type checker reads it as a type.)
Length = Annotated[float, BeforeValidator(length_in(0.0, MAX_LENGTH)), length_json()]   # widths, gaps, strokes
Position = Annotated[float, BeforeValidator(length_in(-MAX_LENGTH, MAX_LENGTH, what="a position")),
                     length_json()]                                   # x and y: boxes reach into the bleed
Extent = Annotated[float, BeforeValidator(length_in(0.0, MAX_SIZE, above=True, what="a size")),
                   length_json()]                                     # a template's width and height
Bleed = Annotated[float, BeforeValidator(length_in(0.0, MAX_BLEED)), length_json()]
SafeMargin = Annotated[float, BeforeValidator(length_in(0.0, MAX_SAFE)), length_json()]
HaloWidth = Annotated[float, BeforeValidator(length_in(None, MAX_LENGTH)), length_json()]   # gt=0 beside it
MAX_CELLS = 2_000    # cells a face may hold, cells inside cells included (the longest real track: 100)
MAX_REPEAT = 1_000   # copies of one art in a row (real games: 6)
MAX_DASH = 16        # numbers in a dash pattern


def _count_at_most(limit: int, what: str):
    """Whole numbers (where the value may also be '@field') up to `limit`: a count of 10^9 is a typo."""
    def check(value):
        if isinstance(value, int) and not isinstance(value, bool) and value > limit:
            raise OutOfRange(f"expected {what} of at most {limit:,}, got {value:,}",
                             f"no real game comes near {limit:,}; check for a typo")
        return value
    return AfterValidator(check)


def _dash(pattern: list[float] | None) -> list[float] | None:
    """A dash pattern the PDF accepts: a few lengths, none negative, not all zero."""
    if pattern is None:
        return None
    if len(pattern) > MAX_DASH or any(not 0 <= value <= MAX_LENGTH for value in pattern) or \
            (pattern and sum(pattern) <= 0):
        # a pattern past MAX_DASH is said by its length: its 100,000 numbers made a 300 KB message
        got = (f"{len(pattern):,} lengths" if len(pattern) > MAX_DASH
               else f"[{', '.join(f'{value:g}' for value in pattern)}]")
        raise OutOfRange(f"a dash pattern is up to {MAX_DASH} lengths from 0 to {MAX_LENGTH:,g} mm, "
                         f"not all 0, got {got}", "such as dash: [3, 1.5] (3 mm dashes, 1.5 mm gaps)")
    return pattern


def _colour(value: str) -> str:
    """A value that must be a colour itself (a game's palette)."""
    problem = colour_problem(value)
    if problem is not None:
        raise OutOfRange(f"{abridged(value)} {problem}", f"write {COLOUR_FORMS}")
    return value


def _colour_or_name(value: str) -> str:
    """A value naming a colour: a palette name or '@field' is looked up in layout, but one written
    as a colour is checked here, where it is written ('cmyk(1.2.3, 0, 0, 0)' reached the drawing)."""
    return _colour(value) if written_as_colour(value) else value


Colour = Annotated[str, AfterValidator(_colour)]
ColourRef = Annotated[str, AfterValidator(_colour_or_name)]
Coordinate = Annotated[float, AfterValidator(number_in(-MAX_LENGTH, MAX_LENGTH, what="a coordinate in mm"))]

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
LANG_PATTERN = r"^[a-z]{2,3}(-[A-Za-z0-9]+)?$"


class Strict(BaseModel):
    """Unknown keys are errors (a typo must not pass silently); models are frozen.

    A model's validator is built when it is first used, not when this module is imported:
    building all of them cost ~20 ms of every build's start, and a build uses those of the
    files its games have (a deck-only game never builds the rulebook's, boards' or sheets').
    Forward references ('Network', rules_schema's 'Callout') are resolved then, from their module's names.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


# a zero or negative size draws nothing, silently: refuse it here (gt), and a huge one too
Points = Annotated[float, BeforeValidator(length_in(None, MAX_FONT_SIZE, what="a font size", unit="pt")),
                   Field(gt=0),
                   WithJsonSchema({**_LENGTH_JSON, "description": "A font size: 9pt, or a number of points."})]


# ---------------------------------------------------------------- the game format

# game.yaml `format:` names the format a game is written in. A game without the line was written
# before it existed (format 1: every release up to the one that added it); generator/upgrade.py's
# docstring lists what changed from each format to the next, and `pnp upgrade GAME` rewrites a game
# of an older format into this one.
FIRST_FORMAT = 1
FORMAT = 2

MIN_GAME_TEXT = 6.0       # pt: the smallest game text (on a card, token, pawn, board or sheet) by default
LOWEST_TEXT_FLOOR = 4.0   # pt: the least a game may lower that floor to (game.yaml min_text_size): below
                          # 4 pt print-and-play paper and home printers lose the letters' counters



def _text_floor(value: object) -> float:
    """game.yaml min_text_size: a font size from LOWEST_TEXT_FLOOR up to the default floor."""
    size = length_in(None, MAX_FONT_SIZE, what="a font size", unit="pt")(value)
    if not LOWEST_TEXT_FLOOR - 1e-9 <= size <= MIN_GAME_TEXT + 1e-9:
        raise OutOfRange(f"expected a font size from {LOWEST_TEXT_FLOOR:g} to {MIN_GAME_TEXT:g} pt (it lowers the "
                         f"{MIN_GAME_TEXT:g} pt floor of game text), got {size:g} pt",
                         f"write a size from {LOWEST_TEXT_FLOOR:g}pt to {MIN_GAME_TEXT:g}pt, such as 5pt, or "
                         "leave it out for the default")
    return round(size, 6)      # '6pt' is 6 pt, not 6.000000000000001 (a millimetre round trip)


TextFloor = Annotated[float, BeforeValidator(_text_floor),
                      WithJsonSchema({**_LENGTH_JSON, "description": "A font size: 5pt, or a number of points."})]


# ---------------------------------------------------------------- game.yaml

# Each edition × language is a target built in full (cards, rules, kit, print-shop files for both
# papers): 1,000 editions cost 0.25 s each even for a one-card game, and a real game's target takes
# seconds. The shipped games have 1-2 editions and 2 languages; the caps leave room for a long
# product line (standard, deluxe, promos, reprints) and for more translations than any game ships.
MAX_EDITIONS = 100
MAX_LANGUAGES = 100
MAX_TARGETS = 500         # editions × languages: a whole-game build of the one-card game ~45 s on 2 cores


class Edition(Strict):
    name: str = Field(description="Translation key of the edition's display name.")
    players: str = Field("", description="Player count shown on covers, e.g. '2–4'.")
    ink_saver: bool = Field(False, description="Also build cards-ink-saver.pdf with light backs.")
    print_shop: bool = Field(True, description="Also build the print-shop files (bleed, TrimBox, PNGs); "
                                               "false for an edition that does not offer them.")


class ToldApart(Strict):
    """Pieces of a set, or spaces of a board, that differ only by colour and that players tell apart all the
    same (`pnp check --preflight` then reports them as accepted, with the reason)."""

    set: str | None = Field(None, pattern=ID_PATTERN, description="A deck's, token set's or pawn set's id.")
    board: str | None = Field(None, pattern=ID_PATTERN, description="A board's id: its spaces.")
    because: str = Field(min_length=1, max_length=400, description="How players tell them apart.")

    @model_validator(mode="after")
    def _names_one(self) -> "ToldApart":
        if (self.set is None) == (self.board is None):
            raise OutOfRange("name one set or one board", "write {set: pawns, because: ...} or "
                                                          "{board: main, because: ...}")
        return self


class FontFile(Strict):
    """A font shipped in the game folder (TTF, OTF or a TTC/OTC collection; CFF outlines are converted)."""

    regular: str
    bold: str | None = None
    italic: str | None = None
    bold_italic: str | None = None
    face: Annotated[int, Field(ge=0)] | str | None = Field(
        None, description="In a font collection (TTC, OTC): which of its fonts, by index (0 is the first) or "
                          "name, e.g. 'Noto Sans CJK JP' (a family name takes the font of each style); "
                          "default the first.")


class LineBreakRules(Strict):
    """Extra line-breaking rules of one language, added to the engine's table for it."""

    no_break_after: list[str] = Field(
        default_factory=list,
        description="Words a line never ends with (short prepositions, one-letter words); any case matches.")


class Game(Strict):
    format: int = Field(
        FIRST_FORMAT, strict=True, json_schema_extra={"minimum": FIRST_FORMAT, "maximum": FORMAT},
        description=f"The game format the files are written in ({FORMAT} for this pnp; none: {FIRST_FORMAT}, the "
                    f"format before this line existed). `pnp upgrade GAME` rewrites an older game and sets it.")
    id: str = Field(pattern=ID_PATTERN, description="Folder-safe identifier of the game.")
    title: str = Field(description="Translation key of the game's title.")
    languages: list[Annotated[str, Field(pattern=LANG_PATTERN)]] = Field(
        min_length=1, max_length=MAX_LANGUAGES,
        description="Languages with a catalog in i18n/; the first is the source.")
    editions: dict[Annotated[str, Field(pattern=ID_PATTERN)], Edition] = Field(
        min_length=1, max_length=MAX_EDITIONS,
        description=f"Editions by id; single-edition games use 'standard'. Editions × languages: "
                    f"at most {MAX_TARGETS}.")
    fonts: dict[str, Annotated[list[str], Field(min_length=1)]] = Field(
        default_factory=dict,
        description="Font stacks by name: built-in families or names of font_files; "
                    "each character is drawn with the first font of the stack that has it. "
                    "'body@ka' is the stack 'body' in Georgian (a language's own digits and punctuation).")
    font_files: dict[str, FontFile] = Field(default_factory=dict,
                                            description="The game's own fonts, by family name.")
    palette: dict[str, Colour] = Field(default_factory=dict,
                                       description="Named colours: '#rrggbb', or 'cmyk(c, m, y, k)' in percent.")
    fields: dict[str, Any] = Field(
        default_factory=dict,
        description="Fields every card, token, pawn, board and sheet sees (their own fields of the same "
                    "name win): data several components share, such as a map's outline.")
    icons: dict[Annotated[str, Field(pattern=r"^[a-z0-9_-]+$")], str] = Field(
        default_factory=dict,
        description="Inline icons by name: art files (SVG or PNG) written {icon:name} in any text of any "
                    "catalog, drawn at the text's size on its baseline.")
    age: str = Field("", description="Translation key (or text) of the players' age, e.g. '6+', for covers.")
    play_time: str = Field("", description="Translation key (or text) of a game's length, e.g. '20–30 min', "
                                           "for covers.")
    told_apart: list[ToldApart] = Field(
        default_factory=list, max_length=100,
        description="Pieces or spaces that differ only by colour, and how players tell them apart anyway "
                    "(the colour-vision check of pnp check --preflight).")
    linebreak: dict[str, LineBreakRules] = Field(
        default_factory=dict,
        description="Line-breaking rules added to the engine's, per language: "
                    "{ru: {no_break_after: [на, по]}}.")
    min_text_size: TextFloor | None = Field(
        None, description=f"The smallest game text on cards, tokens, pawns, boards and sheets (default "
                          f"{MIN_GAME_TEXT:g}pt): a game lowers it deliberately, down to {LOWEST_TEXT_FLOOR:g}pt; "
                          f"text below {MIN_GAME_TEXT:g} pt is then a warning of pnp check, not an error.")

    @field_validator("format")
    @classmethod
    def _known_format(cls, written: int) -> int:
        if written > FORMAT:
            raise OutOfRange(f"game format {written} is newer than this pnp's (format {FORMAT})",
                             "install the pnp the game was written for, or a later one")
        if written < FIRST_FORMAT:
            raise OutOfRange(f"game formats start at {FIRST_FORMAT}, got {written}",
                             f"write format: {FORMAT}, or run pnp upgrade GAME")
        return written

    @property
    def text_floor(self) -> float:
        """The smallest size game text is set at: min_text_size, else MIN_GAME_TEXT. Format 1 had no
        floor: a game of format 1 is set down to LOWEST_TEXT_FLOOR, as it printed (with warnings)."""
        if self.min_text_size is not None:
            return self.min_text_size
        return LOWEST_TEXT_FLOOR if self.format < FORMAT else MIN_GAME_TEXT

    @field_validator("languages")
    @classmethod
    def _each_language_once(cls, languages: list[str]) -> list[str]:
        repeated = sorted({lang for lang in languages if languages.count(lang) > 1})
        if repeated:
            raise OutOfRange(f"{', '.join(repeated)} listed more than once", "list each language once: each is "
                             "built as its own target, and the first is the source language")
        return languages

    @field_validator("editions")
    @classmethod
    def _targets_within_bound(cls, editions: dict[str, Edition], info: ValidationInfo) -> dict[str, Edition]:
        languages = info.data.get("languages") or ()
        if len(editions) * len(languages) > MAX_TARGETS:
            raise OutOfRange(f"{len(editions):,} editions in {len(languages):,} languages make "
                             f"{len(editions) * len(languages):,} targets to build, more than the {MAX_TARGETS} "
                             "a game may have", "each edition is built in every language: split the game "
                             "into several game folders, or check for a typo")
        return editions



# ---------------------------------------------------------------- cards.yaml

MAX_COPIES = 10_000
PositiveCount = Annotated[int, Field(strict=True, gt=0, le=MAX_COPIES)]


class Card(Strict):
    id: str = Field(pattern=ID_PATTERN, description="Unique within the deck.")
    count: PositiveCount | dict[str, PositiveCount] = Field(
        1, description="Copies: one number for every edition, or a number per edition id.")
    editions: list[str] | None = Field(
        None, description="Editions that include the card (default: all, or the keys of count).")
    fields: dict[str, Any] = Field(
        default_factory=dict,
        description="Values the template refers to as '@name': translation keys, art files, "
                    "colours, numbers, tables.")


class Standee(Strict):
    """A fold-over standee: base tab, front, fold, the back turned 180°, base tab."""

    base: Annotated[Length, Field(description="Depth of each base tab.")] = 12.0


class SheetSource(Strict):
    """A workbook's sheet whose rows are a set's entries."""

    file: str = Field(description="A spreadsheet in the game folder: .csv, .xlsx, .ods or .xls.")
    sheet: str | None = Field(None, description="The workbook's sheet (default: its first).")


EntriesFile = Annotated[str | SheetSource, Field(
    description="A spreadsheet in the game folder (.csv, .xlsx, .ods, .xls) whose rows are the entries: "
                "columns id, count (or count.<edition>), editions, one per field (field.sub for nested "
                "ones), field@lang for a language's text; or {file: data/x.xlsx, sheet: Name}.")]


def _entries_or_file(schema: dict[str, Any], model: type) -> None:
    """For editors: a set lists its entries or names a sheet of them (the loader fills the list from it)."""
    items = model.ITEMS  # type: ignore[attr-defined]
    schema["required"] = [key for key in schema.get("required", []) if key != items]
    schema["anyOf"] = [{"required": [items]}, {"required": [f"{items}_from"]}]


class PieceSet(Strict):
    """A group of pieces sharing a front template and a back: a deck, a token set, pawns."""

    model_config = ConfigDict(json_schema_extra=_entries_or_file)
    ITEMS: ClassVar[str] = "cards"

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(description="Translation key of the set's name (printed on backs).")
    title: str | None = Field(None, description="Translation key of the set's name in lists "
                                                "(the kit's contents); default: name.")
    template: str = Field(description="Template id of the fronts.")
    back: str | None = Field(None, description="Template id of the standard back.")
    ink_saver_back: str | None = Field(None, description="Template id of the ink-saver back.")
    fields: dict[str, Any] = Field(default_factory=dict,
                                   description="Fields every piece of the set has (pieces override).")

    @property
    def items(self) -> list[Card]:
        return getattr(self, self.ITEMS)

    @property
    def entries_file(self) -> str | SheetSource | None:
        """The spreadsheet the entries were read from (`cards_from`, `tokens_from`, `pawns_from`)."""
        return getattr(self, f"{self.ITEMS}_from")


class Deck(PieceSet):
    back: str = Field(description="Template id of the standard back.")
    cards: list[Card] = Field(min_length=1)
    cards_from: EntriesFile | None = None


class TokenSet(PieceSet):
    ITEMS: ClassVar[str] = "tokens"
    back: str = Field(description="Template id of the tokens' back.")
    butted: bool = Field(False, description="Butted chits: the set's tokens printed touching, one cut between "
                                            "two neighbours separating both, their bleed on the block's outer "
                                            "edges only (rectangular tokens only).")
    tokens: list[Card] = Field(min_length=1)
    tokens_from: EntriesFile | None = None


class PawnSet(PieceSet):
    ITEMS: ClassVar[str] = "pawns"
    standee: Standee = Field(default_factory=Standee)
    pawns: list[Card] = Field(min_length=1)
    pawns_from: EntriesFile | None = None


class CardsFile(Strict):
    decks: list[Deck] = Field(min_length=1)


class TokensFile(Strict):
    sets: list[TokenSet] = Field(min_length=1)


class PawnsFile(Strict):
    sets: list[PawnSet] = Field(min_length=1)


# ---------------------------------------------------------------- boards

class Board(Strict):
    """A board drawn from a template; `cells` boxes lay its tracks out from the fields."""

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(description="Translation key of the board's name.")
    template: str = Field(description="Template id of the whole board face.")
    fields: dict[str, Any] = Field(default_factory=dict)
    cell_types: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Fields shared by cells: a cell written as a type id gets that type's fields; "
                    "a cell {type: id, ...} gets them and adds its own.")


class BoardsFile(Strict):
    boards: list[Board] = Field(min_length=1)


# ---------------------------------------------------------------- templates

class Size(Strict):
    width: Extent
    height: Extent


DEFAULT_TEXT_SIZE = 9.0     # pt: a style's size when it names none
MAX_FEATURES = 32           # OpenType features a style may name


def _opentype_features(features: list[str]) -> list[str]:
    """A style's OpenType features: four-letter tags, '-' before one to turn it off."""
    if len(features) > MAX_FEATURES:
        raise OutOfRange(f"expected at most {MAX_FEATURES} features, got {len(features):,}",
                         "name the features the style needs (tnum, smcp, -liga …)")
    for feature in features:
        tag = feature[1:] if feature[:1] in "+-" else feature
        if len(tag) != 4 or not tag.isascii() or not tag.isalnum():
            raise OutOfRange(f"{abridged(feature)} is not an OpenType feature tag",
                             "write four letters or digits, e.g. tnum, smcp, ss01; -liga turns ligatures off")
    return features


class TextStyle(Strict):
    font: str | None = Field(None, description="Font stack name from game.yaml fonts.")
    size: Points | None = Field(None, description=f"Font size (points by default; {DEFAULT_TEXT_SIZE:g} pt "
                                                  "when left out).")
    min_size: Points | None = Field(None, description="Smallest size text may shrink to (at most `size`).")
    weight: Literal["regular", "bold", "black"] | None = None
    italic: bool | None = None
    color: ColourRef | None = None
    align: Literal["start", "end", "left", "center", "right"] | None = Field(
        None, description="start (the default) and end follow the paragraph's direction (start is the right "
                          "in Arabic or Hebrew); left, center and right are where they say in every language.")
    valign: Literal["top", "middle", "bottom"] | None = None
    features: Annotated[list[str], AfterValidator(_opentype_features)] | None = Field(
        None, description="OpenType features on top of HarfBuzz's defaults (kerning, ligatures, marks): "
                          "tnum (tabular numbers), onum, smcp, ss01 …; a leading '-' turns one off (-liga).")
    leading: Annotated[float, AfterValidator(number_in(0, 10, above=True, what="a line height (a multiple "
                                                                     "of the size)"))] | None = Field(
        None, description="Line height as a multiple of the size.")
    uppercase: bool | None = None
    halo: TextHalo | None = None
    hyphenate: bool | None = Field(
        None, description="Break words at hyphenation points (pyphen) at line ends. Default: true for boxes "
                          "with room for three lines or more, false for titles, labels and boxes of one or two "
                          "lines, which shrink instead of breaking a word.")
    fit: Literal["deck", "each"] | None = Field(
        None, description="deck (the default): every card of a deck (token or pawn set, board, sheet) sets "
                          "the boxes of this style at one size, the largest at which all their texts fit; "
                          "each: every text shrinks to fit on its own.")

    @field_validator("min_size")
    @classmethod
    def _not_above_size(cls, min_size: float | None, info: ValidationInfo) -> float | None:
        # layout silently set such a style at its size: the floor the designer asked for was never met
        if min_size is None or "size" not in info.data:     # a size that failed has its own message
            return min_size
        size = info.data["size"] or DEFAULT_TEXT_SIZE
        if min_size > size:
            said = "its size" if info.data["size"] else "the default size"
            raise OutOfRange(f"min_size {min_size:g} pt is larger than {said}, {size:g} pt: text shrinks "
                             "from its size down to min_size",
                             f"make min_size at most {size:g}pt, or the size at least {min_size:g}pt")
        return min_size


# A box condition: '@field', or {'@field': value or [values]}.
Condition = str | dict[str, str | int | float | bool | list[str | int | float | bool]]


class TextHalo(Strict):
    """An outline drawn under the letters, so text stays readable over a busy picture (a map)."""

    color: ColourRef = Field(description="Colour of the outline (a palette name or '#rrggbb').")
    width: HaloWidth = Field(0.4, gt=0, description="How far the outline reaches past the letters.")


class Anchor(Strict):
    """Place a box relative to one cell of a `cells` box (and turn it the way that cell faces)."""

    cells: str = Field(description="Name of a cells box of the same template, drawn before this box.")
    cell: Annotated[int, _count_at_most(MAX_CELLS, "a cell number")] = Field(
        ge=1, description="Which cell, counting from 1 in the order the cells are listed.")


class BoxBase(Strict):
    """What every box has: where it is, when it is drawn. x and y are measured from the trim's top-left.

    Each kind below adds only its own keys (`radius` on a text box is an unknown key), and the
    JSON Schema offers an editor exactly those. Layout finds each kind's function in one
    registry (generator.components.kinds).
    """

    x: Position = 0.0
    y: Position = 0.0
    width: Length | None = None
    height: Length | None = None
    area: Literal["bleed", "trim", "safe"] | None = Field(
        None, description="Shortcut for x, y, width and height covering that area.")
    z: int = Field(0, description="Drawing order; equal z keeps the template's order.")
    anchor: Anchor | None = Field(None, description="x and y are then measured from that cell's top-left, "
                                                    "in the cell's own reading direction.")
    turn: Literal[0, 90, 180, 270] = Field(
        0, description="Turn the box's contents clockwise by 90, 180 or 270 degrees about its centre (a card's "
                       "bottom corner index, upside down); x, y, width and height stay where the box lies.")
    when: "Condition | None" = Field(
        None, description="Draw only if: '@field' (the card has the field, not empty, 0 or false), or "
                          "{'@field': value} (the field equals the value, or one of a list of values; "
                          "with several fields, all must match).")
    unless: "Condition | None" = Field(None, description="Draw except when this holds (same forms as `when`).")
    editions: list[str] | None = Field(None, description="Draw only in these editions.")


Dash = Annotated[list[float] | None, AfterValidator(_dash)]


class _Outlined(BoxBase):
    """A shape's paint: its fill, and its outline's colour, width and dashes."""

    fill: ColourRef | None = Field(None, description="A palette name, '#rrggbb', 'cmyk(...)' or '@field'.")
    stroke: ColourRef | None = Field(None, description="The outline's colour (none when left out).")
    stroke_width: Length = 0.3
    dash: Dash = Field(None, description="The outline's dash pattern in mm: [dash, gap, ...].")


class RectBox(_Outlined):
    """A rectangle filling the box, its corners rounded by `radius`."""

    kind: Literal["rect"]
    radius: Length = 0.0


class EllipseBox(_Outlined):
    """An ellipse (a circle in a square box) touching the box's sides."""

    kind: Literal["ellipse"]


class TriangleBox(_Outlined):
    """A triangle filling the box, its tip at the middle of the side `point` names."""

    kind: Literal["triangle"]
    point: Literal["right", "left", "up", "down"] = Field("right", description="Where a triangle points.")


class PolygonBox(_Outlined):
    """A polygon through the corners `points`, in mm from the box's top-left."""

    kind: Literal["polygon"]
    points: list[list[Coordinate]] | str = Field(
        description="A polygon's corners [x, y] in mm inside the box, or '@field' holding them.")


class LineBox(BoxBase):
    """A straight line from the box's top-left to its bottom-right (height 0: a horizontal line)."""

    kind: Literal["line"]
    stroke: ColourRef | None = Field(None, description="The line's colour.")
    stroke_width: Length = 0.3
    dash: Dash = Field(None, description="Dash pattern in mm: [dash, gap, ...].")


class TextBox(BoxBase):
    """Words from the catalog (or written as they are), fitted into the box in a template style."""

    kind: Literal["text"]
    text: str | None = Field(None, description="Translation key, or '@field' holding one.")
    literal: str | int | None = Field(None, description="Text used as written, or '@field'.")
    count: str | int | None = Field(None, description="Count that picks plural forms ('@field').")
    style: str | None = Field(None, description="A style of the template's `styles`.")
    padding: Length = 0.0


class ArtBox(BoxBase):
    """An art file (SVG, PNG, JPEG) fitted into the box, or several copies in a row."""

    kind: Literal["art"]
    art: str = Field(description="Art file in the game folder, or '@field'.")
    fit: Literal["contain", "cover", "stretch"] = "contain"
    repeat: Annotated[str | int | None, _count_at_most(MAX_REPEAT, "a number of copies")] = Field(
        None, description="Draw the art this many times in a row.")
    gap: Length = Field(1.0, description="Space between copies.")


class TableBox(BoxBase):
    """Rows of one-line cells under a header row, set at one size that fits."""

    kind: Literal["table"]
    table: str = Field(description="'@field' holding a list of rows.")
    header: list[str] | None = Field(None, description="Translation keys of the column heads.")
    formats: list[str] | None = Field(None, description="Per column, '{}' is the cell's value.")
    style: str | None = None
    header_style: str | None = None
    header_fill: ColourRef | None = None
    row_fill: ColourRef | None = None
    stroke: ColourRef | None = Field(None, description="Colour of the table's rules.")
    stroke_width: Length = 0.3


def _cells_not_turned(turn: int) -> int:
    if turn:
        raise OutOfRange("a cells box is not turned", "cells turn with the box's path (a loop's cells face their "
                                                      "side; start: names the first corner): leave turn out")
    return turn


class CellsBox(BoxBase):
    """A template repeated along a path: a board's track, a row of night spaces, a legend."""

    kind: Literal["cells"]
    turn: Annotated[Literal[0, 90, 180, 270], AfterValidator(_cells_not_turned)] = Field(
        0, description="Not for a cells box: its path and start turn its cells (anchored spaces follow them).")
    cells: Annotated[str | int, _count_at_most(MAX_CELLS, "a number of cells")] = Field(
        description="'@field' holding the list of cells, or a number of cells.")
    cell_template: str = Field(description="Template id drawn for each cell.")
    path: Literal["loop", "row", "column", "rows"] = Field(
        "row", description="loop: clockwise around the box's edge; row: left to right; column: top down; "
                           "rows: centred rows of the lengths in `rows`, top down (a triangle makes a tree).")
    rows: list[Annotated[int, Field(gt=0), _count_at_most(MAX_CELLS, "a number of cells")]] | None = Field(
        None, description="Cells per row for path: rows.")
    start: Literal["top-left", "top-right", "bottom-right", "bottom-left"] = Field(
        "top-left", description="Where a loop's first cell is.")
    facing: Literal["outside", "inside", "up"] = Field(
        "outside", description="Which way a loop's cells read: from the board's edge, its centre, or all upright.")
    gap: Length = Field(1.0, description="Space between cells.")
    link: str | None = Field(None, description="Cells of this type are joined in pairs by a curve.")
    stroke: ColourRef | None = Field(None, description="Colour of the link curves.")
    stroke_width: Length = 0.3
    dash: Dash = Field(None, description="Dash pattern of the link curves in mm.")


class NetworkBox(BoxBase):
    """A map: an outline, nodes at geographic positions, routes drawn as chains of segments."""

    kind: Literal["network"]
    network: "Network"


def _kind_of(model: type[BoxBase]) -> str:
    """The one value a box model's `kind: Literal[...]` allows."""
    return str(get_args(model.model_fields["kind"].annotation)[0])


BOX_KINDS: Mapping[str, type[BoxBase]] = MappingProxyType({
    _kind_of(model): model for model in (RectBox, EllipseBox, TriangleBox, PolygonBox, LineBox, TextBox, ArtBox,
                                         TableBox, CellsBox, NetworkBox)})


def _box_kind(value: Any) -> str | None:
    """The tag of a box: its `kind` when it names one (anything else is reported by `_known_kind`)."""
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    return box_tag(kind) if isinstance(kind, str) and kind in BOX_KINDS else None


def box_tag(kind: str) -> str:
    """The union member pydantic names in an error's path: not a YAML key (validate.yaml_path drops it)."""
    return f"box[{kind}]"


def _known_kind(value: Any) -> Any:
    """A box's `kind` must come first: without one, or with an unknown one, no other key can be judged."""
    if not isinstance(value, dict):
        return value
    if "kind" not in value:
        raise UnknownBoxKind(None)
    kind = value["kind"]
    if not isinstance(kind, str) or kind not in BOX_KINDS:
        raise UnknownBoxKind(kind)
    return value


class UnknownBoxKind(OutOfRange):
    """A box without a kind, or of a kind there is none of; validate.py reports it at `kind`."""

    def __init__(self, kind: Any):
        known = ", ".join(sorted(BOX_KINDS))
        if kind is None:
            super().__init__("a box needs a kind", f"add kind: one of {known}")
        else:
            close = difflib.get_close_matches(str(kind), BOX_KINDS, n=1)
            super().__init__(f"unknown box kind {kind!r}",
                             (f"did you mean {close[0]!r}? " if close else "") + f"kinds: {known}")
        self.kind = kind


# A box of any kind, as code holds it once validated.
AnyBox = Union[RectBox, EllipseBox, TriangleBox, PolygonBox, LineBox, TextBox, ArtBox, TableBox, CellsBox, NetworkBox]

# As a template writes it: one member per kind, written out so a type checker reads the union
# (each tag is box_tag of its kind), told apart by `kind`.
Box = Annotated[
    Union[Annotated[RectBox, Tag("box[rect]")], Annotated[EllipseBox, Tag("box[ellipse]")],
          Annotated[TriangleBox, Tag("box[triangle]")], Annotated[PolygonBox, Tag("box[polygon]")],
          Annotated[LineBox, Tag("box[line]")], Annotated[TextBox, Tag("box[text]")],
          Annotated[ArtBox, Tag("box[art]")], Annotated[TableBox, Tag("box[table]")],
          Annotated[CellsBox, Tag("box[cells]")], Annotated[NetworkBox, Tag("box[network]")]],
    Discriminator(_box_kind), BeforeValidator(_known_kind)]


def box_keys(kind: str) -> list[str]:
    """The keys a box of this kind accepts, its own first (for the message about an unknown key)."""
    model = BOX_KINDS[kind]
    common = list(BoxBase.model_fields)
    return [key for key in model.model_fields if key not in common and key != "kind"] + common


Longitude = Annotated[float, AfterValidator(number_in(-180, 180, what="a longitude in degrees"))]
Latitude = Annotated[float, AfterValidator(number_in(-90, 90, what="a latitude in degrees"))]


class Projection(Strict):
    """Longitude/latitude bounds fitted into the box (aspect kept, longitude scaled by cos(latitude))."""

    west: Longitude
    east: Longitude
    south: Latitude
    north: Latitude

    @model_validator(mode="after")
    def _spans(self) -> "Projection":
        # an empty span would divide by zero when the map is fitted into its box
        if self.east <= self.west or self.north <= self.south:
            raise OutOfRange(f"the bounds must span some area: west {self.west:g} < east {self.east:g} and "
                             f"south {self.south:g} < north {self.north:g}",
                             "west and east are longitudes, south and north latitudes, in degrees")
        return self


class Network(Strict):
    """A map: an outline, nodes at geographic positions, routes drawn as chains of segments."""

    nodes: str = Field(description="'@field': list of {id, lon, lat, ...fields for the node template}; "
                                   "with `places`, a node may be just a place id, or {id, ...own fields}.")
    places: str | None = Field(None, description="'@field': list of {id, lon, lat, ...}: named places that nodes "
                                                 "take their position and fields from (their own fields win).")
    routes: str | None = Field(None, description="'@field': list of {from, to, length, color, kind, via}; "
                                                "kind: land, water or border; via: up to 20 [lon, lat] points "
                                                "the route bends through. Checked when the game is read.")
    outline: str | None = Field(None, description="'@field': list of [lon, lat] corners of the outline.")
    symbols: str | None = Field(None, description="'@field': list of {color, symbol}: the symbol (art) is drawn "
                                                 "on every segment of the routes of that colour, so colours are "
                                                 "told apart without their hue (a legend's list can serve).")
    projection: Projection
    node_template: str = Field(description="Template drawn centred on each node (its size is the node's).")
    segment_width: Length = 6.0
    gap: Length = 1.0
    outline_fill: ColourRef | None = None
    outline_stroke: ColourRef | None = None
    segment_stroke: ColourRef = "#2b2220"
    border_icon: str | None = Field(None, description="Art drawn at the middle of border routes.")
    water_icon: str | None = Field(None, description="Art drawn at the middle of water routes.")
    icon_size: Length = 8.0


class Template(Strict):
    extends: str | list[str] | None = Field(None, description="Parent template ids; child wins.")
    size: Size | None = None
    bleed: Bleed | None = None
    safe: SafeMargin | None = Field(None, description="Text stays this far inside the trim.")
    shape: Literal["rect", "round"] | None = Field(
        None, description="The piece's outline where it is cut: 'round' (a round token) gets a circle cut line on "
                          "home sheets and in cut files; 'rect' (the default) a rectangle, cards with rounded corners.")
    palette: dict[str, ColourRef] = Field(default_factory=dict)
    styles: dict[str, TextStyle] = Field(default_factory=dict)
    boxes: dict[str, Box] = Field(default_factory=dict)


# ---------------------------------------------------------------- sheets.yaml

class Sheet(Strict):
    """A printed page to write on (a roll-and-write sheet): a template centred on the paper."""

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(description="Translation key of the sheet's name (in the kit's contents).")
    template: str = Field(description=f"Template of the whole sheet; at most {SHEET_MAX_SIZE[0]:g} × "
                                      f"{SHEET_MAX_SIZE[1]:g} mm to fit A4 and Letter.")
    fields: dict[str, Any] = Field(default_factory=dict)


class SheetsFile(Strict):
    sheets: list[Sheet] = Field(min_length=1)
