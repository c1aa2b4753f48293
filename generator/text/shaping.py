"""Shape a run of text in one face with HarfBuzz: the text stage's glyphs, measured and drawn alike.

Takes a face (its static TrueType file, `FontFace.path`, the very file the PDF embeds), a text, the
style's OpenType features, a direction, and optionally a script and a language; gives the glyphs
HarfBuzz chose — glyph id, cluster (the index of the first character it stands for), advance and
offset — at 1 pt, in visual order (a right-to-left run comes out left to right, as it is drawn).

HarfBuzz's defaults are kept: kerning, standard and contextual ligatures (`liga`, `clig`, `calt`),
mark positioning (`mark`, `mkmk`) and, for Arabic, Devanagari, Thai …, the features their shapers
need. A style's `features: [tnum, -liga]` adds or removes features on top of them (`feature_map`).
Default-ignorable characters (U+200B, U+200C, U+200D, the soft hyphen) shape their neighbours
(a zero-width non-joiner keeps two Persian letters apart) and leave no glyph.

Every width the layout measures is `shaped_width` of the text it measures, and the renderer draws
the glyphs `run_glyphs` gives for the same text: what is measured is what is drawn. A run is shaped
word by word (split at its spaces, each space its own piece), as the layout measures it.

The HarfBuzz font of a file is made once per build (`hb_font`; the face files are named by their
digest, and a font edited while `pnp serve` runs is read again: both tables are emptied with what
files held); shaped texts are kept in a bounded table.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.caches import cached
from generator.text.segment import ZWSP

if TYPE_CHECKING:
    from generator.text.fonts import FontFace

# pieces a run is cut into before shaping (the layout measures words and spaces apart)
SPACE = " "
# the bidi format characters a translator's text may hold (LRM, RLM, ALM, the embeddings and
# overrides, the isolates LRI, RLI, FSI, PDI): they steer the bidi algorithm and are no glyph
BIDI_FORMAT = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# default-ignorable characters the layout uses, and those: HarfBuzz shapes with them and draws none
IGNORABLE = frozenset({"\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"}) | BIDI_FORMAT


@dataclass(frozen=True, slots=True)
class Shaped:
    """A text shaped in one face at 1 pt: glyphs in visual order.

    `advances` and `offsets` are in points at a size of 1 pt (em units); `clusters` index the text's
    characters (the first character each glyph stands for); `width` is the advances' sum."""

    text: str
    gids: tuple[int, ...]
    clusters: tuple[int, ...]
    advances: tuple[float, ...]
    offsets: tuple[tuple[float, float], ...] | None    # None where every glyph sits at its pen position
    width: float
    rtl: bool = False

    @property
    def rises(self) -> bool:
        """Whether a glyph is moved up or down (a mark): its drawing depends on the size."""
        return self.offsets is not None and any(y for _, y in self.offsets)

    def __reduce__(self):
        return (Shaped, (self.text, self.gids, self.clusters, self.advances, self.offsets, self.width, self.rtl))


@dataclass(frozen=True, slots=True)
class HbFont:
    """A face's HarfBuzz font, at its units per em (positions are divided by it: 1 pt)."""

    font: Any
    upem: int
    path: Path


def feature_map(features: tuple[str, ...]) -> dict[str, bool]:
    """A style's features as HarfBuzz takes them: 'tnum' (or '+tnum') on, '-liga' off."""
    found: dict[str, bool] = {}
    for feature in features:
        if feature.startswith("-"):
            found[feature[1:]] = False
        else:
            found[feature.removeprefix("+")] = True
    return found


def hb_font(path: Path) -> HbFont:
    """The HarfBuzz font of a TrueType file, read once per build (and again once the files changed:
    the table is emptied with every table of what files held, `Caches.files_changed`)."""
    return _hb_font(path)


@cached("text.harfbuzz_fonts", maxsize=64, reads_files=True)
def _hb_font(path: Path) -> HbFont:
    import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]  # only when text is shaped
    face = hb.Face(hb.Blob(path.read_bytes()))
    font = hb.Font(face)       # its scale: the face's units per em (HarfBuzz's default)
    return HbFont(font, face.upem, path)


