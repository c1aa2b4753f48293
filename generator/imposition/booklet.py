"""Saddle-stitch booklets: a finished PDF's pages imposed 2-up on landscape sheets.

Pages are padded with blanks to a multiple of 4 (before a back cover, which stays the
outside back: rulebook/back_cover.py); sheet s (from 0) carries
pages N−2s | 2s+1 on its front and 2s+2 | N−2s−1 on its back (docs/print.md), to be
printed double-sided flipping on the short edge, folded and stapled. Inner
sheets are pushed outwards by the fold (creep), so their pages are drawn a
little closer to the spine.
"""

from __future__ import annotations

import pypdfium2 as pdfium

from generator.render.merge import save

from generator.units import mm_to_pt

CREEP_PER_SHEET = 0.25   # mm: about 1 mm for every 4 sheets of 80 g/m² paper


def booklet_sides(pages: int, right_bound: bool = False, back_cover: bool = False) -> list[tuple[int, int]]:
    """(left, right) page numbers (1-based, 0 for blank) for each printed side, front then back.
    `right_bound`: a right-to-left book, its spine at the right (every side's two pages change places);
    `back_cover`: the last page is the back cover, the booklet's last page whatever blanks come before it."""
    total = -(-pages // 4) * 4
    sides = []
    for sheet in range(total // 4):
        front = (total - 2 * sheet, 2 * sheet + 1)
        back = (2 * sheet + 2, total - 2 * sheet - 1)
        sides.extend([front[::-1], back[::-1]] if right_bound else [front, back])

    def source(number: int) -> int:          # the rulebook's page at the booklet's page `number`, 0 for blank
        if back_cover and number == total:
            return pages
        return number if number <= pages - (1 if back_cover else 0) else 0
    return [(source(left), source(right)) for left, right in sides]


SIDES_A_PASS = 16    # sides imposed into one pdfium document (a 32-page rulebook's booklet; see impose_booklet)


def impose_booklet(pdf: bytes, sheet: tuple[float, float], right_bound: bool = False,
                   back_cover: bool = False) -> bytes:
    """A booklet PDF of landscape sheets (width × height in mm) from a PDF of portrait pages (`right_bound`: a
    right-to-left book, bound at the right; `back_cover`: its last page goes on the outside back).

    pdfium's gen_content takes longer with every page already in its document (a 694-page rulebook's
    booklet took 36 s): a longer booklet is imposed SIDES_A_PASS sides at a time, each pass into a document
    of its own joined to the booklet (0.9 s); a booklet of one pass is that document."""
    source = pdfium.PdfDocument(pdf)
    target = None
    try:
        sides = booklet_sides(len(source), right_bound, back_cover)
        if len(sides) <= SIDES_A_PASS:
            target = _imposed(source, sides, 0, sheet)
        else:
            target = pdfium.PdfDocument.new()
            for first in range(0, len(sides), SIDES_A_PASS):
                part = _imposed(source, sides[first:first + SIDES_A_PASS], first, sheet)
                try:
                    target.import_pages(part)
                finally:
                    part.close()
        return save(target)
    finally:
        if target is not None:
            target.close()
        source.close()


def _imposed(source, sides: list[tuple[int, int]], first: int, sheet: tuple[float, float]):
    """A new document of these sides (the booklet's from side `first` on), each two pages of the source."""
    target = pdfium.PdfDocument.new()
    sheet_w, sheet_h = mm_to_pt(sheet[0]), mm_to_pt(sheet[1])
    for index, (left, right) in enumerate(sides, start=first):
        page = target.new_page(sheet_w, sheet_h)
        creep = mm_to_pt(CREEP_PER_SHEET * (index // 2))
        for slot, number in ((0, left), (1, right)):
            if number == 0:
                continue
            width, height = source.get_page_size(number - 1)    # (from the page tree: no page loaded)
            # each half of the sheet holds one page, centred; inner pages move towards the fold
            x = slot * sheet_w / 2 + (sheet_w / 2 - width) / 2 + (creep if slot == 0 else -creep)
            y = (sheet_h - height) / 2
            xobject = source.page_as_xobject(number - 1, target)
            placed = xobject.as_pageobject()
            placed.transform(pdfium.PdfMatrix().translate(x, y))
            page.insert_obj(placed)
        page.gen_content()
        page.close()
    return target
