"""PO exports that survive GNU gettext's own tools, and fonts told exactly (issue 33, items 1 and 5).

msgmerge and msgcat keep only the flags gettext knows: every Weblate flag (max-size, font-*,
placeholders) is dropped. The export says them again in an extracted comment, which both keep; import
reads the flags first, else that comment. The tests run the real tools on a tiny game's export and read
the limits back; they check that msgfmt -c accepts every export without a word, and that Weblate is
told the face that prints (and, where Pango is installed, measure with Pango as Weblate's size check
does).
"""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from generator.i18n.po import WEBLATE_FLAGS, read_po
from tests.i18n.tiny_games import write_game
from tests.test_content_errors import pnp

GETTEXT = all(shutil.which(tool) for tool in ("msgmerge", "msgcat", "msgfmt"))
needs_gettext = pytest.mark.skipif(not GETTEXT, reason="GNU gettext's msgmerge, msgcat and msgfmt are not installed")

GAME = """\
id: g
title: game.title
languages: [en, ru]
editions:
  standard: {name: game.edition}
fonts:
  body: [nunito, inter, noto-sans-georgian]
"""

CARDS = """\
decks:
  - id: cards
    name: deck.cards
    template: card
    back: back
    cards:
      - id: star
        count: 1
        fields: {name: cards.star, rule: cards.gain, n: 3}
"""

# the name in Black, the rule in Regular: the two faces Weblate must be told apart
CARD = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
styles:
  title: {font: body, size: 12pt, min_size: 8pt, weight: black, color: "#222222"}
  body: {font: body, size: 10pt, min_size: 8pt, color: "#222222"}
boxes:
  paper: {kind: rect, area: bleed, fill: "#f4ecd8"}
  name: {kind: text, text: "@name", x: 5, y: 60, width: 53, height: 10, style: title}
  rule: {kind: text, text: "@rule", count: "@n", x: 5, y: 72, width: 53, height: 8, style: body}
"""

BACK = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
boxes:
  paper: {kind: rect, area: bleed, fill: "#335577"}
"""

EN = """\
en:
  game:
    title: "Test game"
    edition: "Standard"
  deck:
    cards: "Cards"
  cards:
    star: "Star"
    gain:
      one: "Gain {count} star"
      other: "Gain {count} stars"
"""

RU = """\
ru:
  game:
    title: "Тестовая игра"
    edition: "Стандарт"
  deck:
    cards: ""
  cards:
    star: "Звезда"
    gain:
      one: "Получите {count} звезду"
      few: "Получите {count} звезды"
      many: "Получите {count} звёзд"
      other: "Получите {count} звезды"
"""

KA = """\
ka:
  game:
    title: "სატესტო თამაში"
    edition: "სტანდარტული"
  deck:
    cards: "ბარათები"
  cards:
    star: "ვარსკვლავი"
    gain:
      one: "მიიღე {count} ვარსკვლავი"
      other: "მიიღე {count} ვარსკვლავი"
"""

FILES = {"game.yaml": GAME, "cards.yaml": CARDS, "i18n/en.yaml": EN, "i18n/ru.yaml": RU, "i18n/ka.yaml": KA,
         "templates/card.yaml": CARD, "templates/back.yaml": BACK}
