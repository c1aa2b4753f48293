"""The rulebook's paginator on blocks of known heights: where each lands (mm), page by page."""

from __future__ import annotations

from generator.rulebook.keeping import KeptWithNext, keep_with_next
from generator.rulebook.pages import Block, Frame, PageBreak, paginate

FRAME = Frame(10.0, 20.0, 100.0, 100.0)


class Box(Block):
    """A block of a fixed height."""

    def __init__(self, name: str, height: float, before: float = 0.0, after: float = 0.0, **flags):
        self.name, self.tall = name, height
        self.space_before, self.space_after = before, after
        for flag, value in flags.items():
            setattr(self, flag, value)

    def height(self, width: float, room: float) -> float:
        return self.tall

    def items(self, x, y, width, height):
        return []


def _where(story) -> list[list[tuple[str, float]]]:
    """Each page's blocks by name, with their tops (mm from the frame's top)."""
    return [[(placed.block.name, round(placed.y - FRAME.y, 3)) for placed in page]
            for page in paginate(story, FRAME).pages]


def test_spaces_overlap_and_the_space_before_is_dropped_at_a_page_top():
    story = [Box("a", 30, before=8, after=3), Box("b", 30, before=5), Box("c", 30, before=4, after=6),
             Box("d", 30, before=9)]
    # a at the top without its space; b 5 below a (not 3 + 5); c 4 below; d does not fit: it tops page 2
    assert _where(story) == [[("a", 0), ("b", 35), ("c", 69)], [("d", 0)]]


def test_a_page_break_starts_a_page_and_a_block_too_tall_for_any_page_stands_on_a_fresh_one():
    assert _where([Box("a", 10), PageBreak(), Box("b", 150), Box("c", 10)]) == [[("a", 0)], [("b", 0)],
                                                                                [("c", 0)]]


def test_a_figure_that_does_not_fit_floats_past_running_text_that_does():
    story = [Box("text", 80), Box("figure", 40, floats=True), Box("after", 10, passes_figures=True),
             Box("heading", 10)]
    assert _where(story) == [[("text", 0), ("after", 80)], [("figure", 0), ("heading", 40)]]
    # a heading never passes a figure: the figure tops the next page and the heading follows it
    story = [Box("text", 80), Box("figure", 40, floats=True), Box("heading", 10)]
    assert _where(story) == [[("text", 0)], [("figure", 0), ("heading", 40)]]


def test_a_heading_travels_with_the_start_of_what_follows():
    story = keep_with_next([Box("text", 75), Box("heading", 10, after=2, keep_with_next=True), Box("table", 30)])
    assert isinstance(story[1], KeptWithNext)
    assert _where(story) == [[("text", 0)], [("heading", 0), ("table", 12)]]
    story = keep_with_next([Box("text", 50), Box("heading", 10, after=2, keep_with_next=True), Box("table", 30)])
    assert _where(story) == [[("text", 0), ("heading", 50), ("table", 62)]]


def test_the_last_page_fill_is_measured():
    pagination = paginate([Box("a", 90), Box("b", 25, after=5)], FRAME)
    assert len(pagination.pages) == 2 and pagination.last_fill == 0.3


def test_what_no_page_takes_whole_is_shrunk_or_split_on_a_fresh_page():
    from generator.rulebook.figures import CalloutBlock, Drawn, ShrinkingFigure
    figure = ShrinkingFigure(Drawn(100, 150), [], least=1.0)      # a designed width, taller than the frame
    pages = paginate([Box("text", 10), figure], FRAME).pages
    assert [len(page) for page in pages] == [1, 1] and pages[1][0].height == 100      # shrunk to the page
    callout = CalloutBlock([Box("a", 40), Box("b", 40), Box("c", 40)])
    pages = paginate([callout], FRAME).pages
    assert [[placed.block.blocks for placed in page] for page in pages] == [[callout.blocks[:2]],
                                                                          [callout.blocks[2:]]]
    assert paginate([Box("text", 10), callout], FRAME).pages[0][1:] == []     # not split on a page it shares
