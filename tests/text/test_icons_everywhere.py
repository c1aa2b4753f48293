"""Inline icons in every text the engine prints, not only in text boxes: table cells (header and body), the
kit's first page (title, subtitle, a printing step, the game's own steps, the warning), the rulebook's cover
title and its running footer. Each icon is measured where it lands in the PDF — a form XObject between the
words around it, standing on their baseline, 0.9 × their size — and the words around it read back whole.
An unknown icon in any of those places, or in any catalog text of any language, is one located error.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.text.layout import ICON_CAPS
from tests.test_content_errors import BASE_FILES, make_game, pnp, problem_lines

ICONS = "icons: {star: art/star.svg}\n"
CELL_STYLE = "  cell: {font: body, size: 8pt, min_size: 6pt, color: ink}\n"
TABLE_BOX = ('  goals: {kind: table, table: "@goals", header: [head.players, head.stars], '
             'formats: ["{}", "{} {icon:star}"], x: 5, y: 71, width: 53, height: 12, style: cell}\n')
RULES = """\
rulebook:
  cover: {title: game.title, tagline: rules.tagline}
  sections:
    - heading: rules.heading
      blocks:
        - paragraph: rules.text
"""
CATALOG = """\
en:
  game:
    title: "Shine {icon:star} bright"
    edition: "Standard {icon:star} edition"
  deck:
    cards: "Cards"
  cards:
    star: "Star"
  head:
    players: "Players"
    stars: "Stars {icon:star} won"
  kit:
    also_needed: "You also need scissors."
    step:
      scale: "Print at 100 % and check {icon:star} the bar."
    print_steps: "Glue {icon:star} the star last."
    warning: "Keep {icon:star} away from fire."
  rules:
    title: "Rules"
    toc: "Contents"
    tagline: "Catch every star."
    heading: "Stars"
    text: "Take one star each turn."
"""

NUNITO_CAPITALS = 0.705      # ems: the capitals of the body face these games set their words in


def game_files(**replacements: str) -> dict[str, str]:
    """The minimal game with a star icon in a table, the kit's texts and the rulebook; `replacements` maps
    a file name (with '/' written '__', '.' written '_') to (old, new) pairs written 'old=>new'."""
    files = {
        "game.yaml": BASE_FILES["game.yaml"] + ICONS,
        "cards.yaml": BASE_FILES["cards.yaml"].replace(
            "fields: {name: cards.star, art: art/star.svg}",
            "fields: {name: cards.star, art: art/star.svg, goals: [[2, 27], [3, 36]]}"),
        "templates/card.yaml": BASE_FILES["templates/card.yaml"].replace("styles:\n", "styles:\n" + CELL_STYLE)
        + TABLE_BOX,
        "i18n/en.yaml": CATALOG,
        "rules.yaml": RULES,
    }
    for name, change in replacements.items():
        file = name.replace("__", "/").replace("_yaml", ".yaml")
        old, new = change.split("=>")
        assert old in files[file], (old, file)
        files[file] = files[file].replace(old, new, 1)
    return files


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The game built once on A4: cards, kit and rulebook."""
    root = tmp_path_factory.mktemp("icons")
    folder = make_game(root, game_files())
    out = root / "out"
    result = CliRunner().invoke(main, ["build", str(folder), "--paper", "a4", "--out", str(out), "-q",
                                       "--only", "cards,kit,rules"])
    assert result.exit_code == 0, result.output
    return out / "g" / "standard" / "en" / "a4"


# ------------------------------------------------------------------ measuring a page

def icon_boxes(page) -> list[tuple[float, float, float, float]]:
    """Every form XObject's box on the page in page points (left, bottom, right, top), nested forms (an
    icon inside a card face drawn once and placed twice) mapped through their parents' matrices."""
    boxes, matrices = [], {}
    for item in page.get_objects(max_depth=6):
        if item.type != pdfium_c.FPDF_PAGEOBJ_FORM:
            continue
        box = item.get_bounds()
        if item.level:
            box = matrices[item.level - 1].on_rect(*box)
            matrices[item.level] = item.get_matrix().multiply(matrices[item.level - 1])
        else:
            matrices[0] = item.get_matrix()
        boxes.append(tuple(box))
    return boxes


class Words:
    """A page's text with the box of each character (page points)."""

    def __init__(self, page):
        self.textpage = page.get_textpage()
        self.text = self.textpage.get_text_range()

    def find(self, word: str, start: int = 0) -> int:
        index = self.text.find(word, start)
        assert index >= 0, f"{word!r} not on the page: {self.text!r}"
        return index

    def box(self, index: int, length: int) -> tuple[float, float, float, float]:
        boxes = [self.textpage.get_charbox(i) for i in range(index, index + length)]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                max(b[3] for b in boxes))

    def size(self, index: int) -> float:
        return pdfium_c.FPDFText_GetFontSize(self.textpage, index)


