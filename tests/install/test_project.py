"""pnp outside its repository: projects (pnp.yaml), template lookup, --only and its stamps,
languages read and rebuilt apart, and a start-up that loads nothing it does not use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import Problems
from generator.project import shared_templates
from generator.targets import load_games
from tests.pdf_probe import open_pdf

MM = 72 / 25.4


def pnp(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def game(tmp_path, monkeypatch):
    """A `pnp new` game in an empty folder outside the repository (the current folder)."""
    monkeypatch.chdir(tmp_path)
    assert pnp("new", "mygame").exit_code == 0
    return tmp_path / "mygame"


def text_of(path: Path, page: int = 0) -> str:
    return open_pdf(path)[page].get_textpage().get_text_range()


def stamp(target: Path) -> dict:
    return json.loads((target / ".pnp-build.json").read_text())


def test_only_cards_writes_cards_and_keeps_what_it_skipped(game, tmp_path):
    target = tmp_path / "output" / "mygame" / "standard" / "en"
    assert pnp("build", "mygame", "--paper", "a4", "--only", "cards", "-q").exit_code == 0
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()) == \
        [".pnp-build.json", "a4/cards.pdf"]
    assert stamp(target)["covers"] == ["a4/cards"]
    again = pnp("build", "mygame", "--paper", "a4", "--only", "cards")
    assert "1 target(s) up to date" in again.output
    full = pnp("build", "mygame", "--paper", "a4", "-q")     # the --only stamp is not trusted for more
    assert full.exit_code == 0 and (target / "print-shop" / "cards.pdf").is_file()
    assert (target / "a4" / "kit.pdf").is_file() and "a4/kit" in stamp(target)["covers"]
    shop_before = (target / "print-shop" / "cards.pdf").read_bytes()
    catalog = game / "i18n" / "en.yaml"
    catalog.write_text(catalog.read_text().replace("First card", "Opening card"))
    assert pnp("build", "mygame", "--paper", "a4", "--only", "cards", "-q").exit_code == 0
    assert "Opening card" in text_of(target / "a4" / "cards.pdf")
    # skipped outputs stay where they are, untouched, and are no longer listed as made from these inputs
    assert (target / "print-shop" / "cards.pdf").read_bytes() == shop_before
    assert (target / "a4" / "kit.pdf").is_file() and len(list((target / "print-shop" / "png").rglob("*.png"))) == 10
    written = stamp(target)
    assert written["covers"] == ["a4/cards"] and set(written["files"]) == {"a4/cards.pdf"}
    assert "print-shop/cards.pdf" in written["older"]
    rebuilt = pnp("build", "mygame", "--paper", "a4", "--json")
    files = json.loads(rebuilt.output)["files"]
    assert any(name.endswith("print-shop/cards.pdf") for name in files)
    assert "Opening card" in text_of(target / "print-shop" / "cards.pdf")
    assert "print-shop" in stamp(target)["covers"] and stamp(target)["older"] == []


def test_only_names_are_checked(game):
    result = pnp("build", "mygame", "--only", "cards,posters")
    assert result.exit_code == 2 and "unknown output 'posters'" in result.output and "print-shop" in result.output


def test_a_french_edit_rebuilds_french_only_and_lang_reads_only_its_catalogs(game):
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("languages: [en]",
                                                                             "languages: [en, fr, de]"))
    english = (game / "i18n" / "en.yaml").read_text()
    (game / "i18n" / "de.yaml").write_text(english.replace("\nen:", "\nde:"))
    assert pnp("check", "mygame", "--lang", "de").exit_code == 0          # no French catalog needed
    missing = pnp("check", "mygame")
    assert missing.exit_code == 1 and "mygame/i18n/fr.yaml: no catalog for language 'fr'" in missing.output
    (game / "i18n" / "fr.yaml").write_text(english.replace("\nen:", "\nfr:"))
    assert pnp("build", "mygame", "--paper", "a4", "--only", "cards", "-q").exit_code == 0
    (game / "i18n" / "fr.yaml").write_text(english.replace("\nen:", "\nfr:").replace("First card", "Première"))
    report = json.loads(pnp("build", "mygame", "--paper", "a4", "--only", "cards", "--json").output)
    assert [row["target"] for row in report["targets"]] == ["mygame/standard/fr"]
    assert sorted(report["up_to_date"]) == ["mygame/standard/de", "mygame/standard/en"]


def test_a_missing_key_is_reported_where_it_is_used(game):
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("title: game.title",
                                                                             "title: game.titel"))
    cards = (game / "cards.yaml").read_text()
    (game / "cards.yaml").write_text(cards.replace("cards.second.rule", "cards.second.rul"))
    result = pnp("check", "mygame")
    line = next(number for number, text in enumerate(cards.split("\n"), 1) if "cards.second.rule" in text)
    column = cards.split("\n")[line - 1].index("cards.second.rule") + 1
    assert f"mygame/cards.yaml:{line}:{column}: missing translation key 'cards.second.rul' for language 'en' " \
           "(in mygame/i18n/en.yaml)" in result.output
    assert "mygame/game.yaml:5:8: missing translation key 'game.titel'" in result.output


def test_templates_come_from_the_game_then_the_project_then_pnp(game, tmp_path):
    # a templates/ folder above a game that is not its project's is not read
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "poker-card.yaml").write_text("size: {width: 10mm}\nboxes: nonsense\n")
    assert pnp("check", "mygame").exit_code == 0
    problems = Problems()
    source, = load_games([game], problems)
    shipped = shared_templates() / "poker-card.yaml"
    assert source.templates.files["poker-card"] == shipped
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "poker-card.yaml").write_text(shipped.read_text().replace("width: 63mm", "width: 70mm"))
    (tmp_path / "pnp.yaml").write_text("games: [.]\ntemplates: shared\npapers: [a4]\n")
    assert pnp("build", "mygame", "--only", "print-shop", "-q").exit_code == 0
    page = open_pdf(tmp_path / "output" / "mygame" / "standard" / "en" / "print-shop" / "cards.pdf")[0]
    trim = page.get_trimbox()
    assert (trim[2] - trim[0]) / MM == pytest.approx(70, abs=0.1)      # the project's poker card
    (game / "templates" / "poker-card.yaml").write_text(shipped.read_text().replace("width: 63mm", "width: 66mm"))
    assert pnp("build", "mygame", "--only", "print-shop", "-q").exit_code == 0
    page = open_pdf(tmp_path / "output" / "mygame" / "standard" / "en" / "print-shop" / "cards.pdf")[0]
    trim = page.get_trimbox()
    assert (trim[2] - trim[0]) / MM == pytest.approx(66, abs=0.1)      # the game's own wins


def _back_name_x(path: Path) -> float:
    """Where the deck's name on the first backs page starts, in mm from the left."""
    page = open_pdf(path)[1]
    textpage = page.get_textpage()
    index = textpage.get_text_range().index("Card")
    return textpage.get_charbox(index)[0] / MM


