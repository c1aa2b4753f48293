"""`pnp export tts`: a game as a Tabletop Simulator saved object (Tabletop Playground imports it too).

One edition × language is laid out as for a build; then every deck becomes deck sheets
(its distinct faces in a grid of at most 10 × 7, at most 4096 px a side, as TTS asks),
one back image per deck (a back sheet in the same grid when its cards' backs differ),
and a "DeckCustom" object whose cards are numbered 100 × sheet + index (CustomDeck,
DeckIDs, ContainedObjects). Tokens and boards become "Custom_Tile" objects, pawns
"Figurine_Custom" standing pictures (front and back), their images beside the JSON, each name
ending in the edition and language, so the saves of several exported into one folder keep theirs.
Every object carries the keys Tabletop Simulator itself writes for its type (see `_object`). Image
addresses are file:// URLs of the written files: TTS loads them as they are and, once uploaded
(Modding → Cloud Manager, or any web host), the JSON's URLs are the ones to replace.

The export runs in a build context of its own (generator/context.py): its fonts, caches and files of
fitted texts, saved when it ends.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from generator.context import BuildContext
from generator.errors import ContentError, Problems, SourceMark, UsageError
from generator.files import Staging, Swap
from generator.options import BuildOptions
from generator.imposition.shops import CARD_SIZES
from generator.print_facts import Paper

if TYPE_CHECKING:       # (the layout and drawing stages are imported where they run: `pnp --help` loads none)
    from PIL.Image import Image

    from generator.components.piece import Face, PieceCopy
    from generator.components.pieces import LaidOutSet
    from generator.content.game import GameSource
    from generator.targets import Target

SHEET_COLUMNS, SHEET_ROWS = 10, 7
MAX_SHEET_PX = 4096
SLOTS = SHEET_COLUMNS * SHEET_ROWS - 1   # TTS keeps the 70th slot of a full sheet for the hidden face
MAX_PX_PER_MM = 300 / 25.4               # never more than 300 dpi
TILE_PX_PER_MM = 200 / 25.4              # tokens and boards: 200 dpi, less for a board past 4096 px
INCH = 25.4
# a tile's scale 1 in Tabletop Simulator is a poker card's width: other pieces are scaled from it
POKER_WIDTH = next(size.width for size in CARD_SIZES if size.name == "poker")


@dataclass(frozen=True)
class SheetSlot:
    """A distinct card image (front, and the back it is printed with) on a deck sheet."""

    front: Face
    back: Face


def write_tts(folder: Path, out: Path, edition: str | None, lang: str | None,
              templates: Path | None = None) -> Path:
    """Write the TTS export of the game in `folder` to `out`; the saved object's JSON path.
    ContentError when the game does not lay out clean; UsageError for an unknown edition or language."""
    with BuildContext(BuildOptions(out=out, templates=templates)) as context:
        return _export(folder, context, edition, lang)


def _export(folder: Path, context: BuildContext, edition: str | None, lang: str | None) -> Path:
    from generator.targets import clean_games, layout_targets     # the layout stages, for this command only
    out, templates = context.out, context.options.templates
    problems = Problems()
    sources = clean_games([folder], problems, templates, (lang,) if lang else None)
    problems.raise_if_errors()
    if not sources:
        raise UsageError(f"{folder}: no game to export")
    source = sources[0]
    edition = edition or next(iter(source.game.editions))
    lang = lang or source.source_language
    options = BuildOptions(editions=(edition,), languages=(lang,), papers=(Paper.A4,), templates=templates, out=out)
    targets = layout_targets(sources, options, problems, context.library, layout_files=context.layout_files)
    problems.raise_if_errors()
    target = targets[0]
    try:
        return _write_staged(source, target, context.drawing.initial_font, out, edition, lang)
    except OSError as error:        # a file where the folder goes, a read-only folder, a full disk
        where = Path(error.filename) if error.filename else out
        problems.add(SourceMark(where), f"cannot write the export: {error.strerror or error}",
                     "give --out a folder you can write to (it is created if missing)")
        problems.raise_if_errors()
        raise


class _Export:
    """The export's files: written into a staging folder, named by the URLs they will have in `out`.

    Every image name ends in the edition and language (`cards-1-faces-standard-de.png`): the saves of
    two languages (or editions) exported into one folder each keep the images they point to."""

    def __init__(self, staging: Path, out: Path, edition: str, lang: str):
        self.staging, self.out = staging, out
        self.tag = f"{edition}-{lang}"
        self.names: list[str] = []

    def image(self, stem: str) -> str:
        """The file name of an image of this edition × language: `<stem>-<edition>-<lang>.png`."""
        return f"{stem}-{self.tag}.png"

    def has(self, name: str) -> bool:
        return name in self.names

    def url(self, name: str) -> str:
        return (self.out / name).resolve().as_uri()

    def save_png(self, image: Image, name: str) -> str:
        """The image written as `name`; its final URL."""
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=False)
        return self.save(buffer.getvalue(), name)

    def save(self, data: bytes, name: str) -> str:
        (self.staging / name).write_bytes(data)
        if name not in self.names:
            self.names.append(name)
        return self.url(name)


def _write_staged(source: GameSource, target: Target, initial_font: str, out: Path, edition: str,
                  lang: str) -> Path:
    """Every file of the export written into a staging folder inside `out`, then all renamed into place:
    a failure half-way (a full disk, a face that cannot be drawn) leaves `out` as it was."""
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:
        with Staging(out) as staging:
            export = _Export(staging.folder, out, edition, lang)
            name = _write_all(source, target, initial_font, export, edition, lang)
            swap = Swap(staging)
            for written in export.names:
                swap.put(staging.folder / written, out / written)
            swap.commit()
    except BaseException:
        if created:                  # a folder made for this export goes with it
            try:
                out.rmdir()
            except OSError:
                pass
        raise
    return out / name


def _write_all(source: GameSource, target: Target, initial_font: str, export: _Export, edition: str,
               lang: str) -> str:
    """The images and the saved object of one laid-out target; the saved object's file name."""
    objects: list[dict[str, Any]] = []
    sheet_number = 0
    decks = [laid_out for laid_out in target.sets.get("cards", []) if laid_out.copies]   # none in this edition
    for position, laid_out in enumerate(decks):
        deck, sheet_number = _deck(laid_out, export, initial_font, sheet_number, position)
        objects.append(deck)
    tiles = [(copy.front, copy.back, f"{laid_out.id} {copy.card}")
             for kind in ("tokens",) for laid_out in target.sets.get(kind, []) for copy in laid_out.copies]
    objects += _tiles(tiles, export, initial_font, "token")
    objects += _tiles([(board.face, None, board.id) for board in target.boards], export, initial_font, "board",
                      stackable=False)
    pawns = [(*standee_sides(copy.front), f"{laid_out.id} {copy.card}")
             for laid_out in target.sets.get("pawns", []) for copy in laid_out.copies]
    objects += _figurines(pawns, export, initial_font)
    name = f"{source.id}-{edition}-{lang}"
    # a saved object's keys as Tabletop Simulator writes them (Saves/Saved Objects/*.json)
    save = {"SaveName": name, "Date": "", "VersionNumber": "", "GameMode": name, "GameType": "",
            "GameComplexity": "", "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "",
            "TabStates": {}, "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": objects}
    export.save((json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), f"{name}.json")
    return f"{name}.json"


