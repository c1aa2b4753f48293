"""Print-shop pages: one face per page with its full bleed; TrimBox is the finished size."""

from __future__ import annotations

from typing import Sequence

from generator.components.piece import Face, PieceCopy
from generator.imposition.sheet import Page, Placement
from generator.imposition.shops import GENERIC_BLEED, SHOP_PRESETS, ShopPreset, card_size_of


def face_page(face: Face, label: str) -> Page:
    b = face.bleed
    width, height = face.width + 2 * b, face.height + 2 * b
    return Page(width, height, (Placement(face, b, b, (0.0, 0.0, width, height)),),
                trim_box=(b, b, face.width, face.height), bleed_box=(0.0, 0.0, width, height), label=label)


def preset_page(face: Face, preset: ShopPreset, label: str) -> Page:
    """The face with its bleed box fitted to the shop's product trim + bleed (a stretch of at most 1.5 %);
    a piece the shop has no product for (a token) keeps its own size."""
    product = preset.product_for(face.width, face.height)
    if preset.products is None or product is None:
        return face_page(face, label)
    trim_w, trim_h = product.trim
    b = preset.bleed
    width, height = trim_w + 2 * b, trim_h + 2 * b
    sx, sy = width / (face.width + 2 * face.bleed), height / (face.height + 2 * face.bleed)
    return Page(width, height, (Placement(face, face.bleed * sx, face.bleed * sy, (0.0, 0.0, width, height),
                                          (sx, sy)),),
                trim_box=(b, b, trim_w, trim_h), bleed_box=(0.0, 0.0, width, height), label=label)


def shop_size_problems(source, preset_name: str, problems) -> None:
    """Each deck whose card size the shop makes no product for: a located error at its template line,
    naming the card size and the sizes the shop offers."""
    preset = SHOP_PRESETS[preset_name]
    pieces = source.pieces.get("cards")
    if preset.products is None or pieces is None or source.templates is None:
        return
    if not any(edition.print_shop for edition in source.game.editions.values()):
        return
    for index, deck in enumerate(pieces.sets):
        template = source.templates.resolve(deck.template)
        if template is None or template.model.size is None:
            continue
        width, height = template.model.size.width, template.model.size.height
        if preset.product_for(width, height) is not None:
            continue
        named = card_size_of(width, height)
        size = f"{named.name} size ({width:g} × {height:g} mm)" if named else f"{width:g} × {height:g} mm"
        problems.add(pieces.mark(index, "template"),
                     f"deck '{deck.id}' is {size}: print-shop preset '{preset.name}' makes no such card "
                     f"(it offers {preset.offered()})",
                     f"build with --shop generic (every size at its own size, {GENERIC_BLEED:g} mm bleed), "
                     "or use a size the shop offers")


def impose_print_shop(copies: Sequence[PieceCopy], preset: ShopPreset = SHOP_PRESETS["generic"]) -> list[Page]:
    """Every copy of every card: front then back (or back first, for the shops that want it)."""
    pages: list[Page] = []
    for copy in copies:
        front = preset_page(copy.front, preset, f"{copy.deck} {copy.number:03d} front")
        if copy.back is None:        # a one-sided piece: its front alone
            pages.append(front)
            continue
        back = preset_page(copy.back, preset, f"{copy.deck} {copy.number:03d} back")
        pages.extend([back, front] if preset.back_first else [front, back])
    return pages


def centred_pages(face: Face, paper: tuple[float, float], copies: int, label: str) -> list[Page]:
    """A page-sized face (a player sheet) centred on the paper, as many times as asked."""
    x, y = (paper[0] - face.width) / 2, (paper[1] - face.height) / 2
    page = Page(*paper, (Placement(face, x, y, (x, y, face.width, face.height)),), label=label)
    return [page] * copies
