"""12 Days of Christmas (hu, en) and Christmas Trees (ru, en) as shipped: what issue 15 asked of their content.

Light ink-saver backs for 12 Days, a designer's note wherever the seed is silent (in each catalog's own
words), age and playing time on the rules' title block, and the game symbols (gifts, dice, stars) drawn
as inline icons in the rules: all read back from the built PDFs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.render.ink import page_ink
from tests.pdf_probe import open_pdf

import pypdfium2.raw as pdfium_raw


@pytest.fixture(scope="module")
def built(shipped_build) -> Path:
    """The run's shared builds (tests/conftest.py), 12 Days and Christmas Trees among them."""
    shipped_build("christmas-trees")
    return shipped_build("twelve-days").parent


def _text(path: Path) -> str:
    document = open_pdf(path)
    return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))


def _forms(page) -> int:
    return sum(1 for obj in page.get_objects(max_depth=3) if obj.type == pdfium_raw.FPDF_PAGEOBJ_FORM)


# ---------------------------------------------------------------- 12 Days: ink-saver backs

@pytest.mark.parametrize("lang,paper", [("hu", "a4"), ("en", "letter")])
def test_twelve_days_ink_saver_backs_are_light(built, lang, paper):
    folder = built / "twelve-days" / "standard" / lang / paper
    saver, standard = folder / "cards-ink-saver.pdf", folder / "cards.pdf"
    pages = len(open_pdf(saver))
    assert pages == len(open_pdf(standard)) == 20              # 90 cards: 10 sheets of fronts and backs
    for index in range(1, pages, 2):                           # every page of backs: deck, mixed, gifts
        light = page_ink(str(saver), index).total
        dark = page_ink(str(standard), index).total
        assert dark > 2.0, f"page {index + 1}: the standard backs are the full-bleed red and green"
        assert light < 0.10 and light <= dark / 4, f"page {index + 1}: {light:.1%} vs {dark:.0%}"
    # the fronts are the same in both files
    assert page_ink(str(saver), 0).total == pytest.approx(page_ink(str(standard), 0).total, rel=1e-6)


def test_twelve_days_ink_saver_backs_keep_their_titles_and_places(built):
    folder = built / "twelve-days" / "standard" / "en" / "a4"
    saver, standard = open_pdf(folder / "cards-ink-saver.pdf"), open_pdf(folder / "cards.pdf")
    last = len(saver) - 1                                      # the gift cards' backs
    assert "12 DAYS OF CHRISTMAS" in saver[1].get_textpage().get_text_range()
    assert "GIFT" in saver[last].get_textpage().get_text_range()
    from tests.pdf_probe import form_origins_mm
    for index in (1, last):                                    # duplex: each back where the standard back is
        saver_origins, standard_origins = form_origins_mm(saver, index), form_origins_mm(standard, index)
        assert len(saver_origins) == len(standard_origins) > 0
        # approx takes no list of pairs (pytest ≥ 9.1)
        for got, expected in zip(saver_origins, standard_origins, strict=False):
            assert got == pytest.approx(expected, abs=0.01)



def test_twelve_days_bottom_indices_read_upside_down_and_6_and_9_are_underlined():
    from generator.build import BuildOptions
    from generator.components.piece import Group, Line, TextPlacement
    from generator.errors import Problems
    from generator.targets import layout_targets, load_games
    from generator.text.fonts import FontLibrary
    from tests.conftest import CONTENT
    problems = Problems()
    sources = load_games([CONTENT / "twelve-days"], problems)
    target = layout_targets(sources, BuildOptions(languages=("hu",)), problems, FontLibrary())[0]
    assert not problems.errors
    deck = next(cards for cards in target.sets["cards"] if cards.copies[0].card == "partridge")
    seen = {}
    for copy in deck.copies:
        seen.setdefault(copy.card, copy.front)
    assert len(seen) == 12
    for card, face in seen.items():
        corners = [(item.y, item.rotation if isinstance(item, Group) else 0) for item in face.items
                   for placed in (item.items if isinstance(item, Group) else (item,))
                   if isinstance(placed, TextPlacement) and placed.runs and placed.runs[0].size >= 20]
        assert sorted(corners) == [(4, 0), (4, 0), (72, 180), (72, 180)], card
        marks = [item for item in face.items if isinstance(item, Line) and item.w == 5.4]
        assert len(marks) == (4 if card in ("geese", "ladies") else 0), card     # the 6 and the 9


