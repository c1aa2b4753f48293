"""Copyfitting: the small adjustments a designer makes so a rulebook's booklet needs no page it can do without.

A booklet is printed on sheets of 4 pages, so a 13-page rulebook costs the paper of 16 and a 14-page one
ends on a page holding two lines. The flow is paginated first as designed; when its page count is not a
multiple of 4 or its last page is nearly empty, it is paginated again a step tighter (less space between
blocks, figures that may shrink a little further to fill a page's foot, at the last steps 0.4 and then
0.8 pt less leading) and the setting that needs the fewest sheets wins — a well-filled last page next,
the loosest setting last. Words and their order never change; a setting is chosen, not a page padded.
The last step is what takes Christmas Round's Bulgarian full rules from 13 pages to 12 (a sheet of four
fewer, on A4 and Letter).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

PAGES_A_SHEET = 4           # a folded sheet carries four booklet pages
NEARLY_EMPTY = 0.25         # a last page filled less than this share of its text area looks forgotten


@dataclass(frozen=True)
class Copyfit:
    """How tightly the rulebook is set."""

    space: float = 1.0          # share of the designed space above and below paragraphs, tables, figures
    figure: float = 0.75        # the least share of its designed width a board or art figure shrinks to, to
    #                             stand in the room left at a page's foot (instead of leaving it empty)
    leading: float = 0.0        # points taken from the body text's leading
    keep_lead_ins: bool = True  # a paragraph ending with a colon kept with what it introduces (keeping.py)


AS_DESIGNED = Copyfit()     # the loosest step: the space and leading as designed
STEPS = (AS_DESIGNED, Copyfit(0.7, 0.7), Copyfit(0.45, 0.65), Copyfit(0.3, 0.6, 0.4), Copyfit(0.2, 0.55, 0.8))


@dataclass(frozen=True)
class Setting:
    """One way the rulebook was set: the pages laid out (flow.LaidOut, to draw the chosen one only), how many,
    how full its last page's text area is (0–1) and how many lead-ins it kept with what they introduce."""

    result: object
    pages: int
    last_fill: float
    lead_ins: int = 1           # paragraphs kept with what they introduce (none: nothing to let go)


def sheets(pages: int) -> int:
    """Booklet sheets (of 4 pages) the pages need."""
    return -(-pages // PAGES_A_SHEET)


def well_set(setting: Setting) -> bool:
    """A whole number of sheets and a last page that does not look forgotten: nothing to gain by tightening."""
    return setting.pages % PAGES_A_SHEET == 0 and setting.last_fill >= NEARLY_EMPTY


def choose_setting(set_with: Callable[[Copyfit], Setting], steps: tuple[Copyfit, ...] | None = None) -> Setting:
    """The setting of the fewest booklet sheets, then every lead-in kept with what it introduces, then a
    well-filled last page, then the loosest step (`steps`: STEPS unless given; then the same steps without keeping
    lead-ins where none of them is well set)."""
    best: tuple[tuple[int, bool, bool, int], Setting] | None = None
    kept = STEPS if steps is None else steps
    # Tried only where no step sets the book well: a lead-in is let go to a page's foot only where keeping it
    # with what it introduces would cost the booklet a sheet (Sorry!'s English rules on Letter: 8 pages, or
    # 10 with every lead-in kept).
    unkept = tuple(replace(step, keep_lead_ins=False) for step in kept) if steps is None else ()
    lead_ins = 0
    for index, fit in enumerate(kept + unkept):
        if index == len(kept) and not lead_ins:
            break               # a book with no lead-in: the same steps would set it the same way
        setting = set_with(fit)
        lead_ins += setting.lead_ins
        # fewest sheets, then the lead-ins kept, then a last page that does not look forgotten, then the loosest
        rank = (sheets(setting.pages), not fit.keep_lead_ins, setting.last_fill < NEARLY_EMPTY, index)
        if best is None or rank < best[0]:
            best = (rank, setting)
        if well_set(setting):
            break
    if best is None:
        raise ValueError("copyfitting needs at least one step to try")
    return best[1]
