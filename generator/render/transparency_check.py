"""Transparency read back from a written PDF, and what its content streams select that their resources lack.

PDF/X-1a allows no transparency; and a name a content stream selects (`/gRLs0 gs`, `/Sh0 sh`, `/X Do`,
`/F1 Tf`, `/CS0 cs`) that its resources lack is a broken file: poppler, MuPDF and Ghostscript say so and
draw without it (an art form's opacity came out solid, its gradient black). So every page and every form
it draws is read the way a renderer reads it: each operator's name looked up in the resources in force
there (a form's own, or where it has none those of what draws it), each graphics state it selects and
every one its resources define judged for transparency, each form and image it draws visited in turn.
Reads with pikepdf only; gives descriptions, which the PDF/X and preflight checks word as problems.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

import pikepdf

# the operators that select a named resource, and the kind of resource each names
_SELECTS = MappingProxyType({
    "gs": ("/ExtGState", "graphics state"), "sh": ("/Shading", "shading"), "Do": ("/XObject", "XObject"),
    "Tf": ("/Font", "font"), "cs": ("/ColorSpace", "colour space"), "CS": ("/ColorSpace", "colour space")})
_DEVICE_SPACES = frozenset({"/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/Pattern"})
_OPAQUE_BLENDS = frozenset({"/Normal", "/Compatible"})


@dataclass
class TransparencyReading:
    """What the file holds that is transparency (each kind once), and each name selected that the
    resources in force lack (where, and what)."""

    transparency: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)


def read_transparency(document: pikepdf.Pdf) -> TransparencyReading:
    """Every page of `document` and every form it draws, read as described in the module's docstring."""
    reading = TransparencyReading()
    seen: set = set()
    for number, page in enumerate(document.pages, start=1):
        _group(page.obj, reading)
        _visit(page.obj, _page_resources(page.obj), f"page {number}", reading, seen)
    return reading


def _page_resources(page) -> pikepdf.Dictionary | None:
    """The page's resources, inherited from the page tree where it has none of its own."""
    node, depth = page, 0
    while node is not None and depth < 64:          # a page tree is shallow; a loop in one is not followed
        resources = node.get("/Resources")
        if resources is not None:
            return resources
        node, depth = node.get("/Parent"), depth + 1
    return None


def _visit(stream, resources, where: str, reading: TransparencyReading, seen: set) -> None:
    _states(resources, reading)
    try:
        instructions = pikepdf.parse_content_stream(stream)
    except pikepdf.PdfError as error:
        reading.missing.append(f"{where}: its content cannot be read ({error})")
        return
    for instruction in instructions:
        operator = str(instruction.operator)
        selects = _SELECTS.get(operator)
        if selects is None or not instruction.operands:
            continue
        name = instruction.operands[0]
        if not isinstance(name, pikepdf.Name) or operator in ("cs", "CS") and str(name) in _DEVICE_SPACES:
            continue
        category, kind = selects
        kinds = resources.get(category) if resources is not None else None
        entry = kinds.get(str(name)) if isinstance(kinds, pikepdf.Dictionary) else None
        if entry is None:
            reading.missing.append(f"{where}: {name} {operator} selects a {kind} its resources lack")
        elif operator == "gs":
            _state(entry, reading)
        elif operator == "Do":
            _xobject(entry, name, resources, where, reading, seen)


def _xobject(xobject, name, resources, where: str, reading: TransparencyReading, seen: set) -> None:
    if not isinstance(xobject, pikepdf.Stream):
        return
    if xobject.get("/Subtype") == "/Image":
        mask = xobject.get("/SMask")
        if mask is not None and mask != pikepdf.Name("/None"):
            reading.transparency.add("transparency (an image's soft mask)")
        return
    if xobject.get("/Subtype") != "/Form":
        return
    own = xobject.get("/Resources")
    key = (xobject.objgen, None if own is not None else id(resources))
    if key in seen:                      # a form drawn many times is read once (for the resources in force)
        return
    seen.add(key)
    _group(xobject, reading)
    _visit(xobject, own if own is not None else resources, f"{where}, form {name}", reading, seen)


def _group(thing, reading: TransparencyReading) -> None:
    group = thing.get("/Group")
    if isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency":
        reading.transparency.add("transparency (a transparency group)")


def _states(resources, reading: TransparencyReading) -> None:
    """Every graphics state the resources define (a print shop's checker reads them all, used or not)."""
    states = resources.get("/ExtGState") if resources is not None else None
    if isinstance(states, pikepdf.Dictionary):
        for state in states.values():
            _state(state, reading)


def _state(state, reading: TransparencyReading) -> None:
    if not isinstance(state, pikepdf.Dictionary):
        return
    if _number(state.get("/CA", 1)) < 1 or _number(state.get("/ca", 1)) < 1:
        reading.transparency.add("transparency (opacity under 1)")
    mask = state.get("/SMask")
    if mask is not None and mask != pikepdf.Name("/None"):
        reading.transparency.add("transparency (a soft mask)")
    blend = state.get("/BM")
    if isinstance(blend, pikepdf.Name) and str(blend) not in _OPAQUE_BLENDS:
        reading.transparency.add("transparency (a blend mode)")


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 1.0
