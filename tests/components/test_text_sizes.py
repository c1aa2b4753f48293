"""Readable sizes: one size per text box across a deck, `fit: each`, and no game text below 6 pt.

A tiny deck of three cards whose texts need three different sizes is built and the
font sizes are read back from the PDF (pypdfium2's text objects); the other rules are
checked on the laid-out faces and on the exact messages `pnp check` prints.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.components.context import LayoutContext
from generator.components.piece import TextPlacement, walk
from generator.components.pieces import layout_sets
from generator.content.game import load_game
from generator.errors import Problems
from generator.render.art_files import ART_FILES
from generator.text.fonts import FontLibrary
from generator.text.setter import TextSetter

GAME = """\
format: 2
id: g
title: game.title
languages: [en]
editions:
  standard: {name: game.edition}
"""

CARDS = """\
decks:
  - id: rules
    name: deck.rules
    template: card
    back: back
    cards:
      - {id: short, count: 1, fields: {effect: rules.short}}
      - {id: medium, count: 2, fields: {effect: rules.medium}}
      - {id: long, count: 1, fields: {effect: rules.long}}
"""

# three texts that fit the box at three different sizes: 10 pt, about 9.4 pt, about 7.1 pt
EN = """\
en:
  game:
    title: "Sizes"
    edition: "Standard"
  deck:
    rules: "Rules"
  rules:
    short: "Move 1 space."
    medium: "Move 3 spaces forward, then do what the new space says, and deliver at every house you pass on the way \
      there. Then rest a while by the warm fire and drink cocoa."
    long: "Every player with the most gifts returns 1 of them to the shelf, but only if they have at least 2. If tied, \
      every tied player returns 1, in turn from you, clockwise. Put the leftmost shelf card on the used-gift pile \
      first, then slide the shelf left. Then every other player draws 1 card from the gift deck, and you rest by the \
      warm fire with a cup of cocoa."
"""

CARD = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  body: {size: 10pt, min_size: 6pt}
boxes:
  effect: {kind: text, text: "@effect", x: 6, y: 40, width: 51, height: 24, style: body}
"""

BACK = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
boxes:
  name: {kind: text, text: "@deck", x: 5, y: 40, width: 53, height: 10}
"""

FILES = {"game.yaml": GAME, "cards.yaml": CARDS, "i18n/en.yaml": EN,
         "templates/card.yaml": CARD, "templates/back.yaml": BACK}
WORDS = {"short": "Move 1 space", "medium": "Move 3 spaces", "long": "Every player"}


def make_game(root: Path, **changes: tuple[str, str]) -> Path:
    """The tiny game in root/g; changes: file name (dots for slashes) → (old, new) replaced in it."""
    folder = root / "g"
    for name, text in FILES.items():
        change = changes.get(name.replace("/", "_").replace(".yaml", ""))
        if change is not None:
            assert change[0] in text, change
            text = text.replace(*change)
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def pnp(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


def problem_lines(output: str) -> list[str]:
    return [line for line in output.splitlines()
            if line and not line.startswith("    hint:") and not line.endswith(" warning(s)")]


def pdf_text_sizes(path: Path) -> dict[str, set[float]]:
    """Each card of the tiny deck (by the words it starts with) → the font sizes its lines are set at."""
    document = pdfium.PdfDocument(str(path))
    sizes: dict[str, set[float]] = {}
    for page in document:
        textpage = page.get_textpage()
        current = None
        for obj in page.get_objects(max_depth=8):
            if obj.type != pdfium_raw.FPDF_PAGEOBJ_TEXT:
                continue
            size = ctypes.c_float()
            assert pdfium_raw.FPDFTextObj_GetFontSize(obj.raw, size)
            matrix = obj.get_matrix()
            length = pdfium_raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
            buffer = (ctypes.c_ushort * length)()
            pdfium_raw.FPDFTextObj_GetText(obj.raw, textpage.raw, buffer, length)
            text = bytes(buffer).decode("utf-16-le").rstrip("\x00")
            starts = [card for card, words in WORDS.items() if text.startswith(words)]
            current = starts[0] if starts else current
            if current is not None and text.strip() and "50 mm" not in text and text != "Rules":
                sizes.setdefault(current, set()).add(round(size.value * matrix.d, 3))
    return sizes


def laid_out_runs(folder: Path) -> dict[str, list]:
    """Each card of the game's first deck → the glyph runs of its texts, from the laid-out faces."""
    problems = Problems()
    source = load_game(folder, problems)
    assert source is not None and not problems.errors, problems.errors
    ctx = LayoutContext(source, "standard", "en", TextSetter(FontLibrary()), problems, art=ART_FILES)
    deck = layout_sets(ctx, source.pieces["cards"])[0]
    assert not problems.errors, [str(p) for p in problems.errors]
    return {copy.card: [run for item in walk(copy.front.items) if isinstance(item, TextPlacement)
                        for run in item.runs] for copy in deck.copies}


