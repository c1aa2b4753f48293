"""The kit tells how to print what was built; backs carry each piece's own fields."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.build import BuildOptions, build
from generator.errors import Problems
from generator.imposition.instructions import KitPlan, PrintFacts, page_ranges, print_steps
from generator.i18n.engine_catalogs import engine_languages
from generator.i18n.engine_text import engine_catalog, kit_step_keys, kit_steps
from generator.targets import clean_games, layout_targets
from generator.text.fonts import FontLibrary

ROOT = Path(__file__).resolve().parents[2]


def _first_page_text(path: Path) -> str:
    document = pdfium.PdfDocument(path)
    try:
        return " ".join(document[0].get_textpage().get_text_range().split())
    finally:
        document.close()


@pytest.fixture(scope="module")
def twelve_days_kits(tmp_path_factory, shipped_build):
    """12 Days' kits (cards and a rulebook): long-edge duplex as shipped (the shared build, tests/conftest.py),
    and short-edge with a back offset (its kits alone: the English A4 and Hungarian Letter ones read)."""
    out = tmp_path_factory.mktemp("short-edge")
    for lang, paper in (("en", "a4"), ("hu", "letter")):      # the two kits read (half of the four, one core)
        build([ROOT / "content" / "twelve-days"], BuildOptions(out=out, duplex="short-edge", back_offset=(1.5, -0.5),
                                                               only=frozenset({"kit"}), languages=(lang,),
                                                               papers=(paper,), jobs=1))
    return {"long-edge": shipped_build("twelve-days") / "standard", "short-edge": out / "twelve-days" / "standard"}


def test_a_short_edge_build_s_kit_says_flip_on_the_short_edge(twelve_days_kits):
    long_text = _first_page_text(twelve_days_kits["long-edge"] / "en" / "a4" / "kit.pdf")
    short_text = _first_page_text(twelve_days_kits["short-edge"] / "en" / "a4" / "kit.pdf")
    assert "flipping on the long edge: each page of backs" in long_text
    assert "flipping on the short edge: each page of backs" in short_text
    assert "flipping on the long edge" not in short_text
    assert "moved 1.5 mm right and -0.5 mm down" in short_text and "moved" not in long_text
    # the booklet always flips on the short edge, and its pages are the kit's last ones
    document = pdfium.PdfDocument(twelve_days_kits["long-edge"] / "en" / "a4" / "kit.pdf")
    pages = len(document)
    document.close()
    assert "Rulebook, pages" in long_text and f"–{pages}: print them as a job of their own" in long_text
    # its rulebook is one sheet (A5 pages 1–4 on two sides): folded, not stapled
    assert "fold the sheet in half" in long_text and "staple" not in long_text
    assert "card stock" in long_text and "plain paper" in long_text
    hungarian = _first_page_text(twelve_days_kits["short-edge"] / "hu" / "letter" / "kit.pdf")
    assert "a rövid élen fordítva" in hungarian and "Nyomtass" in hungarian   # the game's own (informal) words


def test_card_stock_and_plain_paper_pages_are_counted_from_the_kit():
    plan = KitPlan(card_stock=[3, 4, 5, 6, 9], plain=[1, 2, 11, 12, 13, 14], booklet=[11, 12, 13, 14],
                   parts={"cards", "board"}, double_sided=True, single_sided=True, gutterfold=True, apart=True)
    text = print_steps(kit_steps("en"), plan, PrintFacts("short-edge", "gutterfold", (0.0, 2.0)))
    lines = text.split("\n")
    assert lines[1] == "2. Pages 3–6, 9: card stock (160–220 g/m²)."
    assert lines[2] == "3. Pages 1–2, 11–14: plain paper (80 g/m²)."
    assert "flipping on the short edge" in lines[3] and "fold each along the dashed line" in lines[4]
    assert "moved 0 mm right and 2 mm down" in text and "Board: cut each sheet" in lines[-1]
    assert page_ranges([7, 1, 2, 3, 5]) == "1–3, 5, 7"


@pytest.mark.parametrize("lang", engine_languages())
def test_every_engine_language_has_every_step(lang):
    steps = {key: entry.text for key, entry in engine_catalog(lang).entries.items() if key.startswith("kit.step.")}
    assert set(steps) == set(kit_step_keys()) and len(steps) == 17
    for key, text in steps.items():
        assert ("{pages}" in text) == ("{pages}" in kit_steps("en")[key]), (lang, key)


def test_belarus_marker_backs_carry_their_player_colour():
    problems = Problems()
    sources = clean_games([ROOT / "content" / "must-see-belarus"], problems)
    (target, *_) = layout_targets(sources, BuildOptions(languages=("en",)), problems, FontLibrary())
    palette = sources[0].game.palette
    for set_id in ("markers", "scores"):
        (markers,) = [s for s in target.sets["tokens"] if s.id == set_id]
        by_colour = {}
        for copy in markers.copies:
            fills = {item.fill for item in copy.back.items if getattr(item, "fill", None)}
            by_colour.setdefault(copy.card, set()).add(copy.back.key)
            assert palette.get(copy.card, copy.card) in fills or any(
                fill.lower() == str(palette.get(copy.card, "")).lower() for fill in fills), (copy.card, fills)
        assert len(by_colour) == 5 and all(len(keys) == 1 for keys in by_colour.values())   # one face per colour
        assert len({key for keys in by_colour.values() for key in keys}) == 5
    # a deck whose back reads no card field still has one back face
    (excursions,) = [s for s in target.sets["cards"] if s.id == "excursions"]
    assert len({copy.back.key for copy in excursions.copies}) == 1