def assert_icon_between(page, before: str, after: str, occurrence: int = 0) -> None:
    """An icon stands in the gap between the words `before` and `after` (the first letter of `before`
    sits on the baseline), its bottom on that baseline and its side 0.9 × the words' size."""
    words = Words(page)
    index = -1
    for _ in range(occurrence + 1):
        index = words.find(before, index + 1)
    left = words.box(index, len(before))
    right = words.box(words.find(after, index + len(before)), len(after))
    baseline = words.textpage.get_charbox(index)[1]
    size = words.size(index)
    # centred on the capitals of the words round it (Nunito's: 0.705 em), ICON_CAPS × their height on a side
    capitals = NUNITO_CAPITALS * size
    found = [box for box in icon_boxes(page)
             if left[2] - 0.3 <= box[0] and box[2] <= right[0] + 0.3 and abs((box[1] + box[3]) / 2 - baseline
                                                                               - capitals / 2) < 0.6]
    assert len(found) == 1, (before, after, left, right, baseline, icon_boxes(page))
    side = found[0][3] - found[0][1]
    assert side == pytest.approx(ICON_CAPS * capitals, rel=0.03)
    assert right[0] - left[2] >= side        # the words leave the icon its room: nothing drawn over it


def lines(page) -> list[str]:
    return [line.strip() for line in Words(page).text.splitlines()]


# ------------------------------------------------------------------ drawn

def test_icons_in_a_tables_header_and_body_cells_are_drawn_in_their_cells(built):
    with pdfium.PdfDocument(str(built / "cards.pdf")) as pdf:
        page = pdf[0]
        assert_icon_between(page, "Stars", "won")
        words = Words(page)
        for number in ("27", "36"):     # body cells: "{} {icon:star}", the icon after the number
            index = words.find(number)
            cell = words.box(index, 2)
            baseline = words.textpage.get_charbox(index)[1]
            capitals = NUNITO_CAPITALS * words.size(index)
            assert [box for box in icon_boxes(page) if 0 < box[0] - cell[2] < 4
                    and abs((box[1] + box[3]) / 2 - baseline - capitals / 2) < 0.6]
        assert "Players Stars won" in lines(page) and "2 27" in lines(page) and "3 36" in lines(page)
        assert "icon" not in words.text


def test_icons_on_the_kits_first_page_are_drawn_where_they_are_written(built):
    with pdfium.PdfDocument(str(built / "kit.pdf")) as pdf:
        page = pdf[0]
        assert_icon_between(page, "Shine", "bright")                # the title (game.title + kit.title)
        assert_icon_between(page, "Standard", "edition")            # the subtitle (the edition's name)
        assert_icon_between(page, "check", "the bar")               # a printing step the game words itself
        assert_icon_between(page, "Glue", "the star")               # the game's own further steps
        assert_icon_between(page, "Keep", "away")                   # the warning, at 9 pt
        text = lines(page)
        for line in ("Shine bright — Print-and-play kit", "Standard edition", "1. Print at 100 % and check the bar.",
                     "Glue the star last.", "Keep away from fire.", "You also need scissors."):
            assert line in text, text
        assert "icon" not in Words(page).text


def test_icons_in_the_rulebooks_cover_title_and_footer_are_drawn(built):
    with pdfium.PdfDocument(str(built / "rules.pdf")) as pdf:
        cover = pdf[0]
        assert_icon_between(cover, "Shine", "bright")          # 30 pt and more, in a leading of 1.12
        body = pdf[len(pdf) - 1]
        assert_icon_between(body, "Shine", "bright")           # the running footer: title · Rules · edition
        assert_icon_between(body, "Standard", "edition")
        assert "Shine bright · Rules · Standard edition" in Words(body).text
        assert "icon" not in Words(body).text
        assert pdf.get_metadata_dict()["Title"] == "Shine bright — Standard edition"


# ------------------------------------------------------------------ an unknown icon, located

