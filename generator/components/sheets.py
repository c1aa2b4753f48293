"""Sheets to write on (roll-and-write): a template drawn with the sheet's fields, sized to fit the paper."""

from __future__ import annotations

from generator.components.board import LaidOutFace, layout_whole_faces
from generator.components.context import LayoutContext
from generator.print_facts import SHEET_MAX_SIZE as MAX_SIZE    # one page of either paper, inside the safe margin

LaidOutSheet = LaidOutFace


def layout_sheets(ctx: LayoutContext) -> list[LaidOutFace]:
    source = ctx.source
    if source.sheets is None or source.sheets_document is None or source.templates is None:
        return []
    document = source.sheets_document
    for index, sheet in enumerate(source.sheets.sheets):
        template = source.templates.resolve(sheet.template)
        size = template.model.size if template else None
        if size and (size.width > MAX_SIZE[0] + 1e-6 or size.height > MAX_SIZE[1] + 1e-6):
            ctx.problems.add(document.mark(("sheets", index, "template")),
                             f"sheet '{sheet.id}' is {size.width:g} × {size.height:g} mm; at most "
                             f"{MAX_SIZE[0]:g} × {MAX_SIZE[1]:g} mm fits A4 and Letter printers",
                             f"make template '{sheet.template}' smaller")
    return layout_whole_faces(ctx, source.sheets.sheets, document, "sheets", "sheet")
