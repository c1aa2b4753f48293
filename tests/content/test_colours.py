"""How a colour is written: which values are colours, and what the message says of those that are not."""

from __future__ import annotations

import pytest

from generator.content.colours import colour_problem, written_as_colour
from generator.render.colour import colour_object


@pytest.mark.parametrize("value", ["#1f5e3a", "#ABCDEF", "cmyk(0, 0, 0, 100)", "cmyk(12.5,0,.5,100)",
                                   "cmyk( 1. , 2 , 3 , 4 )", "cmyk(100, 100, 100, 100)"])
def test_colours_pnp_can_ink(value: str):
    assert colour_problem(value) is None
    colour_object(value)          # and the drawing reads it


@pytest.mark.parametrize(("value", "problem"), [
    ("cmyk(1.2.3,0,0,0)", "is not a colour: its cyan, '1.2.3', is not a number from 0 to 100"),
    ("cmyk(., ., ., .)", "is not a colour: its cyan, '.', is not a number from 0 to 100"),
    ("cmyk(0, 0, 0, 100.5)", "is not a colour: its black is 100.5 %, and an ink goes from 0 to 100 %"),
    ("cmyk(0, -5, 0, 0)", "is not a colour: its magenta, '-5', is not a number from 0 to 100"),
    ("cmyk(0, 0, ٣, 0)", "is not a colour: its yellow, '٣', is not a number from 0 to 100"),
    ("cmyk(0, 0, 0)", "is not a colour: cmyk takes four inks (cyan, magenta, yellow, black), not 3"),
    ("cmyk()", "is not a colour: cmyk takes four inks (cyan, magenta, yellow, black), not 1"),
    ("#12345", "is not a colour: '#' takes six hex digits (0-9, a-f)"),
    ("#1234567", "is not a colour: '#' takes six hex digits (0-9, a-f)"),
    ("red", "is not a colour"),
])
def test_values_that_are_not_colours_say_why(value: str, problem: str):
    assert colour_problem(value) == problem


@pytest.mark.parametrize(("value", "written"), [("#zzz", True), ("cmyk(1,2,3,4)", True), ("cmykblack", False),
                                                ("main", False), ("@tint", False)])
def test_what_is_written_as_a_colour_and_what_names_one(value: str, written: bool):
    assert written_as_colour(value) is written
