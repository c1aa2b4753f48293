"""Draw a template's boxes for one item (a card, a back) into a Face: the layout stage.

Box values written '@name' come from the item's fields; text is looked up in
the language's catalog, shrunk to fit, and every problem (missing key, missing
glyph, text too long at the minimum size) is reported with where it was written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.components.context import LayoutContext
from generator.components.deck_sizes import one_size_per_deck, open_scope
from generator.components.cells import (CellPlace, PathError, cell_fields, group_for, link_curves, loop_places,
                                        rotate_region, row_places, rows_places)
from generator.components.network import layout_network
from generator.components.piece import ArtPlacement, Face, Group, Item, Shape
from generator.components.subject import (MISSING, Subject, box_colour, is_present, reference_mark, require,
                                          resolve_file, template_mark, value_of)
from generator.components.text_boxes import check_safe, table_items, text_items
from generator.content.schema import MAX_CELLS, MAX_REPEAT, Box, Template
from generator.content.templates import ResolvedTemplate
from generator.errors import SourceMark
from generator.render.art import ArtError, art_size
from generator.units import MAX_LENGTH

# ctx.memo keys: the templates being laid out, innermost last (a cells box whose cell
# template draws itself would never end), and the cells the outermost face may still add.
_NESTING = ("faces", "nesting")
_CELLS_LEFT = ("faces", "cells left")


def layout_face(template: ResolvedTemplate, subject: Subject, ctx: LayoutContext, key: str) -> Face:
    """The template's boxes drawn for the subject (a card, a back, a board, a cell)."""
    nesting = ctx.memo.setdefault(_NESTING, [])
    if not nesting:
        ctx.memo[_CELLS_LEFT] = MAX_CELLS
    nesting.append(template.id)
    try:
        if open_scope(ctx) is not None:     # a card of a deck, a cell of a board: the deck settles sizes
            return _layout_face(template, subject, ctx, key)
        # a face laid out alone (a board, a sheet) is its own deck: its cells share sizes
        with one_size_per_deck(ctx) as sizes:
            face = _layout_face(template, subject, ctx, key)
    finally:
        nesting.pop()
    return sizes.final(face)


def nested_template_problem(ctx: LayoutContext, template_id: str) -> str | None:
    """Why a box may not draw template_id inside the face being laid out (it contains itself), or None."""
    nesting = ctx.memo.get(_NESTING, [])
    if template_id in nesting:
        cycle = " → ".join(nesting[nesting.index(template_id):] + [template_id])
        return f"template '{template_id}' would contain itself ({cycle}) and never end"
    return None


def _layout_face(template: ResolvedTemplate, subject: Subject, ctx: LayoutContext, key: str) -> Face:
    model = template.model
    items: list[Item] = []
    places: dict[str, list[CellPlace]] = {}     # cells boxes laid out so far, for anchored boxes
    for step in _plan(template, ctx):
        box, name, mark = step.box, step.name, step.mark
        if step.editions_unknown and ctx.once("box-editions", template.id, name):
            ctx.problems.add(mark, f"box '{name}' names unknown edition(s) {', '.join(step.editions_unknown)}",
                             f"editions in game.yaml: {', '.join(ctx.source.game.editions)}")
        if step.off_the_piece or (box.editions is not None and ctx.edition not in box.editions):
            continue
        if not _shown(box, subject, ctx, mark, template.id, name):
            continue
        frame = _frame(box, model, mark, ctx, name)
        if frame is None:
            continue
        if box.anchor is not None:
            items.extend(_anchored(box, frame, template, subject, ctx, mark, name, key, places))
        elif step.reads_no_field:
            memo_key = ("box", template.id, name)
            if memo_key not in ctx.memo:
                ctx.memo[memo_key] = tuple(_box_items(box, frame, template, subject, ctx, mark, name, key,
                                                      places, safe_zone=True))
            items.extend(ctx.memo[memo_key])
        else:
            items.extend(_box_items(box, frame, template, subject, ctx, mark, name, key, places, safe_zone=True))
    return Face(key, model.size.width, model.size.height, model.bleed or 0.0, tuple(items), model.shape or "rect")


