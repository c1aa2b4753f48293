"""Draw a template's boxes for one item (a card, a back) into a Face: the layout stage.

Box values written '@name' come from the item's fields; text is looked up in
the language's catalog, shrunk to fit, and every problem (missing key, missing
glyph, text too long at the minimum size) is reported with where it was written.
Each box is laid out by its kind's function (kinds.py), handed a BoxCall and
`layout_face` itself as the callback that draws nested templates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.components.box_call import BoxCall, Frame
from generator.components.cells import CellPlace, face_spaces, rotate_region
from generator.components.context import LayoutContext
from generator.components.deck_sizes import one_size_per_deck, open_scope
from generator.components.kinds import LAYOUTS, READS_FIELDS_ONLY_BY_VALUE, WORDS
from generator.components.nesting import laying_out
from generator.components.piece import Face, Group, Item
from generator.components.subject import MISSING, Subject, is_present, value_of
from generator.components.text_boxes import check_safe
from generator.content.schema import AnyBox, Strict
from generator.content.templates import ResolvedTemplate
from generator.errors import SourceMark


def layout_face(template: ResolvedTemplate, subject: Subject, ctx: LayoutContext, key: str) -> Face:
    """The template's boxes drawn for the subject (a card, a back, a board, a cell)."""
    with laying_out(ctx, template.id):
        if open_scope(ctx) is not None:     # a card of a deck, a cell of a board: the deck settles sizes
            return _layout_face(template, subject, ctx, key)
        # a face laid out alone (a board, a sheet) is its own deck: its cells share sizes
        with one_size_per_deck(ctx) as sizes:
            face = _layout_face(template, subject, ctx, key)
    return sizes.final(face)


def _layout_face(template: ResolvedTemplate, subject: Subject, ctx: LayoutContext, key: str) -> Face:
    model = template.model
    items: list[Item] = []
    places: dict = {}     # cells boxes laid out so far, for anchored boxes

    def draw(inner: ResolvedTemplate, inner_subject: Subject, inner_key: str) -> Face:
        return layout_face(inner, inner_subject, ctx, inner_key)
    for step in _plan(template, ctx):
        box, name, mark = step.box, step.name, step.mark
        if step.editions_unknown and ctx.once("box-editions", template.id, name):
            ctx.problems.add(mark, f"box '{name}' names unknown edition(s) {', '.join(step.editions_unknown)}",
                             f"editions in game.yaml: {', '.join(ctx.source.game.editions)}")
        if step.off_the_piece or (box.editions is not None and ctx.edition not in box.editions):
            continue
        if not _shown(box, subject, ctx, (mark, template.id, name)):
            continue
        if ctx.sketch and box.kind == "art":     # a face never drawn: its art is not read (and not memoised)
            continue
        if step.reads_no_field and box.anchor is None:
            known = ctx.memo.get(("box", template.id, name))
            if known is not None:       # laid out (and its frame checked) on an earlier face
                items.extend(known)
                continue
        frame = _frame(box, template, mark, ctx, name)
        if frame is None:
            continue
        call = BoxCall(box, name, frame, template, subject, ctx, mark, key, places)
        if box.anchor is not None:
            items.extend(_anchored(call, draw))
            continue
        if box.kind in WORDS:
            check_safe(template, name, frame, ctx, mark)
        if step.reads_no_field:
            memo_key = ("box", template.id, name)
            if memo_key not in ctx.memo:
                ctx.memo[memo_key] = tuple(_laid_out(call, draw))
            items.extend(ctx.memo[memo_key])
        else:
            items.extend(_laid_out(call, draw))
    return Face(key, template.size.width, template.size.height, model.bleed or 0.0, tuple(items),
                model.shape or "rect", face_spaces(places) if places else (),
                tuple(name for name, cells in places.items() if cells and cells[0].side))


def draws_the_same_for_every_subject(template: ResolvedTemplate, ctx: LayoutContext) -> bool:
    """Whether the template's face is the same whatever the card: no box reads a field or holds a
    condition (a deck's plain back). Such a face is laid out once for a whole set."""
    return all(step.reads_no_field and step.box.when is None and step.box.unless is None
               for step in _plan(template, ctx))


@dataclass(frozen=True)
class _Step:
    """One box of a template, in drawing order, with what can be known before any face."""

    name: str
    box: AnyBox
    mark: SourceMark
    editions_unknown: tuple[str, ...]
    reads_no_field: bool    # its items are the same on every face: laid out once
    off_the_piece: str | None = None     # 'x' or 'y' when the box lies wholly outside the bleed (reported)


def _plan(template: ResolvedTemplate, ctx: LayoutContext) -> list[_Step]:
    memo_key = ("plan", template.id)
    plan = ctx.memo.get(memo_key)
    if plan is None:
        known = set(ctx.source.game.editions)
        plan = ctx.memo[memo_key] = [
            _Step(name, box, _box_mark(template, name),
                  tuple(sorted(set(box.editions or ()) - known)),
                  box.kind in READS_FIELDS_ONLY_BY_VALUE and not _reads_field(box),
                  _off_the_piece(box, template))
            for name, box in sorted(template.model.boxes.items(), key=lambda pair: pair[1].z)]
        for step in plan:
            if step.off_the_piece:
                _report_off_the_piece(template, step, ctx)
    return plan