def shape(face: FontFace, text: str, features: tuple[str, ...] = (), direction: str | None = None,
          script: str | None = None, lang: str | None = None) -> Shaped:
    """The text shaped in the face (direction None: HarfBuzz's guess from the text's script, as the
    layout measures a word)."""
    return _shape(face.path, text, features, direction, script, lang)


def shape_file(path: Path, text: str, features: tuple[str, ...], direction: str | None,
               lang: str | None = None) -> Shaped:
    """The text shaped in the TrueType file at path (the renderer's call: it knows faces by their files)."""
    return _shape(path, text, features, direction, None, lang)


# a deck's words and a text's runs, each shaped once per face and features: the latest 65,536 (a
# font edited while pnp serve runs is shaped again: the table goes with the files' tables)
@cached("text.shaped", maxsize=65536, reads_files=True)
def _shape(path: Path, text: str, features: tuple[str, ...], direction: str | None,
           script: str | None, lang: str | None) -> Shaped:
    import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]  # see _hb_font
    if not text:
        return Shaped(text, (), (), (), None, 0.0, direction == "rtl")
    font = _hb_font(path)
    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    if direction is not None:
        buffer.direction = direction
    if script is not None:
        buffer.script = script
    if lang is not None:
        buffer.language = lang
    if not IGNORABLE.isdisjoint(text):      # (setting flags costs as much as shaping a word: only where needed)
        buffer.flags = hb.BufferFlags.REMOVE_DEFAULT_IGNORABLES
    rtl = buffer.direction == "rtl"
    hb.shape(font.font, buffer, feature_map(features) if features else {})
    scale = 1.0 / font.upem
    infos, positions = buffer.glyph_infos, buffer.glyph_positions or []
    gids = tuple([info.codepoint for info in infos])
    clusters = tuple([info.cluster for info in infos])
    units = [position.x_advance for position in positions]
    offsets: tuple[tuple[float, float], ...] | None = None
    if any([position.x_offset or position.y_offset for position in positions]):
        offsets = tuple([(position.x_offset * scale, position.y_offset * scale) for position in positions])
    return Shaped(text, gids, clusters, tuple([unit * scale for unit in units]), offsets, sum(units) * scale, rtl)


def shaped_width(face: FontFace, text: str, features: tuple[str, ...] = ()) -> float:
    """The text's width at 1 pt in the face, as the layout measures it and the renderer draws it:
    the sum of its pieces (words and spaces) shaped apart, in the direction of its first strong
    character (a Hebrew word right to left, a number left to right: as bidi sets them)."""
    return sum(piece.width for piece in run_pieces(face.path, text, features, text_direction(text)))


def text_direction(text: str) -> str:
    """'rtl' where the text's first strong character is right to left (Hebrew, Arabic …), else 'ltr'."""
    if text.isascii():
        return "ltr"
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind == "L":
            return "ltr"
        if kind in ("R", "AL"):
            return "rtl"
    return "ltr"


def run_pieces(path: Path, text: str, features: tuple[str, ...], direction: str | None,
               lang: str | None = None) -> tuple[Shaped, ...]:
    """A run's words and spaces shaped apart, in logical order (the text cut at every space and after
    every U+200B: the pieces the layout measured)."""
    if SPACE not in text and ZWSP not in text:
        return (_shape(path, text, features, direction, None, lang),)
    return tuple(_shape(path, piece, features, direction, None, lang) for piece in cut_pieces(text))


def cut_pieces(text: str) -> list[str]:
    """The text cut into its words and spaces (each space alone), a word ending after a U+200B."""
    if ZWSP not in text:      # (the usual text: cut by str.split, not character by character)
        words = text.split(SPACE)
        pieces = [words[0]] if words[0] else []
        for word in words[1:]:
            pieces.append(SPACE)
            if word:
                pieces.append(word)
        return pieces
    pieces = []
    start = 0
    for index, char in enumerate(text):
        if char == SPACE:
            if index > start:
                pieces.append(text[start:index])
            pieces.append(SPACE)
            start = index + 1
        elif char == ZWSP:
            pieces.append(text[start:index + 1])
            start = index + 1
    if start < len(text):
        pieces.append(text[start:])
    return pieces
