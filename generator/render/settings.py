"""How a build draws: the settings every face, page and art file of one PDF is drawn with.

One frozen value, made once from the options (the build context holds it) and handed to the
render stage whole, instead of five loose arguments passed from hand to hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from generator.print_facts import INK_LIMIT
from generator.render.separation import ProfileSeparation

ColourMode = Literal["rgb", "cmyk"]


@dataclass(frozen=True)
class DrawingSettings:
    """What a PDF is drawn with.

    `initial_font`: the embedded font a canvas starts in (ReportLab otherwise starts in an unembedded
    Helvetica that print shops reject); `colour_mode`: "rgb" or "cmyk" (colours separated to print
    inks); `ink_limit`: the total ink a CMYK colour may carry (3.0 = 300 %); `separation`: CMYK
    through an ICC output profile (PDF/X), or None for pnp's own separation; `opaque`: no
    transparency at all (PDF/X-1a: art comes flattened).
    """

    initial_font: str
    colour_mode: ColourMode = "rgb"
    ink_limit: float = INK_LIMIT
    separation: ProfileSeparation | None = None
    opaque: bool = False

    def __post_init__(self) -> None:
        if self.colour_mode not in ("rgb", "cmyk"):
            raise ValueError(f"a colour mode is 'rgb' or 'cmyk', not {self.colour_mode!r}")

    def in_font(self, initial_font: str) -> DrawingSettings:
        """The same settings, starting in another font (a document set in another language's face)."""
        return replace(self, initial_font=initial_font)