def laid_out_sizes(folder: Path) -> dict[str, set[float]]:
    """Each card of the game's first deck → the sizes of its text runs, from the laid-out faces."""
    return {card: {round(run.size, 3) for run in runs} for card, runs in laid_out_runs(folder).items()}


def test_one_size_per_deck_read_back_from_the_pdf(tmp_path: Path) -> None:
    folder = make_game(tmp_path)
    each = laid_out_sizes(make_game(tmp_path / "each", templates_card=("min_size: 6pt}", "min_size: 6pt, fit: each}")))
    # alone, the three texts fit at three sizes: the short one at the full 10 pt
    own = {card: next(iter(sizes)) for card, sizes in each.items()}
    assert own["short"] == 10.0 and own["short"] > own["medium"] > own["long"] > 6.0, own

    result = pnp("build", str(folder), "--paper", "a4", "--out", str(tmp_path / "out"), "-q")
    assert result.exit_code == 0, result.output
    sizes = pdf_text_sizes(tmp_path / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf")
    assert set(sizes) == {"short", "medium", "long"}, sizes
    # in the deck, every card's text is set at the size the longest text needs
    assert sizes == {card: {own["long"]} for card in ("short", "medium", "long")}, (sizes, own)


def test_fit_each_lets_sister_cards_differ(tmp_path: Path) -> None:
    folder = make_game(tmp_path, templates_card=("min_size: 6pt}", "min_size: 6pt, fit: each}"))
    result = pnp("build", str(folder), "--paper", "a4", "--out", str(tmp_path / "out"), "-q")
    assert result.exit_code == 0, result.output
    sizes = pdf_text_sizes(tmp_path / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf")
    assert all(len(found) == 1 for found in sizes.values()), sizes
    short, medium, long = (next(iter(sizes[card])) for card in ("short", "medium", "long"))
    assert short == 10.0 and short > medium > long, sizes


def test_the_deck_size_is_per_deck(tmp_path: Path) -> None:
    # the same template in a second deck without the long card keeps its larger size
    second = CARDS + ("  - id: more\n    name: deck.rules\n    template: card\n    back: back\n    cards:\n"
                      "      - {id: short, count: 1, fields: {effect: rules.short}}\n"
                      "      - {id: medium, count: 1, fields: {effect: rules.medium}}\n")
    folder = make_game(tmp_path, cards=(CARDS, second))
    problems = Problems()
    source = load_game(folder, problems)
    ctx = LayoutContext(source, "standard", "en", TextSetter(FontLibrary()), problems, art=ART_FILES)
    first, more = layout_sets(ctx, source.pieces["cards"])
    assert not problems.errors

    def sizes(deck):
        return {copy.card: {run.size for item in walk(copy.front.items) if isinstance(item, TextPlacement)
                            for run in item.runs} for copy in deck.copies}
    in_first, in_more = sizes(first), sizes(more)
    assert in_first["short"] == in_first["long"] and len(in_first["short"]) == 1
    assert in_more["short"] == in_more["medium"] and in_more["short"] != in_first["short"]
    assert next(iter(in_more["short"])) > next(iter(in_first["short"]))


@pytest.mark.parametrize("order", [("short", "medium", "long"), ("long", "medium", "short"),
                                   ("medium", "short", "long")])
def test_the_deck_size_does_not_depend_on_the_order_of_its_cards(tmp_path: Path, order) -> None:
    # later cards are first tried at the deck's size so far (deck_sizes.size_so_far): whichever card
    # comes first, every card ends at the size the longest text needs on its own
    lines = {card: f"      - {{id: {card}, count: 1, fields: {{effect: rules.{card}}}}}\n"
             for card in ("short", "medium", "long")}
    listed = "".join(lines[card] for card in order)
    cards = CARDS.split("    cards:\n")[0] + "    cards:\n" + listed
    own = laid_out_sizes(make_game(tmp_path / "each", templates_card=("min_size: 6pt}", "min_size: 6pt, fit: each}")))
    sizes = laid_out_sizes(make_game(tmp_path, cards=(CARDS, cards)))
    assert sizes == {card: own["long"] for card in order}, (order, sizes, own)


def test_a_word_too_wide_at_the_size_so_far_is_not_split_but_shrinks_the_deck(tmp_path: Path) -> None:
    # "Go" fits at the full size; the long word only fits the box whole at a smaller size. At the
    # deck's size so far it would fit only split: the deck comes down to where it fits whole.
    catalog = EN.replace('short: "Move 1 space."', 'short: "Go"').replace(
        'long: "Every player', 'long: "Superextraordinarilylongword"\n    unused: "Every player')
    # room for two lines at the full size: split, the word would fit there
    card = CARD.replace("body: {size: 10pt, min_size: 6pt}", "body: {size: 14pt, min_size: 6pt, hyphenate: true}") \
        .replace("height: 24, style: body", "height: 13, style: body")
    cards = CARDS.replace("      - {id: medium, count: 2, fields: {effect: rules.medium}}\n", "")
    runs = laid_out_runs(make_game(tmp_path, i18n_en=(EN, catalog), templates_card=(CARD, card), cards=(CARDS, cards)))
    assert [run.text for run in runs["long"]] == ["Superextraordinarilylongword"], runs["long"]
    sizes = {run.size for found in runs.values() for run in found}
    assert len(sizes) == 1 and 6.0 < next(iter(sizes)) < 14.0, sizes


def test_sizes_settle_on_a_board_and_its_cells(tmp_path: Path) -> None:
    # a board is a scope of its own: every cell's label is set at the size the longest label needs
    folder = make_game(tmp_path)
    (folder / "board.yaml").write_text(
        "boards:\n  - id: board\n    name: deck.rules\n    template: board\n"
        "    fields: {track: [{label: rules.short}, {label: rules.medium}, {label: rules.short}]}\n")
    (folder / "templates" / "board.yaml").write_text(
        "size: {width: 150mm, height: 40mm}\nboxes:\n"
        "  track: {kind: cells, cells: '@track', cell_template: space, path: row, x: 0, y: 0, "
        "width: 150, height: 40, gap: 0}\n")
    (folder / "templates" / "space.yaml").write_text(
        "size: {width: 50mm, height: 40mm}\nstyles:\n  label: {size: 12pt, min_size: 6pt}\n"
        "boxes:\n  label: {kind: text, text: '@label', x: 2, y: 2, width: 46, height: 20, style: label}\n")
    result = pnp("build", str(folder), "--paper", "a4", "--out", str(tmp_path / "out"), "-q")
    assert result.exit_code == 0, result.output
    document = pdfium.PdfDocument(str(tmp_path / "out" / "g" / "standard" / "en" / "print-shop" / "board.pdf"))
    sizes = set()
    for obj in document[0].get_objects(max_depth=8):
        if obj.type == pdfium_raw.FPDF_PAGEOBJ_TEXT:
            size = ctypes.c_float()
            pdfium_raw.FPDFTextObj_GetFontSize(obj.raw, size)
            sizes.add(round(size.value, 3))
    assert len(sizes) == 1 and next(iter(sizes)) < 12.0, sizes


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from tmp_path so messages show paths such as g/cards.yaml."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_text_below_6_pt_is_reported_at_its_box(in_tmp: Path) -> None:
    make_game(in_tmp, templates_card=("body: {size: 10pt, min_size: 6pt}", "body: {size: 5.5pt, min_size: 4pt}"))
    result = pnp("check", "g")
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == [
        "g/templates/card.yaml:7:11: text below 6 pt: game g, edition standard, language en, deck rules, card short, "
        "key 'rules.short' in box 'effect': set at 5.5 pt (style 'body' of template 'card')"], result.output
    assert "give the style a size of at least 6pt" in result.output


def test_a_minimum_below_6_pt_stops_at_6_pt(in_tmp: Path) -> None:
    # a style may not shrink game text under 6 pt: the long card that would need less is named
    make_game(in_tmp, templates_card=("body: {size: 10pt, min_size: 6pt}", "body: {size: 10pt, min_size: 4pt}"),
              i18n_en=('the shelf, but only', 'the shelf, but only ' + "really " * 40))
    result = pnp("check", "g")
    assert result.exit_code == 1, result.output
    lines = problem_lines(result.output)
    assert len(lines) == 1 and lines[0].startswith(
        "g/i18n/en.yaml:10:11: text does not fit: game g, edition standard, language en, deck rules, card long, "
        "key 'rules.long': "), lines
    assert lines[0].endswith(" mm too long at the minimum size 6 pt"), lines


def test_the_card_that_forces_the_deck_below_its_minimum_is_named(in_tmp: Path) -> None:
    # at a minimum of 8 pt the long card cannot fit: it is the one named, not its sister cards
    make_game(in_tmp, templates_card=("min_size: 6pt}", "min_size: 8pt}"))
    result = pnp("check", "g")
    assert result.exit_code == 1, result.output
    lines = problem_lines(result.output)
    assert len(lines) == 1, lines
    assert lines[0].startswith("g/i18n/en.yaml:10:11: text does not fit: game g, edition standard, language en, "
                               "deck rules, card long, key 'rules.long': ")
    assert lines[0].endswith(" mm too long at the minimum size 8 pt")
    assert "the box's text is set at this size on every card of the deck" in result.output
