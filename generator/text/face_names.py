"""The face a text prints in, named as its font names itself: what a translation platform measures with.

A style asks for a family at a weight ('nunito', black); what prints is one face of it: a variable
font's instance at that weight (Nunito[wght].ttf at wght 900, which the font calls 'Black'), a static
family's file of the weight, or its regular file emboldened where it has none (FontLibrary.face). A
size check on a platform is only as good as the face it measures, so the export names that face
(family, style, weight class) from the font's own tables, exactly as FontLibrary makes it.
"""

from __future__ import annotations

from pathlib import Path

from generator.caches import cached
from generator.i18n.translation_units import PrintedFace, plain_face
from generator.input_files import file_signature
from generator.text.fonts import WEIGHTS, FontLibrary

# OpenType's names of the weight classes (OS/2 usWeightClass), for an instance the font does not name
CLASS_NAMES = ((100, "Thin"), (200, "ExtraLight"), (300, "Light"), (400, "Regular"), (500, "Medium"),
               (600, "SemiBold"), (700, "Bold"), (800, "ExtraBold"), (900, "Black"))


def printed_face(library: FontLibrary, family: str, weight: str, italic: bool = False) -> PrintedFace:
    """The face `family` prints in at `weight` (and italic): its font's family and style names and
    weight class; a family pnp does not have is named from the weight alone."""
    source = library.families.get(family)
    if source is None:
        return plain_face(family, weight, italic)
    face = library.face(family, weight, italic)        # the face the layout set the text in
    upright_italic = italic and source.italic is None   # slanted by pnp: the upright's names
    if face.synthetic_bold:       # a static family without a file of the weight: its regular, emboldened
        file = source.italic if italic and source.italic is not None else source.upright
        name, style, weight_class = _face_names(file, file_signature(file), source.index, WEIGHTS["regular"])
        return PrintedFace(name, _slanted(style, upright_italic), weight_class, emboldened=True)
    if italic and source.italic is not None:
        file = source.bold_italic if weight != "regular" and source.bold_italic is not None else source.italic
    else:
        file = source.bold if weight != "regular" and source.bold is not None else source.upright
    name, style, weight_class = _face_names(file, file_signature(file), source.index, WEIGHTS[weight])
    return PrintedFace(name, _slanted(style, upright_italic), weight_class)


def _slanted(style: str, slanted: bool) -> str:
    if not slanted:
        return style
    return "Italic" if style == "Regular" else f"{style} Italic"


@cached("text.face_names", maxsize=64, reads_files=True)
def _face_names(path: Path, signature: tuple[object, ...], index: int, weight: int) -> tuple[str, str, int]:
    """The family name, style name and weight class of the face of `path` (the font `index` of a
    collection) at `weight`: a variable font's instance there (its wght clamped to the axis, as
    fonts._static_instance cuts it), or a static file's own. `signature`: the file's stat (the key)."""
    from fontTools.ttLib import TTFont      # here: only an export names its faces
    try:
        with TTFont(path, fontNumber=index, lazy=True) as font:
            family = _family_of(font) or path.stem
            if "fvar" not in font:
                return (family, *_names_of(font))
            axes = {axis.axisTag: axis for axis in font["fvar"].axes}
            wght = axes.get("wght")
            value = max(wght.minValue, min(wght.maxValue, weight)) if wght is not None else weight
            defaults = {tag: axis.defaultValue for tag, axis in axes.items() if tag != "wght"}
            for instance in font["fvar"].instances:
                where = instance.coordinates
                if where.get("wght") == value and all(where.get(tag, default) == default
                                                      for tag, default in defaults.items()):
                    name = font["name"].getDebugName(instance.subfamilyNameID)
                    if name:
                        return family, name, round(value)
            return family, _class_name(round(value), _is_italic(font)), round(value)
    except Exception:       # an unreadable file: named from the weight alone, as the layout asked
        return path.stem, _class_name(weight, False), weight


def _names_of(font) -> tuple[str, int]:
    """A static font's style (typographic subfamily, else subfamily) and weight class."""
    style = font["name"].getDebugName(17) or font["name"].getDebugName(2) or "Regular"
    weight = font["OS/2"].usWeightClass if "OS/2" in font else 400
    return style, weight


def _family_of(font) -> str:
    """The typographic family ('Nunito' for every weight), else the family ('Nunito Black')."""
    return font["name"].getDebugName(16) or font["name"].getDebugName(1) or ""


def _is_italic(font) -> bool:
    return "OS/2" in font and bool(font["OS/2"].fsSelection & 1)


def _class_name(weight: int, italic: bool) -> str:
    name = min(CLASS_NAMES, key=lambda item: abs(item[0] - weight))[1]
    return _slanted(name, italic)
