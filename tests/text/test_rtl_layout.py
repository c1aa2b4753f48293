"""Right-to-left text in the layout: lines broken in logical order, then each line's stretches placed by
the bidi algorithm — Hebrew and Arabic words right to left, numbers, Latin names and icons where UAX #9
puts them, align start/end by the paragraph's direction — and the words read back from the PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.components.piece import Face, TextPlacement
from generator.imposition.sheet import Document, Page, Placement
from generator.render.pdf import render_pdf
from generator.text.fonts import DEFAULT_STACK, FontLibrary
from generator.text.layout import SetStyle, fit_text, run_width
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter
from tests.pdf_probe import pdftotext

ROOT = Path(__file__).resolve().parents[2]
STAR = next((ROOT / "content").rglob("*.svg"))
SIZE = 10.0


@pytest.fixture(scope="module")
def setter() -> TextSetter:
    return TextSetter(FontLibrary())


def _style(lang: str = "he", **more) -> SetStyle:
    return SetStyle(DEFAULT_STACK, SIZE, SIZE, lang=lang, hyphenate=False, icons=(("star", STAR),), **more)


def _spans(layout) -> list[tuple[str, float, float, bool]]:
    """Each run's text, left and right edges (mm) and direction, left to right."""
    return sorted(((run.text, run.x, run.x + run_width(run), run.rtl) for run in layout.runs), key=lambda s: s[1])


def test_hebrew_with_a_number_a_latin_name_and_an_icon_is_placed_right_to_left(setter):
    text = "שחקו 123 קלפים {icon:star} עם Anna"
    layout = fit_text(parse_rich_text(text), 120, 10, _style(), setter)
    assert layout.fits and layout.lines == 1
    spans = _spans(layout)
    words = [word for span in spans for word in span[0].split()]
    # left to right on the page: the logical order turned round, the number and the name read left to right
    assert words == ["Anna", "עם", "קלפים", "123", "שחקו"], spans
    by_word = {word: span for span in spans for word in span[0].split()}
    assert by_word["שחקו"][3] and by_word["קלפים"][3] and not by_word["123"][3] and not by_word["Anna"][3]
    # start is the right in Hebrew: the line ends at the box's right edge
    assert max(span[2] for span in spans) == pytest.approx(120, abs=1e-6)
    # the icon stands between עם (to its left) and קלפים (to its right)
    (icon,) = layout.icons
    assert by_word["עם"][2] <= icon.x + 1e-6 and icon.x + icon.size <= by_word["קלפים"][1] + 1e-6
    # nothing overlaps: every stretch starts at or after the end of the one on its left
    edges = sorted([(span[1], span[2]) for span in spans] + [(icon.x, icon.x + icon.size)])
    assert all(right <= following + 1e-6 for (_, right), (following, _) in zip(edges, edges[1:], strict=False))


@pytest.mark.parametrize(("align", "side"), [("start", "right"), ("end", "left"), ("left", "left"),
                                             ("right", "right")])
def test_start_and_end_follow_the_direction_left_and_right_stay(setter, align, side):
    for lang, text, start in (("he", "שלום עולם", "right"), ("en", "Hello world", "left")):
        layout = fit_text(parse_rich_text(text), 80, 10, _style(lang, align=align), setter)
        spans = _spans(layout)
        left, right = min(span[1] for span in spans), max(span[2] for span in spans)
        expected = side if align in ("left", "right") else (start if align == "start" else
                                                             {"left": "right", "right": "left"}[start])
        if expected == "left":
            assert left == pytest.approx(0, abs=1e-6), (lang, align)
        else:
            assert right == pytest.approx(80, abs=1e-6), (lang, align)


