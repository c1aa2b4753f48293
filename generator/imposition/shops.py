"""The print-shop catalogue: the card sizes pnp knows, and each shop's products, bleed and page order.

Every fact about a print shop is here once: the print-shop stage imposes by it
(imposition/single.py), the build refuses a deck a shop does not make by it, and
preflight judges a print-shop file's bleed by it (a `--shop tgc` build has ⅛ in).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

INCH = 25.4
SIZE_TOLERANCE = 1.0        # mm: a card within this of a named size is that size
MAX_STRETCH = 0.015         # a card is fitted to a shop's product by its bleed box: at most 1.5 % either way
GENERIC_BLEED = 3.0         # mm: what a shop with no preset of its own asks (and pnp's print-shop default)
GENERIC_SAFE = 3.0          # mm inside the trim: the usual safe zone where no preset says otherwise
PRINT_PPI = 300             # every shop of the catalogue prints images at 300 ppi


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
    safe: float = GENERIC_SAFE      # mm inside the trim that text must keep clear of (the shop's safe zone)
    ppi: int = PRINT_PPI            # the resolution the shop prints images at

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
_US_POKER, _US_BRIDGE = _inches("poker", 2.5, 3.5), _inches("bridge", 2.25, 3.5)
_US_TAROT = _inches("tarot", 2.75, 4.75)
_US_MINI, _US_SQUARE = _inches("mini", 1.75, 2.5), _inches("square", 2.5, 2.5)
SHOP_PRESETS = MappingProxyType({
    "generic": ShopPreset("generic", None, GENERIC_BLEED),                                    # 815 × 1110 px
    "mpc": ShopPreset("mpc", (_US_POKER, _US_BRIDGE, _US_TAROT, _US_MINI),
                      (822 / 300 * INCH - 2.5 * INCH) / 2, safe=INCH / 8),                      # 822 × 1122 px
    "tgc": ShopPreset("tgc", (_US_POKER, _US_BRIDGE, _US_TAROT, _US_MINI, _US_SQUARE), INCH / 8,  # 825 × 1125 px
                      safe=INCH / 8),
    "drivethrucards": ShopPreset("drivethrucards", (_US_POKER, _US_TAROT, _US_MINI, _US_SQUARE), INCH / 8,
                                 back_first=True, safe=INCH / 8),
})


def shop_bleeds() -> dict[float, tuple[str, ...]]:
    """Each bleed a shop of the catalogue asks → the shops asking it (in the catalogue's order)."""
    bleeds: dict[float, tuple[str, ...]] = {}
    for preset in SHOP_PRESETS.values():
        bleeds[preset.bleed] = bleeds.get(preset.bleed, ()) + (preset.name,)
    return bleeds
