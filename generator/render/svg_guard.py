"""SVG art checked before it is drawn: the bytes parsed once, hardened and bounded, into the tree svglib draws.

The XML parser detects the encoding itself (UTF-16, UTF-32, a declared charset): a check on
the raw bytes would miss what it decodes. Nothing is resolved or fetched while parsing (no
entities, no DTD, no network); then every reference must point inside the document (`#id`),
in attributes and in CSS alike, and the element count, nesting and sizes must be those of art,
not of an attack. The checked tree itself is handed to svglib: nothing is read a second time.
"""

from __future__ import annotations

import io
import math
import re

import tinycss2
from lxml import etree

from generator.input_files import shown

MAX_SVG_BYTES = 8 * 2**20       # the largest shipped art is ~20 KB; a detailed map exported from Inkscape ~2 MB
MAX_SVG_ELEMENTS = 30_000       # ~4 s to read, ~6 s to build; a 58 MB file of rects took 399 s and 5 GB
MAX_SVG_POINTS = 500_000        # drawn points of paths and polygons (svglib draws a path's fill and stroke
                                # apart: twice its points); a detailed country map has ~50,000
# svglib's own limit (svglib.svglib.MAX_USE_EXPANSIONS, held equal by a test): written here so
# that checking a file needs lxml only, and svglib is loaded when art is drawn
MAX_USE_COPIES = 10_000
MAX_SVG_DEPTH = 64              # Inkscape art nests a dozen groups; svglib recurses per level
MAX_SVG_SIDE = 100_000          # width, height and viewBox in their units: 100,000 mm is 100 m
MAX_COORDINATE = 1e9            # any number drawn; ReportLab cannot write 1e21 and writes NaN as 'nan'
MAX_CSS_RULES = 10_000          # an Illustrator export's classes (.st0, .st1…) number a few hundred; svglib
                                # matched 100,000 rules against 29,000 shapes for 23 s and 393 MiB

LINK_REFUSED = "refused: the SVG declares entities or links to other files or addresses (art must be self-contained)"
_SELF_CONTAINED = "copy what it uses into the file itself (embed, unlink clones), or export it as PNG"
SIMPLER = "simplify the art (fewer shapes, merged paths), or export it as PNG"
XLINK = "http://www.w3.org/1999/xlink"
_LOCAL_URL = re.compile(r"""url\(\s*['"]?#([^'")\s]+)""")
_LENGTH = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(?:px|pt|pc|mm|cm|in|em|ex|%)?\s*\Z")


class SvgRefused(Exception):
    """SVG that will not be drawn: the message says why, `hint` what to do."""

    def __init__(self, message: str, hint: str = "re-export the file as plain SVG or PNG"):
        super().__init__(message)
        self.hint = hint


def checked_svg_root(data: bytes):
    """The root element of the SVG in `data`, parsed without resolving anything and checked."""
    if len(data) > MAX_SVG_BYTES:
        raise SvgRefused(f"refused: {len(data) / 2**20:.1f} MB is more than any SVG art needs "
                         f"(at most {MAX_SVG_BYTES // 2**20} MB)", SIMPLER)
    if not data.strip():
        raise SvgRefused("cannot read SVG: the file is empty")
    root = _parse_bounded(data)
    _check_self_contained(root)
    _check_sizes(root)
    _check_drawn_elements(root)
    _check_path_data(root)
    _check_style_sheets(root)
    return root


def _parse_bounded(data: bytes):
    """Parse, counting elements and depth as they come: a huge file stops at the limit, not after it."""
    events = etree.iterparse(io.BytesIO(data), events=("start", "end"), resolve_entities=False,
                             no_network=True, load_dtd=False, huge_tree=False, remove_comments=True,
                             recover=False)
    count = depth = 0
    try:
        for event, element in events:
            if event == "end":
                depth -= 1
                continue
            count += 1
            depth += 1
            if count > MAX_SVG_ELEMENTS:
                raise SvgRefused(f"refused: more than {MAX_SVG_ELEMENTS:,} elements, more than any piece of "
                                 f"art needs (line {element.sourceline})", SIMPLER)
            if depth > MAX_SVG_DEPTH:
                raise SvgRefused(f"refused: elements nested more than {MAX_SVG_DEPTH} deep "
                                 f"(line {element.sourceline})", SIMPLER)
    except etree.XMLSyntaxError as error:
        if "depth" in str(error).lower():      # libxml2's own limit (256) when our count came too late
            raise SvgRefused(f"refused: elements nested more than {MAX_SVG_DEPTH} deep "
                             f"(line {error.lineno})", SIMPLER) from None
        raise SvgRefused(f"cannot read SVG: {_syntax_message(error, events.error_log)}") from None
    root = events.root
    if root is None or not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        raise SvgRefused("cannot read SVG: its outermost element is not <svg>")
    return root


def _syntax_message(error: etree.XMLSyntaxError, log) -> str:
    """libxml2's first error in this parse, with its place (iterparse's own message can be a vaguer
    later one, and the exception's log holds earlier parses' errors too)."""
    for entry in log:
        if entry.level >= etree.ErrorLevels.ERROR:
            return f"{shown(entry.message)} (line {entry.line}, column {entry.column})"
    return shown(str(error))


