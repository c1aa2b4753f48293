"""Ink coverage of rendered pages: an estimate of Ghostscript's inkcov, without Ghostscript.

Each pixel is split into inks with full grey-component replacement (k = min(c,
m, y), the rest on C, M, Y), the way the renderer prints greys (K only). The
value of a channel is the share of pixels that use that ink, as inkcov counts
it; summed coverage is what docs/print.md's limits use. Tests compare it with
Ghostscript where Ghostscript is installed.
"""

from __future__ import annotations

from dataclasses import dataclass

import pypdfium2 as pdfium


INK_THRESHOLD = 0.5 / 255   # less than half a level of ink is paper
NEUTRAL_TOLERANCE = 8 / 255


@dataclass(frozen=True)
class InkCoverage:
    cyan: float
    magenta: float
    yellow: float
    black: float

    @property
    def total(self) -> float:
        """Summed coverage: 1.0 means 100 % (one full ink layer over the page)."""
        return self.cyan + self.magenta + self.yellow + self.black


def page_ink(pdf: bytes | str, page_index: int, dpi: float = 50) -> InkCoverage:
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[page_index]
        image = page.render(scale=dpi / 72).to_pil().convert("RGB")
        page.close()
    finally:
        document.close()
    pixels = image.width * image.height
    sums = [0.0, 0.0, 0.0, 0.0]
    for (r, g, b), count in _colour_counts(image):
        c, m, y = 1 - r / 255, 1 - g / 255, 1 - b / 255
        k = min(c, m, y)
        if max(c, m, y) - k <= NEUTRAL_TOLERANCE:  # pdfium draws pure K a hair bluish
            c = m = y = k
        for channel, amount in enumerate((c - k, m - k, y - k, k)):
            if amount > INK_THRESHOLD:
                sums[channel] += count
    return InkCoverage(*(value / pixels for value in sums))


def _colour_counts(image):
    colours = image.getcolors(maxcolors=image.width * image.height)
    return [(colour, count) for count, colour in colours]
