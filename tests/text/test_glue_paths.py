"""glue_spaces' one-pass path (no icon, no French spacing) decides every space as the pairwise rules do."""

from __future__ import annotations

import random

import pytest

from generator.text.linebreak import GLUE, _glue_pairs, break_rules, glue_spaces

# one-letter words of the tables (either case, after an opening quote), numbers, dashes, words
VOCABULARY = ["в", "В", "с", "и", "а", "«в", "(с", "я", "3", "−12", "4,5", "10%", "12:30", "1/2", "+3", "—", "–",
              "word", "Слово", "a", "I", "A", "(a", "„i", "s", "ёлка", "на", "the", "-5", "no", "x"]


@pytest.mark.parametrize("lang", ["ru", "bg", "uk", "en", "hu", "de", "ka"])
def test_one_pass_equals_the_pairwise_rules(lang):
    rules = break_rules(lang, {"ru": ["на"], "en": ["the"]})
    rng = random.Random(lang)
    glued = 0
    for _ in range(3000):
        text = "".join(rng.choice(VOCABULARY) + " " * rng.choice([1, 1, 1, 2, 0]) for _ in range(rng.randint(0, 8)))
        text = " " * rng.choice([0, 0, 0, 1]) + text
        fast = glue_spaces(text, rules)
        assert fast == _glue_pairs(text, rules), (text, fast)
        assert len(fast) == len(text)
        glued += fast.count(GLUE)
    assert glued > 1000        # the rules were exercised, not only the breakable spaces


def test_one_pass_examples():
    ru = break_rules("ru")
    assert glue_spaces("Иди в  город — 3 шага", ru) == f"Иди в{GLUE * 2}город{GLUE}— 3{GLUE}шага"
    assert glue_spaces(" в ", ru) == " в "          # no word after: nothing to hold
    assert glue_spaces("слово", ru) == "слово"


def test_fragment_with_text_is_replace():
    from dataclasses import fields, replace

    from generator.text.rich import Fragment
    fragment = Fragment("word", bold=True, italic=True, icon="star")
    assert fragment.with_text("other") == replace(fragment, text="other")
    assert [field.name for field in fields(Fragment)][0] == "text"