def _check_self_contained(root) -> None:
    """No entity declarations, no stylesheet instruction, no reference but to `#id` in this document."""
    dtd = root.getroottree().docinfo.internalDTD   # present for any DOCTYPE; the public SVG 1.1 one is inert
    if dtd is not None and (any(True for _ in dtd.iterentities()) or any(True for _ in dtd.iterelements())):
        raise SvgRefused(f"{LINK_REFUSED}: a DOCTYPE with declarations", _SELF_CONTAINED)
    for sibling in (*root.itersiblings(preceding=True), *root.itersiblings()):
        if isinstance(sibling, etree._ProcessingInstruction) and sibling.target == "xml-stylesheet":
            raise SvgRefused(f"{LINK_REFUSED}: line {sibling.sourceline}: <?xml-stylesheet?>", _SELF_CONTAINED)
    for node in root.iter():
        if isinstance(node, etree._Entity):
            raise SvgRefused(f"{LINK_REFUSED}: line {node.sourceline}: entity {node.text}", _SELF_CONTAINED)
        if not isinstance(node.tag, str):
            if isinstance(node, etree._ProcessingInstruction) and node.target == "xml-stylesheet":
                raise SvgRefused(f"{LINK_REFUSED}: line {node.sourceline}: <?xml-stylesheet?>", _SELF_CONTAINED)
            continue
        tag = etree.QName(node).localname
        for name, value in node.attrib.items():
            local = name.rpartition("}")[2]
            if local == "href" and not value.strip().startswith("#") or not _css_is_local(value, False):
                written = f"xlink:{local}" if name.startswith(f"{{{XLINK}}}") else local
                raise SvgRefused(f"{LINK_REFUSED}: line {node.sourceline}: <{tag} {written}={value[:80]!r}>",
                                 _SELF_CONTAINED)
        if tag == "style" and node.text and not _css_is_local(node.text, True):
            raise SvgRefused(f"{LINK_REFUSED}: line {node.sourceline}: <style> with @import, @font-face "
                             f"or a url() to another file", _SELF_CONTAINED)


def _css_is_local(text: str, stylesheet: bool) -> bool:
    """True when CSS (or an attribute value read as CSS) has no url() but `url(#id)` and, in a
    stylesheet, no at-rule. Parsed by tinycss2, which decodes escapes (`\\75 rl(` is `url(`)."""
    if "(" not in text and "@" not in text:      # nearly every value: no function, no at-rule
        return True
    nodes = tinycss2.parse_stylesheet(text) if stylesheet else tinycss2.parse_component_value_list(text)
    return _tokens_are_local(nodes)


def _tokens_are_local(nodes) -> bool:
    for node in nodes:
        kind = node.type
        if kind in ("at-rule", "at-keyword"):          # @import, @font-face: reach for other files
            return False
        if kind == "url" and not node.value.strip().startswith("#"):
            return False
        if kind == "function" and node.lower_name == "url":      # url("...") with a quoted address
            values = [token for token in node.arguments if token.type not in ("whitespace", "comment")]
            if not (len(values) == 1 and values[0].type == "string" and values[0].value.strip().startswith("#")):
                return False
        for part in ("prelude", "content", "arguments"):
            inner = getattr(node, part, None)
            if isinstance(inner, list) and not _tokens_are_local(inner):
                return False
    return True


def _check_drawn_elements(root) -> None:
    """The elements svglib will draw, each <use> counted as a copy of what it shows (and url(#id)
    as a copy of what it names): 200 <use> of a 1,000-rect group draw 200,000 shapes (30 s),
    and nested uses multiply: nine levels of ten are a billion."""
    ids = {node.get("id"): node for node in root.iter() if isinstance(node.tag, str) and node.get("id")}
    drawn: dict = {}                 # element -> (elements, uses) it draws, copies included
    open_now = set()                 # on the current path: met again, it contains itself
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            open_now.discard(node)
            parts = [drawn[part] for part in _parts(node, ids)]
            is_use = etree.QName(node).localname == "use"
            drawn[node] = (min(1 + sum(part[0] for part in parts), MAX_SVG_ELEMENTS + 1),
                           min(is_use + sum(part[1] for part in parts), MAX_USE_COPIES + 1))
            continue
        if node in drawn:
            continue
        if node in open_now:
            raise SvgRefused(f"refused: the element at line {node.sourceline} is shown inside itself "
                             f"by a <use> or url(#…)", "point the reference at another element")
        open_now.add(node)
        stack.append((node, True))
        stack.extend((part, False) for part in _parts(node, ids) if part not in drawn)
    elements, uses = drawn[root]
    if elements > MAX_SVG_ELEMENTS:
        raise SvgRefused(f"refused: counting what each <use> and url(#…) repeats, it draws more than "
                         f"{MAX_SVG_ELEMENTS:,} elements, more than any piece of art needs", SIMPLER)
    if uses > MAX_USE_COPIES:       # svglib would draw the first ones and silently drop the rest
        raise SvgRefused(f"refused: more than {MAX_USE_COPIES:,} <use> copies", SIMPLER)


