"""Translation units for exchange files: one per catalog key, with its context, limit and placeholders.

A unit carries what a translator needs beside the words: where the key is used
(component, cards, box), the room its tightest box has at the smallest size the
engine sets it (width, lines, font), its placeholders, and its screenshot's name.
The XLIFF and PO writers (xliff.py, po.py) turn the same units into their formats.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Callable

from generator.caches import cached
from generator.i18n.catalog import Catalog, Entry, required_plural_forms
from generator.i18n.key_usage import BoxUse, KeyUsage
from generator.input_files import file_signature

PLURAL_ORDER = ("zero", "one", "two", "few", "many", "other")
# what must come through a translation unchanged: {name} placeholders, {icon:name} icons, {{ and }}
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[A-Za-z_][A-Za-z0-9_]*\}|\{icon:[^{}\s]*\}")
SUBJECTS_SHOWN = 6     # cards named in a note; the rest are counted


# Weblate's size check lays the text out with Pango on PangoCairo's font map: the font size in points
# at its 96 dpi, the width (max-size) in pixels, so a box W pt wide is W × 96/72 pixels there (measured:
# "Christmas Round" in Nunito Black at 40 pt is 332 pt, 441 of Pango's pixels)
WEBLATE_PIXELS_PER_POINT = 96 / 72
STYLE_NAMES = MappingProxyType({"regular": "Regular", "bold": "Bold", "black": "Black"})
WEIGHT_CLASSES = MappingProxyType({"regular": 400, "bold": 700, "black": 900})


@dataclass(frozen=True)
class PrintedFace:
    """The face a text prints in, named as its font names itself: family and style ('Nunito', 'Black'),
    the weight class it is set at (900), and whether pnp emboldens a lighter file (no file of the weight)."""

    family: str
    style: str
    weight: int
    emboldened: bool = False

    @property
    def name(self) -> str:
        """'Nunito Black': the family and style a platform lists for the face's own file."""
        return f"{self.family} {self.style}"

    @property
    def group(self) -> str:
        """The Weblate font group for the face ('Nunito-Black', as a PostScript name): a group's name is a
        slug (no space), so 'font-family:Noto Sans Georgian' named no group and Weblate measured in 'sans'."""
        family, style = (re.sub(r"[^A-Za-z0-9]", "", part) for part in (self.family, self.style))
        return f"{family or 'Font'}-{style or 'Regular'}"

    @property
    def weblate_weight(self) -> str | None:
        """Weblate's font-weight (it knows normal and bold): only for a face that is exactly one of them.
        Told 'bold' for Black, Pango takes a Bold face where the project has one (narrower: too generous);
        told nothing, it measures the group's own face."""
        if self.emboldened or self.weight == 700:
            return "bold"      # fontconfig emboldens a lighter face when asked for bold, as pnp does
        return "normal" if self.weight == 400 else None

    @property
    def described(self) -> str:
        """'Nunito Black, weight 900': the face as a translator or a platform's admin looks for it."""
        return f"{self.name}, weight {self.weight}" + (
            ", emboldened by pnp (the family has no file of the weight)" if self.emboldened else "")


def plain_face(family: str, weight: str, italic: bool = False) -> PrintedFace:
    """The face named from pnp's weight alone (where no font file says more)."""
    style = STYLE_NAMES.get(weight, weight.title())
    if italic:
        style = "Italic" if style == "Regular" else f"{style} Italic"
    return PrintedFace(family, style, WEIGHT_CLASSES.get(weight, 400))


@dataclass(frozen=True)
class SizeLimit:
    """The room of a key's tightest box, for size checks on translation platforms."""

    width_pt: int              # the box's width inside its padding
    height_pt: int
    lines: int                 # lines that fit at the smallest size
    family: str                # the font family's own name ('Nunito')
    weight: str                # regular, bold, black
    size: float                # pt, the style's size
    min_size: float            # pt, the smallest the engine shrinks to (the limit is computed at it)
    face: PrintedFace | None = None     # the exact face (None: named from family and weight)

    @property
    def printed_face(self) -> PrintedFace:
        return self.face or plain_face(self.family, self.weight)

    @property
    def whole_size(self) -> int:
        """The smallest size in whole points, as Weblate takes a font size (XLIFF `font`, font-size)."""
        return max(1, round(self.min_size))

    def weblate_flags(self) -> list[str]:
        """Weblate's size check: max-size:WIDTH:LINES rendered in the font group at font-size.

        Weblate takes whole font sizes: the width is scaled with the size (6.5 pt in 150 pt
        is set as 7 in 161), which wraps the words exactly alike; and it is in Weblate's pixels
        (WEBLATE_PIXELS_PER_POINT). The font group is the face that prints (PrintedFace.group)."""
        whole = self.whole_size
        width = math.floor(self.width_pt * WEBLATE_PIXELS_PER_POINT * whole / self.min_size + 1e-6)
        face = self.printed_face
        flags = [f"max-size:{width}:{self.lines}", f"font-family:{face.group}", f"font-size:{whole}"]
        if face.weblate_weight is not None:
            flags.append(f"font-weight:{face.weblate_weight}")
        return flags


FaceFinder = Callable[[tuple[str, ...], str, bool], PrintedFace]     # stack, weight, italic → the face


