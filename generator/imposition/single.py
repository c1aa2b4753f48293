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


INCH = 25.4
SIZE_TOLERANCE = 1.0        # mm: a card within this of a named size is that size
MAX_STRETCH = 0.015         # a card is fitted to a shop's product by its bleed box: at most 1.5 % either way


@dataclass(frozen=True)
class CardSize:
    """A named card size of the shared templates (templates/<name>-card.yaml), in mm."""

    name: str
    width: float
    height: float


CARD_SIZES = (CardSize("poker", 63, 88), CardSize("mini", 44, 68), CardSize("tarot", 70, 120),
              CardSize("square", 70, 70), CardSize("bridge", 57, 89), CardSize("euro", 59, 92),
              CardSize("japanese", 59, 86))


def card_size_of(width: float, height: float) -> CardSize | None:
    """The named size a card of width × height mm is (either way round), or None."""
    for size in CARD_SIZES:
        for w, h in ((size.width, size.height), (size.height, size.width)):
            if abs(width - w) <= SIZE_TOLERANCE and abs(height - h) <= SIZE_TOLERANCE:
                return size
    return None


@dataclass(frozen=True)
class ShopProduct:
    """A card a shop makes: its name in the shop's list and its trim in mm."""

    name: str
    trim: tuple[float, float]


@dataclass(frozen=True)
class ShopPreset:
    """What a print shop wants of cards: the products (trim sizes) it makes, bleed and page order.

    `products` None: any size at the piece's own size (the generic preset)."""

    name: str
    products: tuple[ShopProduct, ...] | None
    bleed: float
    back_first: bool = False

    def product_for(self, width: float, height: float) -> ShopProduct | None:
        """The product a card of width × height mm is printed as (fitted by at most MAX_STRETCH), or None."""
        if self.products is None:
            return ShopProduct("own size", (width, height))
        for product in self.products:
            pw, ph = product.trim
            if abs(pw / width - 1) <= MAX_STRETCH and abs(ph / height - 1) <= MAX_STRETCH:
                return product
        return None

    def offered(self) -> str:
        """The products, as a list for a message: 'poker 63.5 × 88.9 mm, bridge 57.2 × 88.9 mm'."""
        if self.products is None:
            return "any size"
        return ", ".join(f"{p.name} {p.trim[0]:.1f} × {p.trim[1]:.1f} mm" for p in self.products)


def _inches(name: str, width: float, height: float) -> ShopProduct:
    return ShopProduct(name, (width * INCH, height * INCH))


# US shops' card products (trim in inches; MPC's "mini" and the others' are 1.75 × 2.5 in, not the 44 × 68 mm
# mini of the shared templates, which no preset but generic prints)
_US_POKER, _US_BRIDGE, _US_TAROT = _inches("poker", 2.5, 3.5), _inches("bridge", 2.25, 3.5), _inches("tarot", 2.75, 4.75)
_US_MINI, _US_SQUARE = _inches("mini", 1.75, 2.5), _inches("square", 2.5, 2.5)
SHOP_PRESETS = {
    "generic": ShopPreset("generic", None, 3.0),                                              # 815 × 1110 px
    "mpc": ShopPreset("mpc", (_US_POKER, _US_BRIDGE, _US_TAROT, _US_MINI),
                      (822 / 300 * INCH - 2.5 * INCH) / 2),                                     # 822 × 1122 px
    "tgc": ShopPreset("tgc", (_US_POKER, _US_BRIDGE, _US_TAROT, _US_MINI, _US_SQUARE), INCH / 8),  # 825 × 1125 px
    "drivethrucards": ShopPreset("drivethrucards", (_US_POKER, _US_TAROT, _US_MINI, _US_SQUARE), INCH / 8,
                                 back_first=True),
}


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
                     "build with --shop generic (every size at its own size, 3 mm bleed), or use a size the shop "
                     "offers")


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