def test_a_project_file_gives_folders_defaults_and_printer_profiles(game, tmp_path, monkeypatch):
    (tmp_path / "games").mkdir()
    game.rename(tmp_path / "games" / "mygame")
    (tmp_path / "pnp.yaml").write_text("games: [games]\noutput: built\npapers: [a4]\nprinters:\n"
                                       "  office: {back_offset: [2mm, 0], duplex: long-edge, margin: 5mm}\n"
                                       "  wide: {margin: 25mm}\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")                  # found from a folder below the project's root
    assert pnp("build", "mygame", "--only", "cards", "-q").exit_code == 0
    target = tmp_path / "built" / "mygame" / "standard" / "en"
    assert [p.parent.name for p in target.rglob("cards.pdf")] == ["a4"]
    plain = _back_name_x(target / "a4" / "cards.pdf")
    assert pnp("build", "mygame", "--only", "cards", "--printer", "office", "-q").exit_code == 0
    assert abs(_back_name_x(target / "a4" / "cards.pdf") - plain) == pytest.approx(2.0, abs=0.05)
    assert len(open_pdf(target / "a4" / "cards.pdf")) == 2          # 5 cards: one front page, one back page
    assert pnp("build", "mygame", "--only", "cards", "--printer", "wide", "-q").exit_code == 0
    assert len(open_pdf(target / "a4" / "cards.pdf")) == 4          # 2 × 2 cards inside a 25 mm margin
    unknown = pnp("build", "mygame", "--printer", "attic")
    assert unknown.exit_code == 2 and "no profile 'attic'" in unknown.output and "office" in unknown.output
    (tmp_path / "pnp.yaml").write_text("games: [gamez]\npapers: [a5]\nprinters:\n  office: {back_offset: [40, 0]}\n")
    broken = pnp("check")
    assert broken.exit_code == 1
    assert "pnp.yaml:2:10: papers[0]: got 'a5', expected 'a4' or 'letter'" in broken.output
    assert "pnp.yaml:4:26: printers.office.back_offset[0]: expected a back offset from -10 to 10 mm, got 40" \
        in broken.output
    (tmp_path / "pnp.yaml").write_text("games: [gamez]\nprinter: home\n")
    broken = pnp("check")
    assert "pnp.yaml:1:9: no folder 'gamez' beside pnp.yaml" in broken.output
    assert "pnp.yaml:2:10: no printer profile 'home'" in broken.output


def test_pnp_new_and_pnp_schema_give_every_file_a_schema_that_exists(game, tmp_path):
    for file in sorted(game.rglob("*.yaml")):
        header = file.read_text().split("\n", 1)[0]
        assert (file.parent / header.split("$schema=")[1]).is_file(), file
    copy = tmp_path / "elsewhere" / "copy"
    copy.parent.mkdir()
    game.rename(copy)
    for schema in (copy / "schemas").iterdir():
        schema.unlink()
    assert pnp("schema", str(copy)).exit_code == 0
    for file in sorted(copy.rglob("*.yaml")):
        header = file.read_text().split("\n", 1)[0]
        assert (file.parent / header.split("$schema=")[1]).is_file(), file


HEAVY = ("pydantic", "reportlab", "svglib", "pypdfium2", "PIL", "fontTools")
# What a start costs is counted in modules loaded, not seconds (its processor time, under 0.3 s past a
# bare Python for --help and a no-op build, is timed by tests/benchmarks/bench_budgets.py).
LOADED_AT_EXIT = ("import atexit, sys\n"
                  f"atexit.register(lambda: print(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
                  "sys.argv = ['pnp'] + {args!r}\nfrom generator.__main__ import run\nrun()\n")


def _child(code: str, cwd: Path) -> str:
    """The standard output of a child Python running `code`."""
    result = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_help_and_a_no_op_build_start_fast_and_load_no_drawing_library(game, tmp_path):
    _child(LOADED_AT_EXIT.format(args=["build", "mygame", "--paper", "a4", "-q"]), tmp_path)
    noop = _child(LOADED_AT_EXIT.format(args=["build", "mygame", "--paper", "a4", "--jobs", "1"]), tmp_path)
    assert "up to date" in noop and noop.strip().endswith("[]"), noop
    help_ = _child(LOADED_AT_EXIT.format(args=["--help"]), tmp_path)
    assert help_.strip().endswith("[]"), help_
