"""A single newline breaks the line inside a paragraph; a blank line starts a new paragraph (issue 15)."""

from __future__ import annotations

import pytest

from generator.text.fonts import FontLibrary
from generator.text.layout import PARAGRAPH_GAP, SetStyle, fit_text
from generator.text.rich import parse_rich_text, plain_text
from generator.text.setter import TextSetter
from generator.units import pt_to_mm


@pytest.fixture(scope="module")
def setter():
    return TextSetter(FontLibrary())


def test_parse_marks_line_breaks():
    kinds = [(p.marker, p.line_break) for p in parse_rich_text("One\nTwo\n\nThree\n- item\n  more\n- next")]
    assert kinds == [("", False), ("", True), ("", False), ("•", False), ("", True), ("•", False)]
    assert plain_text("One\nTwo") == "One\nTwo"


def test_line_break_sets_lines_without_paragraph_space(setter):
    style = SetStyle(("nunito",), 10, 10, leading=1.2)
    broken = fit_text(parse_rich_text("First line\nsecond line"), 80, 100, style, setter)
    paragraphs = fit_text(parse_rich_text("First line\n\nsecond line"), 80, 100, style, setter)
    line = pt_to_mm(10 * 1.2)
    assert broken.line_tops[1] - broken.line_tops[0] == pytest.approx(line)
    assert paragraphs.line_tops[1] - paragraphs.line_tops[0] == pytest.approx(line + pt_to_mm(10 * PARAGRAPH_GAP))
    assert [run.text for run in broken.runs] == ["First line", "second line"]


def test_a_broken_list_item_keeps_its_indent(setter):
    style = SetStyle(("nunito",), 10, 10)
    layout = fit_text(parse_rich_text("- item\n  more"), 80, 100, style, setter)
    item = next(run for run in layout.runs if run.text == "item")
    more = next(run for run in layout.runs if run.text == "more")
    assert more.x == pytest.approx(item.x)
