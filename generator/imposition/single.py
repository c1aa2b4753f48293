"""Print-shop pages: one face per page with its full bleed; TrimBox is the finished size."""

from __future__ import annotations

from typing import Sequence

from generator.components.piece import Face, PieceCopy
from generator.imposition.sheet import Page, Placement


def face_page(face: Face, label: str) -> Page:
    b = face.bleed
    width, height = face.width + 2 * b, face.height + 2 * b
    return Page(width, height, (Placement(face, b, b, (0.0, 0.0, width, height)),),
                trim_box=(b, b, face.width, face.height), bleed_box=(0.0, 0.0, width, height), label=label)


def impose_print_shop(copies: Sequence[PieceCopy], back_first: bool = False) -> list[Page]:
    """Every copy of every card: front then back (or back then front for shops that want it)."""
    pages: list[Page] = []
    for copy in copies:
        front = face_page(copy.front, f"{copy.deck} {copy.number:03d} front")
        back = face_page(copy.back, f"{copy.deck} {copy.number:03d} back")
        pages.extend([back, front] if back_first else [front, back])
    return pages


def centred_pages(face: Face, paper: tuple[float, float], copies: int, label: str) -> list[Page]:
    """A page-sized face (a player sheet) centred on the paper, as many times as asked."""
    x, y = (paper[0] - face.width) / 2, (paper[1] - face.height) / 2
    page = Page(*paper, (Placement(face, x, y, (x, y, face.width, face.height)),), label=label)
    return [page] * copies
