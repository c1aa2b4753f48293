"""Whole-face components of one edition and language: boards and sheets.

Each is one template drawn once with the item's fields (and, for boards, the
cell types its `cells` boxes use).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.context import LayoutContext
from generator.components.faces import layout_face
from generator.components.subject import Subject, with_game_fields
from generator.components.piece import Face


@dataclass(frozen=True)
class LaidOutFace:
    """A board or a sheet laid out: one face, named by its id and its title's key."""

    id: str
    title: str          # translation key naming it in lists
    face: Face


LaidOutBoard = LaidOutFace


def layout_whole_faces(ctx: LayoutContext, items, document, list_key: str, noun: str) -> list[LaidOutFace]:
    """Lay out every item (board or sheet) of a file: `items` are its models, `list_key` their YAML key."""
    source = ctx.source
    laid_out = []
    for index, item in enumerate(items):
        template = ctx.templates.resolve(item.template)
        if template is None:
            continue

        def own_mark(name: str, *inside: str | int, _index=index):
            return document.mark((list_key, _index, "fields", name, *inside))

        ctx.used.add(item.name)
        fields, field_mark = with_game_fields(ctx, {"name": item.name, **item.fields}, own_mark)
        subject = Subject(f"{noun} {item.id}", fields, field_mark, getattr(item, "cell_types", {}))
        face = layout_face(template, subject, ctx, f"{source.id}/{ctx.edition}/{ctx.lang}/{noun}/{item.id}")
        laid_out.append(LaidOutFace(item.id, item.name, face))
    return laid_out


def layout_boards(ctx: LayoutContext) -> list[LaidOutFace]:
    source = ctx.source
    if source.boards is None or source.boards_document is None or source.templates is None:
        return []
    return layout_whole_faces(ctx, source.boards.boards, source.boards_document, "boards", "board")
