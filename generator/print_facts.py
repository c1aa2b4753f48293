"""What paper and printers allow, each fact once: the papers pnp lays out for and their sizes, the margins
home printers leave blank, the total ink a print shop accepts.

Every stage reads these (the CLI's choices, the imposition, the rulebook's pages, the checks of content
that must fit a sheet), so none of them repeats a number. It imports nothing of pnp: the CLI and the
content schema may read it without loading the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class Paper(StrEnum):
    """A paper of the home kits (`--paper`); its value is the name written on the command line and in paths."""

    A4 = "a4"
    LETTER = "letter"


PAPERS = tuple(Paper)                               # the order builds and messages list them in
PAPER_SIZES: Mapping[str, tuple[float, float]] = MappingProxyType({     # portrait, mm
    Paper.A4: (210.0, 297.0),
    Paper.LETTER: (215.9, 279.4),                   # 8.5 × 11 in
})
PAPER_NAMES: Mapping[str, str] = MappingProxyType({Paper.A4: "A4", Paper.LETTER: "Letter"})   # as a message names them
# A rulebook page: half a sheet, so two pages print side by side on one (the booklet). A5 is the standard
# 148 × 210 mm, not exactly half of A4's 297 mm; half-letter is exactly half of Letter.
RULEBOOK_PAGE_SIZES: Mapping[str, tuple[float, float]] = MappingProxyType({Paper.A4: (148.0, 210.0),
                                                                          Paper.LETTER: (139.7, 215.9)})


# The kit's line language (imposition/line_kinds.py): a cut is a solid line, a fold a dashed one, both this
# wide and black, on every page and piece (a standee's folds too)
MARK_WIDTH = 0.25 * 25.4 / 72       # mm: 0.25 pt, a crop mark's width
FOLD_DASH = (3.0, 2.0)              # mm: a fold's dash and gap


def landscape(paper: str) -> tuple[float, float]:
    """The paper turned on its side (a booklet's sheets: two rulebook pages a side)."""
    width, height = PAPER_SIZES[paper]
    return height, width


# Margins along the paper's edge, mm. Home printers cannot print the outer 4–5 mm (docs/print.md); marks,
# labels and scale bars stay inside PRINTABLE_MARGIN (the default of --margin and of a printer profile).
PRINTABLE_MARGIN = 5.0
MAX_PRINTABLE_MARGIN = 30.0   # a printer leaving more blank than this is not one to lay sheets out for
# Board tiles keep a little more: their 8 mm overlaps and A1/B2 labels then still fit A4 (docs/print.md).
TILE_MARGIN = 6.0
# What matters on a page keeps 6.35 mm (¼ in) from the edge: some inkjets leave 6.7 mm blank at the bottom.
SAFE_MARGIN = 6.35
# A player sheet is one page of either paper inside SAFE_MARGIN, in whole millimetres (a test checks it fits).
SHEET_MAX_SIZE = (196.0, 266.0)

# Total ink of a CMYK colour, as a fraction (3.0 = 300 %), the default of --ink-limit; US shops ask for 240 %.
INK_LIMIT = 3.0
INK_LIMIT_PERCENT_RANGE = (100, 400)    # what --ink-limit accepts, in percent


# The gutterfold layout: fronts on one half of a landscape sheet, backs on the other, folded and glued.
FOLD_GUTTER = 8.0      # mm between the fronts' half and the backs' half: room to fold and glue


def printable_area(paper: tuple[float, float], layout: str = "duplex",
                   min_margin: float = PRINTABLE_MARGIN) -> tuple[float, float]:
    """The largest piece (width, height) a sheet of this paper holds: inside the printer's margins,
    or for the gutterfold layout inside one half of the landscape sheet."""
    if layout == "gutterfold":
        width, height = max(paper), min(paper)
        return (width - 2 * min_margin - FOLD_GUTTER) / 2, height - 2 * min_margin
    return paper[0] - 2 * min_margin, paper[1] - 2 * min_margin


def piece_fits(piece: tuple[float, float], paper: tuple[float, float], layout: str = "duplex",
               min_margin: float = PRINTABLE_MARGIN) -> bool:
    """Whether at least one piece of this size goes on a sheet (the same sums the layouts do)."""
    room_w, room_h = printable_area(paper, layout, min_margin)
    return room_w // piece[0] >= 1 and room_h // piece[1] >= 1


@dataclass(frozen=True)
class SheetRoom:
    """Where the pieces of one paper size may go: inside `margin` (the printer's, `--margin`, or a
    print-and-cut machine's border), on a sheet that may also turn landscape (`turnable`: a cut
    machine's sheet does). Layout checks each piece against it before anything is imposed."""

    paper: str
    size: tuple[float, float]
    margin: float = PRINTABLE_MARGIN
    turnable: bool = False

    def _sheets(self, layout: str) -> list[tuple[float, float]]:
        turned = (max(self.size), min(self.size))
        return [self.size, turned] if self.turnable and layout != "gutterfold" else [self.size]

    def fits(self, piece: tuple[float, float], layout: str = "duplex") -> bool:
        return any(piece_fits(piece, sheet, layout, self.margin) for sheet in self._sheets(layout))

    def area(self, layout: str = "duplex") -> tuple[float, float]:
        """The largest piece this room holds (the roomier way round when the sheet may turn)."""
        return max((printable_area(sheet, layout, self.margin) for sheet in self._sheets(layout)),
                   key=lambda area: area[0] * area[1])
