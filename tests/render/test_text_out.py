"""render/text_out.py writes what ReportLab's textOut writes: two tiny PDFs, one through each, byte for byte."""

from __future__ import annotations

import io
from collections.abc import Callable

import pypdfium2 as pdfium
import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from generator.render import text_out as text_out_module
from generator.render.text_out import text_out
from generator.text.fonts import FontLibrary

Run = tuple[str, float, str]      # (font name, size, text)

CYRILLIC = ["Передвиньте фишку на три клетки", "возьмите карту из колоды", "Ёлка, сани и олень",
            "достопримечательность краеведческий"]
GEORGIAN = ["ყველა ადამიანი იბადება თავისუფალი", "და თანასწორი თავისი ღირსებითა და უფლებებით"]
ESCAPES = ["f(x) = \\alpha (1)\\", "((nested) \\(escaped\\))", "a\\b", "tab\there", "~{|}`"]
NBSP = ["10\xa0km", "\xa0лидирующий и конечный\xa0", "с\xa0неразрывными\xa0пробелами"]


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


def _pdf(runs: list[Run], write: Callable[[PDFTextObject, str], None], initial_font: str) -> bytes:
    """One page, every run in one text object at its own origin, the font set where it changes (as pdf.py does)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=initial_font, pageCompression=0)
    block = canvas.beginText(20, 800)
    current = None
    for index, (font, size, text) in enumerate(runs):
        block.setTextOrigin(20 + index % 3, 800 - 14 * (index % 50))
        if (font, size) != current:
            block.setFont(font, size)
            current = (font, size)
        write(block, text)
    canvas.drawText(block)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


class Spy:
    """Counts the runs text_out leaves to ReportLab."""

    def __init__(self, monkeypatch):
        self.fallbacks: list[str] = []
        original = text_out_module._reportlab_text_out

        def counted(block, text):
            self.fallbacks.append(text)
            original(block, text)
        monkeypatch.setattr(text_out_module, "_reportlab_text_out", counted)


def _same_as_reportlab(runs: list[Run], monkeypatch) -> Spy:
    initial = runs[0][0]
    reportlab = _pdf(runs, PDFTextObject.textOut, initial)
    spy = Spy(monkeypatch)
    ours = _pdf(runs, text_out, initial)
    assert ours == reportlab, _first_difference(ours, reportlab)
    return spy


def _first_difference(ours: bytes, theirs: bytes) -> str:
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
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
    runs += [(font, 9, text) for text in (first[:40], second[:40], second[40:60], first[40:80], second[:10] + first[:10],
                                          first[:5] + second[5:15] + first[20:25], second[60:], "", first[:3])]
    spy = _same_as_reportlab(runs, monkeypatch)
    assert len(spy.fallbacks) == 14 + 1            # the runs giving codes, and the empty string
    pdf = _pdf(runs, text_out, font)
    assert b"/F1+1 9 Tf" in pdf and b"/F1+0 9 Tf" in pdf        # both subsets written
    assert pdf.count(b" Tf ") >= 8                                # switched back and forth within the object


def test_font_and_size_changes_between_runs(fonts, monkeypatch):
    nunito, inter, georgian = fonts["nunito"], fonts["inter"], fonts["noto-sans-georgian"]
    runs = [(nunito, 9, CYRILLIC[0]), (inter, 9, CYRILLIC[0]), (nunito, 12, CYRILLIC[1]), (georgian, 10, GEORGIAN[0]),
            (nunito, 12, CYRILLIC[0]), (inter, 9.5, ESCAPES[0]), (nunito, 9, CYRILLIC[0] + " " + ESCAPES[1])]
    _same_as_reportlab(runs * 2, monkeypatch)


def test_a_font_that_is_not_truetype_goes_through_reportlab(fonts, monkeypatch):
    runs = [(fonts["nunito"], 9, "кот"), ("Helvetica", 9, "cat (x)"), ("Helvetica", 9, "cat (x)"), (fonts["nunito"], 9, "кот")]
    spy = _same_as_reportlab(runs, monkeypatch)
    assert spy.fallbacks == ["кот", "cat (x)", "cat (x)"]


def test_the_written_text_reads_back(fonts):
    runs = [(fonts["nunito"], 9, text) for text in CYRILLIC + ESCAPES + NBSP] * 2
    document = pdfium.PdfDocument(_pdf(runs, text_out, fonts["nunito"]))
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
    monkeypatch.setattr(pdf_module, "text_out", PDFTextObject.textOut)
    assert pdf_module.render_pdf(Document([page]), library.face("nunito").name) == ours