def _faces_png(faces: Sequence[Face], size: tuple[int, int], initial_font: str) -> list[Image]:
    """Each face (trim only, no bleed) as a PIL image of `size` px."""
    import pypdfium2 as pdfium      # the drawing stages, for this command only

    from generator.imposition.sheet import Document, Page, Placement
    from generator.render.pdf import render_pdf
    from generator.render.settings import DrawingSettings
    pages = [Page(face.width, face.height, (Placement(face, 0.0, 0.0, (0.0, 0.0, face.width, face.height)),))
             for face in faces]
    document = pdfium.PdfDocument(render_pdf(Document(pages, title="tts"), DrawingSettings(initial_font)))
    images = []
    try:
        for index, face in enumerate(faces):
            page = document[index]
            image = page.render(scale=size[0] / (face.width / INCH * 72)).to_pil().convert("RGB")
            images.append(image.resize(size) if image.size != size else image)
            page.close()
    finally:
        document.close()
    return images


def card_pixels(width_mm: float, height_mm: float, columns: int, rows: int) -> tuple[int, int]:
    """A card's size on a sheet of columns × rows cards: as large as 4096 px a side and 300 dpi allow."""
    scale = min(MAX_PX_PER_MM, MAX_SHEET_PX / (columns * width_mm), MAX_SHEET_PX / (rows * height_mm))
    return max(1, math.floor(width_mm * scale)), max(1, math.floor(height_mm * scale))


def sheet_grid(count: int) -> tuple[int, int]:
    """Columns and rows for `count` images (at most SLOTS): as few rows as hold them ten to a row, then as few
    columns as those rows need (TTS takes sheets of 2 × 2 and more)."""
    rows = max(2, math.ceil(count / SHEET_COLUMNS))
    return max(2, math.ceil(count / rows)), rows


