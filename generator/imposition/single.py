"""Print-shop pages: one face per page with its full bleed; TrimBox is the finished size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from generator.components.piece import Face, PieceCopy
from generator.imposition.sheet import Page, Placement


def face_page(face: Face, label: str) -> Page:
    b = face.bleed
    width, height = face.width + 2 * b, face.height + 2 * b
    return Page(width, height, (Placement(face, b, b, (0.0, 0.0, width, height)),),
                trim_box=(b, b, face.width, face.height), bleed_box=(0.0, 0.0, width, height), label=label)


@dataclass(frozen=True)
class ShopPreset:
    """What a print shop wants of poker cards: trim size, bleed (so the PNG size) and page order."""

    name: str
    trim: tuple[float, float] | None      # None: the piece's own size
    bleed: float
    back_first: bool = False


INCH = 25.4
SHOP_PRESETS = {
    "generic": ShopPreset("generic", None, 3.0),                                         # 815 × 1110 px
    "mpc": ShopPreset("mpc", (2.5 * INCH, 3.5 * INCH), (822 / 300 * INCH - 2.5 * INCH) / 2),   # 822 × 1122 px
    "tgc": ShopPreset("tgc", (2.5 * INCH, 3.5 * INCH), INCH / 8),                        # 825 × 1125 px
    "drivethrucards": ShopPreset("drivethrucards", (2.5 * INCH, 3.5 * INCH), INCH / 8, back_first=True),
}


def preset_page(face: Face, preset: ShopPreset, label: str) -> Page:
    """The face with its bleed box fitted to the shop's trim + bleed (a fraction of a percent's stretch)."""
    if preset.trim is None or abs(face.width - 63) > 1 or abs(face.height - 88) > 1:
        return face_page(face, label)      # presets are for poker cards; other pieces keep their size
    trim_w, trim_h = preset.trim
    b = preset.bleed
    width, height = trim_w + 2 * b, trim_h + 2 * b
    sx, sy = width / (face.width + 2 * face.bleed), height / (face.height + 2 * face.bleed)
    return Page(width, height, (Placement(face, face.bleed * sx, face.bleed * sy, (0.0, 0.0, width, height),
                                          (sx, sy)),),
                trim_box=(b, b, trim_w, trim_h), bleed_box=(0.0, 0.0, width, height), label=label)


def impose_print_shop(copies: Sequence[PieceCopy], preset: ShopPreset = SHOP_PRESETS["generic"]) -> list[Page]:
    """Every copy of every card: front then back (or back first, for the shops that want it)."""
    pages: list[Page] = []
    for copy in copies:
        front = preset_page(copy.front, preset, f"{copy.deck} {copy.number:03d} front")
        back = preset_page(copy.back, preset, f"{copy.deck} {copy.number:03d} back")
        pages.extend([back, front] if preset.back_first else [front, back])
    return pages


def centred_pages(face: Face, paper: tuple[float, float], copies: int, label: str) -> list[Page]:
    """A page-sized face (a player sheet) centred on the paper, as many times as asked."""
    x, y = (paper[0] - face.width) / 2, (paper[1] - face.height) / 2
    page = Page(*paper, (Placement(face, x, y, (x, y, face.width, face.height)),), label=label)
    return [page] * copies
