"""Saddle-stitch booklets: a finished PDF's pages imposed 2-up on landscape sheets.

Pages are padded with blanks to a multiple of 4; sheet s (from 0) carries
pages N−2s | 2s+1 on its front and 2s+2 | N−2s−1 on its back (PRINT.md), to be
printed double-sided flipping on the short edge, folded and stapled. Inner
sheets are pushed outwards by the fold (creep), so their pages are drawn a
little closer to the spine.
"""

from __future__ import annotations

import pypdfium2 as pdfium

from generator.render.merge import save

from generator.units import mm_to_pt

CREEP_PER_SHEET = 0.25   # mm: about 1 mm for every 4 sheets of 80 g/m² paper


def booklet_sides(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers (1-based, 0 for blank) for each printed side, front then back."""
    total = -(-pages // 4) * 4
    sides = []
    for sheet in range(total // 4):
        front = (total - 2 * sheet, 2 * sheet + 1)
        back = (2 * sheet + 2, total - 2 * sheet - 1)
        sides.extend([front, back])
    return [(left if left <= pages else 0, right if right <= pages else 0) for left, right in sides]


def impose_booklet(pdf: bytes, sheet: tuple[float, float]) -> bytes:
    """A booklet PDF of landscape sheets (width × height in mm) from a PDF of portrait pages."""
    source = pdfium.PdfDocument(pdf)
    target = pdfium.PdfDocument.new()
    sheet_w, sheet_h = mm_to_pt(sheet[0]), mm_to_pt(sheet[1])
    try:
        sides = booklet_sides(len(source))
        for index, (left, right) in enumerate(sides):
            page = target.new_page(sheet_w, sheet_h)
            creep = mm_to_pt(CREEP_PER_SHEET * (index // 2))
            for slot, number in ((0, left), (1, right)):
                if number == 0:
                    continue
                width, height = source[number - 1].get_size()
                # each half of the sheet holds one page, centred; inner pages move towards the fold
                x = slot * sheet_w / 2 + (sheet_w / 2 - width) / 2 + (creep if slot == 0 else -creep)
                y = (sheet_h - height) / 2
                xobject = source.page_as_xobject(number - 1, target)
                placed = xobject.as_pageobject()
                placed.transform(pdfium.PdfMatrix().translate(x, y))
                page.insert_obj(placed)
            page.gen_content()
            page.close()
        return save(target)
    finally:
        target.close()
        source.close()
