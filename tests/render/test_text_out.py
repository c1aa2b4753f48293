"""render/text_out.py writes what ReportLab's own text object writes: two tiny PDFs, one through each, byte for byte."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color, HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from generator.render import text_out as text_out_module
from generator.render.text_out import TextWriter, reportlab_text
from generator.text.fonts import FontLibrary

Run = tuple[str, float, str]      # (font name, size, text)

CYRILLIC = ["Передвиньте фишку на три клетки", "возьмите карту из колоды", "Ёлка, сани и олень",
            "достопримечательность краеведческий"]
GEORGIAN = ["ყველა ადამიანი იბადება თავისუფალი", "და თანასწორი თავისი ღირსებითა და უფლებებით"]
ESCAPES = ["f(x) = \\alpha (1)\\", "((nested) \\(escaped\\))", "a\\b", "tab\there", "~{|}`"]
NBSP = ["10\xa0km", "\xa0лидирующий и конечный\xa0", "с\xa0неразрывными\xa0пробелами"]
INK = HexColor("#2b2220")
COLOURS = [INK, CMYKColor(0, 0, 0, 1), Color(0.2, 0.4, 0.6), CMYKColor(0.1, 0.5, 0, 0.25, density=0.5)]


@pytest.fixture(scope="module")
def fonts() -> dict[str, str]:
    library = FontLibrary()
    names = {family: library.face(family).name for family in ("nunito", "inter", "noto-sans-georgian")}
    # a font whose space has no code until a space is written (no ASCII block reserved up front):
    # a no-break space written before any space must go through ReportLab
    plain = "pnp-test-text-out-not-ascii-readable"
    if plain not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(plain, str(library.face("nunito").path), asciiReadable=0))
    names["no-ascii"] = plain
    return names


def _pdf(runs: list[Run], ours: bool, initial_font: str, colours: list = (INK,), per_object: int = 7,
         bottomup: int = 1) -> bytes:
    """One page of text objects of `per_object` runs each, every run at its own origin, the colours taken
    in turn (a colour per run where there are several: the font or colour set where either changes)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=initial_font, pageCompression=0, bottomup=bottomup)
    draw = TextWriter(canvas).draw if ours else (lambda lines: reportlab_text(canvas, lines))
    lines = [(20 + index % 3 + 0.123456 * index, 800 - 14 * (index % 50) - 1 / 3, text, font, size,
              colours[(index // 2) % len(colours)]) for index, (font, size, text) in enumerate(runs)]
    for start in range(0, len(lines), per_object):
        draw(lines[start:start + per_object])
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


class Spy:
    """Counts the runs TextWriter leaves to ReportLab."""

    def __init__(self, monkeypatch):
        self.fallbacks: list[str] = []
        original = text_out_module._reportlab_text_out

        def counted(block, text):
            self.fallbacks.append(text)
            original(block, text)
        monkeypatch.setattr(text_out_module, "_reportlab_text_out", counted)


def _same_as_reportlab(runs: list[Run], monkeypatch, **pdf) -> Spy:
    initial = runs[0][0]
    reportlab = _pdf(runs, False, initial, **pdf)
    spy = Spy(monkeypatch)
    ours = _pdf(runs, True, initial, **pdf)
    assert ours == reportlab, _first_difference(ours, reportlab)
    return spy


def _first_difference(ours: bytes, theirs: bytes) -> str:
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs)))
    return f"differ at byte {at}: ours {ours[at - 60:at + 60]!r}, ReportLab's {theirs[at - 60:at + 60]!r}"


def _twice(font: str, texts: list[str], size: float = 9) -> list[Run]:
    """Each text, then all again: the second time every character has its code (the fast path)."""
    return [(font, size, text) for text in texts] * 2


@pytest.mark.parametrize("family, texts", [("nunito", CYRILLIC), ("noto-sans-georgian", GEORGIAN),
                                           ("nunito", ESCAPES), ("nunito", NBSP), ("inter", CYRILLIC + ESCAPES),
                                           ("no-ascii", NBSP + CYRILLIC + ESCAPES)])
def test_same_bytes_as_reportlab_and_the_repeats_take_the_fast_path(fonts, monkeypatch, family, texts):
    spy = _same_as_reportlab(_twice(fonts[family], texts), monkeypatch)
    assert len(spy.fallbacks) <= len(texts)     # only where a character was new


def test_no_break_space_before_any_space_gives_the_space_its_code(fonts, monkeypatch):
    # no-ascii: the space gets a code only when first written, a no-break space written as a space
    runs = [(fonts["no-ascii"], 9, "а\xa0б"), (fonts["no-ascii"], 9, "а\xa0б"), (fonts["no-ascii"], 9, "а б"),
            (fonts["no-ascii"], 9, "б\xa0а")]
    spy = _same_as_reportlab(runs, monkeypatch)
    assert spy.fallbacks == ["а\xa0б"]   # no code for the space yet: ReportLab gives it one


def test_characters_first_seen_mid_document(fonts, monkeypatch):
    font = fonts["nunito"]
    texts = ["абв", "где", "абв где", "Ёж (ёж)", "абв", "жзи абв где", "Ёж"]
    spy = _same_as_reportlab([(font, 9, text) for text in texts], monkeypatch)
    assert spy.fallbacks == ["абв", "где", "Ёж (ёж)", "жзи абв где"]


def test_characters_the_font_lacks_are_left_to_reportlab(fonts, monkeypatch):
    font = fonts["nunito"]          # no CJK in Nunito: ReportLab writes code 0 (.notdef) and never assigns one
    spy = _same_as_reportlab([(font, 9, "кот 猫"), (font, 9, "кот 猫"), (font, 9, "кот")], monkeypatch)
    assert spy.fallbacks == ["кот 猫", "кот 猫"]


def test_more_than_256_characters_switch_subsets_back_and_forth(fonts, monkeypatch):
    font = fonts["inter"]
    face = pdfmetrics.getFont(font).face
    letters = [chr(code) for code in sorted(face.charToGlyph) if chr(code).isalpha()][:420]
    assert len(letters) == 420
    first, second = "".join(letters[:150]), "".join(letters[300:])    # subset 0, subset 1 once all are in
    runs = [(font, 9, "".join(letters[i:i + 30])) for i in range(0, 420, 30)]      # every letter gets its code
    runs += [(font, 9, text) for text in (first[:40], second[:40], second[40:60], first[40:80],
                                          second[:10] + first[:10],
                                          first[:5] + second[5:15] + first[20:25], second[60:], "", first[:3])]
    spy = _same_as_reportlab(runs, monkeypatch)
    assert len(spy.fallbacks) == 14 + 1            # the runs giving codes, and the empty string
    pdf = _pdf(runs, True, font)
    assert b"/F1+1 9 Tf" in pdf and b"/F1+0 9 Tf" in pdf        # both subsets written
    assert pdf.count(b" Tf ") >= 8                                # switched back and forth within the object


def test_font_and_size_changes_between_runs(fonts, monkeypatch):
    nunito, inter, georgian = fonts["nunito"], fonts["inter"], fonts["noto-sans-georgian"]
    runs = [(nunito, 9, CYRILLIC[0]), (inter, 9, CYRILLIC[0]), (nunito, 12, CYRILLIC[1]), (georgian, 10, GEORGIAN[0]),
            (nunito, 12, CYRILLIC[0]), (inter, 9.5, ESCAPES[0]), (nunito, 9, CYRILLIC[0] + " " + ESCAPES[1])]
    _same_as_reportlab(runs * 2, monkeypatch)


def test_a_font_that_is_not_truetype_goes_through_reportlab(fonts, monkeypatch):
    runs = [(fonts["nunito"], 9, "кот"), ("Helvetica", 9, "cat (x)"), ("Helvetica", 9, "cat (x)"),
            (fonts["nunito"], 9, "кот")]
    spy = _same_as_reportlab(runs, monkeypatch)
    assert spy.fallbacks == ["кот", "cat (x)", "cat (x)"]


def test_colours_rgb_cmyk_and_density_each_set_where_they_change(fonts, monkeypatch):
    runs = [(fonts["nunito"], 9, text) for text in CYRILLIC * 3]
    spy = _same_as_reportlab(runs, monkeypatch, colours=COLOURS)
    assert spy.fallbacks == CYRILLIC       # each text the first time (new letters); colours never need ReportLab
    pdf = _pdf(runs, True, fonts["nunito"], colours=COLOURS)
    assert b" .2 .4 .6 rg " in pdf and b" 0 0 0 1 k " in pdf and b" .05 .25 0 .125 k " in pdf


def test_a_spot_colour_and_a_transparency_to_set_go_through_reportlab(fonts, monkeypatch):
    # a spot ink is named in the page's resources; a colour's alpha other than the one in effect writes a
    # graphics state (and the next opaque colour another)
    spot = CMYKColorSep(0, 0.8, 0.9, 0, spotName="PANTONE 485 C")
    colours = [INK, spot, Color(0.2, 0.4, 0.6, alpha=0.5), INK, Color(0.2, 0.4, 0.6, alpha=0.5)]
    runs = [(fonts["nunito"], 9, text) for text in CYRILLIC * 3]
    _same_as_reportlab(runs, monkeypatch, colours=colours, per_object=5)
    pdf = _pdf(runs, True, fonts["nunito"], colours=colours, per_object=5)
    assert b" scn " in pdf and pdf.count(b" gs ") >= 3


def test_a_top_down_canvas_is_left_to_reportlab(fonts, monkeypatch):
    runs = [(fonts["nunito"], 9, text) for text in CYRILLIC * 2]
    spy = _same_as_reportlab(runs, monkeypatch, bottomup=0)
    assert spy.fallbacks == CYRILLIC * 2
    assert b"1 0 0 -1 " in _pdf(runs, True, fonts["nunito"], bottomup=0)


def test_a_canvas_enforcing_a_colour_space_or_turned_top_down_later_is_left_to_reportlab(fonts, monkeypatch):
    nunito = fonts["nunito"]

    def page(ours: bool, **canvas_options) -> bytes:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1, pageCompression=0, initialFontName=nunito, **canvas_options)
        draw = TextWriter(canvas).draw if ours else (lambda lines: reportlab_text(canvas, lines))
        draw([(10, 700, CYRILLIC[0], nunito, 9, COLOURS[1]), (10, 690, CYRILLIC[1], nunito, 9, COLOURS[3])])
        canvas.bottomup = 0
        draw([(10, 680, CYRILLIC[0], nunito, 9, COLOURS[1])])
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()
    for options in ({}, {"enforceColorSpace": "cmyk"}):
        spy = Spy(monkeypatch)
        ours = page(True, **options)
        assert ours == page(False, **options)
        assert CYRILLIC[0] in spy.fallbacks and len(spy.fallbacks) >= 2
    assert b"1 0 0 -1 10 680 Tm" in ours


