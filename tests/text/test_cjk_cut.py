"""A CFF face, a collection's face and a face emboldened are registered as shells, never converted whole.

The shell (cff.truetype_shell) holds every table but the outlines: it shapes and measures as its
source does (emboldening is in place: the advances stay). What a document draws is cut from the
source as it is written (render/glyph_fonts.py): those glyphs drawn from the source, emboldened,
their advances the shell's.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]
from fontTools.ttLib import TTFont
from reportlab.pdfbase import pdfmetrics

from generator.render.glyph_fonts import subset_program
from generator.text import cff, fonts
from generator.text.fonts import EMBOLDEN, FontLibrary, cut_source
from generator.text.shaping import hb_font, shape
from tests.text.test_font_cuts import _pen_glyph
from tests.text.test_game_fonts import make_cff_font

JAPANESE = "カードを2枚引く。「港」と「市場」、光の種類をそろえよう ABC fi"


@pytest.fixture
def no_whole_conversion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder of the test's own, and no font's outlines drawn whole (only a document's glyphs)."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    draw = cff._draw_outlines

    def chosen_only(*args, glyphs=None, **kwargs):
        assert glyphs is not None, "a whole font's outlines were drawn"
        return draw(*args, glyphs=glyphs, **kwargs)
    monkeypatch.setattr(cff, "_draw_outlines", chosen_only)


def _cjk(library: FontLibrary) -> fonts.FamilySource:
    if "noto-sans-cjk-jp" not in library.families:
        pytest.skip("Noto Sans CJK (pnp-generator[cjk]) is not installed")
    return library.families["noto-sans-cjk-jp"]


def _outline_bytes(path: Path) -> int:
    with TTFont(str(path), lazy=True) as font:
        return len(font.reader["glyf"].rstrip(b"\0"))     # (the table padded to a byte)


def test_a_cjk_face_is_a_shell_that_shapes_as_its_source(no_whole_conversion: None) -> None:
    library = FontLibrary()
    source = _cjk(library)
    for weight in ("regular", "bold", "black"):
        face = library.face("noto-sans-cjk-jp", weight)
        assert face.path.stat().st_size < 3_000_000, face.path       # the whole conversion was ~20 MB
        assert _outline_bytes(face.path) == 0, face.path
        assert cut_source(face.path) == (Path(source.upright).resolve(), source.index, EMBOLDEN[weight])
        drawn = hb.Font(hb.Face(hb.Blob.from_file_path(str(source.upright)), source.index))
        if EMBOLDEN[weight]:
            drawn.synthetic_bold = (EMBOLDEN[weight], EMBOLDEN[weight], True)
        buffer = hb.Buffer()
        buffer.add_str(JAPANESE)
        buffer.guess_segment_properties()
        hb.shape(drawn, buffer, {})
        shaped = shape(face, JAPANESE)
        assert shaped.gids == tuple(info.codepoint for info in buffer.glyph_infos)
        assert shaped.advances == tuple(position.x_advance / 1000 for position in buffer.glyph_positions)


def _embedded_matches_source(face: fonts.FontFace, source: Path, index: int, gids: list[int]) -> None:
    """The glyphs subset_program embeds are the source's, drawn (emboldened) as a whole conversion drew
    them, their advances the shell's; no other glyph has an outline."""
    embolden = EMBOLDEN[face.weight] if face.synthetic_bold else 0.0
    with TTFont(str(source), fontNumber=index, lazy=True) as original:
        cubic = "glyf" not in original
        upem = original["head"].unitsPerEm
    drawn = hb.Font(hb.Face(hb.Blob.from_file_path(str(source)), index))
    drawn.scale = (upem, upem)
    if embolden:
        drawn.synthetic_bold = (embolden, embolden, True)
    shell = hb_font(face.path)
    with TTFont(io.BytesIO(subset_program(shell, gids))) as program:
        glyf, order = program["glyf"], program.getGlyphOrder()
        inked = 0
        for gid in gids:
            written = glyf[order[gid]]
            expected = _pen_glyph(drawn, gid, cff.MAX_ERROR_EM * upem, cubic)
            assert written.numberOfContours == expected.numberOfContours, gid      # (a space has none)
            if expected.numberOfContours:
                inked += 1
                assert list(written.getCoordinates(glyf)[0]) == list(expected.coordinates), gid
            assert program["hmtx"][order[gid]][0] == shell.font.get_glyph_h_advance(gid), gid
        assert inked >= len(gids) - 2, (inked, gids)
        others = [gid for gid in range(len(order)) if gid not in gids and gid and glyf[order[gid]].numberOfContours]
        assert others == []


def test_the_glyphs_embedded_are_cut_from_the_cjk_source_and_emboldened(no_whole_conversion: None) -> None:
    library = FontLibrary()
    source = _cjk(library)
    for weight in ("regular", "black"):
        face = library.face("noto-sans-cjk-jp", weight)
        gids = sorted({gid for gid in shape(face, JAPANESE).gids if gid})
        assert len(gids) > 20
        _embedded_matches_source(face, Path(source.upright), source.index, gids)


