"""Rulebook pages filled (issue 15), measured on tiny synthetic rulebooks: a heading keeps with a callout that
fits instead of moving it to a new page; sections do not leave a page's foot empty; a board or art figure
shrinks a little to stand in a page's foot; copyfitting saves a booklet sheet; a narrow column is widened
to its longest word, and short cell text never breaks inside a word."""

from __future__ import annotations

import pytest

from generator.rulebook import copyfit
from generator.rulebook.copyfit import Copyfit, Setting, choose_setting
from generator.rulebook.figures import Drawn, ShrinkingFigure
from generator.rulebook.tables import column_widths
from tests.pdf_probe import open_pdf
from tests.rulebook.test_cover_and_pagination import COVER, EN, _build, _game, _texts

SECTION = """\
    - heading: rules.other
      blocks:
        - paragraph: rules.long
        - paragraph: rules.short
"""
PARAGRAPH = "        - paragraph: rules.short\n"
EN_NAMES = EN + """\
    unbreakable: "Extraordinarilylongname"
"""


def _foot_gaps(pdf) -> list[float]:
    """Empty mm at the foot of every body page but the last (cover and contents left out), from pixels."""
    document = open_pdf(pdf)
    dpi = 50
    gaps = []
    for index in range(2, len(document) - 1):
        image = document[index].render(scale=dpi / 72).to_pil().convert("L")
        width, height = image.size
        top, bottom = int(14 / 25.4 * dpi), height - int(17 / 25.4 * dpi)
        inked = [y for y in range(top, bottom)
                 if any(image.getpixel((x, y)) < 200 for x in range(int(width * 0.08), int(width * 0.92)))]
        gaps.append((bottom - max(inked, default=top)) / dpi * 25.4)
    return gaps


def test_a_heading_stays_on_its_page_with_a_callout_that_fits(tmp_path):
    rules = COVER.replace("        - paragraph: rules.filler\n", PARAGRAPH * 3) + """\
    - heading: rules.other
      blocks:
        - callout: {title: rules.head_a, blocks: [{paragraph: rules.figure}]}
"""
    texts = _texts(_build(tmp_path, _game(tmp_path, rules)) / "rules.pdf")
    assert "Heading Beta" in texts[2] and "Figure caption" in texts[2], texts       # not moved to page 4


def test_sections_run_on_without_leaving_a_page_foot_empty(tmp_path):
    rules = COVER.replace("        - paragraph: rules.filler\n", PARAGRAPH) + SECTION * 24
    pdf = _build(tmp_path, _game(tmp_path, rules)) / "rules.pdf"
    gaps = _foot_gaps(pdf)
    assert len(gaps) >= 3
    # the most a page may keep empty: a heading and the two lines that must follow it (about 21 mm)
    assert max(gaps) < 23, gaps


def test_a_figure_shrinks_to_fill_a_page_foot_and_no_further():
    figure = ShrinkingFigure(Drawn(70, 105), [], least=0.75)
    assert figure.height(105, 140) == 105 and figure.scale(105, 140) == 1.0
    assert figure.height(105, 84) == pytest.approx(84) and figure.scale(105, 84) == pytest.approx(0.8)
    height = figure.height(105, 52)                    # too little room: it keeps 75 % and moves on
    assert figure.scale(105, 52) == 0.75 and height == pytest.approx(78.75)
    assert figure.split(105, 52, False) == []


def test_copyfitting_chooses_fewest_sheets_then_a_filled_last_page():
    def settings(pages_and_fills):
        results = iter(pages_and_fills)
        return lambda fit: Setting(b"", *next(results))
    steps = copyfit.STEPS
    assert choose_setting(settings([(13, 0.5), (13, 0.4), (12, 0.9), (12, 1.0)]), steps).pages == 12
    chosen = choose_setting(settings([(14, 0.05), (13, 0.5), (13, 0.3), (13, 0.2), (13, 0.1)]), steps)
    assert (chosen.pages, chosen.last_fill) == (13, 0.5)          # same 4 sheets, no page holding one line
    tries = []
    choose_setting(lambda fit: tries.append(fit) or Setting(b"", 8, 0.6), steps)
    assert tries == [Copyfit()]                                   # set as designed when nothing is to gain


