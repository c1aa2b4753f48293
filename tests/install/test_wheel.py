"""pnp as a user installs it: the wheel in a fresh virtual environment, far from the repository.

The wheel is built without build isolation and installed with --no-index, so nothing is
downloaded: the new environment sees the dependencies already installed here through a
.pth file (not through this environment's .pth files, so the editable install of the
repository is not visible). Every command runs in a temporary folder outside the repository.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.pdf_probe import open_pdf

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(folder.name for folder in (ROOT / "content").iterdir() if (folder / "game.yaml").is_file())


def run(*command, cwd: Path, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    result = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    assert "Traceback" not in result.stderr
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the pnp command of a fresh venv holding the built wheel, its environment, a scratch folder)."""
    scratch = tmp_path_factory.mktemp("installed")
    source = scratch / "source"        # a clean copy: the build never writes into the working tree
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "output", "*.egg-info", "build",
                                                                "__pycache__", ".pytest_cache", ".hypothesis",
                                                                ".benchmarks", "tests"))
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
        "-w", scratch / "dist", source, cwd=scratch, env=env)
    venv = scratch / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=scratch, env=env)
    python = venv / "bin" / "python"
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                       cwd=scratch, env=env).stdout.strip())
    here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()}
    (purelib / "dependencies.pth").write_text("\n".join(sorted(here)) + "\n")
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-index", "--no-deps",
        "--ignore-installed", "--find-links", scratch / "dist", "pnp-generator", cwd=scratch, env=env)
    shutil.rmtree(source)
    work = scratch / "work"
    work.mkdir()
    where = run(python, "-c", "import generator; print(generator.__file__)", cwd=work, env=env).stdout
    assert where.startswith(str(purelib)), where          # the wheel's copy, not the repository's
    yield venv / "bin" / "pnp", env, work


def test_a_new_game_builds_checks_previews_and_calibrates_from_the_wheel(installed):
    pnp, env, work = installed
    run(pnp, "new", "mygame", "--title", "My Game", cwd=work, env=env)
    game = work / "mygame"
    header = (game / "cards.yaml").read_text().split("\n", 1)[0]
    assert (game / header.split("$schema=")[1]).is_file(), header      # the editor finds its schema
    run(pnp, "check", "mygame", cwd=work, env=env)
    run(pnp, "build", "mygame", "--paper", "a4", "--only", "cards", cwd=work, env=env)
    target = work / "output" / "mygame" / "standard" / "en"
    assert sorted(path.relative_to(target).as_posix() for path in target.rglob("*.pdf")) == ["a4/cards.pdf"]
    first = open_pdf(target / "a4" / "cards.pdf")[0]
    assert "First card" in first.get_textpage().get_text_range()
    run(pnp, "build", "mygame", "--paper", "a4", cwd=work, env=env)
    assert (target / "print-shop" / "cards.pdf").is_file() and (target / "a4" / "kit.pdf").is_file()
    assert len(list((target / "print-shop" / "png").rglob("*.png"))) == 10       # 5 cards, front and back
    previews = run(pnp, "preview", "mygame", "--dpi", "30", cwd=work, env=env).stdout
    images = list((target / "preview").rglob("*.png"))
    assert f"wrote {len(images)} preview image(s)" in previews
    run(pnp, "calibrate", "--out", "calibration", cwd=work, env=env)
    assert (work / "calibration" / "calibration-a4-long-edge.pdf").is_file()


def test_a_copy_of_every_shipped_game_checks_and_every_kind_of_output_builds_from_the_wheel(installed, tmp_path):
    """The shipped games, copied into a project of their own, check clean from the wheel — every edition and
    language laid out: the shared templates, the fonts, the engine catalogs and schemas it carries — and
    every kind of output builds: christmas-round's full edition makes every kind but player sheets,
    christmas-trees makes those (the new game above makes the print-shop PNGs). Their schema lines point
    at schemas that exist once `pnp schema` has run there. (Building every game in full took 25 s of
    processor time and proved no file more: each output kind is drawn by the same code for every game.)"""
    pnp, env, _ = installed
    for name in SHIPPED:
        shutil.copytree(ROOT / "content" / name, tmp_path / "games" / name)
    (tmp_path / "pnp.yaml").write_text("games: [games]\npapers: [a4]\noutput: built\n")
    run(pnp, "check", cwd=tmp_path, env=env)
    run(pnp, "build", "-q", "christmas-round", "--edition", "full", "--lang", "en",
        "--only", "cards,ink-saver,tokens,pawns,board,print-shop", cwd=tmp_path, env=env)
    run(pnp, "build", "-q", "christmas-trees", "--lang", "en", "--only", "sheets,rules,booklet,kit",
        cwd=tmp_path, env=env)
    built = {path.relative_to(tmp_path / "built").as_posix() for path in (tmp_path / "built").rglob("*.pdf")}
    round_files, trees_files = "christmas-round/full/en/", "christmas-trees/standard/en/"
    assert built == {*(round_files + f"a4/{kind}.pdf" for kind in ("cards", "cards-ink-saver", "tokens", "pawns",
                                                                   "board")),
                     *(round_files + f"print-shop/{kind}.pdf" for kind in ("cards", "tokens", "board", "rules")),
                     *(trees_files + f"a4/{kind}.pdf" for kind in ("sheets", "rules", "rules-booklet", "kit"))}, built
    for file in ("a4/board.pdf", "a4/cards.pdf"):
        assert open_pdf(tmp_path / "built" / round_files / file)[0].get_textpage().get_text_range().strip(), file
    rules = open_pdf(tmp_path / "built" / trees_files / "a4" / "rules.pdf")
    assert len(rules) > 1 and rules[1].get_textpage().get_text_range().strip()
    run(pnp, "schema", cwd=tmp_path, env=env)
    for file in sorted((tmp_path / "games").rglob("*.yaml")):
        header = file.read_text(encoding="utf-8").split("\n", 1)[0]
        assert (file.parent / header.split("$schema=")[1]).is_file(), (file, header)
