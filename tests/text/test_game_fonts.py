"""A game's own fonts: a CFF-flavoured OTF is converted, used first in the stack, and embedded."""

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen

from generator.build import BuildOptions, build
from tests.pdf_probe import all_text, font_report

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def make_cff_font(path: Path) -> None:
    """A tiny OpenType font with PostScript (CFF) outlines: a box for each capital letter."""
    names = [".notdef", "space", *LETTERS]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({32: "space", **{ord(c): c for c in LETTERS}})
    charstrings = {}
    for name in names:
        pen = T2CharStringPen(600, None)
        if name != "space":
            pen.moveTo((50, 0))
            pen.curveTo((50, 300), (100, 700), (300, 700))
            pen.lineTo((550, 700))
            pen.lineTo((550, 0))
            pen.closePath()
        charstrings[name] = pen.getCharString()
    builder.setupCFF("BoxSans-Regular", {"FullName": "Box Sans"}, charstrings, {})
    builder.setupHorizontalMetrics({name: (600, 50) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Box Sans", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.save(str(path))


def test_a_games_cff_font_is_converted_used_and_embedded(tmp_path):
    game = tmp_path / "content" / "g"
    (game / "fonts").mkdir(parents=True)
    (game / "i18n").mkdir()
    (game / "templates").mkdir()
    make_cff_font(game / "fonts" / "BoxSans.otf")
    (game / "game.yaml").write_text(
        "id: g\ntitle: t\nlanguages: [en]\neditions: {standard: {name: t}}\n"
        "font_files: {box: {regular: fonts/BoxSans.otf}}\n"
        "fonts: {body: [box, nunito]}\n")
    (game / "i18n" / "en.yaml").write_text('en:\n  t: "HELLO wörld"\n')
    (game / "templates" / "card.yaml").write_text(
        "size: {width: 63mm, height: 88mm}\nbleed: 3mm\nsafe: 4mm\n"
        "styles: {s: {font: body, size: 12pt}}\n"
        "boxes: {title: {kind: text, text: t, x: 5, y: 5, width: 53, height: 20, style: s}}\n")
    (game / "cards.yaml").write_text(
        "decks:\n  - {id: d, name: t, template: card, back: card, cards: [{id: c}]}\n")
    build([game], BuildOptions(out=tmp_path / "out", papers=("a4",), print_shop_png=False))
    pdf = tmp_path / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf"
    fonts = font_report(pdf)
    assert any("Box-Sans" in name for name in fonts), fonts     # capitals from the game's font
    assert any("Nunito" in name for name in fonts), fonts      # lower case falls back to the stack
    assert all(fonts.values())
    assert "HELLO wörld" in all_text(pdf)
