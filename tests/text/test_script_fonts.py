"""Fonts for the world's scripts: the default stack's families, CJK by language, a game's own collection.

Arabic, Hebrew, Devanagari and Thai come from font packages (cut at three weights like every variable
font), Greek is Inter's whole, Japanese/Chinese/Korean the Noto Sans CJK collection's face of the
text's region (the cjk extra, installed with the test tools), and a game's own TTC works with one
font_files line. Built cards are read back from the PDF.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont

from generator.render.glyph_fonts import subset_program
from generator.text import fonts
from generator.text.fonts import DEFAULT_STACK, FontLibrary, for_language
from generator.text.shaping import hb_font, shape
from generator.text.setter import TextSetter
from tests.pdf_probe import all_text, font_report
from tests.test_content_errors import EN, GAME, make_game, pnp

WORDS = {"el": "Δύναμη του λιμανιού", "tr": "Işık ılık İstanbul", "ar": "بطاقة القوة", "he": "כרטיס כוח",
         "hi": "शक्ति कार्ड", "th": "การ์ดพลัง", "ja": "力のカード。"}
FACES = {"el": "Inter", "tr": "Nunito", "ar": "NotoSansArabic", "he": "Heebo", "hi": "NotoSansDevanagari",
         "th": "NotoSansThai", "ja": "NotoSansCJK-Regular-0-"}     # the embedded program's name (its cut file)


def card_game(tmp_path: Path, texts: dict[str, str], game_extra: str = "", style: str = "", height: int = 10) -> Path:
    """One card whose name is texts[lang] in each language, in the default stack (game.yaml names none)."""
    head = GAME.replace("languages: [en]", f"languages: [{', '.join(texts)}]")
    head = head.replace("fonts:\n  body: [nunito, inter]\n", game_extra)
    files = {"game.yaml": head}
    for lang, text in texts.items():
        files[f"i18n/{lang}.yaml"] = EN.replace("en:", f"{lang}:", 1).replace('"Star"', f'"{text}"')
    if style:
        files["templates/card.yaml"] = (
            "size: {width: 63mm, height: 88mm}\nbleed: 3mm\nsafe: 4mm\n"
            f"styles:\n  body: {{size: 10pt, min_size: 8pt{style}}}\n"
            f"boxes:\n  name: {{kind: text, text: \"@name\", x: 5, y: 40, width: 53, height: {height}, style: body}}\n")
    return make_game(tmp_path, files)


def built(folder: Path, out: Path, *more: str) -> Path:
    result = pnp("build", str(folder), "--out", str(out), "--only", "cards", "--paper", "a4", "--jobs", "1", *more)
    assert result.exit_code == 0, result.output
    return out / "g" / "standard"


def test_every_script_is_set_in_its_own_family_and_reads_back(tmp_path):
    folder = card_game(tmp_path, {"en": "Star", **WORDS})
    out = built(folder, tmp_path / "out")
    for lang, text in WORDS.items():
        pdf = out / lang / "a4" / "cards.pdf"
        report = font_report(pdf)
        assert all(report.values()), report                           # every font embedded
        assert any(FACES[lang] in name for name in report), (lang, report)
        assert all("+" in name for name in report), report           # and only a subset of it
        assert text in all_text(pdf), (lang, all_text(pdf))     # right-to-left words too, in reading order


def test_a_greek_word_is_set_in_one_face():
    # Nunito has Δ, Σ, Ω, μ and π (as signs): a Greek word set through the stack must not take those from it
    nunito = FontLibrary().families["nunito"].upright
    assert ord("Δ") in fonts._cmap(nunito, fonts.file_signature(nunito))
    setter = TextSetter(FontLibrary())
    for word in ("Δύναμη", "Σπίτι", "Ωμέγα", "μπάλα", "ΔΥΝΑΜΗ"):
        runs = setter.runs(word, DEFAULT_STACK, "regular", False)
        assert [run.face.family for run in runs] == ["inter"], (word, runs)
    assert [run.face.family for run in setter.runs("Star", DEFAULT_STACK, "regular", False)] == ["nunito"]


@pytest.mark.parametrize("family", ["noto-sans-arabic", "heebo", "noto-sans-devanagari", "noto-sans-thai"])
def test_the_new_families_are_cut_at_three_weights_with_their_layout_tables(family):
    library = FontLibrary()
    paths = {weight: library.face(family, weight).path for weight in ("regular", "bold", "black")}
    assert len(set(paths.values())) == 3
    for weight, path in paths.items():
        with TTFont(str(path), lazy=True) as font:
            assert font["OS/2"].usWeightClass == fonts.WEIGHTS[weight], (family, weight)
            assert {"glyf", "GSUB", "GPOS", "GDEF"} <= set(font.keys()), (family, sorted(font.keys()))
            assert "fvar" not in font


@pytest.mark.parametrize(("lang", "region"), [
    ("ja", "jp"), ("zh", "sc"), ("zh-Hans", "sc"), ("zh-CN", "sc"), ("zh_SG", "sc"), ("zh-Hant", "tc"),
    ("zh-TW", "tc"), ("zh-HK", "tc"), ("zh-Hant-HK", "tc"), ("ko", "kr"), ("en", "jp"), ("ru", "jp")])
def test_the_cjk_face_follows_the_texts_language(lang, region):
    stack = for_language(DEFAULT_STACK, lang)
    assert stack[-1] == f"noto-sans-cjk-{region}" and "noto-sans-cjk" not in stack
    assert stack[:-1] == DEFAULT_STACK[:-1]
    # a game's own stack naming the generic family, or the region's face itself, is set the same way
    assert for_language(("nunito", "noto-sans-cjk"), lang) == ("nunito", f"noto-sans-cjk-{region}")
    assert for_language(("nunito", "noto-sans-cjk-kr"), lang) == ("nunito", "noto-sans-cjk-kr")
    assert for_language(("nunito",), lang, ("own",)) == ("nunito", "own")


def test_each_cjk_region_is_its_font_of_the_collection():
    library = FontLibrary()
    source = library.families["noto-sans-cjk-sc"]
    assert source.upright.suffix == ".ttc"
    collection = TTCollection(str(source.upright), lazy=True)
    for region, name in (("jp", "JP"), ("kr", "KR"), ("sc", "SC"), ("tc", "TC"), ("hk", "HK")):
        index = library.families[f"noto-sans-cjk-{region}"].index
        assert collection.fonts[index]["name"].getDebugName(1) == f"Noto Sans CJK {name}"
    assert {ord("港"), ord("한"), ord("か")} <= library.cmap("noto-sans-cjk-tc")   # read by its index


def test_fifty_kanji_embed_a_small_subset_of_the_cjk_face(tmp_path):
    kanji = "".join(chr(0x4E00 + 97 * index) for index in range(50))
    folder = card_game(tmp_path, {"ja": kanji}, style=", color: \"#000000\"", height=40)
    pdf = built(folder, tmp_path / "out") / "ja" / "a4" / "cards.pdf"
    assert all(char in all_text(pdf) for char in kanji)
    report = font_report(pdf)
    assert any("NotoSansCJK-Regular-0-" in name and "+" in name for name in report), report
    shell = FontLibrary().face("noto-sans-cjk-jp").path
    assert shell.stat().st_size < 3_000_000    # what pnp keeps of the face: its shell (~1 MB), no outlines
    assert pdf.stat().st_size < 120_000, pdf.stat().st_size  # the PDF holds the 50 kanji's glyphs only


def test_uppercase_follows_the_language_greek_without_tonos_turkish_dotted_i(tmp_path):
    folder = card_game(tmp_path, {"en": "istanbul", "el": "Δύναμη λιμάνι", "tr": "istanbul ılık"},
                       style=", uppercase: true")
    out = built(folder, tmp_path / "out")
    assert "ΔΥΝΑΜΗ ΛΙΜΑΝΙ" in all_text(out / "el" / "a4" / "cards.pdf")
    assert "İSTANBUL ILIK" in all_text(out / "tr" / "a4" / "cards.pdf")
    assert "ISTANBUL" in all_text(out / "en" / "a4" / "cards.pdf")


def _own_font(family: str, width: int) -> TTFont:
    """A small TrueType font named `family` with a box `width` units wide for the Cherokee letter Ꭰ,
    which no built-in family has."""
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "space", "cher"])
    builder.setupCharacterMap({32: "space", 0x13A0: "cher"})
    pen = TTGlyphPen(None)
    pen.moveTo((50, 0))
    pen.lineTo((50, 700))
    pen.lineTo((50 + width, 700))
    pen.lineTo((50 + width, 0))
    pen.closePath()
    builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "space": TTGlyphPen(None).glyph(), "cher": pen.glyph()})
    builder.setupHorizontalMetrics({".notdef": (600, 0), "space": (300, 0), "cher": (width + 100, 50)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    return builder.font


def own_collection(path: Path) -> None:
    collection = TTCollection()
    collection.fonts = [_own_font("Box Sans A", 200), _own_font("Box Sans B", 500)]
    path.parent.mkdir(parents=True, exist_ok=True)
    collection.save(str(path))


@pytest.mark.parametrize(("face", "index"), [("", 0), (", face: 1", 1), (", face: \"Box Sans B\"", 1),
                                             (", face: \"box sans a\"", 0)])
def test_a_games_collection_works_with_one_font_files_line(tmp_path, face, index):
    line = f"font_files: {{own: {{regular: fonts/Own.ttc{face}}}}}\n"     # and no stack names it
    folder = card_game(tmp_path, {"en": "Star Ꭰ"}, game_extra=line)
    own_collection(folder / "fonts" / "Own.ttc")
    pdf = built(folder, tmp_path / "out") / "en" / "a4" / "cards.pdf"
    assert "Star Ꭰ" in all_text(pdf)
    report = font_report(pdf)
    assert any(f"+Own-{index}-tt" in name for name in report), report      # that font of the file, cut
    assert any("Nunito" in name for name in report), report                # the rest from the default stack


@pytest.mark.parametrize(("face", "message"), [
    ("face: 2", "face: 2, and the collection holds 2 fonts, 0 to 1: 0 'Box Sans A', 1 'Box Sans B'"),
    ("face: \"Box Sans C\"", "the collection holds no font named 'Box Sans C': its fonts are 0 'Box Sans A', "
                             "1 'Box Sans B'")])
def test_a_collection_font_that_is_not_there_is_a_located_error(tmp_path, monkeypatch, face, message):
    monkeypatch.chdir(tmp_path)
    line = f"font_files: {{own: {{regular: fonts/Own.ttc, {face}}}}}\n"
    folder = card_game(tmp_path, {"en": "Star Ꭰ"}, game_extra=line)
    own_collection(folder / "fonts" / "Own.ttc")
    result = pnp("check", "g")
    assert result.exit_code == 1
    assert f"g/game.yaml:6:29: cannot read font fonts/Own.ttc: {message}" in result.output, result.output


def test_a_face_without_a_bold_file_is_emboldened_in_place(tmp_path):
    from tests.text.test_game_fonts import make_cff_font
    make_cff_font(tmp_path / "Box.otf")
    checked = fonts._checked_font(tmp_path / "Box.otf", fonts.file_signature(tmp_path / "Box.otf"))
    assert isinstance(checked, Path)
    library = FontLibrary({"box": fonts.FamilySource("box", checked)})
    regular, bold, black = (library.face("box", weight) for weight in ("regular", "bold", "black"))
    assert not regular.synthetic_bold and bold.synthetic_bold and black.synthetic_bold
    widths = []
    for face in (regular, bold, black):
        # what is embedded: the glyphs drawn, cut from the source and emboldened as the document is written
        gid = shape(face, "A").gids[0]
        with TTFont(io.BytesIO(subset_program(hb_font(face.path), [gid]))) as font:
            glyph = font["glyf"][font.getGlyphOrder()[gid]]
            glyph.recalcBounds(font["glyf"])
            widths.append(glyph.xMax - glyph.xMin)
            # in place: the advance stays, so the text's width does
            assert font["hmtx"][font.getGlyphOrder()[gid]][0] == 600 == round(shape(face, "A").width * 1000)
    # the box is 500 units wide; bold and black strokes grow by 0.04 and 0.065 em
    assert widths[0] == 500 and widths[0] < widths[1] < widths[2], widths
    assert abs(widths[1] - 540) <= 2 and abs(widths[2] - 565) <= 2, widths