UNKNOWN = [
    pytest.param({"i18n__en_yaml": "Stars {icon:star} won=>Stars {icon:sun} won"},
                 "g/i18n/en.yaml:11:12: unknown icon '{icon:sun}' in 'head.stars' (en)", id="table-header"),
    pytest.param({"templates__card_yaml": '"{} {icon:star}"=>"{} {icon:sun}"'},
                 "g/templates/card.yaml:12:93: unknown icon '{icon:sun}' in format 2 of table box 'goals' "
                 "(template 'card') (en)", id="table-format"),
    pytest.param({"cards_yaml": "[3, 36]=>[3, '36 {icon:sun}']"},
                 "g/cards.yaml:9:62: unknown icon '{icon:sun}' in table '@goals' (deck cards, card star) (en)",
                 id="table-cell"),
    pytest.param({"i18n__en_yaml": "Shine {icon:star}=>Shine {icon:sun}"},
                 "g/i18n/en.yaml:3:12: unknown icon '{icon:sun}' in 'game.title' (en)", id="kit-title"),
    pytest.param({"i18n__en_yaml": "Standard {icon:star}=>Standard {icon:sun}"},
                 "g/i18n/en.yaml:4:14: unknown icon '{icon:sun}' in 'game.edition' (en)", id="kit-subtitle"),
    pytest.param({"i18n__en_yaml": "check {icon:star}=>check {icon:sun}"},
                 "g/i18n/en.yaml:15:14: unknown icon '{icon:sun}' in 'kit.step.scale' (en)", id="kit-step"),
    pytest.param({"i18n__en_yaml": "Glue {icon:star}=>Glue {icon:sun}"},
                 "g/i18n/en.yaml:16:18: unknown icon '{icon:sun}' in 'kit.print_steps' (en)", id="kit-own-steps"),
    pytest.param({"i18n__en_yaml": "Keep {icon:star}=>Keep {icon:sun}"},
                 "g/i18n/en.yaml:17:14: unknown icon '{icon:sun}' in 'kit.warning' (en)", id="kit-warning"),
    pytest.param({"i18n__en_yaml": "need scissors=>need {icon:sun} scissors"},
                 "g/i18n/en.yaml:13:18: unknown icon '{icon:sun}' in 'kit.also_needed' (en)", id="kit-only-text"),
    pytest.param({"i18n__en_yaml": 'toc: "Contents"=>toc: "Contents {icon:sun}"'},
                 "g/i18n/en.yaml:20:10: unknown icon '{icon:sun}' in 'rules.toc' (en)", id="engine-word"),
]


@pytest.mark.parametrize(("changes", "expected"), UNKNOWN)
def test_an_unknown_icon_anywhere_is_one_located_error(tmp_path, changes, expected):
    folder = make_game(tmp_path, game_files(**changes))
    for command in ("check", "build"):
        result = pnp(command, str(folder), "--paper", "a4", "--out", str(tmp_path / "out")) \
            if command == "build" else pnp(command, str(folder))
        assert result.exit_code == 1, result.output
        assert [line.replace(str(tmp_path) + "/", "") for line in problem_lines(result.output)] == [expected], \
            result.output
        assert "icons of this game: star" in result.output
    assert not (tmp_path / "out" / "g").exists()


def test_an_unknown_icon_in_a_translation_is_reported_in_that_language_only(tmp_path):
    bulgarian = (CATALOG.replace("en:", "bg:", 1).replace("Keep {icon:star} away", "Пазете {icon:sun} от огън"))
    files = game_files(game_yaml="languages: [en]=>languages: [en, bg]")
    files["i18n/bg.yaml"] = bulgarian
    folder = make_game(tmp_path, files)
    result = pnp("check", str(folder))
    assert result.exit_code == 1, result.output
    assert [line.replace(str(tmp_path) + "/", "") for line in problem_lines(result.output)] == [
        "g/i18n/bg.yaml:17:14: unknown icon '{icon:sun}' in 'kit.warning' (bg)"], result.output


def test_an_icon_too_small_to_read_is_warned_of_at_its_box(tmp_path):
    """A table cell set at 5 pt (the game's floor lowered to it): its icons come out under LEGIBLE_ICON, and
    check says so once, at the box, as a warning (exit 0). At 6 pt they read: nothing is said."""
    from generator.components.text_boxes import LEGIBLE_ICON
    small = game_files(templates__card_yaml="size: 8pt, min_size: 6pt=>size: 5pt, min_size: 5pt",
                       game_yaml="icons:=>min_text_size: 5pt\nicons:")
    result = pnp("check", str(make_game(tmp_path, small)))
    assert result.exit_code == 0, result.output
    warned = [line for line in problem_lines(result.output) if "inline icons" in line]
    assert len(warned) == 1 and "card.yaml" in warned[0] and f"below {LEGIBLE_ICON:g} mm" in warned[0], result.output
    assert ICON_CAPS * NUNITO_CAPITALS * 5 * 25.4 / 72 < LEGIBLE_ICON <= ICON_CAPS * NUNITO_CAPITALS * 6 * 25.4 / 72
    (tmp_path / "six").mkdir()
    result = pnp("check", str(make_game(tmp_path / "six", game_files())))
    assert result.exit_code == 0 and "inline icons" not in result.output, result.output
