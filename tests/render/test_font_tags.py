"""Subset tags: one per subset, derived from content, named as the file is written (nothing moves)."""

from __future__ import annotations

import pypdfium2 as pdfium

from generator.components.piece import Face, Rect, TextPlacement
from generator.imposition.sheet import Document, Page, Placement
from generator.render.font_tags import distinct_subset_tags, subset_tags
from generator.render.merge import append_pdf
from generator.render.pdf import render_pdf
from generator.text.fonts import FontLibrary
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter


def _pdf(words: str) -> bytes:
    library = FontLibrary()
    setter = TextSetter(library)
    style = SetStyle(("nunito",), 12, 12, lang="en", color="#000000")
    runs = fit_text(parse_rich_text(words), 100, 50, style, setter).runs
    face = Face(words, 120, 60, 0, (Rect(0, 0, 120, 60, stroke="#000000"), TextPlacement(5, 5, runs)))
    page = Page(210, 297, (Placement(face, 20, 20, (20, 20, 120, 60)),))
    return render_pdf(Document([page]), library.face("nunito").name)


def test_two_files_joined_keep_distinct_tags_and_are_reproducible():
    first, second = _pdf("**Bold** and plain"), _pdf("Other *words* ÄÖ")
    joined = append_pdf(first, second)
    tags = [tag for tag, _ in subset_tags(joined)]
    assert len(tags) >= 4 and len(tags) == len(set(tags))
    assert append_pdf(first, second) == joined                   # derived from content: the same bytes again
    document = pdfium.PdfDocument(joined)
    text = " ".join(document[index].get_textpage().get_text_range() for index in range(len(document)))
    document.close()
    assert "Bold and plain" in text and "Other words ÄÖ" in text   # the fonts still read back


def test_composite_fonts_are_tagged_by_content_and_no_truetype_subset_is_written():
    # the glyph fonts (render/glyph_fonts.py) name their subsets as they are written, on a plain canvas
    once = _pdf("Hello **bold**")
    tags = subset_tags(once)
    assert len(tags) == 2 and len({tag for tag, _ in tags}) == 2 and b"AAAAAA" not in {tag for tag, _ in tags}
    assert subset_tags(_pdf("Hello **other**")) != tags
    assert b"/TrueType" not in once and once.count(b"/Type0") == 2
    assert distinct_subset_tags(once) == once
    assert _pdf("Hello **bold**") == once
