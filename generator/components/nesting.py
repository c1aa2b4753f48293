"""Templates drawn inside templates (cells, map nodes): the chain being laid out, and the cells budget.

A cells box whose cell template draws itself would never end, and cells inside cells
multiply: the face layout keeps the chain of templates being laid out (innermost last)
and the cells the outermost face may still add, in ctx.memo, and the kinds that draw
nested templates ask here before drawing one.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from generator.components.context import LayoutContext
from generator.content.schema import MAX_CELLS

_NESTING = ("faces", "nesting")
_CELLS_LEFT = ("faces", "cells left")


@contextmanager
def laying_out(ctx: LayoutContext, template_id: str) -> Iterator[None]:
    """While a template's face is laid out: it is the innermost of the chain (the outermost resets the budget)."""
    nesting = ctx.memo.setdefault(_NESTING, [])
    if not nesting:
        ctx.memo[_CELLS_LEFT] = MAX_CELLS
    nesting.append(template_id)
    try:
        yield
    finally:
        nesting.pop()


def nested_template_problem(ctx: LayoutContext, template_id: str) -> str | None:
    """Why a box may not draw template_id inside the face being laid out (it contains itself), or None."""
    nesting = ctx.memo.get(_NESTING, [])
    if template_id in nesting:
        cycle = " → ".join(nesting[nesting.index(template_id):] + [template_id])
        return f"template '{template_id}' would contain itself ({cycle}) and never end"
    return None


def take_cells(ctx: LayoutContext, count: int) -> bool:
    """Spend `count` cells of the outermost face's MAX_CELLS; False once it is overspent."""
    ctx.memo[_CELLS_LEFT] = ctx.memo.get(_CELLS_LEFT, MAX_CELLS) - count
    return ctx.memo[_CELLS_LEFT] >= 0