@dataclass(frozen=True)
class Unit:
    """One key: its source and current translation (texts by plural form when plural), context and limit."""

    key: str
    source: dict[str, str]            # 'other' only for a plain text; the source language's forms for a plural
    target: dict[str, str]            # the target language's forms ('other' only for a plain text); {} untranslated
    plural: bool
    target_forms: tuple[str, ...]     # the forms the target language uses, in CLDR order
    notes: tuple[str, ...]
    places: tuple[str, ...]           # 'cards.yaml:30:57' where the content refers to it
    limit: SizeLimit | None
    placeholders: tuple[str, ...]     # of the source, each once, in order
    screenshot: str | None            # file name relative to the exchange file's folder


def weblate_checks(unit: Unit) -> list[str]:
    """Weblate's flags for the unit's checks: its size limit (max-size and the font) and the placeholders
    to keep, in Weblate's syntax (a quoted value escapes its quotes)."""
    flags = unit.limit.weblate_flags() if unit.limit is not None else []
    if unit.placeholders:
        flags.append("placeholders:" + ":".join('"' + token.replace('"', '\\"') + '"' for token in unit.placeholders))
    return flags


def cldr_order(forms) -> tuple[str, ...]:
    return tuple(form for form in PLURAL_ORDER if form in forms)


def placeholders_of(text: str) -> Counter:
    return Counter(PLACEHOLDER.findall(text))


def build_units(source: Catalog, target: Catalog | None, lang: str, usages: dict[str, KeyUsage],
                family_of: Callable[[tuple[str, ...]], str], screenshots: dict[str, str],
                face_of: FaceFinder | None = None) -> list[Unit]:
    """A unit per key of the source catalog, in its order. `family_of`: a style's font stack → the
    name of the font that sets the language's letters; `face_of`: a style's stack, weight and italic →
    the exact face that prints them (None: named from the family and weight);
    `screenshots`: key → file name (relative to the exchange file)."""
    units = []
    forms = cldr_order(required_plural_forms(lang))
    for key, entry in source.entries.items():
        usage = usages.get(key)
        current = target.entries.get(key) if target is not None else None
        source_texts = dict(entry.plural) if entry.plural is not None else {"other": entry.text or ""}
        use = usage.tightest if usage else None
        limit = _limit(use, family_of, face_of) if use else None
        shown = list(dict.fromkeys(token for text in source_texts.values() for token in PLACEHOLDER.findall(text)))
        units.append(Unit(key, source_texts, _target(current, entry), entry.plural is not None,
                          forms if entry.plural is not None else ("other",),
                          tuple(_notes(key, usage, limit, shown, screenshots.get(key))),
                          tuple(usage.places) if usage else (), limit, tuple(shown), screenshots.get(key)))
    return units


def _target(current: Entry | None, source: Entry) -> dict[str, str]:
    if current is None or current.untranslated:
        return {}
    if source.plural is not None:
        return {form: text for form, text in (current.plural or {"other": current.text or ""}).items() if text}
    return {"other": current.text or ""} if current.plural is None else {}


def _limit(use: BoxUse, family_of: Callable[[tuple[str, ...]], str], face_of: FaceFinder | None) -> SizeLimit:
    room = use.room
    style = room.style
    return SizeLimit(room.width_pt, math.floor(room.height * 72 / 25.4 + 1e-6), room.lines,
                     family_of(style.stack), style.weight, style.size, style.min_size,
                     face_of(style.stack, style.weight, style.italic) if face_of is not None else None)


def _notes(key: str, usage: KeyUsage | None, limit: SizeLimit | None, placeholders: list[str],
           screenshot: str | None) -> list[str]:
    notes = []
    if usage is None:
        notes.append("Not used by any component, rulebook or kit of this game (kept for later).")
    elif not usage.boxes:
        notes.append("Running text (rulebook, kit or a name in lists): it flows, no fixed size.")
    for use in (usage.boxes.values() if usage else ()):
        subjects = use.subjects[:SUBJECTS_SHOWN]
        more = len(use.subjects) - len(subjects)
        notes.append(f"Printed in box '{use.room.box}' of template '{use.room.template}' on "
                     + "; ".join(subjects) + (f" and {more} more" if more > 0 else "")
                     + f" (edition {', '.join(use.editions)}).")
    if limit is not None:
        notes.append(f"Room: {limit.width_pt} pt wide × {limit.lines} line(s) at {limit.min_size:g} pt in "
                     f"{limit.printed_face.described} (the text is set at up to {limit.size:g} pt and shrinks "
                     f"to {limit.min_size:g} pt before it overflows; a deck's box shares one size).")
    if placeholders:
        notes.append("Keep exactly: " + " ".join(placeholders)
                     + (" ({icon:…} is a picture in the text; move it with its word)"
                        if any(token.startswith("{icon:") for token in placeholders) else ""))
    if screenshot:
        notes.append(f"Screenshot: {screenshot}")
    return notes


def font_family_name(path: Path) -> str:
    """The family name a font file gives itself ('Nunito'), as platforms list their fonts."""
    return _family_name(path, file_signature(path))


@cached("i18n.font_family_name", maxsize=64, reads_files=True)
def _family_name(path: Path, signature: tuple[object, ...]) -> str:
    """`font_family_name`, read again when the file's stat (`signature`, only the key) changes."""
    from fontTools.ttLib import TTFont  # here: only an export reads a font's names
    try:
        with TTFont(path, lazy=True) as font:
            name = font["name"].getDebugName(16) or font["name"].getDebugName(1)
    except Exception:        # an unreadable file names no family: the stack's name stands in
        return path.stem
    return name or path.stem
