"""Field data checked when the game is read: every field a box reads as a payload (content/payloads.py).

For every piece, back, board and sheet, and every cell and map node drawn inside them, each
box that reads a payload ('@routes' in a network, '@spaces' in a cells box, a polygon's
'@points', a table's '@rows') has its field's value parsed by the payload's parser. So
`pnp check` meets a bad route, cell, point or table row before anything is laid out, located
at the value, in the words layout would use (layout parses the same way, and a problem said
twice is kept once). A field no box reads stays free; a field a box reads but the subject lacks
is layout's to say, since only layout knows whether the box is drawn (`when`, `unless`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from generator.content.payloads import (ABSENT, Issue, field_name, parse_cells, parse_map, parse_points,
                                        parse_rows, path_count_problem)
from generator.content.schema import MAX_CELLS, AnyBox
from generator.content.templates import ResolvedTemplate
from generator.errors import Problems, SourceMark

if TYPE_CHECKING:      # game.py calls this module when it has read a game
    from generator.content.game import GameSource

PAYLOAD_KINDS = frozenset({"cells", "network", "polygon", "table"})
MarkOf = Callable[..., SourceMark]      # (field name, *path inside it) → where it is written


@dataclass(frozen=True)
class _Subject:
    """What a face is drawn for, as layout will see it: its label, fields, where each field is written,
    and the cell types its cells boxes may name."""

    label: str
    fields: Mapping[str, Any]
    mark: MarkOf
    cell_types: Mapping[str, Mapping[str, Any]]

    def read(self, reference: Any) -> Any:
        """A box value: the field it names ('@name'; ABSENT when there is none), or the value as written."""
        if isinstance(reference, str) and reference.startswith("@"):
            return self.fields.get(reference[1:], ABSENT)
        return reference


def check_payloads(source: "GameSource", problems: Problems) -> None:
    """Every payload of every component of the game, each problem reported once, located."""
    walker = _Walker(source, problems)
    game_fields = source.game.fields
    for kind, pieces in source.pieces.items():
        noun = "deck" if kind == "cards" else f"{kind[:-1]} set"
        for set_index, piece_set in enumerate(pieces.sets):
            own = {"deck": piece_set.name, **piece_set.fields}
            # each mark function binds the loop's values it reads (a closure would see the last ones)
            set_mark = _with_game(source, own, lambda name, *inside, _i=set_index, _p=pieces: (
                _p.mark(_i, "name") if name == "deck" else _p.mark(_i, "fields", name, *inside)))
            set_fields = {**game_fields, **own}
            if piece_set.ink_saver_back:
                walker.visit(piece_set.ink_saver_back,
                             _Subject(f"{noun} {piece_set.id}, back", set_fields, set_mark, {}))
            for index, piece in enumerate(piece_set.items):
                def piece_mark(name: str, *inside, _i=set_index, _j=index, _own=piece.fields, _items=piece_set.ITEMS,
                               _p=pieces, _set_mark=set_mark):
                    if name in _own:
                        return _p.mark(_i, _items, _j, "fields", name, *inside)
                    return _set_mark(name, *inside)
                subject = _Subject(f"{noun} {piece_set.id}, {piece_set.ITEMS[:-1]} {piece.id}",
                                   {**set_fields, "id": piece.id, **piece.fields}, piece_mark, {})
                for template_id in (piece_set.template, piece_set.back):
                    if template_id:
                        walker.visit(template_id, subject)
    for items, document, list_key, noun in ((source.boards, source.boards_document, "boards", "board"),
                                            (source.sheets, source.sheets_document, "sheets", "sheet")):
        for index, item in enumerate(getattr(items, list_key) if items is not None else []):
            own = {"name": item.name, **item.fields}
            mark = _with_game(source, own, lambda name, *inside, _i=index, _d=document, _k=list_key:
                              _d.mark((_k, _i, "fields", name, *inside)))
            walker.visit(item.template, _Subject(f"{noun} {item.id}", {**game_fields, **own}, mark,
                                                 getattr(item, "cell_types", {})))


def _with_game(source: "GameSource", own: Mapping[str, Any], own_mark: MarkOf) -> MarkOf:
    """Where a field is written: the item's own, else game.yaml's shared `fields`."""
    shared = source.game.fields

    def mark(name: str, *inside: str | int) -> SourceMark:
        if name in shared and name not in own:
            return source.game_document.mark(("fields", name, *inside))
        return own_mark(name, *inside)
    return mark


class _Walker:
    """Visits a template's payload boxes for a subject, and the cells and nodes they draw, depth first."""

    def __init__(self, source: "GameSource", problems: Problems):
        assert source.templates is not None        # load_game reads the templates before the payloads
        self.templates = source.templates
        self.problems = problems
        self.readers: dict[str, list[tuple[str, AnyBox, SourceMark]]] = {}
        self.budget = 0         # cells and nodes still visited under the current top-level subject

    def visit(self, template_id: str, subject: _Subject) -> None:
        """A piece, back, board or sheet: its template's payloads and those of everything drawn inside."""
        self.budget = MAX_CELLS
        self._template(template_id, subject, ())

    def _template(self, template_id: str, subject: _Subject, stack: tuple[str, ...]) -> None:
        if template_id in stack or self.budget <= 0:
            return          # a template inside itself, or more cells than a face holds: layout says so
        template = self.templates.resolve(template_id) if template_id in self.templates.files else None
        if template is None:
            return
        for name, box, box_mark in self._readers(template):
            at = _Box(name, box, box_mark, stack + (template_id,))
            getattr(self, f"_{box.kind}")(at, subject)

    def _readers(self, template: ResolvedTemplate) -> list[tuple[str, AnyBox, SourceMark]]:
        if template.id not in self.readers:
            self.readers[template.id] = [(name, box, _box_mark(template, name))
                                         for name, box in template.model.boxes.items() if box.kind in PAYLOAD_KINDS]
        return self.readers[template.id]

    def _report(self, at: "_Box", subject: _Subject, reference: Any, issues: list[Issue]) -> None:
        for issue in issues:
            is_field = isinstance(reference, str) and reference.startswith("@")
            mark = subject.mark(issue.field, *issue.path) if is_field else at.mark
            self.problems.add(mark, issue.text(subject.label), issue.hint)

    def _polygon(self, at: "_Box", subject: _Subject) -> None:
        value = subject.read(at.box.points)
        if value is not ABSENT:
            self._report(at, subject, at.box.points, parse_points(value, field_name(at.box.points, "points"))[1])

    def _table(self, at: "_Box", subject: _Subject) -> None:
        value = subject.read(at.box.table)
        if value is not ABSENT:
            self._report(at, subject, at.box.table, parse_rows(value, field_name(at.box.table, "table"))[1])

    def _cells(self, at: "_Box", subject: _Subject) -> None:
        box = at.box
        value = subject.read(box.cells)
        if value is ABSENT:
            return
        field = field_name(box.cells, "cells")
        cells, issues = parse_cells(value, field, subject.cell_types)
        self._report(at, subject, box.cells, issues)
        if cells is None:
            return
        problem = path_count_problem(box.path, box.rows, len(cells))
        if problem is not None:
            self.problems.add(at.mark, f"box '{at.name}': {problem}")
        self.budget -= len(cells)
        for index, cell in enumerate(cells):
            inner = _Subject(f"{subject.label}, {field} cell {index + 1}",
                             {**subject.fields, "index": index + 1, "position": index, **cell},
                             lambda *_path, _index=index: subject.mark(field, _index), subject.cell_types)
            self._template(box.cell_template, inner, at.stack)

    def _network(self, at: "_Box", subject: _Subject) -> None:
        spec = at.box.network
        data, issues = parse_map(spec, subject.read)
        for reference, issue in issues:
            self._report(at, subject, reference, [issue])
        self.budget -= len(data.nodes)
        nodes_field = field_name(spec.nodes, "nodes")
        for index, node in data.nodes:
            inner = _Subject(f"{subject.label}, node {node.id}", node.fields,
                             lambda *_path, _index=index: subject.mark(nodes_field, _index), {})
            self._template(spec.node_template, inner, at.stack)


@dataclass(frozen=True)
class _Box:
    """A payload box being visited: its name, model, where it is written, and the templates it lies in."""

    name: str
    box: Any
    mark: SourceMark
    stack: tuple[str, ...]


def _box_mark(template: ResolvedTemplate, name: str) -> SourceMark:
    """Where a box is written: the first file of the template's chain (child first) that has it."""
    return template.mark(("boxes", name))