def test_lines_break_in_logical_order(setter):
    text = "אחת שתיים שלוש ארבע חמש שש שבע שמונה"
    layout = fit_text(parse_rich_text(text), 30, 40, _style(), setter)
    assert layout.lines > 1
    lines: dict[float, list] = {}
    for run in layout.runs:
        lines.setdefault(run.baseline, []).append(run)
    read = []
    for baseline in sorted(lines):       # each line read from its right end, top line first
        for run in sorted(lines[baseline], key=lambda run: -run.x):
            read += run.text.split()
    assert read == text.split()


def test_brackets_are_mirrored_and_arabic_reads_back(setter, tmp_path):
    text = "اقرأ (القواعد) ثم 3 بطاقات"
    layout = fit_text(parse_rich_text(text), 120, 10, _style("ar"), setter)
    face = Face("rtl", 130, 20, 0, (TextPlacement(5, 5, layout.runs),))
    pdf = render_pdf(Document([Page(140, 30, (Placement(face, 5, 5, (5, 5, 130, 20)),))]),
                     setter.library.face("nunito").name)
    path = tmp_path / "rtl.pdf"
    path.write_bytes(pdf)
    read = pdftotext(path)
    for word in ("اقرأ", "القواعد", "ثم", "3", "بطاقات"):
        assert word in read, read
    # the brackets are set right to left (HarfBuzz mirrors them: ")" drawn as "(" on the word's left)
    brackets = [run for run in layout.runs if "(" in run.text or ")" in run.text]
    assert len(brackets) == 2 and all(run.rtl for run in brackets)
    closing = next(run for run in brackets if ")" in run.text)
    word = next(run for run in layout.runs if run.text == "القواعد")
    assert closing.x < word.x        # the closing bracket at the word's left end


def test_bidi_levels_are_the_paragraph_s_across_its_line_breaks(setter):
    # An English quotation isolated left to right (LRI … PDI) inside Hebrew, ending in a Hebrew word,
    # wraps: the second line holds the quotation's end. UAX #9 resolves levels per paragraph, so שלום,
    # still inside the left-to-right isolate, stands right of "twelve" as in left-to-right text; levels
    # of the line alone (no LRI in it) would put it left of "twelve".
    quoted = "one two three four five six seven eight nine ten eleven twelve"
    text = f"הוא אמר \u2066{quoted} שלום\u2069 וזהו"
    for width in range(40, 90, 4):     # a box where the quotation's end and שלום share a later line
        layout = fit_text(parse_rich_text(text), width, 30, _style(), setter)
        shalom = next(run for run in layout.runs if "שלום" in run.text)
        latin = [run for run in layout.runs if run.baseline == shalom.baseline and not run.rtl and run.text.strip()]
        if layout.fits and latin and shalom.baseline > layout.runs[0].baseline:
            break
    else:
        pytest.fail("no width puts the quotation's end and שלום on a later line")
    assert all(run.x < shalom.x for run in latin), _spans(layout)
    # and וזהו, after the isolate, is left of both (the line right to left)
    after = next(run for run in layout.runs if "וזהו" in run.text)
    assert after.baseline == shalom.baseline and all(after.x < run.x for run in latin)


def test_a_number_after_arabic_on_the_line_before_is_an_arabic_number(setter):
    # W2: a European number whose nearest strong character before it is Arabic (lines before) becomes an
    # Arabic number, so "3+4" right to left reads 4+3 from the left — on a line of numbers only, too
    pairs = " ".join(f"{n}+{n + 1}" for n in range(1, 40, 2))
    layout = fit_text(parse_rich_text("كلمة " + pairs), 30, 80, _style("ar"), setter)
    assert layout.fits and layout.lines >= 3
    first = min(run.baseline for run in layout.runs)
    later = sorted({run.baseline for run in layout.runs} - {first})
    for baseline in later:
        row = "".join(run.text for run in sorted((run for run in layout.runs if run.baseline == baseline),
                                                 key=lambda run: run.x))
        assert all(char in "0123456789+ " for char in row), row
        pairs_read = row.split()
        assert pairs_read and all(int(a) == int(b) + 1 for a, b in (pair.split("+") for pair in pairs_read)), row
