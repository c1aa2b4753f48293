"""A right-to-left line reads back in logical order in pdfium and in poppler, whatever it mixes.

Each card of a tiny Hebrew or Arabic game prints one line that mixes right-to-left words with what
the two readers used to put out of place (docs/text-engine.md, "The PDF objects"): a Latin name at
the line's start, numbers with signs and ranges, brackets, punctuation before a number, harakat and
a hamza letter. The card's text is read back from the built PDF by pypdfium2 and by pdftotext and
must be the catalog's text, but for white space and the directional marks pdftotext adds. Lines
without right-to-left text are written as before: a Latin card's content has none of the marks.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pikepdf
import pypdfium2 as pdfium
import pytest

from tests.games.test_world_scripts import build_tiny_path, tiny_game

PDFTOTEXT = shutil.which("pdftotext")
LINES = {
    "he": {"name": "Anna Berg מחלקת 12 קלפים.", "signs": "כל סדרה: +5, ועוד 2–4 נקודות (לכל היותר 9).",
           "quote": "השחקן שואל «מה?» ועונה: כן, 3.", "comma": "Anna Berg, שלום", "zero": "א +0 ב",
           "range": "ל־2–4", "brackets": "(א) ב [ג]", "latin": "שלום (abc) עולם", "last": "בערך 5."},
    "ar": {"marks": "يمرّر اللاعب بطاقة إلى المرفأ، بادِل.", "mixed": "اجمع 5 نقاط من Nautilus (+2)."},
}
# each card's text in a box inside the safe margin, on a line or two
BOX = "x: 5, y: 10, width: 53, height: 20"
STYLE = "{font: body, size: 7}"
DIRECTIONAL = re.compile(r"[\u200e\u200f\u202a-\u202e\u2066-\u2069]")     # the readers' marks


def _holds(read: str, written: str) -> bool:
    """Whether the text read holds the written text in its order (a line's end read as a space)."""
    return " ".join(written.split()) in " ".join(DIRECTIONAL.sub("", read).split())


@pytest.mark.parametrize("lang", sorted(LINES))
def test_every_line_reads_back_in_logical_order(tmp_path, lang):
    pdf = build_tiny_path(tiny_game(tmp_path, lang, LINES[lang], BOX, STYLE), tmp_path / "out")
    document = pdfium.PdfDocument(str(pdf))
    read = "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    for text in LINES[lang].values():
        assert _holds(read, text), (text, read)
    if PDFTOTEXT is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    printed = subprocess.run([PDFTOTEXT, "-q", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                             check=True, encoding="utf-8").stdout
    for text in LINES[lang].values():
        assert _holds(printed, text), (text, printed)


def test_a_left_to_right_line_has_none_of_the_marks(tmp_path):
    pdf = build_tiny_path(tiny_game(tmp_path, "en", {"plain": "Move 2–4 spaces (+5)."}, BOX, STYLE), tmp_path / "out")
    with pikepdf.open(pdf) as document:
        content = b"".join(page.Contents.read_bytes() if not isinstance(page.Contents, pikepdf.Array) else
                           b"".join(part.read_bytes() for part in page.Contents) for page in document.pages)
        forms = b"".join(xobject.read_bytes() for page in document.pages
                         for xobject in page.Resources.get("/XObject", {}).values())
    assert b"/Drawn" not in content + forms and b"/Line" not in content + forms
