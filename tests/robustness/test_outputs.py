"""Outputs are replaced whole or not at all, and a no-op build trusts only what it verified.

Every case measures the real files: a failing or blocked build must leave each target exactly
as a clean build of the old or (after the next build) the new content writes it, byte for byte;
outputs a build no longer makes are removed, and nothing else is. The killed and interrupted
builds are in tests/robustness/test_outputs_killed.py (a file of their own: the slowest cases,
so pytest-xdist's --dist loadfile can run them on one worker while this file runs on the other).
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

import generator.write as write_module
from generator.cli import main
from generator.files import STAGING_PREFIX
from generator.incremental import STAMP
from generator.write import DrawFailure
from tests.robustness.harness import run_pnp
from tests.test_content_errors import EN, GAME, make_game

ROOT = Path(__file__).resolve().parents[2]


def cards_game(tmp_path: Path, cards: int = 3, name: str = "Star", languages=("en",), **extra: str) -> Path:
    """The minimal game with `cards` distinct cards (each its own face and PNG) named '<name> <i>'."""
    deck = "decks:\n  - id: cards\n    name: deck.cards\n    template: card\n    back: back\n" \
           + extra.pop("deck_extra", "") + "    cards:\n"
    for index in range(cards):
        deck += f"      - id: c{index}\n        count: 1\n        fields: {{name: cards.c{index}, art: art/star.svg}}\n"
    files = {"cards.yaml": deck, "game.yaml": GAME.replace("languages: [en]", f"languages: [{', '.join(languages)}]")}
    names = "".join(f'    c{index}: "{name} {index}"\n' for index in range(cards))
    for lang in languages:
        files[f"i18n/{lang}.yaml"] = EN.replace("en:", f"{lang}:", 1).replace('    star: "Star"\n', names)
    files.update(extra)
    return make_game(tmp_path, files)


def pnp(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def build(game: Path, out: Path, *more: str):
    return pnp("build", str(game), "--out", str(out), "--jobs", "1", *more)


def snapshot(out: Path) -> dict[str, bytes]:
    """Every file under the output folder, by relative path."""
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}


def without_digests(files: dict[str, bytes]) -> dict[str, bytes]:
    """A snapshot with each stamp reduced to the files it lists: the digest covers the engine's source,
    which may change while a long test runs (other work in the same tree)."""
    return {name: json.dumps(json.loads(data)["files"]).encode() if name.endswith(STAMP) else data
            for name, data in files.items()}


def assert_same_outputs(out: Path, reference: dict[str, bytes]) -> None:
    now, reference = without_digests(snapshot(out)), without_digests(reference)
    assert sorted(now) == sorted(reference)
    for name, data in reference.items():
        assert now[name] == data, f"{name} differs from a clean build"


# ------------------------------------------------------------- a failure while drawing

def test_a_target_failing_while_drawing_replaces_nothing_in_any_target(tmp_path, monkeypatch):
    out = tmp_path / "out"
    game = cards_game(tmp_path, languages=("en", "de"))
    assert build(game, out).exit_code == 0
    before = snapshot(out)
    for lang in ("en", "de"):                       # new content: every file would change
        catalog = game / "i18n" / f"{lang}.yaml"
        catalog.write_text(catalog.read_text().replace("Star", "Comet"))
    render_pdf = write_module.render_pdf

    def failing_for_de(document, *settings):
        if " de " in document.title and document.title.endswith("cards"):
            raise ValueError("cannot draw this value")
        return render_pdf(document, *settings)
    monkeypatch.setattr(write_module, "render_pdf", failing_for_de)
    result = build(game, out)
    assert result.exit_code == 1
    assert f"{out}/g/standard/de: could not draw a4/cards.pdf: cannot draw this value" in result.output
    assert "nothing was written" in result.output
    assert snapshot(out) == before                  # the en target, drawn fine, was not swapped in either


FAILING_RENDERER = """
import generator.write as write
_render_pdf = write.render_pdf
def _failing_for_de(document, *settings):
    if " de " in document.title and document.title.endswith("cards"):
        raise ValueError("cannot draw this value")
    return _render_pdf(document, *settings)