@dataclass(frozen=True)
class _Step:
    """One box of a template, in drawing order, with what can be known before any face."""

    name: str
    box: Box
    mark: SourceMark
    editions_unknown: tuple[str, ...]
    reads_no_field: bool    # its items are the same on every face: laid out once
    off_the_piece: str | None = None     # 'x' or 'y' when the box lies wholly outside the bleed (reported)


# Kinds whose items depend on nothing but the box when no value is an '@field'
# (text reads card fields through {placeholders}, cells and networks through their cells).
_PLAIN_KINDS = {"rect", "ellipse", "line", "triangle", "art", "polygon", "table"}


def _plan(template: ResolvedTemplate, ctx: LayoutContext) -> list[_Step]:
    memo_key = ("plan", template.id)
    plan = ctx.memo.get(memo_key)
    if plan is None:
        known = set(ctx.source.game.editions)
        plan = ctx.memo[memo_key] = [
            _Step(name, box, _box_mark(template, name),
                  tuple(sorted(set(box.editions or ()) - known)),
                  box.kind in _PLAIN_KINDS and not _reads_field(box.model_dump()),
                  _off_the_piece(box, template.model))
            for name, box in sorted(template.model.boxes.items(), key=lambda pair: pair[1].z)]
        for step in plan:
            if step.off_the_piece:
                _report_off_the_piece(template, step, ctx)
    return plan


def _off_the_piece(box: Box, model: Template) -> str | None:
    """'x' or 'y' if the box lies wholly outside the template's bleed area (it could never be seen)."""
    if box.anchor is not None or box.area is not None or box.width is None or box.height is None:
        return None      # anchored boxes are placed from a cell; areas are always on the piece
    width, height, bleed = model.size.width, model.size.height, model.bleed or 0.0
    # strictly outside: a line along the very edge still shows half its stroke
    if box.x > width + bleed or box.x + box.width < -bleed:
        return "x"
    if box.y > height + bleed or box.y + box.height < -bleed:
        return "y"
    return None


def _report_off_the_piece(template: ResolvedTemplate, step: _Step, ctx: LayoutContext) -> None:
    model = template.model
    width, height, bleed = model.size.width, model.size.height, model.bleed or 0.0
    where = template_mark(template, ("boxes", step.name, step.off_the_piece), step.mark)
    ctx.problems.add(where, f"box '{step.name}' lies entirely outside its {width:g} × {height:g} mm template "
                            f"(and its {bleed:g} mm bleed), so it would never be drawn",
                     f"x and y are millimetres from the trim's top-left corner: x from 0 to {width:g}, "
                     f"y from 0 to {height:g}; check the unit (16.5cm is 165 mm)")


def _shown(box: Box, subject: Subject, ctx: LayoutContext, mark: SourceMark, template_id: str, name: str) -> bool:
    if box.when is not None and not _holds(box.when, subject, ctx, mark, template_id, name):
        return False
    return box.unless is None or not _holds(box.unless, subject, ctx, mark, template_id, name)


def _holds(condition, subject: Subject, ctx: LayoutContext, mark: SourceMark, template_id: str, name: str) -> bool:
    """'@field': the field is there and not empty; {'@field': value or [values]}: every field matches."""
    wanted_by_field = {condition: None} if isinstance(condition, str) else condition
    holds = True
    for reference, wanted in wanted_by_field.items():
        if not reference.startswith("@"):
            if ctx.once("condition", template_id, name, reference):
                what = "a field" if wanted is None else "fields"
                hint = f"write '@{reference}'" + ("" if wanted is None else f": {wanted!r}")
                ctx.problems.add(mark, f"box '{name}': a condition names {what} as '@{reference}', "
                                       f"not '{reference}'", hint)
            return False
        value = value_of(reference, subject)
        if wanted is None:
            holds = holds and is_present(value)
        else:
            choices = wanted if isinstance(wanted, list) else [wanted]
            holds = holds and value is not MISSING and any(_same(value, choice) for choice in choices)
    return holds


def _same(value, choice) -> bool:
    # YAML gives 3 and "3" for the same thing written two ways; true is not 1
    if isinstance(value, bool) or isinstance(choice, bool):
        return value is choice
    return value == choice or str(value) == str(choice)