WIDTH_PT = math.floor(53 / 25.4 * 72)          # both boxes: 150 pt inside (no padding)
LINES = math.floor(10 / (8 * 1.2 * 25.4 / 72))  # the name's 10 mm at 8 pt and 1.2 leading: 2


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tiny game in tmp_path/g; the tests run from tmp_path."""
    return write_game(tmp_path, monkeypatch, FILES)


def export(lang: str, out: str = "x") -> Path:
    result = pnp("i18n", "export", "g", "--lang", lang, "--format", "po", "--out", out)
    assert result.exit_code == 0, result.output
    return Path(out) / f"g.{lang}.po"


def weblate_flags_as_gettext_reads_them(file: Path) -> dict[str, list[str]]:
    """Each unit's Weblate flags on its `#,` line, read by polib (not pnp's reader)."""
    return {entry.msgctxt: [flag for flag in entry.flags if flag.startswith(WEBLATE_FLAGS)]
            for entry in polib.pofile(str(file)) if any(flag.startswith(WEBLATE_FLAGS) for flag in entry.flags)}


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


@needs_gettext
def test_msgmerge_drops_the_flags_and_import_reads_every_limit_from_the_comments(game: Path) -> None:
    # a translator's file from an earlier export, translated since (deck.cards)
    old = export("ru", "old")
    translated = old.read_text(encoding="utf-8").replace('msgid "Cards"\nmsgstr ""', 'msgid "Cards"\nmsgstr "Карты"')
    assert translated != old.read_text(encoding="utf-8")
    old.write_text(translated, encoding="utf-8")
    new = export("ru", "new")          # the template msgmerge updates the translator's file from
    exported = weblate_flags_as_gettext_reads_them(new)
    assert set(exported) == {"cards.star", "cards.gain"}
    assert any(flag.startswith("max-size:") for flag in exported["cards.star"])
    assert 'placeholders:"{count}"' in exported["cards.gain"]

    run("msgmerge", "--quiet", "-o", "merged.po", old, new)
    merged = Path("merged.po")
    assert weblate_flags_as_gettext_reads_them(merged) == {}       # gettext dropped every one of them
    assert "python-brace-format" in merged.read_text(encoding="utf-8")   # a flag gettext knows stays
    read = read_po(merged.read_bytes())
    assert {key: list(checks.flags) for key, checks in read.checks.items()} == exported
    assert {checks.where for checks in read.checks.values()} == {"comment"}

    result = pnp("i18n", "import", "g", "merged.po")
    assert result.exit_code == 0, result.output
    assert "g/i18n/ru.yaml: 1 translation(s) written" in result.output
    assert "2 of 2 units' size limits and placeholder checks read from their extracted comments" in result.output
    assert 'cards: "Карты"' in (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")


@needs_gettext
def test_msgcat_keeps_every_limit_in_the_comments(game: Path) -> None:
    new = export("ru")
    exported = weblate_flags_as_gettext_reads_them(new)
    run("msgcat", "-o", "cat.po", new)
    assert weblate_flags_as_gettext_reads_them(Path("cat.po")) == {}
    read = read_po(Path("cat.po").read_bytes())
    assert {key: list(checks.flags) for key, checks in read.checks.items()} == exported
    # the file as exported: the flags are read from the `#,` line itself, and import says nothing of comments
    assert {checks.where for checks in read_po(new.read_bytes()).checks.values()} == {"flags"}
    result = pnp("i18n", "import", "g", str(new))
    assert result.exit_code == 0, result.output
    assert "extracted comments" not in result.output


@needs_gettext
@pytest.mark.parametrize("lang", ["ru", "en", "ka", "fr", "ar", "ja"])
def test_msgfmt_check_accepts_every_export_without_a_warning(game: Path, lang: str) -> None:
    file = export(lang)
    checked = run("msgfmt", "-c", "--check-format", "-o", "/dev/null", file)
    assert checked.stderr == ""       # before: 3 warnings, PO-Revision-Date, Last-Translator, Language-Team missing
    header = polib.pofile(str(file)).metadata
    assert header["PO-Revision-Date"] == header["POT-Creation-Date"] == "2000-01-01 00:00+0000"
    assert (header["Last-Translator"], header["Language-Team"]) == ("Automatically generated", "none")
    first = file.read_bytes()
    assert export(lang).read_bytes() == first         # the same catalogs, the same bytes


def test_weblate_is_told_the_face_that_prints(game: Path) -> None:
    text = export("ru").read_text(encoding="utf-8")
    entries = {entry.msgctxt: entry for entry in polib.pofile(text)}
    # the name prints in Nunito Black: its group, no font-weight (told "bold", Weblate takes a Bold face)
    name = entries["cards.star"]
    width = math.floor(WIDTH_PT * 96 / 72)        # Weblate's pixels: its Pango lays out at 96 dpi
    assert [flag for flag in name.flags if flag.startswith("font-") or flag.startswith("max-size")] == [
        f"max-size:{width}:{LINES}", "font-family:Nunito-Black", "font-size:8"]
    assert "at 8 pt in Nunito Black, weight 900" in name.comment
    # the rule prints in Nunito Regular
    assert {"font-family:Nunito-Regular", "font-weight:normal"} <= set(entries["cards.gain"].flags)
    # the header names each group and the face it must hold
    assert "#   Nunito-Black: Nunito Black, weight 900\n" in text
    assert "#   Nunito-Regular: Nunito Regular, weight 400\n" in text
    # Georgian letters print in Noto Sans Georgian, whose weights stop at 700: Black prints in its Bold
    georgian = {entry.msgctxt: entry for entry in polib.pofile(export("ka").read_text(encoding="utf-8"))}
    assert {"font-family:NotoSansGeorgian-Bold", "font-weight:bold"} <= set(georgian["cards.star"].flags)
    assert "Noto Sans Georgian Bold, weight 700" in georgian["cards.star"].comment


# Weblate's max-size check as Weblate runs it: a Pango layout on PangoCairo's font map (the font size in
# points, the width in pixels), the font group's face by its family and style, font-weight set when
# flagged (weblate/fonts/utils.py render_size). Run by a Python that has PyGObject and Pango.
PANGO = """
import json, os, sys
import gi
gi.require_version("Pango", "1.0"); gi.require_version("PangoCairo", "1.0")
from gi.repository import Pango, PangoCairo
font, weight, size, text = json.loads(sys.argv[1])
fontmap = PangoCairo.FontMap.get_default()
layout = Pango.Layout.new(fontmap.create_context())
description = Pango.FontDescription.from_string(font)
description.set_size(size * Pango.SCALE)
if weight:
    description.set_weight({"normal": Pango.Weight.NORMAL, "bold": Pango.Weight.BOLD}[weight])