def _parts(node, ids: dict) -> list:
    """What drawing `node` draws: its child elements, and what it refers to by #id."""
    parts = [child for child in node if isinstance(child.tag, str)]
    for name, value in node.attrib.items():
        if name.rpartition("}")[2] == "href" and etree.QName(node).localname == "use":
            target = ids.get(value.strip()[1:])
            if target is not None:
                parts.append(target)
        elif "url(" in value:
            parts.extend(ids[name] for name in _LOCAL_URL.findall(value) if name in ids)
    return parts


def _check_path_data(root) -> None:
    """The points the paths and polygons give, estimated from their numbers before svglib reads them:
    svglib parses path data at ~100,000 points a second in Python (a 7 MB path took 16-38 s and
    400 MiB only to be refused by check_drawing_numbers afterwards)."""
    points = 0
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        for name in ("d", "points"):
            value = node.get(name)
            if value:
                points += _numbers_in(value) // 2
        if points > MAX_SVG_POINTS:
            raise SvgRefused(f"refused: its paths and polygons have about {points:,} points by line "
                             f"{node.sourceline}, more than any piece of art needs (at most {MAX_SVG_POINTS:,})",
                             SIMPLER)


def _check_style_sheets(root) -> None:
    """Style sheets of a size art has: svglib matches each rule against each shape."""
    for node in root.iter("{*}style"):
        rules = (node.text or "").count("{")          # each rule opens a block
        if rules > MAX_CSS_RULES:
            raise SvgRefused(f"refused: the <style> at line {node.sourceline} has about {rules:,} rules, more "
                             f"than any piece of art needs (at most {MAX_CSS_RULES:,})", SIMPLER)


# bytes.translate's table: a digit or a point becomes 'n', anything else a space
_NUMBER_BYTES = bytes(ord("n") if chr(byte) in "0123456789." else ord(" ") for byte in range(256))


def _numbers_in(path_data: str) -> int:
    """How many numbers path data holds, counted at C speed as runs of digits and points (an exponent
    counts as a second number and '1.2.3' as one: an estimate, close for any art)."""
    runs = path_data.encode("utf-8", "replace").translate(_NUMBER_BYTES)
    return runs.count(b" n") + runs.startswith(b"n")


def _check_sizes(root) -> None:
    """width, height and viewBox of the outermost <svg>: finite numbers of a size art can have."""
    for attribute in ("width", "height"):
        value = root.get(attribute)
        match = _LENGTH.match(value) if value is not None else None
        if match and (not _sane(float(match.group(1)), MAX_SVG_SIDE) or float(match.group(1)) <= 0):
            raise SvgRefused(f"refused: the SVG's {attribute} {value.strip()[:40]!r} is not a size any art has "
                             f"(at most {MAX_SVG_SIDE:,})", "fix the width, height and viewBox of its <svg> element")
    view_box = root.get("viewBox")
    if view_box is not None:
        try:
            numbers = [float(part) for part in re.split(r"[\s,]+", view_box.strip())]
        except ValueError:
            numbers = []          # svglib ignores a viewBox it cannot read
        if any(not _sane(number, MAX_SVG_SIDE) for number in numbers) \
                or (len(numbers) == 4 and min(numbers[2:]) <= 0):      # a box of no size draws nothing
            raise SvgRefused(f"refused: the SVG's viewBox {view_box.strip()[:80]!r} is not a size any art has "
                             f"(at most {MAX_SVG_SIDE:,})", "fix the width, height and viewBox of its <svg> element")


def check_drawing_numbers(drawing) -> None:
    """Every number of the drawn shapes finite and within MAX_COORDINATE, and not too many of them:
    a huge one in a path or a transform would end the build while drawing (ReportLab cannot write
    it) or write 'nan' into the PDF; millions of points take minutes to draw and rasterise."""
    points = 0
    stack = [drawing]
    while stack:
        node = stack.pop()
        for name, value in vars(node).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                _check_number(value)
            elif isinstance(value, (list, tuple)) and value and isinstance(value[0], (int, float)):
                if name == "points":
                    points += len(value) // 2
                try:
                    total = sum(map(abs, value))    # C speed; within the limit, so is every number
                except TypeError:                   # not a list of numbers after all
                    continue
                if not (math.isfinite(total) and total <= MAX_COORDINATE):
                    _check_number(max(value, key=_magnitude))
        stack.extend(getattr(node, "contents", ()))
    if points > MAX_SVG_POINTS:
        raise SvgRefused(f"refused: its shapes have {points:,} points to draw, more than any piece of art needs "
                         f"(at most {MAX_SVG_POINTS:,})", SIMPLER)


def _check_number(number: float) -> None:
    if not _sane(number, MAX_COORDINATE):
        raise SvgRefused(f"refused: the SVG holds a number no page can draw ({number:g}; at most "
                         f"{MAX_COORDINATE:g})", "fix the coordinates or sizes in the SVG")


def _magnitude(number) -> float:
    return abs(number) if number == number else math.inf     # NaN counts as the largest


def _sane(number: float, limit: float) -> bool:
    return math.isfinite(number) and abs(number) <= limit