def _reads_field(value) -> bool:
    if isinstance(value, str):
        return value.startswith("@")
    if isinstance(value, dict):
        return any(_reads_field(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_reads_field(item) for item in value)
    return False


def _box_items(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
               mark: SourceMark, name: str, key: str, places: dict, safe_zone: bool) -> list[Item]:
    """One box's items in the frame given (the face's, or an anchored box's own)."""
    palette = template.model.palette
    if box.kind in ("rect", "ellipse", "line", "triangle"):
        fill_mark = template_mark(template, ("boxes", name, "fill"), mark)
        stroke_mark = template_mark(template, ("boxes", name, "stroke"), mark)
        kind = f"triangle-{box.point}" if box.kind == "triangle" else box.kind
        return [Shape(kind, *frame, fill=box_colour(box.fill, palette, subject, ctx, fill_mark),
                      stroke=box_colour(box.stroke, palette, subject, ctx, stroke_mark),
                      stroke_width=box.stroke_width, radius=box.radius, dash=tuple(box.dash) if box.dash else None)]
    if box.kind in ("text", "table") and safe_zone:
        check_safe(template, name, frame, ctx, mark)
    if box.kind == "art":
        return _art(box, frame, subject, ctx, mark, name)
    if box.kind == "text":
        return text_items(box, frame, template, subject, ctx, mark, name)
    if box.kind == "cells":
        return _cells(box, frame, template, subject, ctx, mark, name, key, places)
    if box.kind == "network":
        return layout_network(box, frame, template, subject, ctx, mark, name, key)
    if box.kind == "polygon":
        return _polygon(box, frame, template, subject, ctx, mark)
    if box.kind == "table":
        return table_items(box, frame, template, subject, ctx, mark, name)
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
    local = _box_items(box, (0.0, 0.0, w, h), template, subject, ctx, mark, name, key, places, safe_zone=False)
    return [Group(*region, w, h, place.rotation, tuple(local))]


def _box_mark(template: ResolvedTemplate, name: str) -> SourceMark:
    return template_mark(template, ("boxes", name), template.chain[0].mark())


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


def _art(box: Box, frame, subject: Subject, ctx: LayoutContext, mark: SourceMark, name: str) -> list[Item]:
    reference = box.art
    value = require(reference, subject, ctx, mark, name)
    if value is None:
        return []
    where = reference_mark(reference, subject, mark)
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
        repeat = require(box.repeat, subject, ctx, mark, name)
        if not isinstance(repeat, int) or isinstance(repeat, bool) or not 0 <= repeat <= MAX_REPEAT:
            if repeat is not None and ctx.once("repeat", subject.label, name):
                ctx.problems.add(reference_mark(box.repeat, subject, mark),
                                 f"{subject.label}: repeat must be a whole number from 0 to {MAX_REPEAT:,}, "
                                 f"got {f'{repeat:,}' if isinstance(repeat, int) else repr(repeat)}",
                                 "the number of copies of the art drawn in a row")
            return []
        copies = repeat
    x, y, w, h = frame
    if copies == 0:
        return []
    # equal square-ish cells, the row centred in the box
    cell = min(h * art_w / art_h, (w - box.gap * (copies - 1)) / copies)
    if cell <= 0:
        if ctx.once("repeat-room", subject.label, name):
            what = f"{copies} copies of the art with a {box.gap:g} mm gap do not" if copies > 1 else "the art does not"
            ctx.problems.add(reference_mark(box.repeat, subject, mark) if box.repeat is not None else mark,
                             f"{subject.label}: {what} fit in box '{name}' ({w:g} × {h:g} mm)",
                             "give the box more room" + (", repeat the art fewer times or make the gap smaller"
                                                         if copies > 1 else ""))
        return []
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


def _cells(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
           mark: SourceMark, name: str, key: str, places_by_box: dict) -> list[Item]:
    entries = require(box.cells, subject, ctx, mark, name)
    where = reference_mark(box.cells, subject, mark)
    if entries is None:
        return []
    entries = _expand_cells(entries)
    if isinstance(entries, str):
        field = box.cells[1:] if isinstance(box.cells, str) else "cells"
        ctx.problems.add(where, f"{subject.label}: '{field}': {entries}")
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
    if not _room_for_cells(len(entries), box, template, subject, ctx, mark, name):
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
                                 box_colour(box.stroke, template.model.palette, subject, ctx, mark),
                                 box.stroke_width, tuple(box.dash) if box.dash else None))
    size = cell_template.model.size
    for index, (place, cell) in enumerate(zip(places, fields)):
        cell_subject = Subject(f"{subject.label}, {field} cell {index + 1}", cell,
                               lambda *_path, _index=index: subject.field_mark(field, _index), subject.cell_types)
        face = layout_face(cell_template, cell_subject, ctx, f"{key}/{name}/{index}")
        items.append(group_for(place, face.items, size.width, size.height))
    return items