# ---------------------------------------------------------------- designer's notes, age and time

NOTES = {("twelve-days", "en"): ("Designer’s note", 5), ("twelve-days", "hu"): ("A tervező megjegyzése", 5),
         # Christmas Trees: its six notes in one box under one heading (issue 31.8)
         ("christmas-trees", "en"): ("Designer’s note", 1), ("christmas-trees", "ru"): ("Примечания разработчика", 1)}


@pytest.mark.parametrize("game,lang", sorted(NOTES))
def test_rules_mark_every_decision_as_a_designers_note(built, game, lang):
    title, count = NOTES[(game, lang)]
    text = _text(built / game / "standard" / lang / "a4" / "rules.pdf").replace("\r\n", " ").replace("\n", " ")
    assert text.count(title) == count


@pytest.mark.parametrize("lang,ends,literal", [
    ("en", "The game ends at the end of the hand", ()),
    ("hu", "leosztásnak a végén ér véget",
     ("kézre való", "Készlet", "készlet")),           # calques of "deals a hand" and "Set"
])
def test_twelve_days_last_hand_is_played_out_in_natural_hungarian(built, lang, ends, literal):
    text = " ".join(_text(built / "twelve-days" / "standard" / lang / "a4" / "rules.pdf").split())
    assert ends in text                     # the penalty gift of the last hand is still given (a designer's note)
    assert not [phrase for phrase in literal if phrase in text]


@pytest.mark.parametrize("game,lang,facts", [
    ("twelve-days", "en", ("2–8 players", "Ages 8+", "30–45 minutes")),
    ("twelve-days", "hu", ("2–8 játékos", "8 éves kortól", "30–45 perc")),
    ("christmas-trees", "en", ("1–5 players", "Ages 6+", "15–30 minutes")),
    ("christmas-trees", "ru", ("1–5 игроков", "От 6 лет", "15–30 минут")),
])
def test_rules_title_block_gives_players_age_and_time(built, game, lang, facts):
    first_page = open_pdf(built / game / "standard" / lang / "a4" / "rules.pdf")[0].get_textpage().get_text_range()
    for fact in facts:
        assert fact in first_page


@pytest.mark.parametrize("game,lang", [("twelve-days", "hu"), ("twelve-days", "en"),
                                       ("christmas-trees", "ru"), ("christmas-trees", "en")])
def test_rulebooks_fill_one_folded_sheet(built, game, lang):
    for paper in ("a4", "letter"):
        pages = len(open_pdf(built / game / "standard" / lang / paper / "rules.pdf"))
        assert pages in (3, 4), f"{paper}: {pages} pages do not fold into one sheet"


# ---------------------------------------------------------------- inline icons

def test_christmas_trees_examples_show_dice_faces_not_quoted_numbers(built):
    for lang in ("ru", "en"):
        text = _text(built / "christmas-trees" / "standard" / lang / "a4" / "rules.pdf")
        assert "«5»" not in text and "“5”" not in text           # the rolls are die faces now
    # the example's rolls are drawn: a page with the examples carries many more forms (icons) than words
    # need; the page of the example has at least its 25 dice
    document = open_pdf(built / "christmas-trees" / "standard" / "en" / "a4" / "rules.pdf")
    page = next(i for i in range(len(document)) if "Example of a turn" in document[i].get_textpage().get_text_range())
    assert _forms(document[page]) >= 25


def test_christmas_trees_sheet_step_names_the_star_with_its_icon(built):
    document = open_pdf(built / "christmas-trees" / "standard" / "en" / "a4" / "sheets.pdf")
    text = document[0].get_textpage().get_text_range()
    assert "Circle its star" in text
    assert "Roll the rest again." in text


def test_twelve_days_components_table_has_a_picture_of_each_gift(built):
    document = open_pdf(built / "twelve-days" / "standard" / "en" / "a4" / "rules.pdf")
    page = document[0]
    assert "Drummers drumming" in page.get_textpage().get_text_range()
    assert _forms(page) >= 12 + 2                              # 12 gifts in the table, partridge and gift icons


# ---------------------------------------------------------------- Christmas Trees: issue 31