def test_a_cff_game_font_is_checked_and_emboldened_without_a_whole_conversion(
        tmp_path: Path, no_whole_conversion: None) -> None:
    make_cff_font(tmp_path / "Box.otf")
    checked = fonts._checked_font(tmp_path / "Box.otf", fonts.file_signature(tmp_path / "Box.otf"))
    assert isinstance(checked, Path) and _outline_bytes(checked) == 0, checked
    library = FontLibrary({"box": fonts.FamilySource("box", checked)})
    for weight in ("regular", "bold"):
        face = library.face("box", weight)
        assert cut_source(face.path) == ((tmp_path / "Box.otf").resolve(), 0, EMBOLDEN[weight])
        gids = sorted(set(shape(face, "BOX").gids))
        _embedded_matches_source(face, tmp_path / "Box.otf", 0, gids)


def test_cjk_text_in_svg_art_is_embedded_with_its_outlines(tmp_path: Path, no_whole_conversion: None) -> None:
    # svglib's text is drawn by ReportLab itself, from the registered face's file: a shell would embed
    # glyphs without outlines (invisible text); that face is cut with the drawing's glyphs drawn (never whole)
    import pikepdf

    from tests.robustness.test_art_and_fonts import game_with_art
    from tests.test_content_errors import pnp
    if "noto-sans-cjk-jp" not in FontLibrary().families:
        pytest.skip("Noto Sans CJK (pnp-generator[cjk]) is not installed")
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
           '<text x="1" y="8" font-size="6" font-weight="bold">港</text></svg>')
    folder = game_with_art(tmp_path, "star.svg", svg.encode())
    out = tmp_path / "out"
    result = pnp("build", str(folder), "--out", str(out), "--paper", "a4", "--only", "cards", "--jobs", "1")
    assert result.exit_code == 0, result.output
    (pdf,) = out.rglob("cards.pdf")
    programs = []
    with pikepdf.open(pdf) as document:
        for font in document.objects:
            if isinstance(font, pikepdf.Dictionary) and font.get("/Type") == "/FontDescriptor" \
                    and "NotoSansCJK" in str(font.FontName):
                programs.append(TTFont(io.BytesIO(font.FontFile2.read_bytes())))
    assert programs
    inked = [name for program in programs for name in program.getGlyphOrder()[1:]
             if program["glyf"][name].numberOfContours > 0]
    assert inked, "the SVG's 港 was embedded without its outline"


def test_a_documents_cut_is_kept_and_a_damaged_one_is_cut_again(tmp_path: Path, no_whole_conversion: None) -> None:
    make_cff_font(tmp_path / "Box.otf")
    library = FontLibrary({"box": fonts.FamilySource("box", tmp_path / "Box.otf")})
    face = library.face("box", "bold")
    gids = sorted(set(shape(face, "BOX").gids))
    first = subset_program(hb_font(face.path), gids)
    (kept,) = (tmp_path / "cache" / "fonts").glob("glyph-cuts-*/*.z")
    assert subset_program(hb_font(face.path), gids) == first
    damaged = bytearray(kept.read_bytes())
    damaged[-1] ^= 0xFF
    kept.write_bytes(bytes(damaged))
    assert subset_program(hb_font(face.path), gids) == first
    assert kept.read_bytes() != bytes(damaged)           # written again, whole
    with TTFont(io.BytesIO(first)) as program:
        glyf, order = program["glyf"], program.getGlyphOrder()
        assert all(glyf[order[gid]].numberOfContours for gid in gids if gid > 1)   # (1: the space)


def test_a_drawings_cut_has_its_glyphs_and_the_latest_are_kept(no_whole_conversion: None,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """ReportLab's face for a drawing's CJK text has those characters' outlines and no others; one cut a
    set of characters, the most recent MAX_DRAWING_CUTS kept."""
    monkeypatch.setattr(fonts, "MAX_DRAWING_CUTS", 2)
    library = FontLibrary()
    _cjk(library)
    face = library.face("noto-sans-cjk-jp", "regular", False)
    paths = []
    for characters in ("港", "市場", "光"):
        name = library.drawn_by_reportlab(face, frozenset(characters))
        paths.append(Path(pdfmetrics.getFont(name).face.filename))
    with TTFont(str(paths[1])) as font:
        cmap = font.getBestCmap()
        inked = {name for name in font.getGlyphOrder() if font["glyf"][name].numberOfContours > 0}
        assert inked == {cmap[ord("市")], cmap[ord("場")]}
    assert len(set(paths)) == 3
    assert [path.exists() for path in paths] == [False, True, True], "the oldest cut is the one removed"
    assert library.drawn_by_reportlab(face, frozenset("光")) == name, "a set of characters is cut once"
