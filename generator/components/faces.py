"""Draw a template's boxes for one item (a card, a back) into a Face: the layout stage.

Box values written '@name' come from the item's fields; text is looked up in
the language's catalog, shrunk to fit, and every problem (missing key, missing
glyph, text too long at the minimum size) is reported with where it was written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from generator.components.context import LayoutContext
from generator.components.cells import (CellPlace, PathError, cell_fields, group_for, link_curves, loop_places,
                                        rotate_region, row_places, rows_places)
from generator.components.network import layout_network
from generator.components.piece import ArtPlacement, Face, Group, Item, Shape, TextPlacement
from generator.content.schema import Box, Template, TextStyle
from generator.content.templates import ResolvedTemplate
from generator.errors import SourceMark
from generator.render.art import ART_SUFFIXES, ArtError, art_size
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.components.table import fit_table

MISSING = object()


@dataclass(frozen=True)
class Subject:
    """What a face is drawn for: its fields, and where each field is written."""

    label: str                                   # 'deck gifts, card teddy' for messages
    fields: dict[str, Any]
    field_mark: Callable[..., SourceMark]        # (field name, *path inside it) → where it is written
    cell_types: dict[str, dict[str, Any]] = field(default_factory=dict)   # for `cells` boxes


def layout_face(template: ResolvedTemplate, subject: Subject, ctx: LayoutContext, key: str) -> Face:
    model = template.model
    width, height = model.size.width, model.size.height
    bleed = model.bleed or 0.0
    items: list[Item] = []
    places: dict[str, list[CellPlace]] = {}     # cells boxes laid out so far, for anchored boxes
    boxes = sorted(model.boxes.items(), key=lambda pair: pair[1].z)
    for name, box in boxes:
        mark = _box_mark(template, name)
        if box.editions is not None:
            unknown = sorted(set(box.editions) - set(ctx.source.game.editions))
            if unknown and ctx.once("box-editions", template.id, name):
                ctx.problems.add(mark, f"box '{name}' names unknown edition(s) {', '.join(unknown)}",
                                 f"editions in game.yaml: {', '.join(ctx.source.game.editions)}")
            if ctx.edition not in box.editions:
                continue
        if box.when is not None and not _present(_value(box.when, subject)):
            continue
        frame = _frame(box, model, mark, ctx, name)
        if frame is None:
            continue
        if box.anchor is not None:
            items.extend(_anchored(box, frame, template, subject, ctx, mark, name, key, places))
        else:
            items.extend(_box_items(box, frame, template, subject, ctx, mark, name, key, places, check_safe=True))
    return Face(key, width, height, bleed, tuple(items))


def _box_items(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
               mark: SourceMark, name: str, key: str, places: dict, check_safe: bool) -> list[Item]:
    """One box's items in the frame given (the face's, or an anchored box's own)."""
    palette = template.model.palette
    if box.kind in ("rect", "ellipse", "line", "triangle"):
        fill_mark = _template_mark(template, ("boxes", name, "fill"), mark)
        stroke_mark = _template_mark(template, ("boxes", name, "stroke"), mark)
        kind = f"triangle-{box.point}" if box.kind == "triangle" else box.kind
        return [Shape(kind, *frame, fill=_colour(box.fill, palette, subject, ctx, fill_mark),
                      stroke=_colour(box.stroke, palette, subject, ctx, stroke_mark),
                      stroke_width=box.stroke_width, radius=box.radius, dash=tuple(box.dash) if box.dash else None)]
    if box.kind in ("text", "table") and check_safe:
        _check_safe(template, name, frame, ctx, mark)
    if box.kind == "art":
        return _art(box, frame, subject, ctx, mark, name)
    if box.kind == "text":
        return _text(box, frame, template, subject, ctx, mark, name)
    if box.kind == "cells":
        return _cells(box, frame, template, subject, ctx, mark, name, key, places)
    if box.kind == "network":
        return layout_network(box, frame, template, subject, ctx, mark, name, key)
    if box.kind == "polygon":
        return _polygon(box, frame, template, subject, ctx, mark)
    if box.kind == "table":
        return _table(box, frame, template, subject, ctx, mark, name)
    return []