def _room_for_cells(count: int, box: Box, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
                    mark: SourceMark, name: str) -> bool:
    """Whether `count` more cells keep the face within MAX_CELLS and its cell template within itself."""
    cycle = nested_template_problem(ctx, box.cell_template)
    if cycle is not None:
        if ctx.once("cell-cycle", template.id, name):
            ctx.problems.add(template_mark(template, ("boxes", name, "cell_template"), mark),
                             f"box '{name}': {cycle}", "a cell template cannot draw cells of itself")
        return False
    ctx.memo[_CELLS_LEFT] = ctx.memo.get(_CELLS_LEFT, MAX_CELLS) - count
    if ctx.memo[_CELLS_LEFT] < 0:
        if ctx.once("cells-limit", template.id, name):     # once: every cell of an outer box hits it
            ctx.problems.add(reference_mark(box.cells, subject, mark),
                             f"{subject.label}: box '{name}' brings the face to more than the {MAX_CELLS:,} cells "
                             "a face may hold (cells inside cells count too)",
                             "a real board's longest track has about 100 cells; check the counts")
        return False
    return True


def _expand_cells(entries):
    """A cells field: a list, a number of plain cells, or {count: N, at: {position: entry}}."""
    if isinstance(entries, bool):
        return "expected a list of cells, a number, or {count: N, at: {...}}"
    if isinstance(entries, int):
        if not 1 <= entries <= MAX_CELLS:
            return f"a number of cells runs from 1 to {MAX_CELLS:,}, got {entries:,}"
        return [{} for _ in range(entries)]
    if isinstance(entries, dict) and "count" in entries and set(entries) <= {"count", "at"}:
        count, at = entries["count"], entries.get("at") or {}
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_CELLS:
            shown = f"{count:,}" if isinstance(count, int) and not isinstance(count, bool) else repr(count)
            return f"count must be a whole number of cells from 1 to {MAX_CELLS:,}, got {shown}"
        if not isinstance(at, dict):
            return f"'at' maps positions to cells, such as at: {{0: start}}, got {at!r}"
        cells: list = [{} for _ in range(count)]
        for position, entry in at.items():
            position = int(position) if isinstance(position, str) and position.isdigit() else position
            if not isinstance(position, int) or not 0 <= position < count:
                return f"'at' positions run from 0 to {count - 1}, got {position!r}"
            cells[position] = entry
        return cells
    if isinstance(entries, list) and entries:
        return entries if len(entries) <= MAX_CELLS else f"{len(entries):,} cells; at most {MAX_CELLS:,} fit a face"
    return "expected a list of cells, a number, or {count: N, at: {...}}"


def _polygon(box: Box, frame, template: ResolvedTemplate, subject: Subject, ctx: LayoutContext,
             mark: SourceMark) -> list[Item]:
    points = value_of(box.points, subject)
    if not is_point_list(points, MAX_LENGTH):
        ctx.problems.add(reference_mark(box.points, subject, mark),
                         f"a polygon needs 3 or more points [x, y], in mm from -{MAX_LENGTH:,g} to {MAX_LENGTH:,g}",
                         "such as points: [[0, 0], [10, 0], [5, 8]]")
        return []
    x, y, _, _ = frame
    palette = template.model.palette
    return [Shape("polygon", x, y, 0, 0, fill=box_colour(box.fill, palette, subject, ctx, mark),
                  stroke=box_colour(box.stroke, palette, subject, ctx, mark), stroke_width=box.stroke_width,
                  points=tuple((x + px, y + py) for px, py in points))]


def is_point_list(points, limit: float) -> bool:
    """3 or more [x, y] pairs of finite numbers within ±limit (polygon corners, map outlines)."""
    return isinstance(points, list) and len(points) >= 3 and all(
        isinstance(p, list) and len(p) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and abs(v) <= limit
            for v in p) for p in points)