def test_copyfitting_lets_a_lead_in_go_only_to_save_a_sheet():
    def setting(kept_pages: int, unkept_pages: int):
        return lambda fit: Setting(fit, kept_pages if fit.keep_lead_ins else unkept_pages, 0.6)
    assert choose_setting(setting(10, 8)).result.keep_lead_ins is False         # 3 sheets against 2
    assert choose_setting(setting(9, 9)).result.keep_lead_ins is True           # the same 3 sheets either way
    tries = []
    choose_setting(lambda fit: tries.append(fit) or Setting(fit, 8, 0.6))
    assert tries == [Copyfit()]                                                 # well set: nothing else tried
    tries.clear()
    choose_setting(lambda fit: tries.append(fit) or Setting(fit, 9, 0.6, lead_ins=0))
    assert tries == list(copyfit.STEPS)                                         # no lead-in: nothing to let go


def test_copyfitting_saves_a_booklet_sheet(tmp_path, monkeypatch):
    rules = COVER.replace("        - paragraph: rules.filler\n", PARAGRAPH) + SECTION * 15
    folder = _game(tmp_path, rules)
    chosen = len(open_pdf(_build(tmp_path / "fitted", folder) / "rules.pdf"))
    monkeypatch.setattr(copyfit, "STEPS", (Copyfit(),))
    designed = len(open_pdf(_build(tmp_path / "designed", folder) / "rules.pdf"))
    assert designed % 4 == 1 and chosen == designed - 1, (designed, chosen)


def test_column_widths_give_a_narrow_column_its_longest_word():
    assert column_widths([20, 80], [30, 40]) == [30, 70]
    assert column_widths([20, 40, 40], [30, 10, 30]) == pytest.approx([30, 32.5, 37.5])   # taken from spare room
    assert column_widths([50, 50], [10, 10]) == [50, 50]


def test_a_name_in_a_narrow_column_never_breaks_inside_a_word(tmp_path):
    rules = COVER + """\
        - table:
            header: [rules.head_a, rules.head_b]
            widths: [0.2, 4]
            rows:
              - [rules.unbreakable, rules.long]
"""
    pdf = _build(tmp_path, _game(tmp_path, rules, en=EN_NAMES)) / "rules.pdf"
    document = open_pdf(pdf)
    page = next(i for i in range(len(document)) if "Extraordinarily" in document[i].get_textpage().get_text_range())
    textpage = document[page].get_textpage()
    text = textpage.get_text_range()
    assert "Extraordinarilylongname" in text and "Extraordinarily-" not in text, text    # set whole
    name = textpage.search("Extraordinarilylongname").get_next()
    long = textpage.search("A long explanation").get_next()
    name_right = max(textpage.get_charbox(i)[2] for i in range(name[0], name[0] + name[1]))
    assert name_right < textpage.get_charbox(long[0])[0]            # the name ends inside its own column


def test_a_figure_that_does_not_fit_the_page_foot_floats_past_the_text_after_it(tmp_path):
    # a card figure after fillers, then short paragraphs: where the figure must wait for the next page,
    # the paragraphs after it fill this page's foot and the figure tops the next page
    from tests.rulebook.test_cover_and_pagination import _fillers
    en = EN + "".join(f'    s{n}: "Short{n} sentence after the figure."\n' for n in range(6))
    after = "".join(f"        - paragraph: rules.s{n}\n" for n in range(6))
    figure = "        - figure: {card: {deck: cards, card: one}, caption: rules.figure}\n"
    moved = 0
    for fillers in range(0, 13):
        rules = COVER + _fillers(fillers) + figure + after
        folder = _game(tmp_path / str(fillers), rules, en)
        texts = _texts(_build(tmp_path / str(fillers), folder) / "rules.pdf")
        caption = next(page for page, text in enumerate(texts) if "Figure caption" in text)
        first_after = next(page for page, text in enumerate(texts) if "Short0" in text)
        last_before = max(page for page, text in enumerate(texts)
                          if "Word59" in text or "A short line of filler" in text)
        if caption > last_before:           # the figure did not fit after the text before it
            moved += 1
            assert first_after < caption, (fillers, texts[caption - 1][-200:])
            assert texts[caption].split("Figure caption")[0].count("Short") == 0, \
                "the figure tops its page: no paragraph of its own section before it"
    assert moved, "no case where the figure had to wait for the next page"