def _anchored(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
              mark: SourceMark, name: str, key: str, places: dict) -> list[Item]:
    """A box placed relative to one cell of a `cells` box, turned the way that cell faces.

    x and y are measured from the cell's top-left corner as the cell itself reads
    (so negative y reaches towards the middle of a board whose loop faces outwards).
    """
    anchor = box.anchor
    cells = places.get(anchor.cells)
    if cells is None or not 1 <= anchor.cell <= len(cells):
        if ctx.once("anchor", template.id, name):
            ctx.problems.add(mark, f"box '{name}' is anchored to cell {anchor.cell} of '{anchor.cells}', "
                             "which is not a cells box drawn before it (or has fewer cells)",
                             "give the anchored box a higher z than the cells box, and a cell number from 1")
        return []
    place = cells[anchor.cell - 1]
    x, y, w, h = frame
    region = rotate_region(place, x, y, w, h)
    local = _box_items(box, (0.0, 0.0, w, h), template, subject, ctx, mark, name, key, places, check_safe=False)
    return [Group(*region, w, h, place.rotation, tuple(local))]


def _box_mark(template: ResolvedTemplate, name: str) -> SourceMark:
    return _template_mark(template, ("boxes", name), template.chain[0].mark())


def _template_mark(template: ResolvedTemplate, path: tuple[str, ...], fallback: SourceMark) -> SourceMark:
    """Where a template value is written: the first file of the chain (child first) that has it."""
    for document in template.chain:
        if path in document.marks:
            return document.marks[path]
    return fallback


def _value(reference: Any, subject: Subject) -> Any:
    if isinstance(reference, str) and reference.startswith("@"):
        return subject.fields.get(reference[1:], MISSING)
    return reference


def _present(value: Any) -> bool:
    return value is not MISSING and value not in (None, "", False, 0)


def _require(reference: Any, subject: Subject, ctx: LayoutContext, mark: SourceMark, box: str) -> Any:
    value = _value(reference, subject)
    if value is MISSING:
        if ctx.once("field", subject.label, reference):
            ctx.problems.add(mark, f"{subject.label}: has no field '{reference[1:]}', used by box '{box}'",
                             f"add `{reference[1:]}:` to the card's fields, or `when: '{reference}'` to the box")
        return None
    return value


def _reference_mark(reference: Any, subject: Subject, fallback: SourceMark) -> SourceMark:
    if isinstance(reference, str) and reference.startswith("@"):
        return subject.field_mark(reference[1:])
    return fallback


def _frame(box: Box, model: Template, mark: SourceMark, ctx: LayoutContext, name: str):
    width, height = model.size.width, model.size.height
    if box.area == "bleed":
        b = model.bleed or 0.0
        return (-b, -b, width + 2 * b, height + 2 * b)
    if box.area == "trim":
        return (0.0, 0.0, width, height)
    if box.area == "safe":
        s = model.safe or 0.0
        return (s, s, width - 2 * s, height - 2 * s)
    if box.width is None or box.height is None:
        if ctx.once("frame", mark):
            ctx.problems.add(mark, f"box '{name}' needs width and height (or area: bleed, trim or safe)")
        return None
    return (box.x, box.y, box.width, box.height)


def _colour(value: str | None, palette, subject: Subject, ctx: LayoutContext, mark: SourceMark):
    resolved = _value(value, subject)
    if resolved is MISSING or resolved is None:
        return None
    return ctx.colour(str(resolved), palette, _reference_mark(value, subject, mark))


def _check_safe(template: ResolvedTemplate, name: str, frame, ctx: LayoutContext, mark: SourceMark) -> None:
    model = template.model
    safe = model.safe or 0.0
    x, y, w, h = frame
    worst = max(safe - x, safe - y, (x + w) - (model.size.width - safe), (y + h) - (model.size.height - safe))
    if worst > 1e-6 and ctx.once("safe", template.id, name):
        ctx.problems.add(mark, f"text box '{name}' of template '{template.id}' reaches {worst:.1f} mm "
                         f"into the {safe:g} mm safe margin", "move or shrink the box: cutting may clip it")


