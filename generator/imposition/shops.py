"""The print-shop catalogue: the card sizes pnp knows, and each shop's products, bleed and page order.

Every fact about a print shop is here once: the print-shop stage imposes by it
(imposition/single.py), the build refuses a deck a shop does not make by it, and
preflight judges a print-shop file's bleed by it (a `--shop tgc` build has ⅛ in).
"""

from __future__ import annotations

import math
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


# a product's kind, as a message names it
KIND_NAMES = MappingProxyType({"cards": "card", "board": "board", "tokens": "token", "round tokens": "round token",
                               "standee": "standee", "booklet": "booklet"})
# the kind of product a piece file's sets are printed as (a round token's: 'round tokens', catalogue_kind)
_PIECE_PRODUCTS = MappingProxyType({"cards": "cards", "tokens": "tokens", "pawns": "standee"})


def catalogue_kind(piece_kind: str, shape: str = "rect") -> str:
    """The catalogue's kind for a set of `piece_kind` (cards, tokens, pawns) whose pieces have `shape`."""
    kind = _PIECE_PRODUCTS[piece_kind]
    return "round tokens" if kind == "tokens" and shape == "round" else kind


@dataclass(frozen=True)
class ShopProduct:
    """A product a shop makes: its name in the shop's list, its trim in mm, what kind of component it is
    (cards, board, tokens, standee, booklet) and the file its uploader takes (png: an image per face at the
    shop's ppi with its bleed; pdf: pages with TrimBox and BleedBox)."""

    name: str
    trim: tuple[float, float]
    kind: str = "cards"
    file: str = "png"

    @property
    def inches(self) -> str:
        """Its trim as a message gives it: '18 × 18 in'."""
        return f"{self.trim[0] / INCH:g} × {self.trim[1] / INCH:g} in"


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
    others: tuple[ShopProduct, ...] = ()     # its boards, chits, standees and booklets (cards: `products`)
    rulebook: str = "a4"            # the paper whose rulebook its print-shop file is: A5 pages, half-letter ('letter')
    source: str = ""                # where the catalogue's figures of this shop come from, and when

    def product_for(self, width: float, height: float) -> ShopProduct | None:
        """The product a card of width × height mm is printed as (fitted by at most MAX_STRETCH), or None."""
        if self.products is None:
            return ShopProduct("own size", (width, height))
        for product in self.products:
            pw, ph = product.trim
            if abs(pw / width - 1) <= MAX_STRETCH and abs(ph / height - 1) <= MAX_STRETCH:
                return product
        return None

    def fitting(self, kind: str, width: float, height: float) -> ShopProduct | None:
        """The product of `kind` a component of width × height mm is printed as (either way round, fitted
        by at most MAX_STRETCH), or None; the generic preset prints every component at its own size."""
        if self.products is None:
            return ShopProduct("own size", (width, height), kind, "pdf")
        if kind == "cards":
            return self.product_for(width, height)
        for product in self.others:
            if product.kind == kind and _stretch(product.trim, (width, height)) <= MAX_STRETCH:
                return product
        return None

    def nearest(self, kind: str, width: float, height: float) -> tuple[ShopProduct, float] | None:
        """The product of `kind` closest in size, and the scale the component would be printed at on it
        (its longer side to the product's), or None when the shop makes nothing of that kind."""
        candidates = [product for product in (self.products or ()) if kind == "cards"] + \
            [product for product in self.others if product.kind == kind]
        if not candidates:
            return None
        # nearest: the product that takes the piece (its proportions kept) at the scale closest to 100 %
        best = min(candidates, key=lambda product: abs(math.log(_scale(product.trim, (width, height)))))
        return best, _scale(best.trim, (width, height))

    def offered(self) -> str:
        """The products, as a list for a message: 'poker 63.5 × 88.9 mm, bridge 57.2 × 88.9 mm'."""
        if self.products is None:
            return "any size"
        return ", ".join(f"{p.name} {p.trim[0]:.1f} × {p.trim[1]:.1f} mm" for p in self.products)


def _stretch(trim: tuple[float, float], size: tuple[float, float]) -> float:
    """How far from 1 the product's trim is to the size, side by side (the closer way round)."""
    (pw, ph), (w, h) = trim, size
    return min(max(abs(pw / w - 1), abs(ph / h - 1)), max(abs(ph / w - 1), abs(pw / h - 1)))


def _scale(trim: tuple[float, float], size: tuple[float, float]) -> float:
    """The scale that fits the size into the product's trim (either way round), the larger of the two."""
    (pw, ph), (w, h) = trim, size
    return max(min(pw / w, ph / h), min(ph / w, pw / h))


def _inches(name: str, width: float, height: float, kind: str = "cards", file: str = "png") -> ShopProduct:
    return ShopProduct(name, (width * INCH, height * INCH), kind, file)


