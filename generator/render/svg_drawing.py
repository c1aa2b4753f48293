"""SVG art drawn as a ReportLab drawing by svglib, its text only in pnp's own fonts and its `opacity` drawn.

Left to itself, svglib looks a font family up as a file or through fontconfig and embeds whatever
it finds (the same game would build other PDFs on other machines), and it ignores `opacity`. Here a
text is set in the first of pnp's families its font-family means that has all its characters, or
refused at its line with what to do; opacities are applied once the whole file is drawn: an element
that paints once (a fill, or a stroke) has its alpha multiplied, anything more (a group, a shape filled
and stroked, a gradient) is marked as a group to composite first (GROUP_OPACITY, drawn as a
transparency group by render/soft_mask.py). Takes the tree svg_guard checked; gives the drawing, or
SvgRefused. svglib is imported only when art is drawn.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import Color

from generator.caches import cached
from generator.render.svg_guard import SvgRefused

# The attribute of a drawing's group that is drawn as one picture, then laid on what lies beneath at this
# opacity (an SVG `opacity` over more than one painting). ReportLab checks the names of a shape's
# attributes, but not those starting with '_' (its renderers set _canvas and _parent the same way).
GROUP_OPACITY = "_pnp_opacity"

GENERIC_FAMILIES = frozenset({"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif",
                    "ui-sans-serif", "ui-monospace", "ui-rounded", "math", "emoji", "helvetica"})
# ('helvetica': what svglib asks for when a text names no family; pnp never prints an unembedded font)


def draw_svg(path: Path, root):
    """The checked tree of the SVG file at `path` drawn by svglib: its text in pnp's own faces, its
    opacities drawn; SvgRefused for a text pnp has no font for (svglib raises many kinds on a malformed file)."""
    # A Path, not a str, as the source: svglib then resolves no file reference at all
    return _svg_renderer_class()(path).render(root)


# made once per build's caches: it imports svglib (slow), which a build with no SVG never needs
@cached("render.svg_renderer_class", maxsize=1)
def _svg_renderer_class():
    """svglib's renderer, made to draw text only in the fonts pnp ships and to draw `opacity`.

    svglib would look a family up as a file ('/any/path/x.ttf', '../fonts/x.ttf', 'name.ttf' in the
    current folder) and then through fontconfig, and embed whatever it found: the same game built
    other PDFs on other machines. Here each family of a text's font-family list is looked for among
    pnp's families (a generic one, like sans-serif, or none stands for pnp's default stack), and the
    text is set in the first that has all its characters (a glyph a font lacks prints as nothing); a
    text no family of which pnp has, or has whole, is refused at its line. `opacity` (of a shape, a
    group, a <use> or the <svg>), which svglib ignores, is applied once the whole file is drawn (a
    <use> is filled in when its target comes): what it covers is composited first, as a viewer does,
    so a group's overlapping shapes do not show through each other (see _apply_opacity).
    """
    # svglib (and lxml) load on the first SVG drawn: the content checks import this module with the art's
    from svglib.fonts import FontMap
    from svglib.svglib import SvgRenderer

    class NoFontFiles(FontMap):
        """A font map that never registers a file nor asks fontconfig (nothing asks it: families are
        resolved by convert_family below; kept for any path svglib may add)."""

        def find_font(self, font_name, weight="normal", style="normal"):
            raise _UnknownFont(font_name)

    class GameSvgRenderer(SvgRenderer):
        def __init__(self, path):
            super().__init__(path, font_map=NoFontFiles())
            self.library = None              # pnp's fonts, once a text asks for one
            self.characters = frozenset()    # those of the <text> being drawn
            self.drawing_characters = frozenset()    # those of every <text> of the drawing
            self.reportlab_names = {}        # face name -> the name ReportLab draws it by, for this drawing
            self.fades = []                  # (drawn item, opacity), applied once all is drawn, innermost first
            self.attrConverter.convertFontFamily = self.convert_family

        def convert_family(self, families, weight="normal", style="normal"):
            if not families:
                return ""
            if self.library is None:
                from generator.text.fonts import FontLibrary     # (on the first SVG text: see above)
                self.library = FontLibrary()
            known = _pnp_families(self.attrConverter.split_font_family_list(families), self.library.families)
            if not known:
                raise _UnknownFont(families)
            for family in known:             # the first with every character (a missing one draws nothing)
                if self.characters <= self.library.characters(family):
                    face = self.library.face(family, _weight(weight), style in ("italic", "oblique"))
                    if face.name not in self.reportlab_names:     # (ReportLab draws svglib's text)
                        self.reportlab_names[face.name] = self.library.drawn_by_reportlab(face,
                                                                                          self.drawing_characters)
                    return self.reportlab_names[face.name]
            raise _MissingCharacters(families, known, self.characters - self.library.characters(known[0]))

        def render(self, svg_node):
            # every text's characters: a face without outlines of its own is cut once for the drawing
            self.drawing_characters = frozenset(
                character for element in svg_node.iter() if _local_name(element) == "text"
                for character in "".join(element.itertext()) if not character.isspace())
            drawing = super().render(svg_node)
            for item, opacity in self.fades:
                _apply_opacity(item, opacity)
            return drawing

        def renderSvg(self, node, outermost=False):
            group = super().renderSvg(node, outermost)
            self._note_opacity(node, [group])
            return group

        def renderNode(self, node, parent=None):
            drawn = len(parent.contents) if parent is not None else 0
            if _local_name(node) == "text":
                self.characters = frozenset(character for character in "".join(node.etree_element.itertext())
                                            if not character.isspace())
            try:
                super().renderNode(node, parent)
            except _UnknownFont as error:       # met in the innermost element rendered: the <text>
                from generator.text.fonts import builtin_families     # (a refused SVG text only)
                raise SvgRefused(f"refused: the text at line {node.sourceline} is in the font "
                                 f"{_quoted(error.families)}, not one of pnp's fonts",
                                 _font_hint(builtin_families())) from None
            except _MissingCharacters as error:
                raise SvgRefused(f"refused: the text at line {node.sourceline} is in the font "
                                 f"{_quoted(error.families)}, "
                                 f"and none of pnp's fonts it means ({', '.join(error.tried)}) has all its characters: "
                                 f"{error.tried[0]} lacks {_listed(error.missing)}, which would print as nothing",
                                 self._families_with(self.characters)) from None
            if parent is not None and _local_name(node) != "svg":    # an <svg>'s own: renderSvg
                self._note_opacity(node, parent.contents[drawn:], parent, drawn)

        def _note_opacity(self, node, items, parent=None, drawn=0):
            self.attrConverter.findAttr(node, "opacity")     # applies the node's style and CSS first
            opacity = _opacity(node.attrib.get("opacity", ""))
            if opacity >= 1 or not items:
                return
            if parent is not None and (len(items) > 1 or _is_leaf(items[0]) and _paints(items[0]) > 1):
                # one element drawn as several items (a path's fill and stroke) or a shape both filled
                # and stroked: one group, composited as one
                from reportlab.graphics.shapes import Group     # (svglib has imported it)
                group = Group(*items)
                parent.contents[drawn:drawn + len(items)] = [group]
                items = [group]
            self.fades.append((items[0], opacity))

        def _families_with(self, characters: frozenset) -> str:
            having = [family for family in sorted(self.library.families)
                      if characters <= self.library.characters(family)]
            where = f"a family that has them all ({', '.join(having)})" if having else "other fonts"
            return (f"set the text in {where}, split it into texts of one font each, or convert it to paths "
                    f"(Inkscape: Path > Object to Path)")

    return GameSvgRenderer


class _MissingCharacters(Exception):
    """A text with characters the first pnp family its font-family means (of those `tried`) lacks, and no
    later one has them all."""

    def __init__(self, families: str, tried: list[str], missing: frozenset):
        super().__init__(families)
        self.families, self.tried, self.missing = families, tried, missing


def _listed(characters: frozenset) -> str:
    """The first few characters, each quoted (control characters escaped) with its code point."""
    named = ", ".join(f"{character!r} (U+{ord(character):04X})" for character in sorted(characters)[:5])
    more = len(characters) - 5
    return named + (f" and {more} more" if more > 0 else "")


class _UnknownFont(Exception):
    """A text none of whose font families pnp has (`families`: its font-family, as written)."""

    def __init__(self, families: str):
        super().__init__(families)
        self.families = families


def _font_hint(families) -> str:
    return ("convert the text to paths (Inkscape: Path > Object to Path), or set it in one of pnp's fonts: "
            f"{', '.join(sorted(families))}, or sans-serif")


def _quoted(name: str) -> str:
    return repr(str(name)[:80])


def _local_name(node) -> str:
    tag = node.tag if isinstance(node.tag, str) else ""
    return tag.rpartition("}")[2]


def _pnp_families(names: list[str], families) -> list[str]:
    """The pnp families a font-family list means, in its order ('Noto Sans' is noto-sans; a generic
    family is pnp's default stack, which sets what its first family lacks in the next)."""
    from generator.text.fonts import DEFAULT_STACK     # (on the first SVG text: the fonts load late)
    found: list[str] = []
    for name in names:
        key = "-".join(name.strip().strip("'\"").lower().split())
        for family in DEFAULT_STACK if key in GENERIC_FAMILIES else (key,):
            if family in families and family not in found:
                found.append(family)
    return found


def _weight(value: str) -> str:
    """A CSS font-weight as one of pnp's weights."""
    value = str(value).strip().lower()
    number = int(value) if value.isdigit() else {"bold": 700, "bolder": 700, "black": 900, "heavy": 900}.get(value, 400)
    return "black" if number >= 850 else "bold" if number >= 600 else "regular"


def _opacity(value: str) -> float:
    """An SVG opacity (a number or a percentage) within 0-1; 1 when absent or unreadable."""
    value = value.strip()
    try:
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        return 1.0
    return min(1.0, max(0.0, number)) if number == number else 1.0


def _apply_opacity(item, opacity: float) -> None:
    """`item` drawn `opacity` times as opaque, as SVG means it: as if drawn alone, then laid on what lies
    beneath. Where it paints once (one fill or one stroke, or one group already to be composited), the
    alpha of that painting is multiplied (exactly the same, and no extra form in the PDF); otherwise it
    becomes a group to composite first (GROUP_OPACITY), so its own overlaps do not show through."""
    if _paints(item) <= 1:
        _fade(item, opacity)
    else:
        setattr(item, GROUP_OPACITY, getattr(item, GROUP_OPACITY, 1.0) * opacity)


def _is_leaf(node) -> bool:
    return getattr(node, "contents", None) is None


def _paints(node) -> int:
    """How many paintings `node` makes, 2 standing for any more than one: a group to composite counts
    once; an image or a gradient (which have no alpha of their own to multiply) as many."""
    if getattr(node, GROUP_OPACITY, None) is not None:
        return 1
    contents = getattr(node, "contents", None)
    if contents is not None:
        total = 0
        for child in contents:
            total += _paints(child)
            if total > 1:
                return 2
        return total
    if not hasattr(node, "fillColor") and not hasattr(node, "strokeColor"):
        return 2                        # an image, a gradient's shading (svglib's DirectDraw)
    fill = getattr(node, "fillColor", None) is not None
    stroke = getattr(node, "strokeColor", None) is not None and getattr(node, "strokeWidth", 1) != 0
    return int(fill) + int(stroke)


def _fade(item, opacity: float) -> None:
    """Everything drawn in `item` `opacity` times as opaque: each painting's alpha multiplied, a group
    to composite (GROUP_OPACITY) its own opacity (new colours: svglib shares colour objects)."""
    stack = [item]
    while stack:
        node = stack.pop()
        grouped = getattr(node, GROUP_OPACITY, None)
        if grouped is not None:
            setattr(node, GROUP_OPACITY, grouped * opacity)
            continue
        _fade_painting(node, opacity)
        stack.extend(getattr(node, "contents", ()))


def fold_opacities(node, opacity: float = 1.0) -> None:
    """Every group to composite in `node` made plain, its opacity multiplied into the alpha of what it
    paints: where a file may carry no transparency (PDF/X-1a), colours are then mixed with the paper."""
    grouped = getattr(node, GROUP_OPACITY, None)
    if grouped is not None:
        delattr(node, GROUP_OPACITY)
        opacity *= grouped
    contents = getattr(node, "contents", None)
    if contents is None:
        if opacity < 1:
            _fade_painting(node, opacity)
        return
    for child in contents:
        fold_opacities(child, opacity)


def _fade_painting(node, opacity: float) -> None:
    for attribute in ("fillOpacity", "strokeOpacity"):
        value = getattr(node, attribute, None)
        if value is not None:
            setattr(node, attribute, value * opacity)
    for attribute in ("fillColor", "strokeColor"):
        colour = getattr(node, attribute, None)
        if isinstance(colour, Color):
            faded = colour.clone()
            faded.alpha = (colour.alpha if colour.alpha is not None else 1) * opacity
            setattr(node, attribute, faded)