def _art(box: Box, frame, subject: Subject, ctx: LayoutContext, mark: SourceMark, name: str) -> list[Item]:
    reference = box.art
    value = _require(reference, subject, ctx, mark, name)
    if value is None:
        return []
    where = _reference_mark(reference, subject, mark)
    path = resolve_file(ctx, str(value), where)
    if path is None:
        return []
    try:
        art_w, art_h = art_size(path)
    except ArtError as error:
        if ctx.once("art", path):
            ctx.problems.add(where, f"{value}: {error}", "re-export the file as plain SVG or PNG")
        return []
    copies = 1
    if box.repeat is not None:
        repeat = _require(box.repeat, subject, ctx, mark, name)
        if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 0:
            if repeat is not None and ctx.once("repeat", subject.label, name):
                ctx.problems.add(_reference_mark(box.repeat, subject, mark),
                                 f"repeat must be a whole number, got {repeat!r}")
            return []
        copies = repeat
    x, y, w, h = frame
    if copies == 0:
        return []
    # equal square-ish cells, the row centred in the box
    cell = min(h * art_w / art_h, (w - box.gap * (copies - 1)) / copies)
    start = x + (w - (copies * cell + box.gap * (copies - 1))) / 2
    placements = []
    for index in range(copies):
        cx = start + index * (cell + box.gap)
        placements.append(ArtPlacement(path, *_fit(box.fit, art_w, art_h, cx, y, cell, h)))
    return placements


def _fit(mode: str, art_w: float, art_h: float, x: float, y: float, w: float, h: float):
    if mode == "stretch":
        return x, y, w, h
    scale = (min if mode == "contain" else max)(w / art_w, h / art_h)
    fw, fh = art_w * scale, art_h * scale
    return x + (w - fw) / 2, y + (h - fh) / 2, fw, fh


def resolve_file(ctx: LayoutContext, relative: str, mark: SourceMark) -> Path | None:
    """The art file a game refers to, or None after reporting why it cannot be used."""
    path, problem = _locate_file(ctx.source.folder, relative)
    if problem is not None and ctx.once("file", relative):
        message, hint = {
            "outside": (f"'{relative}' is outside the game folder",
                        "keep art and fonts inside the game folder, e.g. art/..."),
            "missing": (f"file not found: {relative}",
                        f"paths are relative to the game folder ({ctx.source.folder.name}/)"),
            "suffix": (f"'{relative}' is not SVG, PNG or JPEG art", "convert it to one of those"),
        }[problem]
        ctx.problems.add(mark, message, hint)
    return path if problem is None else None


@lru_cache(maxsize=4096)
def _locate_file(game_folder: Path, relative: str) -> tuple[Path, str | None]:
    folder = game_folder.resolve()
    path = (folder / relative).resolve()
    if folder not in path.parents:
        return path, "outside"
    if not path.is_file():
        return path, "missing"
    if path.suffix.lower() not in ART_SUFFIXES:
        return path, "suffix"
    return path, None


def resolve_style(template: ResolvedTemplate, name: str | None, ctx: LayoutContext,
                  mark: SourceMark) -> SetStyle:
    styles = template.model.styles
    style = styles.get(name or "", TextStyle())
    if name and name not in styles and ctx.once("style", template.id, name):
        ctx.problems.add(mark, f"unknown style '{name}' in template '{template.id}'",
                         f"styles: {', '.join(styles) or 'none'}")
    size = style.size or 9.0
    # a bad font or colour is reported where the style says it, not at the box using the style
    font_mark = _template_mark(template, ("styles", name or "", "font"), mark)
    colour_mark = _template_mark(template, ("styles", name or "", "color"), mark)
    return SetStyle(
        stack=ctx.font_stack(style.font, font_mark), size=size,
        min_size=min(size, style.min_size or size * 0.75), weight=style.weight or "regular",
        italic=bool(style.italic),
        color=ctx.colour(style.color or "#222222", template.model.palette, colour_mark) or "#000000",
        align=style.align or "left", valign=style.valign or "top", leading=style.leading or 1.2,
        lang=ctx.lang)


def _text(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
          mark: SourceMark, name: str) -> list[Item]:
    text, key, text_mark = _box_text(box, subject, ctx, mark, name)
    if not text:
        return []
    style = resolve_style(template, box.style, ctx, mark)
    if template.model.styles.get(box.style or "", TextStyle()).uppercase:
        text = uppercase_covered(text, style.stack, ctx)
    _check_glyphs(text, style.stack, ctx, key or box.literal, text_mark, subject)
    x, y, w, h = frame
    pad = box.padding
    layout = fit_text(parse_rich_text(text), w - 2 * pad, h - 2 * pad, style, ctx.setter)
    if not layout.fits:
        _report_overflow(ctx, subject, name, key, text_mark, layout.overflow, style.min_size, template.id)
    return [TextPlacement(x + pad, y + pad, layout.runs)]


