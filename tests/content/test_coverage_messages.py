"""Characters no font has: `pnp check` says so once per language and script, never once per character.

Each message names how many characters are missing and a sample, where the first is used (file:line)
and in how many keys, and the fix: the font to add to the stack, the CJK extra to install, or the one
font_files line that ships a font of the game's own. (A Greek catalog with a stack lacking Greek
gave 889 messages; an Arabic, Hebrew, Hindi, Japanese or Thai one 21–28 each.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.text import fonts
from tests.test_content_errors import EN, GAME, make_game, pnp

GREEK = ("Δύναμη του λιμανιού", "Ο παίκτης παίρνει δύο κάρτες", "Ζυγός, ψυχή, ξένος, φως, χθες, βήμα",
         "Ήρθε η ώρα: όλοι οι παίκτες ρίχνουν ζάρια", "Θησαυρός και ΰψος")
SCRIPTS = {   # language: (a text, the script the message names, the family that has it)
    "ar": ("بطاقة القوة: خذ بطاقتين", "Arabic", "noto-sans-arabic"),
    "he": ("כרטיס כוח: קח שני קלפים", "Hebrew", "heebo"),
    "hi": ("शक्ति कार्ड: दो कार्ड लें", "Devanagari", "noto-sans-devanagari"),
    "ja": ("力のカード。二枚引く「港」", "CJK", "noto-sans-cjk"),
    "th": ("การ์ดพลัง จั่วการ์ดสองใบ", "Thai", "noto-sans-thai"),
}


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)      # messages name the game's files as g/…


def game(tmp_path: Path, langs: dict[str, list[str]], stack: str | None = "[nunito]") -> Path:
    """A game of one card per text, in each language of `langs` (its texts); `stack`: game.yaml's body stack."""
    head = GAME.replace("languages: [en]", f"languages: [{', '.join(langs)}]")
    head = head.replace("  body: [nunito, inter]\n", f"  body: {stack}\n") if stack else \
        head.replace("fonts:\n  body: [nunito, inter]\n", "")
    count = max(len(texts) for texts in langs.values())
    cards = "decks:\n  - id: cards\n    name: deck.cards\n    template: card\n    back: back\n    cards:\n" + "".join(
        f"      - {{id: c{index}, count: 1, fields: {{name: cards.c{index}, art: art/star.svg}}}}\n"
        for index in range(count))
    files = {"game.yaml": head, "cards.yaml": cards}
    for lang, texts in langs.items():
        entries = "".join(f'    c{index}: "{texts[index % len(texts)]}"\n' for index in range(count))
        files[f"i18n/{lang}.yaml"] = EN.replace("en:", f"{lang}:", 1).replace('    star: "Star"\n', entries)
    return make_game(tmp_path, files).relative_to(tmp_path)


def errors(output: str) -> list[tuple[str, str]]:
    """Each error line of `pnp check` with the hint under it."""
    lines = output.splitlines()
    return [(line, lines[index + 1] if index + 1 < len(lines) and lines[index + 1].startswith("    hint:") else "")
            for index, line in enumerate(lines) if re.match(r"^\S+:\d+:\d+: ", line)]


def test_a_greek_catalog_on_a_stack_without_greek_is_one_message(tmp_path):
    folder = game(tmp_path, {"en": ["Star"], "el": list(GREEK) * 12})        # 60 keys, 40-odd letters
    result = pnp("check", str(folder))
    assert result.exit_code == 1
    found = errors(result.output)
    assert len(found) == 1, result.output
    line, hint = found[0]
    letters = {char for text in GREEK for char in text if char.isalpha()}
    assert line.startswith("g/i18n/el.yaml:8:9: language 'el': no font of the stack (nunito) has "
                           f"{len(letters)} Greek characters: "), line
    assert " and " in line and "more; used in 60 keys, the first 'cards.c0' (deck cards, card c0)" in line, line
    # Inter is the default stack's Greek; Nunito's Δ, Σ, Ω, μ, π would split every word, so they count as missing
    assert hint == "    hint: add 'inter' to the font stack 'body' in game.yaml fonts: it has them (so do 'noto-sans')"


def test_each_language_of_another_script_is_one_message_naming_its_font(tmp_path):
    folder = game(tmp_path, {"en": ["Star"], **{lang: [text] * 3 for lang, (text, _, _) in SCRIPTS.items()}})
    result = pnp("check", str(folder))
    found = errors(result.output)
    assert len(found) == len(SCRIPTS), result.output
    for lang, (text, script, family) in SCRIPTS.items():
        (line, hint), = [(line, hint) for line, hint in found if line.startswith(f"g/i18n/{lang}.yaml:")]
        letters = {char for char in text if not char.isspace() and char not in ":"}
        assert f"language '{lang}': no font of the stack (nunito) has {len(letters)} {script} characters: " in line
        assert "used in 3 keys, the first 'cards.c0'" in line, line
        assert hint.startswith(f"    hint: add '{family}' to the font stack 'body' in game.yaml fonts: it has them")


def test_with_the_default_stack_every_script_checks_clean(tmp_path):
    folder = game(tmp_path, {"en": ["Star"], "el": list(GREEK), "tr": ["İstanbul ılık şehir"],
                             **{lang: [text] for lang, (text, _, _) in SCRIPTS.items()}}, stack=None)
    result = pnp("check", str(folder))
    assert result.exit_code == 0, result.output
    assert "no font" not in result.output


