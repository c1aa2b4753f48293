"""print-shop/ORDER.txt: which file of the print-shop folder goes to which of the shop's products.

A publisher uploading a game to a shop needs, per file, the product to choose, how many pieces it holds
and in what order, and what the shop cannot make as it is (with the nearest product and the scale it
would print at). The build writes it beside the files it names, from what it imposed; English, as the
command line's messages are (it is read by the publisher, not printed).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.imposition.shops import KIND_NAMES, ShopPreset


@dataclass(frozen=True)
class OrderEntry:
    """One set of pieces in one print-shop file."""

    file: str                   # 'cards.pdf' ('': in no print-shop file)
    what: str                   # "deck 'gifts'"
    kind: str                   # a catalogue kind: cards, tokens, round tokens, standee, board, booklet
    size: tuple[float, float]   # its trim, mm
    count: int                  # pieces (cards: copies)
    pages: int                  # its pages in the file
    images: str = ""            # its PNG folder, where written ('png/gifts')
    note: str = ""              # what the size means where it is not the page's ('each side of a fold-over standee')


def order_text(preset: ShopPreset, title: str, entries: list[OrderEntry]) -> str:
    lines = [f"{title}: print-shop files for {_shop(preset)}", ""]
    if preset.source:
        lines += [f"Sizes from {preset.source}.", ""]
    page: dict[str, int] = {}
    for entry in entries:
        first = page.get(entry.file, 0) + 1
        page[entry.file] = first + entry.pages - 1
        product = preset.fitting(entry.kind, *entry.size)
        size = f"{entry.size[0]:g} × {entry.size[1]:g} mm"
        pages = f"page {first}" if entry.pages == 1 else f"pages {first}–{first + entry.pages - 1}"
        where = f"{entry.file}, {pages}: " if entry.file else ""
        lines.append(f"{where}{entry.what}, {entry.count} {KIND_NAMES[entry.kind]}(s) of {size}"
                     + (f" ({entry.note})" if entry.note else ""))
        nearest = preset.nearest(entry.kind, *entry.size) if product is None or not entry.file else None
        near = f"the {nearest[0].name} ({nearest[0].inches}), at {nearest[1]:.0%}" if nearest else ""
        if not entry.file:
            if near and preset.products is not None:
                lines.append(f"    the nearest {preset.name} product is {near}")
        elif product is not None:
            made = "at its own size" if preset.products is None else f"as the {product.name} ({product.inches})"
            lines.append(f"    order {made}; {_files(preset, product.file, entry)}")
        else:
            lines.append(f"    {preset.name} makes no {KIND_NAMES[entry.kind]} of {size}: order it as a custom print"
                         + (f"; the nearest is {near}" if near else ""))
    lines += ["", f"Every page is one face with {round(preset.bleed, 3):g} mm bleed; TrimBox is the finished size"
              + (", backs before fronts." if preset.back_first else ", fronts before backs.")]
    return "\n".join(lines) + "\n"


def _shop(preset: ShopPreset) -> str:
    return "any print shop (pnp's generic preset)" if preset.products is None else f"the {preset.name} preset"


def _files(preset: ShopPreset, wanted: str, entry: OrderEntry) -> str:
    if wanted == "png" and entry.images:
        return f"upload the PNGs in {entry.images}/ ({preset.ppi} ppi with the bleed)"
    return f"upload {entry.file}"