def _box_text(box: Box, subject: Subject, ctx: LayoutContext, mark: SourceMark, name: str):
    """The box's text: (text, translation key or None, where the words are written)."""
    if box.literal is not None:
        value = _require(box.literal, subject, ctx, mark, name)
        return ("" if value is None else str(value)), None, _reference_mark(box.literal, subject, mark)
    if box.text is None:
        return "", None, mark
    key = _require(box.text, subject, ctx, mark, name)
    if key is None:
        return "", None, mark
    if not isinstance(key, str):
        ctx.problems.add(_reference_mark(box.text, subject, mark), f"expected a translation key, got {key!r}")
        return "", None, mark
    count = _value(box.count, subject) if box.count is not None else None
    if count is MISSING or count is None:
        count = None
    elif isinstance(count, bool) or not isinstance(count, int):
        if ctx.once("count", subject.label, name):
            ctx.problems.add(_reference_mark(box.count, subject, mark),
                             f"{subject.label}: count for plural text must be a whole number, got {count!r}")
        count = None
    args = {k: v for k, v in subject.fields.items() if isinstance(v, (str, int, float))}
    text, entry_mark = ctx.translate(key, _reference_mark(box.text, subject, mark), args, count)
    return text, key, entry_mark or _reference_mark(box.text, subject, mark)


def uppercase_covered(text: str, stack: tuple[str, ...], ctx: LayoutContext) -> str:
    """Upper-case only where the fonts have the capital (Georgian Mtavruli is often missing)."""
    result = []
    for char in text:
        upper = char.upper()
        result.append(upper if len(upper) == 1 and ctx.setter.covers(upper, stack) else char)
    return "".join(result)


def _check_glyphs(text: str, stack, ctx: LayoutContext, key, mark: SourceMark, subject: Subject) -> None:
    for char in sorted(ctx.setter.uncovered(text, stack)):
        if ctx.once("glyph", key, char):
            ctx.problems.add(mark, f"no font has the character '{char}' (U+{ord(char):04X}) used in "
                             f"'{key}' ({ctx.lang}, {subject.label})",
                             "add a font that has it to the stack in game.yaml fonts, or use another character")


def _report_overflow(ctx, subject, box_name, key, mark, overflow, min_size, template_id) -> None:
    # the same text in the same box overflows on every card that shows it: say it once
    if ctx.once("overflow", template_id, box_name, key or subject.label):
        what = f"key '{key}'" if key else f"box '{box_name}'"
        (ctx.problems.warn if ctx.overflow_warns else ctx.problems.add)(
            mark, f"text does not fit: game {ctx.source.id}, edition {ctx.edition}, language {ctx.lang}, "
                  f"{subject.label}, {what}: {overflow:.1f} mm too long at the minimum size {min_size:g} pt",
            f"shorten the text, or give box '{box_name}' of template '{template_id}' more room or a smaller min_size")


def _table(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
           mark: SourceMark, name: str) -> list[Item]:
    rows = _require(box.table, subject, ctx, mark, name)
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        if rows is not None:
            ctx.problems.add(_reference_mark(box.table, subject, mark), "a table must be a list of rows (lists)")
        return []
    header = [ctx.translate(key, mark)[0] for key in (box.header or [])]
    formats = box.formats or []
    body = [[(formats[i] if i < len(formats) else "{}").replace("{}", str(cell)) for i, cell in enumerate(row)]
            for row in rows]
    style = resolve_style(template, box.style, ctx, mark)
    head_style = resolve_style(template, box.header_style or box.style, ctx, mark)
    for line in [header, *body]:
        for cell in line:
            _check_glyphs(cell, style.stack, ctx, box.table, mark, subject)
    x, y, w, h = frame
    fills = (_colour(box.header_fill, template.model.palette, subject, ctx, mark),
             _colour(box.row_fill, template.model.palette, subject, ctx, mark))
    stroke = _colour(box.stroke, template.model.palette, subject, ctx, mark)
    items, fits, overflow = fit_table(header, body, (x, y, w, h), style, head_style, fills, stroke,
                                      box.stroke_width, ctx.setter)
    if not fits:
        _report_overflow(ctx, subject, name, None, mark, overflow, style.min_size, template.id)
    return items


