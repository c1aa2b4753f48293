"""The booklet's back cover: rules.yaml's `back_cover` on the page a folded booklet shows at its back.

A booklet is printed on sheets of four pages, so a rulebook of 10 pages leaves 2 of its 12 spare. Where it
leaves one or more, the back cover takes the last (the outside back once folded), the spare pages before it
stay blank, and rules.pdf ends with it (imposition/booklet.py puts it last). It costs no sheet: where the
rules fill theirs it is left out, unless `always: true` asks for it (then it takes a sheet, with three blank
pages).

The page is the front cover's back: its background, the band of its colour across the top with the title
and the cover art (a leaflet's band), the blocks under it set as any section's are (paragraphs, lists,
tables, callouts: the rulebook's own blocks), the facts line and the credits at the foot in small type. It
never runs on: it is set at the loosest copyfitting step it fits, then in a leaflet's smaller type, and
where its blocks are longer than the page even so, the build stops with an error at rules.yaml's
`back_cover` (flow.back_cover_problems, at layout).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from generator.components.piece import Item, Rect
from generator.rulebook.copyfit import PAGES_A_SHEET
from generator.rulebook.cover import LeafletBand
from generator.rulebook.keeping import keep_with_next
from generator.rulebook.pages import Frame, paginate, stack_height, stack_items
from generator.rulebook.resolve import BackCover, RuleDoc

BAND_GAP = 7.0          # mm between the band and the blocks
FOOT_GAP = 5.0          # mm the blocks keep above the foot
CREDITS_SIZE = 7.5      # pt
TALL = 1e6              # mm: a frame no back cover fills, to measure how tall its blocks are

if TYPE_CHECKING:       # (flow.py sets the back cover with its story builder: a type only, no import up)
    from generator.rulebook.flow import StoryBuilder


@dataclass(frozen=True)
class BackCoverPage:
    """The back cover set: its items (mm from the page's top-left) and how much taller its blocks are than
    the room between band and foot (0 where they fit)."""

    items: tuple[Item, ...]
    overflow: float


def printed(back_cover: BackCover | None, pages: int) -> bool:
    """Whether a rulebook of `pages` pages (its cover included) ends with its back cover."""
    return back_cover is not None and (pages % PAGES_A_SHEET != 0 or back_cover.always)


def set_back_cover(doc: RuleDoc, page_size: tuple[float, float], margins: Mapping[str, float],
                   builders: Iterable[StoryBuilder]) -> BackCoverPage:
    """The back cover at the loosest spacing it fits (`builders`: the story builder at each copyfitting step,
    the loosest first), else at the tightest, its overflow told."""
    page = None
    for builder in builders:
        page = _set(doc, page_size, margins, builder)
        if page.overflow <= 0:
            break
    if page is None:
        raise ValueError("setting a back cover needs at least one spacing to try")
    return page


def _set(doc: RuleDoc, page_size: tuple[float, float], margins: Mapping[str, float],
         builder: StoryBuilder) -> BackCoverPage:
    back_cover = doc.back_cover
    assert back_cover is not None
    width, height = page_size
    x, text_width = margins["outer"], width - 2 * margins["outer"]      # the outside back: no side is the fold's
    styles = builder.styles
    band = LeafletBand(doc.cover, doc.title, "", builder.book, styles, margins, width)
    band_height = band.height(text_width, height)
    items: list[Item] = [Rect(0, 0, width, height, fill=doc.cover.background)]
    items += band.items(x, margins["top"], text_width, band_height)

    credit_style = replace(styles.caption, size=CREDITS_SIZE, leading=CREDITS_SIZE * 1.3, space_before=0,
                           space_after=0)
    foot = builder.paragraphs(" · ".join(doc.facts + (doc.edition,)), replace(styles.facts, space_after=2))
    foot += builder.paragraphs(back_cover.credits, credit_style) if back_cover.credits else []
    foot_top = height - margins["bottom"] - stack_height(foot, text_width)
    items += stack_items(foot, x, foot_top, text_width)

    top = margins["top"] + band_height + BAND_GAP
    room = foot_top - FOOT_GAP - top
    pagination = paginate(keep_with_next(builder.items(back_cover.items)), Frame(x, top, text_width, TALL))
    for placed in pagination.pages[0]:
        items += placed.block.items(placed.x, placed.y, placed.width, placed.height)
    return BackCoverPage(tuple(items), max(0.0, pagination.last_fill * TALL - room))
