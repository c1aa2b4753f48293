"""Boards of one edition and language: the board template drawn with the board's fields."""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.context import LayoutContext
from generator.components.faces import Subject, layout_face
from generator.components.piece import Face


@dataclass(frozen=True)
class LaidOutBoard:
    id: str
    title: str          # translation key
    face: Face


def layout_boards(ctx: LayoutContext) -> list[LaidOutBoard]:
    source = ctx.source
    if source.boards is None or source.boards_document is None or source.templates is None:
        return []
    document = source.boards_document
    boards = []
    for index, board in enumerate(source.boards.boards):
        template = source.templates.resolve(board.template)
        if template is None:
            continue

        def field_mark(name: str, *inside: str | int, _index=index):
            return document.mark(("boards", _index, "fields", name, *inside))

        subject = Subject(f"board {board.id}", {"name": board.name, **board.fields}, field_mark, board.cell_types)
        face = layout_face(template, subject, ctx, f"{source.id}/{ctx.edition}/{ctx.lang}/board/{board.id}")
        boards.append(LaidOutBoard(board.id, board.name, face))
    return boards