def test_empty_texts_and_codes_given_outside_the_writer(fonts):
    # codes ReportLab gives between two text objects (drawString: a halo, a slanted run) are taken in
    nunito = fonts["nunito"]

    def page(ours: bool) -> bytes:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1, initialFontName=nunito, pageCompression=0)
        draw = TextWriter(canvas).draw if ours else (lambda lines: reportlab_text(canvas, lines))
        draw([(10, 700, "абв", nunito, 9, INK), (10, 690, "", nunito, 9, INK), (10, 680, "вба", nunito, 9, INK)])
        canvas.setFont(nunito, 9)
        canvas.drawString(10, 670, "где ёж")
        draw([(10, 660, "ёж где", nunito, 9, INK), (10, 650, "", nunito, 9, INK), (10, 640, "", nunito, 10, INK)])
        draw([])
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()
    ours, theirs = page(True), page(False)
    assert ours == theirs, _first_difference(ours, theirs)
    assert b"Tm  1 0 0 1" in ours        # an empty text writes an empty operator, as ReportLab's does


def test_the_written_text_reads_back(fonts):
    runs = [(fonts["nunito"], 9, text) for text in CYRILLIC + ESCAPES + NBSP] * 2
    document = pdfium.PdfDocument(_pdf(runs, True, fonts["nunito"]))
    text = document[0].get_textpage().get_text_range()
    document.close()
    for written in CYRILLIC + ESCAPES[:3]:
        assert written in text