layout.set_font_description(description)
layout.set_text(text, -1)
print(json.dumps([layout.get_pixel_size().width, fontmap.get_resolution()]))
"""


def pango_python() -> str | None:
    for python in ("/usr/bin/python3", shutil.which("python3")):
        if python and subprocess.run([python, "-c", "import gi; gi.require_version('PangoCairo', '1.0'); "
                                      "from gi.repository import PangoCairo"], capture_output=True).returncode == 0:
            return python
    return None


@pytest.mark.skipif(pango_python() is None, reason="no Python with PyGObject and Pango (Weblate's renderer)")
def test_weblate_measures_the_exported_face_at_the_exported_width(game: Path, tmp_path: Path) -> None:
    import json

    import uharfbuzz as hb
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    from generator.text.fonts import FontLibrary
    library = FontLibrary()
    fonts = tmp_path / "weblate-fonts"        # what a Weblate admin uploads: the static faces
    fonts.mkdir()
    for weight, style in ((700, "Bold"), (900, "Black")):
        instancer.instantiateVariableFont(TTFont(library.families["nunito"].upright), {"wght": weight},
                                          updateFontNames=True).save(fonts / f"Nunito-{style}.ttf")
    (tmp_path / "fonts.conf").write_text(f'<?xml version="1.0"?><fontconfig><dir>{fonts}</dir>'
                                         f'<cachedir>{tmp_path / "fc-cache"}</cachedir></fontconfig>')
    flags = dict(flag.split(":", 1) for flag in polib.pofile(str(export("ru"))).find("Star", by="msgid").flags
                 if flag.startswith(("font-", "max-size")))
    assert flags == {"font-family": "Nunito-Black", "font-size": "8", "max-size": f"{flags['max-size'][:-2]}:2"}
    pixels_per_point = int(flags["max-size"].split(":")[0]) / WIDTH_PT      # the export's: box width → max-size
    text, size = "Christmas Round", 40         # large: Pango's whole pixels say the ratio to 0.5 %

    def pango(weight: str | None) -> float:
        face = flags["font-family"].replace("-", " ")       # the group holds the face 'Nunito Black'
        measured = subprocess.run([pango_python(), "-c", PANGO, json.dumps([face, weight, size, text])],
                                  capture_output=True, text=True, check=True,
                                  env={"FONTCONFIG_FILE": str(tmp_path / "fonts.conf"), "PATH": "/usr/bin:/bin"})
        width, resolution = json.loads(measured.stdout)
        assert resolution == 96
        return width

    font = hb.Font(hb.Face(hb.Blob.from_file_path(str(library.face("nunito", "black").path))))
    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    hb.shape(font, buffer)
    printed = sum(position.x_advance for position in buffer.glyph_positions) / font.face.upem * size  # pt
    # the face that prints, and the box's width in Weblate's pixels: the text takes as much of it there
    assert pango(None) == pytest.approx(printed * pixels_per_point, rel=0.01)
    assert pango("bold") < pango(None) * 0.98        # told bold (as before), Weblate took the narrower Bold