@pytest.fixture
def without_cjk(monkeypatch):
    """pnp as installed without the cjk extra: the Noto Sans CJK package is not there."""
    real = fonts._package_file
    monkeypatch.setattr(fonts, "_package_file",
                        lambda package, parts: None if package == "noto_cjk_sans_otc" else real(package, parts))


def test_japanese_without_the_cjk_extra_names_the_extra_and_the_font_files_line(tmp_path, without_cjk):
    folder = game(tmp_path, {"en": ["Star"], "ja": [SCRIPTS["ja"][0]] * 4}, stack=None)
    result = pnp("check", str(folder))
    assert result.exit_code == 1
    (line, hint), = errors(result.output)
    assert line.startswith("g/i18n/ja.yaml:8:9: language 'ja': no font of the default stack has 13 CJK characters: "
                           "'力' U+529B, 'の' U+306E, 'カ' U+30AB, 'ー' U+30FC, 'ド' U+30C9, '二' U+4E8C, "
                           "'枚' U+679A, '引' U+5F15 and 5 more; used in 4 keys"), line
    assert 'pip install "pnp-generator[cjk]"' in hint, hint
    assert "font_files: {cjk: {regular: fonts/NotoSansCJK-Regular.ttc, face: \"Noto Sans CJK JP\"}}" in hint, hint


def test_a_stack_naming_the_cjk_family_without_the_extra_asks_for_it_only_where_text_needs_it(tmp_path, without_cjk):
    # `pnp new` writes the default stack, CJK family and all, into game.yaml: without the extra it sets nothing
    folder = game(tmp_path, {"en": ["Star"]}, stack="[nunito, noto-sans-cjk]")
    result = pnp("check", str(folder))
    assert result.exit_code == 0, result.output
    folder = game(tmp_path, {"en": ["Star 港"]}, stack="[nunito, noto-sans-cjk]")
    result = pnp("check", str(folder))
    (line, hint), = errors(result.output)
    assert line == ("g/i18n/en.yaml:8:9: language 'en': no font of the stack (nunito) has the CJK character '港' "
                    "U+6E2F, used in 'cards.c0' (deck cards, card c0)")
    assert 'pip install "pnp-generator[cjk]"' in hint, hint


def test_characters_no_installed_font_has_ask_for_a_font_of_the_games_own(tmp_path):
    folder = game(tmp_path, {"en": ["Star ᏣᎳᎩ", "ᎠᏍᎦᏯ and ᚠᚢᚦ"]}, stack=None)       # Cherokee and runes
    result = pnp("check", str(folder))
    found = errors(result.output)
    assert sorted(line.split(": no font")[0] for line, _ in found) == [
        "g/i18n/en.yaml:8:9: language 'en'", "g/i18n/en.yaml:9:9: language 'en'"]     # where each script is first
    cherokee, runic = sorted(found, key=lambda pair: "Runic" in pair[0])
    assert "has 7 Cherokee characters: 'Ꮳ' U+13E3, 'Ꮃ' U+13B3, 'Ꭹ' U+13A9, 'Ꭰ' U+13A0" in cherokee[0], cherokee
    assert "used in 2 keys, the first 'cards.c0'" in cherokee[0]
    assert "has 3 Runic characters: 'ᚠ' U+16A0, 'ᚢ' U+16A2, 'ᚦ' U+16A6; used in 'cards.c1'" in runic[0], runic
    assert cherokee[1] == ("    hint: ship a font that has them: one line in game.yaml, font_files: {myfont: {regular: "
                           "fonts/MyFont.ttf}} (a family of font_files that no stack names sets what the stacks "
                           "lack), or use other characters")


def test_an_import_whose_units_hold_a_script_no_font_has_is_one_message_per_script(tmp_path):
    folder = game(tmp_path, {"en": ["One", "Two", "Three"], "el": ["One", "Two", "Three"]})
    result = pnp("i18n", "export", str(folder), "--lang", "el", "--format", "po", "--out", "x")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "x" / "g.el.po").read_text(encoding="utf-8")
    for english, greek in (("One", "Δύναμη"), ("Two", "Λιμάνι"), ("Three", "Ψυχή")):
        assert f'msgstr "{english}"' in text
        text = text.replace(f'msgstr "{english}"', f'msgstr "{greek}"')
    (tmp_path / "g.el.po").write_text(text, encoding="utf-8")
    before = (folder / "i18n" / "el.yaml").read_bytes()
    result = pnp("i18n", "import", str(folder), "g.el.po")
    assert result.exit_code == 1
    found = errors(result.output)
    assert len(found) == 1, result.output
    line, hint = found[0]
    assert re.match(r"g\.el\.po:\d+:1: unit 'cards\.c0' holds U\+0394, U\+03CD, U\+03BD, U\+03B1, U\+03BC, U\+03B7, "
                    r"which no font of box 'name' of template 'card' has \(nunito\): `pnp check` would refuse it; "
                    r"so do 2 more units \(lines \d+, \d+\)$", line), line
    assert hint == "    hint: add 'inter' to the font stack in game.yaml fonts: it has them (so do 'noto-sans')"
    assert (folder / "i18n" / "el.yaml").read_bytes() == before