TREES_NOTES = {"en": ("Designer’s notes", "The original rules", ("Age and playing time.", "Stars.", "Ties.",
                                                                  "Special dice.", "Solo game.",
                                                                  "Why all the trees are the same.")),
               "ru": ("Примечания разработчика", "В исходных правилах", ("Возраст и время партии.", "Звёзды.",
                                                                        "Ничья.", "Особые кубики.", "Соло-вариант.",
                                                                        "Почему все ёлки одинаковые."))}


@pytest.mark.parametrize("lang", sorted(TREES_NOTES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_christmas_trees_designers_notes_are_one_box_at_the_end(built, lang, paper):
    heading, original, leads = TREES_NOTES[lang]
    text = " ".join(_text(built / "christmas-trees" / "standard" / lang / paper / "rules.pdf").split())
    notes = text.index(heading)
    assert text.count(heading) == 1
    assert original not in text[:notes]                       # no note left beside its rule
    assert text[notes:].count(original) == 5                  # five decisions where the original is silent
    found = [text.index(lead, notes) for lead in leads]      # and why the trees are alike, each named
    assert found == sorted(found)


def _trees_sheet():
    from generator.build import BuildOptions
    from generator.components.piece import Face
    from generator.errors import Problems
    from generator.targets import layout_targets, load_games
    from generator.text.fonts import FontLibrary
    problems = Problems()
    sources = load_games([Path(__file__).resolve().parents[2] / "content" / "christmas-trees"], problems)
    targets = layout_targets(sources, BuildOptions(languages=("en",)), problems, FontLibrary())
    assert not problems.errors
    face: Face = targets[0].sheets[0].face
    return face


def test_christmas_trees_cells_are_large_and_each_star_has_room_to_be_circled():
    face = _trees_sheet()
    spaces = {name: (x, y, w, h) for name, x, y, w, h in face.spaces}
    for player in range(1, 6):
        strip = spaces[f"players.{player}"]
        trees = [spaces[f"players.{player}/trees.{tree}"] for tree in range(1, 7)]
        # the trees fill the strip beside the name panel: no more than a seventh of it is bare panel across
        assert sum(w for _, _, w, _ in trees) > 0.85 * strip[2]
        for tree, (_, ty, _, _) in enumerate(trees, 1):
            cells = [spaces[f"players.{player}/trees.{tree}/needles.{cell}"] for cell in range(1, 7)]
            for _, _, w, h in cells:
                assert 8.5 <= w <= 9.0 and 8.5 <= h <= 9.0   # an 8.4 mm outline on an 8.8 mm square
            # above the top cell: 10 mm for the 6.4 mm star and a pencil ring round it
            assert cells[0][1] - ty >= 9.9


def test_christmas_trees_sheet_has_a_cut_line_between_every_two_strips():
    from generator.components.piece import Line
    face = _trees_sheet()
    spaces = {name: (x, y, w, h) for name, x, y, w, h in face.spaces}
    strips = [spaces[f"players.{player}"] for player in range(1, 6)]
    cuts = sorted(item.y for item in face.items if isinstance(item, Line) and item.stroke == "#000000"
                  and item.h == 0 and item.w >= face.width - 0.01)
    # between strips 1–2 … 4–5, and under strip 5 (the turn summary and the solo counter a strip of their own)
    assert len(cuts) == 5
    below = [strip[1] for strip in strips[1:]] + [face.height]
    for cut, upper, lower_top in zip(cuts, strips, below, strict=True):
        assert upper[1] + upper[3] < cut < lower_top
        assert cut - (upper[1] + upper[3]) >= 0.9              # a hand-cut edge wanders: 1 mm to each frame


@pytest.mark.parametrize("lang, one_sided", [("en", "Print one-sided"), ("ru", "Печатайте с одной стороны")])
def test_christmas_trees_kit_asks_for_no_double_sided_printing(built, lang, one_sided):
    for paper in ("a4", "letter"):
        document = open_pdf(built / "christmas-trees" / "standard" / lang / paper / "kit.pdf")
        steps = " ".join(document[0].get_textpage().get_text_range().split())
        assert one_sided in steps
        # only the rulebook's sheet is printed on both sides, as a job of its own
        assert steps.count("double-sided" if lang == "en" else "с двух сторон") == 1
        assert "print-shop" not in steps