def _cells(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
           mark: SourceMark, name: str, key: str, places_by_box: dict) -> list[Item]:
    entries = _require(box.cells, subject, ctx, mark, name)
    where = _reference_mark(box.cells, subject, mark)
    if entries is None:
        return []
    entries = _expand_cells(entries)
    if isinstance(entries, str):
        ctx.problems.add(where, f"{subject.label}: '{box.cells[1:]}': {entries}")
        return []
    if not isinstance(entries, list) or not entries:
        ctx.problems.add(where, f"box '{name}': cells must be a non-empty list")
        return []
    cell_template = ctx.source.templates.resolve(box.cell_template) if box.cell_template else None
    if cell_template is None:
        if ctx.once("cell-template", template.id, name):
            ctx.problems.add(mark, f"box '{name}' needs a cell_template (a known template id)",
                             f"known templates: {', '.join(sorted(ctx.source.templates.files))}")
        return []
    fields = []
    field = box.cells[1:] if isinstance(box.cells, str) else "cells"
    for index, entry in enumerate(entries):
        resolved = cell_fields(entry, subject.cell_types)
        if isinstance(resolved, str):
            if ctx.once("cell", subject.label, name, index):
                ctx.problems.add(subject.field_mark(field, index),
                                 f"{subject.label}: cell {index + 1} of '{field}': {resolved}",
                                 f"cell types: {', '.join(subject.cell_types) or 'none'}")
            resolved = {}
        # a cell sees its parent's fields too (a player area's trees), its own win
        fields.append({**subject.fields, "index": index + 1, "position": index, **resolved})
    try:
        if box.path == "loop":
            places = loop_places(frame, len(fields), box.start, box.facing)
        elif box.path == "rows":
            if not box.rows or sum(box.rows) != len(fields):
                raise PathError(f"rows {box.rows} hold {sum(box.rows or [])} cells, the list has {len(fields)}")
            places = rows_places(frame, box.rows, box.gap)
        else:
            places = row_places(frame, len(fields), box.gap, vertical=box.path == "column")
    except PathError as error:
        ctx.problems.add(mark, f"box '{name}': {error}")
        return []
    places_by_box[name] = places
    items: list[Item] = []
    if box.link:
        items.extend(link_curves(places, fields, box.link, frame,
                                 _colour(box.stroke, template.model.palette, subject, ctx, mark),
                                 box.stroke_width, tuple(box.dash) if box.dash else None))
    size = cell_template.model.size
    for index, (place, cell) in enumerate(zip(places, fields)):
        cell_subject = Subject(f"{subject.label}, {field} cell {index + 1}", cell,
                               lambda *_path, _index=index: subject.field_mark(field, _index), subject.cell_types)
        face = layout_face(cell_template, cell_subject, ctx, f"{key}/{name}/{index}")
        items.append(group_for(place, face.items, size.width, size.height))
    return items


def _expand_cells(entries):
    """A cells field: a list, a number of plain cells, or {count: N, at: {position: entry}}."""
    if isinstance(entries, bool):
        return "expected a list of cells, a number, or {count: N, at: {...}}"
    if isinstance(entries, int):
        return [{} for _ in range(entries)] if entries > 0 else "a number of cells must be at least 1"
    if isinstance(entries, dict) and "count" in entries and set(entries) <= {"count", "at"}:
        count, at = entries["count"], entries.get("at") or {}
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            return f"count must be a whole number of cells, got {count!r}"
        cells: list = [{} for _ in range(count)]
        for position, entry in at.items():
            position = int(position) if isinstance(position, str) and position.isdigit() else position
            if not isinstance(position, int) or not 0 <= position < count:
                return f"'at' positions run from 0 to {count - 1}, got {position!r}"
            cells[position] = entry
        return cells
    if isinstance(entries, list) and entries:
        return entries
    return "expected a list of cells, a number, or {count: N, at: {...}}"


def _polygon(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
             mark: SourceMark) -> list[Item]:
    points = _value(box.points, subject)
    if not isinstance(points, list) or len(points) < 3 or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p) for p in points):
        ctx.problems.add(_reference_mark(box.points, subject, mark), "a polygon needs 3 or more points [x, y]")
        return []
    x, y, _, _ = frame
    palette = template.model.palette
    return [Shape("polygon", x, y, 0, 0, fill=_colour(box.fill, palette, subject, ctx, mark),
                  stroke=_colour(box.stroke, palette, subject, ctx, mark), stroke_width=box.stroke_width,
                  points=tuple((x + px, y + py) for px, py in points))]