# US shops' card products (trim in inches; MPC's "mini" and the others' are 1.75 × 2.5 in, not the 44 × 68 mm
# mini of the shared templates, which no preset but generic prints)
_US_POKER, _US_BRIDGE = _inches("poker", 2.5, 3.5), _inches("bridge", 2.25, 3.5)
_US_TAROT = _inches("tarot", 2.75, 4.75)
_US_MINI, _US_SQUARE = _inches("mini", 1.75, 2.5), _inches("square", 2.5, 2.5)
# The Game Crafter's boards, chits, standees and booklets: trims in inches, each uploaded as a PNG of the
# trim plus its 1/8 in bleed at 300 ppi (a quad-fold board: 5475 × 5475 px). From the shop's product
# templates as templative's component catalogue lists them (templative/templative-electron,
# src/shared/componentInfo.js, September 2025), read 2026-12; check a product's own page before an order.
_TGC_OTHERS = (
    _inches("quad-fold board", 18, 18, "board"), _inches("large quad-fold board", 20, 20, "board"),
    _inches("six-fold board", 27, 18, "board"), _inches("medium six-fold board", 16, 16, "board"),
    _inches("bi-fold board", 9, 18, "board"), _inches("square board", 8, 8, "board"),
    _inches("large square board", 10, 10, "board"), _inches("small square board", 4, 4, "board"),
    _inches("quarter board", 5, 5, "board"), _inches("half board", 5, 10, "board"),
    _inches("skinny board", 4, 10, "board"), _inches("domino board", 4, 8, "board"),
    _inches("accordion board", 8, 16, "board"),
    _inches("small square chit", 0.5, 0.5, "tokens"), _inches("medium square chit", 0.75, 0.75, "tokens"),
    _inches("large square chit", 1, 1, "tokens"), _inches("mini square tile", 1.25, 1.25, "tokens"),
    _inches("small square tile", 2, 2, "tokens"), _inches("medium square tile", 2.5, 2.5, "tokens"),
    _inches("large square tile", 3.5, 3.5, "tokens"), _inches("domino chit", 1, 2, "tokens"),
    _inches("small circle chit", 0.5, 0.5, "round tokens"), _inches("medium circle chit", 0.75, 0.75, "round tokens"),
    _inches("large circle chit", 1, 1, "round tokens"), _inches("mini circle tile", 1.25, 1.25, "round tokens"),
    _inches("small standee", 0.5, 1.125, "standee"), _inches("medium standee", 0.75, 1.675, "standee"),
    _inches("large standee", 1, 2.25, "standee"),
    _inches("small booklet", 2.5, 3.5, "booklet", "pdf"), _inches("medium booklet", 3.5, 5, "booklet", "pdf"),
    _inches("tall booklet", 4.5, 8, "booklet", "pdf"), _inches("large booklet", 5, 8, "booklet", "pdf"),
    _inches("jumbo booklet", 8, 10, "booklet", "pdf"),
    _inches("digest perfect-bound book", 5.375, 8.375, "booklet", "pdf"),
    _inches("letter perfect-bound book", 8.5, 11, "booklet", "pdf"),
)
_TGC_SOURCE = ("The Game Crafter's product templates (cards 825 × 1125 px for poker; boards, chits, standees and "
               "booklets as templative's component catalogue lists them, September 2025), read 2026-12")

# MakePlayingCards and DriveThruCards: their card templates (MPC's poker 822 × 1122 px, DriveThruCards' 825 × 1125
# px, back first), as pnp's presets have printed them since the shop presets began. DriveThruCards makes cards
# only; MPC's boards, tokens and booklets are not here (no figures pnp could check): a --shop mpc build says
# each such piece fits no product of the catalogue, and its file stays at its own size.
_MPC_SOURCE = "MakePlayingCards' card templates (poker 822 × 1122 px at 300 ppi); its other products not listed"
_DTC_SOURCE = "DriveThruCards' card templates (poker 825 × 1125 px at 300 ppi, back first); it makes cards only"

SHOP_PRESETS = MappingProxyType({
    "generic": ShopPreset("generic", None, GENERIC_BLEED),                                    # 815 × 1110 px
    "mpc": ShopPreset("mpc", (_US_POKER, _US_BRIDGE, _US_TAROT, _US_MINI),                       # 822 × 1122 px
                      (822 / 300 * INCH - 2.5 * INCH) / 2, safe=INCH / 8, rulebook="letter", source=_MPC_SOURCE),
    "tgc": ShopPreset("tgc", (_US_POKER, _US_BRIDGE, _US_TAROT, _US_MINI, _US_SQUARE), INCH / 8,  # 825 × 1125 px
                      safe=INCH / 8, others=_TGC_OTHERS, source=_TGC_SOURCE, rulebook="letter"),
    "drivethrucards": ShopPreset("drivethrucards", (_US_POKER, _US_TAROT, _US_MINI, _US_SQUARE), INCH / 8,
                                 back_first=True, safe=INCH / 8, rulebook="letter", source=_DTC_SOURCE),
})


def shop_bleeds() -> dict[float, tuple[str, ...]]:
    """Each bleed a shop of the catalogue asks → the shops asking it (in the catalogue's order)."""
    bleeds: dict[float, tuple[str, ...]] = {}
    for preset in SHOP_PRESETS.values():
        bleeds[preset.bleed] = bleeds.get(preset.bleed, ()) + (preset.name,)
    return bleeds
