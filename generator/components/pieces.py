"""Sets of pieces (decks, tokens, pawns) of one edition and language, expanded into copies.

Each distinct face is laid out once and shared by all its copies.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.context import LayoutContext
from generator.components.faces import layout_face
from generator.components.subject import Subject, with_game_fields
from generator.components.piece import Face, PieceCopy
from generator.components.standee import standee_face
from generator.content.game import PieceFile, piece_count
from generator.content.schema import PawnSet


@dataclass(frozen=True)
class LaidOutSet:
    id: str
    title: str                   # translation key naming the set in lists
    copies: tuple[PieceCopy, ...]
    ink_saver_back: Face | None


def layout_sets(ctx: LayoutContext, pieces: PieceFile) -> list[LaidOutSet]:
    source = ctx.source
    assert source.templates is not None
    laid_out: list[LaidOutSet] = []
    for set_index, piece_set in enumerate(pieces.sets):
        front_template = source.templates.resolve(piece_set.template)
        back_template = source.templates.resolve(piece_set.back) if piece_set.back else None
        saver_template = source.templates.resolve(piece_set.ink_saver_back) if piece_set.ink_saver_back else None
        if front_template is None or (piece_set.back and back_template is None):
            continue
        ctx.used.add(piece_set.name)   # named in the YAML even where no template prints it

        def own_mark(name: str, *inside: str | int, _index=set_index):
            if name == "deck":
                return pieces.mark(_index, "name")
            return pieces.mark(_index, "fields", name, *inside)
        set_fields, set_mark = with_game_fields(ctx, {"deck": piece_set.name, **piece_set.fields}, own_mark)

        noun = "deck" if pieces.kind == "cards" else f"{pieces.kind[:-1]} set"
        prefix = f"{source.id}/{ctx.edition}/{ctx.lang}/{pieces.kind}/{piece_set.id}"
        back_subject = Subject(f"{noun} {piece_set.id}, back", set_fields, set_mark)
        back = layout_face(back_template, back_subject, ctx, f"{prefix}/back") if back_template else None
        saver = layout_face(saver_template, back_subject, ctx, f"{prefix}/back-ink-saver") if saver_template else None
        copies: list[PieceCopy] = []
        for index, piece in enumerate(piece_set.items):
            count = piece_count(piece_set, index, ctx.edition)
            if count == 0:
                continue

            def piece_mark(name: str, *inside: str | int, _set=set_index, _index=index, _fields=piece.fields,
                           _items=piece_set.ITEMS):
                if name in _fields:
                    return pieces.mark(_set, _items, _index, "fields", name, *inside)
                return set_mark(name, *inside)

            subject = Subject(f"{noun} {piece_set.id}, {piece_set.ITEMS[:-1]} {piece.id}",
                              {**set_fields, "id": piece.id, **piece.fields}, piece_mark)
            front = layout_face(front_template, subject, ctx, f"{prefix}/{piece.id}")
            if isinstance(piece_set, PawnSet):
                piece_back = layout_face(back_template, subject, ctx, f"{prefix}/{piece.id}/back") \
                    if back_template else front
                front, piece_back = standee_face(front, piece_back, piece_set.standee.base,
                                                 f"{prefix}/{piece.id}/standee"), None
            else:
                piece_back = back
            for _ in range(count):
                copies.append(PieceCopy(piece_set.id, piece.id, len(copies) + 1, front, piece_back))
        laid_out.append(LaidOutSet(piece_set.id, piece_set.title or piece_set.name, tuple(copies), saver))
    return laid_out