def test_a_face_renders_to_the_same_pdf_as_through_textout(monkeypatch):
    from generator.components.piece import Face, TextPlacement
    from generator.imposition.sheet import Document, Page, Placement
    from generator.render import pdf as pdf_module
    from generator.text.layout import SetStyle, fit_text
    from generator.text.rich import parse_rich_text
    from generator.text.setter import TextSetter

    library = FontLibrary()
    setter = TextSetter(library)

    def text(words: str, lang: str) -> TextPlacement:
        style = SetStyle(("nunito", "noto-sans-georgian"), 10, 10, lang=lang, color="#000000")
        return TextPlacement(5, 5, fit_text(parse_rich_text(words), 50, 80, style, setter).runs)
    faces = [Face(f"card {index}", 63, 88, 0, (text(words, lang),)) for index, (words, lang) in enumerate(
        [(" ".join(CYRILLIC), "ru"), ("**" + GEORGIAN[0] + "** " + GEORGIAN[1], "ka"), (" ".join(ESCAPES), "en"),
         (" ".join(NBSP) + " *" + CYRILLIC[2] + "*", "ru")])]
    page = Page(210, 297, tuple(Placement(face, 10 + 65 * (i % 3), 10 + 90 * (i // 3), (0, 0, 210, 297))
                                for i, face in enumerate(faces)))
    ours = pdf_module.render_pdf(Document([page]), library.face("nunito").name)
    monkeypatch.setattr(TextWriter, "draw", lambda writer, lines: reportlab_text(writer.canvas, lines))
    assert pdf_module.render_pdf(Document([page]), library.face("nunito").name) == ours