def _off_the_piece(box: AnyBox, template: ResolvedTemplate) -> str | None:
    """'x' or 'y' if the box lies wholly outside the template's bleed area (it could never be seen)."""
    if box.anchor is not None or box.area is not None or box.width is None or box.height is None:
        return None      # anchored boxes are placed from a cell; areas are always on the piece
    width, height, bleed = template.size.width, template.size.height, template.model.bleed or 0.0
    # strictly outside: a line along the very edge still shows half its stroke
    if box.x > width + bleed or box.x + box.width < -bleed:
        return "x"
    if box.y > height + bleed or box.y + box.height < -bleed:
        return "y"
    return None


def _report_off_the_piece(template: ResolvedTemplate, step: _Step, ctx: LayoutContext) -> None:
    width, height, bleed = template.size.width, template.size.height, template.model.bleed or 0.0
    where = template.mark(("boxes", step.name, step.off_the_piece), step.mark)
    ctx.problems.add(where, f"box '{step.name}' lies entirely outside its {width:g} × {height:g} mm template "
                            f"(and its {bleed:g} mm bleed), so it would never be drawn",
                     f"x and y are millimetres from the trim's top-left corner: x from 0 to {width:g}, "
                     f"y from 0 to {height:g}; check the unit (16.5cm is 165 mm)")


def _shown(box: AnyBox, subject: Subject, ctx: LayoutContext, at: tuple[SourceMark, str, str]) -> bool:
    """Whether the box is drawn for the subject (its `when` holds and its `unless` does not); `at` is
    (where the box is written, its template id, its name) for reporting a condition."""
    if box.when is not None and not _holds(box.when, subject, ctx, at):
        return False
    return box.unless is None or not _holds(box.unless, subject, ctx, at)


def _holds(condition, subject: Subject, ctx: LayoutContext, at: tuple[SourceMark, str, str]) -> bool:
    """'@field': the field is there and not empty; {'@field': value or [values]}: every field matches."""
    mark, template_id, name = at
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
    """Whether a value of the box (its fields, and theirs) is an '@field'. The models are walked as
    they are, not dumped: a model's first dump builds its serializer (and validator), ~1.5 ms a kind."""
    if isinstance(value, str):
        return value.startswith("@")
    if isinstance(value, Strict):
        return any(_reads_field(item) for item in value.__dict__.values())
    if isinstance(value, dict):
        return any(_reads_field(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_reads_field(item) for item in value)
    return False


def _anchored(call: BoxCall, draw) -> list[Item]:
    """A box placed relative to one cell of a `cells` box, turned the way that cell faces.

    x and y are measured from the cell's top-left corner as the cell itself reads
    (so negative y reaches towards the middle of a board whose loop faces outwards).
    """
    anchor, ctx = call.box.anchor, call.ctx
    cells = call.places.get(anchor.cells)
    if cells is None or not 1 <= anchor.cell <= len(cells):
        if ctx.once("anchor", call.template.id, call.name):
            ctx.problems.add(call.mark, f"box '{call.name}' is anchored to cell {anchor.cell} of '{anchor.cells}', "
                             "which is not a cells box drawn before it (or has fewer cells)",
                             "give the anchored box a higher z than the cells box, and a cell number from 1")
        return []
    place = cells[anchor.cell - 1]
    x, y, w, h = call.frame
    region = rotate_region(place, x, y, w, h)
    if call.box.turn:      # turned within its own footprint, then with its cell
        local_w, local_h = _reading_size(call.box.turn, w, h)
        inner = LAYOUTS[call.box.kind](call.at((0.0, 0.0, local_w, local_h)), draw)
        return [Group(*region, local_w, local_h, (place.rotation + call.box.turn) % 360, tuple(inner))]
    local = LAYOUTS[call.box.kind](call.at((0.0, 0.0, w, h)), draw)
    if call.name in call.places:        # an anchored cells box: its cells' places, from its own frame to the face's
        call.places[call.name] = [_on_the_face(place, x, y, inner) for inner in call.places[call.name]]
    return [Group(*region, w, h, place.rotation, tuple(local))]


def _laid_out(call: BoxCall, draw) -> Sequence[Item]:
    """A box's items in its frame on the face; a turned box's laid out as its contents read (width and
    height swapped for a quarter turn) and turned into its frame about the frame's centre."""
    turn = call.box.turn
    if not turn:
        return LAYOUTS[call.box.kind](call, draw)
    x, y, w, h = call.frame
    local_w, local_h = _reading_size(turn, w, h)
    inner = LAYOUTS[call.box.kind](call.at((0.0, 0.0, local_w, local_h)), draw)
    return [Group(x, y, w, h, local_w, local_h, turn, tuple(inner))]


def _reading_size(turn: int, w: float, h: float) -> tuple[float, float]:
    """The width and height a box's contents are laid out in when turned by `turn` into a w × h footprint."""
    return (h, w) if turn % 180 == 90 else (w, h)


def _on_the_face(anchor: CellPlace, x: float, y: float, place: CellPlace) -> CellPlace:
    """A cell of a box anchored to the cell `anchor` at (x, y) of it, moved from the box's frame to the face."""
    frame = rotate_region(anchor, x + place.x, y + place.y, place.w, place.h)
    return CellPlace(*frame, (place.rotation + anchor.rotation) % 360, place.side, place.id, place.inner,
                     place.inner_size)


def _box_mark(template: ResolvedTemplate, name: str) -> SourceMark:
    return template.mark(("boxes", name))


def _frame(box: AnyBox, template: ResolvedTemplate, mark: SourceMark, ctx: LayoutContext,
           name: str) -> Frame | None:
    model = template.model
    width, height = template.size.width, template.size.height
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
