"""One box laid out for one subject: the call every kind's layout function is handed.

A kind's function (generator.components.kinds) takes a BoxCall and a DrawTemplate:
the box, the frame it fills, the template and subject it belongs to, the layout
context, where the box is written, and a callback that lays out another template
(a cell, a map node) inside the face being drawn, so no kind imports the face layout.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Protocol

from generator.components.context import LayoutContext
from generator.components.piece import Face, Item
from generator.components.subject import (MISSING, Subject, box_colour, reference_mark, report_missing_field, require,
                                          value_of)
from generator.content.payloads import Issue
from generator.content.templates import ResolvedTemplate
from generator.errors import SourceMark

Frame = tuple[float, float, float, float]     # x, y, width, height in mm from the face's top-left


class DrawTemplate(Protocol):
    """Lay out `template` for `subject` inside the face being drawn (a cell, a map node) as the face
    `key`; the caller checks first that the template does not contain itself (nesting.py)."""

    def __call__(self, template: ResolvedTemplate, subject: Subject, key: str, /) -> Face: ...


@dataclass(frozen=True)
class BoxCall:
    """Everything a kind's layout reads: which box, where on the face, for whom, and where it is written."""

    box: Any                          # the kind's own model (schema.TextBox, CellsBox …)
    name: str                         # the box's name in the template
    frame: Frame
    template: ResolvedTemplate
    subject: Subject
    ctx: LayoutContext
    mark: SourceMark                  # where the box is written
    face_key: str                     # the face's key: nested faces get keys below it
    places: dict                      # cells boxes laid out so far on this face (name → CellPlaces)

    def at(self, frame: Frame) -> "BoxCall":
        """The same call in another frame (an anchored box, laid out in its cell's own frame)."""
        return replace(self, frame=frame)

    @property
    def palette(self) -> dict[str, str]:
        return self.template.model.palette

    def key_mark(self, *path: str | int) -> SourceMark:
        """Where a key of the box is written (the first file of the template's chain that has it)."""
        return self.template.mark(("boxes", self.name, *path), self.mark)

    def colour(self, value: str | None, *at: str) -> str | None:
        """A colour value of the box ('@field', a palette name, '#rrggbb'), reported at its key `at`
        (a path inside the box) when given, else at the box."""
        mark = self.key_mark(*at) if at else self.mark
        if value is not None and value_of(value, self.subject) is MISSING:
            # a fill read from a field the subject lacks drew nothing, and nobody was told
            used_by = f"the {at[-1]} of box '{self.name}'" if at else f"box '{self.name}'"
            report_missing_field(value, self.subject, self.ctx, mark, used_by)
            return None
        return box_colour(value, self.palette, self.subject, self.ctx, mark)

    def require(self, reference: Any) -> Any:
        """A value of the box, read from the subject's field when written '@field' (missing: reported)."""
        return require(reference, self.subject, self.ctx, self.mark, self.name)

    def where(self, reference: Any) -> SourceMark:
        """Where a value is written: the subject's field for '@field', else the box."""
        return reference_mark(reference, self.subject, self.mark)

    def report(self, reference: Any, issue: Issue) -> None:
        """A payload's issue, where it lies: in the subject's field for '@field' (at the entry it names),
        else at the box. Said when the game was read too (payload_check): Problems keeps one."""
        if isinstance(reference, str) and reference.startswith("@"):
            mark = self.subject.field_mark(issue.field, *issue.path)
        else:
            mark = self.mark
        self.ctx.problems.add(mark, issue.text(self.subject.label), issue.hint)

    def once(self, *key: object) -> bool:
        return self.ctx.once(*key)


BoxLayout = Callable[[BoxCall, DrawTemplate], "list[Item] | tuple[Item, ...]"]
