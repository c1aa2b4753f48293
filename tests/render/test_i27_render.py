"""The render stage without hidden global state (issue 27): subsets named as written, joined files finished
through pikepdf, ReportLab's settings only while pnp draws, drawing settings as one value, the shop
catalogue behind preflight's bleed, DXF as an optional extra."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from reportlab import rl_config
from reportlab.graphics.shapes import STATE_DEFAULTS

from generator import caches
from generator.components.piece import ArtPlacement, Face, Rect, TextPlacement
from generator.imposition import cut
from generator.imposition.sheet import Document, Page, Placement
from generator.imposition.shops import SHOP_PRESETS, shop_bleeds
from generator.imposition.single import face_page
from generator.preflight import inspect
from generator.render.art import art_digest
from generator.render.font_tags import subset_tags
from generator.render.merge import append_pdf
from generator.render.pdf import render_pdf
from generator.render.settings import DrawingSettings
from generator.text.fonts import FontLibrary
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
       '<rect width="10" height="10" fill="{colour}" opacity="0.5"/></svg>')


@pytest.fixture(scope="module")
def font() -> str:
    return FontLibrary().face("nunito").name


def _document(words: str, art=None, bleed: float = 0.0) -> Document:
    library = FontLibrary()
    style = SetStyle(("nunito",), 12, 12, lang="en", color="#000000")
    runs = fit_text(parse_rich_text(words), 100, 50, style, TextSetter(library)).runs
    items: tuple = (Rect(-bleed, -bleed, 120 + 2 * bleed, 60 + 2 * bleed, fill="#3366cc"), TextPlacement(5, 5, runs))
    if art is not None:
        items += (ArtPlacement(art, 80, 10, 20, 20),)
    face = Face(words, 120, 60, bleed, items)
    if bleed:
        return Document([face_page(face, "front")])
    return Document([Page(210, 297, (Placement(face, 20, 20, (20, 20, 120, 60)),))])


def test_importing_the_render_stage_changes_no_reportlab_setting():
    script = ("from reportlab import rl_config; before = rl_config.useA85\n"
              "import generator.render.pdf, generator.render.transparency, generator.render.merge\n"
              "print(before, rl_config.useA85)")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    assert shown[0] == shown[1] == "1"


def test_drawing_leaves_reportlab_as_it_found_it(tmp_path, font):
    art = tmp_path / "art.svg"
    art.write_text(SVG.format(colour="#cc3333"))
    before = (rl_config.useA85, dict(STATE_DEFAULTS))
    data = render_pdf(_document("Hello", art), font)
    assert b"ASCII85Decode" not in data                 # pnp's setting in force while it drew
    assert (rl_config.useA85, dict(STATE_DEFAULTS)) == before


def test_drawing_settings_draw_what_the_loose_arguments_drew(font):
    document = _document("Some **bold** words")
    assert render_pdf(document, DrawingSettings(font)) == render_pdf(document, font)
    cmyk = DrawingSettings(font, "cmyk", 2.4)
    assert render_pdf(document, cmyk) == render_pdf(document, font, "cmyk", 2.4)
    with pytest.raises(ValueError):
        DrawingSettings(font, "hsv")           # type: ignore[arg-type]  # the mistake under test


def test_joined_files_keep_their_written_tags_and_are_valid_and_reproducible(tmp_path, font):
    first, second = render_pdf(_document("**Bold** and plain"), font), render_pdf(_document("Other *words*"), font)
    joined = append_pdf(first, second)
    assert [tag for tag, _ in subset_tags(joined)] == [tag for tag, _ in subset_tags(first) + subset_tags(second)]
    assert append_pdf(first, second) == joined
    if shutil.which("qpdf"):
        (tmp_path / "joined.pdf").write_bytes(joined)
        assert subprocess.run(["qpdf", "--check", str(tmp_path / "joined.pdf")], capture_output=True).returncode == 0


def test_a_subset_meeting_another_under_its_tag_is_renamed(font):
    one = render_pdf(_document("Twice the same"), font)
    joined = append_pdf(one, one)                # every tag twice, on different font dictionaries
    tags = [tag for tag, _ in subset_tags(joined)]
    assert len(tags) == 2 * len(subset_tags(one)) and len(set(tags)) == len(tags)


@pytest.mark.parametrize(("bleed", "preset", "complaint"), [
    (3.0, None, None), (INCH_8 := 25.4 / 8, None, None), (INCH_8, "tgc", None),
    (INCH_8, "generic", "not 3 mm"), (3.0, "tgc", "not 3.175 mm"), (2.0, None, "(tgc, drivethrucards)")])
def test_preflight_judges_the_bleed_by_the_shop_catalogue(tmp_path, font, bleed, preset, complaint):
    path = tmp_path / "cards.pdf"
    path.write_bytes(render_pdf(_document("Card", bleed=bleed), font))
    errors = [error for error in inspect(path, shop=True, preset=preset).errors if error.startswith("page 1: bleed")]
    if complaint is None:
        assert errors == []
    else:
        assert len(errors) == 1 and complaint in errors[0], errors


def test_the_catalogue_holds_every_shop_s_bleed():
    assert shop_bleeds() == {3.0: ("generic",), SHOP_PRESETS["mpc"].bleed: ("mpc",),
                             25.4 / 8: ("tgc", "drivethrucards")}


def test_an_svg_edited_in_place_is_read_again(tmp_path):
    art = tmp_path / "art.svg"
    art.write_text(SVG.format(colour="#cc3333"))
    with caches.Caches().active() as tables:
        before = art_digest(art)
        assert tables.sizes()["render.art_read"] == 1
        art.write_text(SVG.format(colour="#33cc33"))            # the same size, another drawing
        assert art_digest(art) != before
        tables.files_changed()
        assert tables.sizes()["render.art_read"] == 0


def test_dxf_without_ezdxf_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ezdxf", None)              # import ezdxf now fails
    message = cut.dxf_writer_missing("dxf")
    assert message is not None and 'pip install "pnp-generator[dxf]"' in message
    assert cut.dxf_writer_missing("svg") is None
    with pytest.raises(cut.DxfWriterMissing, match=r"pnp-generator\[dxf\]"):
        cut.cut_dxf(Page(100, 100, ()), [])


def test_a_booklet_imposed_twice_is_the_same_file(font):
    from generator.imposition.booklet import impose_booklet     # (the output stage's: imposed by pdfium)
    rules = render_pdf(Document([_document(f"Page {n}").pages[0] for n in range(3)]), font)
    booklet = impose_booklet(rules, (297, 210))
    assert impose_booklet(rules, (297, 210)) == booklet          # pdfium's random file ID replaced
    tags = [tag for tag, _ in subset_tags(booklet)]          # pdfium copies a font for each page it imposes
    assert tags[0] == subset_tags(rules)[0][0] and len(set(tags)) == len(tags)
