"""Sheets to write on (roll-and-write): a template drawn with the sheet's fields."""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.context import LayoutContext
from generator.components.faces import Subject, layout_face
from generator.components.piece import Face

# A sheet must fit the printable area of both papers (6.35 mm margins on A4 and Letter).
MAX_SIZE = (196.0, 266.0)


@dataclass(frozen=True)
class LaidOutSheet:
    id: str
    title: str          # translation key
    face: Face


def layout_sheets(ctx: LayoutContext) -> list[LaidOutSheet]:
    source = ctx.source
    if source.sheets is None or source.sheets_document is None or source.templates is None:
        return []
    document = source.sheets_document
    sheets = []
    for index, sheet in enumerate(source.sheets.sheets):
        template = source.templates.resolve(sheet.template)
        if template is None:
            continue
        size = template.model.size
        if size.width > MAX_SIZE[0] + 1e-6 or size.height > MAX_SIZE[1] + 1e-6:
            ctx.problems.add(document.mark(("sheets", index, "template")),
                             f"sheet '{sheet.id}' is {size.width:g} × {size.height:g} mm; at most "
                             f"{MAX_SIZE[0]:g} × {MAX_SIZE[1]:g} mm fits A4 and Letter printers",
                             f"make template '{sheet.template}' smaller")

        def field_mark(name: str, *inside, _index=index):
            return document.mark(("sheets", _index, "fields", name, *inside))

        ctx.used.add(sheet.name)
        subject = Subject(f"sheet {sheet.id}", dict(sheet.fields), field_mark)
        face = layout_face(template, subject, ctx, f"{source.id}/{ctx.edition}/{ctx.lang}/sheet/{sheet.id}")
        sheets.append(LaidOutSheet(sheet.id, sheet.name, face))
    return sheets