write.render_pdf = _failing_for_de
"""


def test_a_target_failing_in_a_worker_process_replaces_nothing_in_any_target(tmp_path):
    """The same through the worker pool: the renderer is broken in every process by a sitecustomize."""
    out = tmp_path / "out"
    game = cards_game(tmp_path, languages=("en", "de"))
    assert build(game, out).exit_code == 0
    before = snapshot(out)
    for lang in ("en", "de"):
        catalog = game / "i18n" / f"{lang}.yaml"
        catalog.write_text(catalog.read_text().replace("Star", "Comet"))
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(FAILING_RENDERER)
    path = os.pathsep.join([str(tmp_path / "hook"), str(ROOT), os.environ.get("PYTHONPATH", "")])
    run = run_pnp("build", str(game), "--out", str(out), "--jobs", "2", cwd=ROOT, env={"PYTHONPATH": path})
    run.assert_clean(1)
    assert f"{out}/g/standard/de: could not draw a4/cards.pdf: cannot draw this value\n" in run.output
    assert snapshot(out) == before


def test_a_drawing_failure_crosses_from_a_worker_process_intact():
    failure = pickle.loads(pickle.dumps(DrawFailure(("g", "standard", "de"), "a4/cards.pdf", "bad value")))
    assert (failure.target, failure.file, failure.reason) == (("g", "standard", "de"), "a4/cards.pdf", "bad value")


# ------------------------------------------------------------- outputs no longer made

def test_outputs_a_build_no_longer_makes_are_removed_and_nothing_else(tmp_path):
    out = tmp_path / "out"
    saver = {"game.yaml": GAME.replace("standard: {name: game.edition}",
                                       "standard: {name: game.edition, ink_saver: true}"),
             "deck_extra": "    ink_saver_back: back\n"}
    game = cards_game(tmp_path, cards=3, **saver)
    assert build(game, out).exit_code == 0
    target = out / "g" / "standard" / "en"
    assert (target / "a4" / "cards-ink-saver.pdf").exists()
    assert (target / "print-shop" / "png" / "cards" / "003-front.png").exists()
    (out / "notes.txt").write_text("mine")
    (target / "a4" / "notes.txt").write_text("mine too")
    game = cards_game(tmp_path, cards=2)          # one card fewer, and ink_saver off again
    assert build(game, out).exit_code == 0
    assert not (target / "a4" / "cards-ink-saver.pdf").exists()
    assert not (target / "print-shop" / "png" / "cards" / "003-front.png").exists()
    assert (target / "print-shop" / "png" / "cards" / "002-front.png").exists()
    assert (out / "notes.txt").read_text() == "mine" and (target / "a4" / "notes.txt").read_text() == "mine too"
    letter = snapshot(target / "letter")
    assert build(game, out, "--paper", "a4", "--force").exit_code == 0     # one paper: the other one stays
    assert snapshot(target / "letter") == letter
    reference = tmp_path / "reference"
    assert build(game, reference).exit_code == 0
    assert without_digests(snapshot(target)) == \
        without_digests({**snapshot(reference / "g" / "standard" / "en"), "a4/notes.txt": b"mine too"})


def test_a_removed_deck_takes_its_png_folder_with_it(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path, cards=2)
    text = (game / "cards.yaml").read_text()
    (game / "cards.yaml").write_text(text + text.split("decks:\n", 1)[1].replace("id: cards", "id: more"))
    assert build(game, out).exit_code == 0
    png = out / "g" / "standard" / "en" / "print-shop" / "png"
    assert (png / "more").is_dir()
    (game / "cards.yaml").write_text(text)
    assert build(game, out).exit_code == 0
    assert not (png / "more").exists() and (png / "cards" / "001-front.png").exists()


# ------------------------------------------------------------- no-op builds verify what they trust

@pytest.mark.parametrize("damage", ["truncate", "same size", "delete"])
def test_a_damaged_output_is_rebuilt_by_a_no_op_build(tmp_path, damage):
    out = tmp_path / "out"
    game = cards_game(tmp_path)
    assert build(game, out).exit_code == 0
    reference = snapshot(out)
    assert json.loads(build(game, out, "--json").output)["up_to_date"] == ["g/standard/en"]
    victim = out / "g" / "standard" / "en" / "a4" / "kit.pdf"
    data = victim.read_bytes()
    if damage == "truncate":
        victim.write_bytes(data[: len(data) // 2])
    elif damage == "same size":
        victim.write_bytes(data[:-10] + b"0123456789")
    else:
        victim.unlink()
    result = build(game, out, "--json")
    assert result.exit_code == 0 and json.loads(result.output)["up_to_date"] == []
    assert_same_outputs(out, reference)


def test_a_stamp_of_the_old_format_is_not_trusted(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path)
    assert build(game, out).exit_code == 0
    stamp = out / "g" / "standard" / "en" / STAMP
    import json
    data = json.loads(stamp.read_text())
    stamp.write_text(json.dumps({"digest": data["digest"], "files": sorted(data["files"])}))
    assert json.loads(build(game, out, "--json").output)["up_to_date"] == []
    assert json.loads(build(game, out, "--json").output)["up_to_date"] == ["g/standard/en"]


def test_a_dead_builds_staging_folder_is_removed_and_a_live_ones_kept(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path)
    dead = subprocess.Popen(["true"])
    dead.wait()
    (out / f"{STAGING_PREFIX}{dead.pid}" / "g").mkdir(parents=True)
    (out / f"{STAGING_PREFIX}{dead.pid}" / "g" / "cards.pdf").write_bytes(b"half")
    (out / f"{STAGING_PREFIX}1").mkdir()             # pid 1 is alive: another build's, left alone
    assert build(game, out).exit_code == 0
    assert not (out / f"{STAGING_PREFIX}{dead.pid}").exists() and (out / f"{STAGING_PREFIX}1").exists()
    assert not list(out.glob(f"{STAGING_PREFIX}{os.getpid()}"))


# ------------------------------------------------------------- output paths that cannot be written

def test_a_file_where_a_folder_belongs(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path)
    assert build(game, out).exit_code == 0
    for lang_file in [game / "i18n" / "en.yaml"]:
        lang_file.write_text(lang_file.read_text().replace("Star", "Comet"))
    shutil.rmtree(out / "g" / "standard" / "en" / "letter")
    (out / "g" / "standard" / "en" / "letter").write_text("in the way")
    before = snapshot(out)
    result = build(game, out)
    assert result.exit_code == 1
    assert result.output.startswith(f"{out}/g/standard/en/letter: a file is in the way where pnp needs a folder\n"
                                    "    hint: move or delete that file")
    assert snapshot(out) == before and not list(out.glob(f"{STAGING_PREFIX}*"))


def test_a_folder_where_a_file_belongs(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path)
    assert build(game, out).exit_code == 0
    (game / "i18n" / "en.yaml").write_text((game / "i18n" / "en.yaml").read_text().replace("Star", "Comet"))
    kit = out / "g" / "standard" / "en" / "a4" / "kit.pdf"
    kit.unlink()
    kit.mkdir()
    before = snapshot(out)
    result = build(game, out)
    assert result.exit_code == 1
    assert result.output.startswith(f"{kit}: a folder is in the way where pnp writes a file\n")
    assert snapshot(out) == before and kit.is_dir() and not list(out.glob(f"{STAGING_PREFIX}*"))


def test_a_read_only_output_folder(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path)
    assert build(game, out).exit_code == 0
    (game / "i18n" / "en.yaml").write_text((game / "i18n" / "en.yaml").read_text().replace("Star", "Comet"))
    folder = out / "g" / "standard" / "en" / "a4"
    before = snapshot(out)
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)]).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        result = build(game, out)
    finally:
        subprocess.run(["chattr", "-i", str(folder)])
    assert result.exit_code == 1
    assert f"{folder}/cards.pdf: cannot write here: permission denied" in result.output
    assert "hint: make the folder writable" in result.output
    assert snapshot(out) == before and not list(out.glob(f"{STAGING_PREFIX}*"))


def test_a_full_disk(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        out = disk / "out"
        small = cards_game(tmp_path / "small", cards=2)
        assert build(small, out).exit_code == 0
        before = snapshot(out)
        large = cards_game(tmp_path / "large", cards=30)
        run = run_pnp("build", str(large), "--out", str(out), cwd=ROOT).assert_clean(1)
        assert f"{out}: no space left on the device for the build's files\n    hint: free some space" in run.output
        assert snapshot(out) == before and not list(out.glob(f"{STAGING_PREFIX}*"))
    finally:
        subprocess.run(["umount", str(disk)])


# ------------------------------------------------------------- preflight

def test_preflight_reports_a_damaged_pdf_as_that_files_problem(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path)
    assert build(game, out, "--paper", "a4").exit_code == 0
    cards = out / "g" / "standard" / "en" / "a4" / "cards.pdf"
    cards.write_bytes(cards.read_bytes()[:2000])
    kit = out / "g" / "standard" / "en" / "a4" / "kit.pdf"
    kit.write_bytes(b"not a pdf at all\n")
    result = pnp("check", str(game), "--preflight", "--out", str(out), "--paper", "a4")
    assert result.exit_code == 1
    assert result.output.count("error: not readable as a PDF, damaged or truncated") == 2
    assert "run `pnp build` to rebuild it" in result.output
