"""Print-shop pages: one face per page with its full bleed; TrimBox is the finished size."""

from __future__ import annotations

from typing import Sequence

from generator.components.piece import Face, PieceCopy
from generator.imposition.bleed import bled
from generator.imposition.sheet import Page, Placement
from generator.imposition.shops import (GENERIC_BLEED, KIND_NAMES, SHOP_PRESETS, ShopPreset, card_size_of,
                                        catalogue_kind)
from generator.print_facts import RULEBOOK_PAGE_SIZES


def face_page(face: Face, label: str) -> Page:
    b = face.bleed
    width, height = face.width + 2 * b, face.height + 2 * b
    return Page(width, height, (Placement(face, b, b, (0.0, 0.0, width, height)),),
                trim_box=(b, b, face.width, face.height), bleed_box=(0.0, 0.0, width, height), label=label)


def preset_page(face: Face, preset: ShopPreset, label: str, kind: str = "cards") -> Page:
    """The face with its bleed box fitted to the shop's product trim + bleed (a stretch of at most 1.5 %);
    a piece the shop has no product of `kind` for (a 14 mm token at tgc) keeps its own size."""
    product = preset.fitting(kind, face.width, face.height)
    if preset.products is None:
        return face_page(face, label)
    if product is None:          # a custom print at its own size, with at least the named shop's bleed
        return face_page(bled(face, preset.bleed), label)
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


def shop_fit_problems(source, preset_name: str, problems) -> None:
    """Each board, token set, pawn set and the rulebook that the shop makes no product for: a located warning
    at its template (the rulebook: at rules.yaml), naming the nearest product and the scale it would print
    at there. Their print-shop files stay at their own size; decks are shop_size_problems' (an error)."""
    preset = SHOP_PRESETS[preset_name]
    if preset.products is None or source.templates is None:
        return
    if not any(edition.print_shop for edition in source.game.editions.values()):
        return
    for kind, piece_file in source.pieces.items():
        if kind == "cards":
            continue
        for index, piece_set in enumerate(piece_file.sets):
            template = source.templates.resolve(piece_set.template)
            if template is None or template.model.size is None:
                continue
            shop_kind = catalogue_kind(kind, template.model.shape or "rect")
            size = (template.model.size.width, template.model.size.height)
            _fit(preset, shop_kind, f"{KIND_NAMES[catalogue_kind(kind)]} set '{piece_set.id}'", size,
                 piece_file.mark(index, "template"), problems)
    if source.boards is not None and source.boards_document is not None:
        for index, board in enumerate(source.boards.boards):
            template = source.templates.resolve(board.template)
            if template is not None and template.model.size is not None:
                _fit(preset, "board", f"board '{board.id}'", (template.model.size.width, template.model.size.height),
                     source.boards_document.mark(("boards", index, "template")), problems)
    if source.rules is not None and source.rules_document is not None:
        _fit(preset, "booklet", "the rulebook", RULEBOOK_PAGE_SIZES[preset.rulebook], source.rules_document.mark(),
             problems)


def _fit(preset: ShopPreset, kind: str, what: str, size: tuple[float, float], mark, problems) -> None:
    if preset.fitting(kind, *size) is not None:
        return
    nearest = preset.nearest(kind, *size)
    made = f"{preset.name} makes no {KIND_NAMES[kind]} of {size[0]:g} × {size[1]:g} mm"
    if nearest is None:
        problems.warn(mark, f"{what}: {made} in pnp's catalogue",
                      "its print-shop file stays at its own size: order it as a custom print, or from a shop that "
                      "makes it (--shop generic: every piece at its own size)")
        return
    product, scale = nearest
    problems.warn(mark, f"{what}: {made}; the nearest is its {product.name} "
                        f"({product.inches}), which would print it at {scale:.0%}",
                  "its print-shop file stays at its own size: resize the template to the product, or order a "
                  "custom print (ORDER.txt in the print-shop folder lists what goes where)")


def impose_print_shop(copies: Sequence[PieceCopy], preset: ShopPreset = SHOP_PRESETS["generic"],
                      kind: str = "cards") -> list[Page]:
    """Every copy of every piece of a piece file's `kind` (cards, tokens), each fitted to the shop's product of
    its catalogue kind: front then back (or back first, for the shops that want it)."""
    pages: list[Page] = []
    for copy in copies:
        piece_kind = catalogue_kind(kind, copy.front.shape)
        front = preset_page(copy.front, preset, f"{copy.deck} {copy.number:03d} front", piece_kind)
        if copy.back is None:        # a one-sided piece: its front alone
            pages.append(front)
            continue
        back = preset_page(copy.back, preset, f"{copy.deck} {copy.number:03d} back", piece_kind)
        pages.extend([back, front] if preset.back_first else [front, back])
    return pages


def centred_pages(face: Face, paper: tuple[float, float], copies: int, label: str) -> list[Page]:
    """A page-sized face (a player sheet) centred on the paper, as many times as asked."""
    x, y = (paper[0] - face.width) / 2, (paper[1] - face.height) / 2
    page = Page(*paper, (Placement(face, x, y, (x, y, face.width, face.height)),), label=label)
    return [page] * copies
