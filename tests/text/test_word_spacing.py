"""Every gap between two words is the style's space, whatever faces the words are drawn in.

A bold phrase used to be drawn as one string with the bold face's wider spaces while the
layout had measured regular ones, so the word after it ran into it ("cell of" → "cellof").
"""

import pytest

from generator.text.fonts import FontLibrary
from generator.text.layout import SetStyle, fit_text, font_width
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter
from generator.units import pt_to_mm

SIZE = 9.0


def _word_gaps(text: str, stack: tuple[str, ...]) -> tuple[list[float], float]:
    """The gaps (mm) between the drawn words of one line, and the style's space width."""
    setter = TextSetter(FontLibrary())
    layout = fit_text(parse_rich_text(text), 300, 50, SetStyle(stack, SIZE, SIZE), setter)
    words = []   # (left, right) of every drawn word, from each run's own shaped advances
    for run in layout.runs:
        x = run.x
        for index, word in enumerate(run.text.split(" ")):
            if index:
                x += pt_to_mm(font_width(run.font, " ") * run.size)
            width = pt_to_mm(font_width(run.font, word) * run.size)
            if word:
                if words and abs(words[-1][1] - x) < 1e-9:
                    words[-1] = (words[-1][0], x + width)     # a word continued in another face
                else:
                    words.append((x, x + width))
            x += width
    space = pt_to_mm(setter.width_pt(" ", stack, "regular", False, SIZE))
    return [right_next[0] - left[1] for left, right_next in zip(words, words[1:], strict=False)], space


@pytest.mark.parametrize("text, stack", [
    ("For each die that showed the target number, **colour in one cell** of the tree.", ("nunito", "inter")),
    ("*Italic words here* then **bold ones too** and plain.", ("nunito", "inter")),
    ("Сложи **всички жетони-желания** в купчина.", ("nunito", "inter")),
    ("**ეს არის ქართული** ტექსტი აქ.", ("nunito", "noto-sans-georgian")),
])
def test_every_word_gap_is_the_styles_space(text, stack):
    gaps, space = _word_gaps(text, stack)
    assert len(gaps) == len(text.replace("**", "").replace("*", "").split()) - 1
    for gap in gaps:
        assert gap == pytest.approx(space, abs=1e-6)