def _sheet_image(images: Sequence[Image], columns: int, rows: int, size: tuple[int, int]) -> Image:
    from PIL import Image      # (Pillow: for this command only)
    sheet = Image.new("RGB", (columns * size[0], rows * size[1]), "white")
    for index, image in enumerate(images):
        row, column = divmod(index, columns)
        sheet.paste(image, (column * size[0], row * size[1]))
    return sheet


def _deck(laid_out: LaidOutSet, export: _Export, initial_font: str, sheet_number: int,
          position: int) -> tuple[dict[str, Any], int]:
    """A DeckCustom (or a lone Card, for a deck of one) of the deck's copies, and the last sheet number used."""
    slots: dict[tuple[str, str], int] = {}
    distinct: list[SheetSlot] = []
    for copy in laid_out.copies:
        key = (copy.front.key, _back(copy).key)
        if key not in slots:
            slots[key] = len(distinct)
            distinct.append(SheetSlot(copy.front, _back(copy)))
    unique_back = len({slot.back.key for slot in distinct}) > 1
    custom: dict[str, dict[str, Any]] = {}
    first_sheet = sheet_number + 1
    for start in range(0, len(distinct), SLOTS):
        sheet_number += 1
        chunk = distinct[start:start + SLOTS]
        columns, rows = sheet_grid(len(chunk))
        face = chunk[0].front
        size = card_pixels(face.width, face.height, columns, rows)
        stem = f"{laid_out.id}-{sheet_number - first_sheet + 1}"
        faces = export.save_png(_sheet_image(_faces_png([slot.front for slot in chunk], size, initial_font),
                                             columns, rows, size), export.image(f"{stem}-faces"))
        if unique_back:
            back = export.save_png(_sheet_image(_faces_png([slot.back for slot in chunk], size, initial_font),
                                                columns, rows, size), export.image(f"{stem}-backs"))
        elif start == 0 or not export.has(export.image(f"{laid_out.id}-back")):
            back = export.save_png(_faces_png([chunk[0].back], size, initial_font)[0],
                                   export.image(f"{laid_out.id}-back"))
        else:
            back = export.url(export.image(f"{laid_out.id}-back"))
        custom[str(sheet_number)] = {"FaceURL": faces, "BackURL": back, "NumWidth": columns, "NumHeight": rows,
                                     "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
    ids = []
    for copy in laid_out.copies:
        index = slots[(copy.front.key, _back(copy).key)]
        ids.append(100 * (first_sheet + index // SLOTS) + index % SLOTS)
    face = laid_out.copies[0].front
    sideways = face.width > face.height              # a landscape card: TTS turns its sheet cell
    transform = _transform(position * 3.0, 0.0, flipped=True, scale=min(face.width, face.height) / POKER_WIDTH)
    cards = [_object("Card", _guid(f"{laid_out.id} {number} {copy.card}"), transform, copy.card, hands=True,
                     CardID=card_id, SidewaysCard=sideways,
                     CustomDeck={str(card_id // 100): custom[str(card_id // 100)]})
             for number, (copy, card_id) in enumerate(zip(laid_out.copies, ids, strict=True))]
    if len(cards) == 1:
        return {**cards[0], "Nickname": laid_out.id}, sheet_number
    deck = _object("DeckCustom", _guid(f"deck {laid_out.id}"), transform, laid_out.id, hands=False,
                   SidewaysCard=sideways, DeckIDs=ids, CustomDeck=custom)
    deck["ContainedObjects"] = cards                 # after the scripts, where TTS writes it
    return deck, sheet_number


def _back(copy: PieceCopy) -> Face:
    """A card's back; a one-sided card shows its front on both sides (as a one-sided tile does)."""
    return copy.back if copy.back is not None else copy.front


def _image_url(face: Face, prefix: str, export: _Export, written: dict[str, str], initial_font: str) -> str:
    """The file URL of a tile's or figurine's image, written once per distinct face (`written` by key):
    TILE_PX_PER_MM, at most MAX_SHEET_PX a side, numbered <prefix><n>-<edition>-<lang>.png in the order first met."""
    if face.key not in written:
        scale = min(TILE_PX_PER_MM, MAX_SHEET_PX / max(face.width, face.height))
        size = (max(1, math.floor(face.width * scale)), max(1, math.floor(face.height * scale)))
        written[face.key] = export.save_png(_faces_png([face], size, initial_font)[0],
                                            export.image(f"{prefix}{len(written) + 1}"))
    return written[face.key]


def _tiles(pieces: Sequence[tuple[Face, Face | None, str]], export: _Export, initial_font: str, kind: str,
           stackable: bool = True) -> list[dict[str, Any]]:
    """A Custom_Tile per piece (its images written once per distinct face): round pieces as circles."""
    objects: list[dict[str, Any]] = []
    written: dict[str, str] = {}
    for number, (front, back, name) in enumerate(pieces):
        urls = [_image_url(face, f"{kind}-", export, written, initial_font)
                for face in (front, back if back is not None else front)]
        shape = 2 if front.shape == "round" else 0           # TTS tile types: 0 box, 1 hex, 2 circle, 3 rounded
        transform = _transform(-4.0 - (number % 10) * 1.2, 4.0 + (number // 10) * 1.2 if kind == "token" else -12.0,
                               scale=front.width / INCH)
        objects.append(_object("Custom_Tile", _guid(f"{kind} {number} {name}"), transform, name,
                               CustomImage={"ImageURL": urls[0], "ImageSecondaryURL": urls[1], "ImageScalar": 1.0,
                                            "WidthScale": 0.0,
                                            "CustomTile": {"Type": shape, "Thickness": 0.1 if stackable else 0.2,
                                                           "Stackable": stackable, "Stretch": True}}))
    return objects


def standee_sides(strip: Face) -> tuple[Face, Face]:
    """A pawn's front and back figure, upright, from its fold-over strip (components/standee.py: the back
    is the group turned 180°, the front the unturned one); the whole strip for both when it is not one."""
    from generator.components.piece import Face, Group     # the components stage, for this command only
    groups = {item.rotation: item for item in strip.items if isinstance(item, Group)}
    if set(groups) != {0, 180}:
        return strip, strip
    front, back = groups[0], groups[180]
    return (Face(f"{strip.key}/front", front.width, front.height, 0.0, front.items),
            Face(f"{strip.key}/back", back.width, back.height, 0.0, back.items))


def _figurines(pawns: list[tuple[Face, Face, str]], export: _Export, initial_font: str) -> list[dict[str, Any]]:
    """A Figurine_Custom per pawn: a standing picture, its back seen from behind (each distinct image
    written once, with the paper around a figure's outline kept: TTS cuts a figurine to its image's alpha
    only, so a pawn stands as its printed rectangle, like the fold-over standee)."""
    objects: list[dict[str, Any]] = []
    written: dict[str, str] = {}
    for number, (front, back, name) in enumerate(pawns):
        urls = [_image_url(face, "pawn-", export, written, initial_font) for face in (front, back)]
        transform = _transform(4.0 + (number % 10) * 1.2, 4.0 + (number // 10) * 1.5, scale=front.width / INCH)
        objects.append(_object("Figurine_Custom", _guid(f"pawn {number} {name}"), transform, name,
                               CustomImage={"ImageURL": urls[0], "ImageSecondaryURL": urls[1], "ImageScalar": 1.0,
                                            "WidthScale": 0.0}))
    return objects


# A white ColorDiffuse tints nothing (TTS's default grey darkens custom images' sides only).
_WHITE = MappingProxyType({"r": 1.0, "g": 1.0, "b": 1.0})


def _object(name: str, guid: str, transform: dict[str, float], nickname: str, hands: bool = False,
            **own: Any) -> dict[str, Any]:
    """One saved object with every key Tabletop Simulator writes for it, in its order: the common keys,
    then the type's own (`own`), then the scripts. Keys from real TTS saves (DeckCustom, Card, Custom_Tile,
    Figurine_Custom objects saved by TTS 13: GUID … Hands, type keys, LuaScript, LuaScriptState, XmlUI)."""
    return {"GUID": guid, "Name": name, "Transform": transform, "Nickname": nickname, "Description": "",
            "GMNotes": "", "AltLookAngle": {"x": 0.0, "y": 0.0, "z": 0.0}, "ColorDiffuse": dict(_WHITE),
            "LayoutGroupSortIndex": 0, "Value": 0, "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False,
            "MeasureMovement": False, "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "GridProjection": False, "HideWhenFaceDown": name == "Card", "Hands": hands, **own,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _transform(x: float, z: float, flipped: bool = False, scale: float = 1.0) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if flipped else 0.0,
            "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def _guid(text: str) -> str:
    """TTS object GUIDs are 6 hex digits; from the object's name, so an export is the same every time."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]


__all__ = ["write_tts", "card_pixels", "sheet_grid", "ContentError"]
