"""A swap into place cut by kill -9 is completed by the next pnp command; no swap writes or removes through
a link leading out of the output folder.

The child process kills itself at the N-th rename of the swap (while files of the new build and of the
old one stand side by side); the next `pnp build` must find every target whole, byte for byte as a clean
build of the new content writes it, and up to date.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator.files import JOURNAL, STAGING_PREFIX
from generator.incremental import STAMP
from tests.robustness.test_outputs import build, cards_game, snapshot, without_digests

ROOT = Path(__file__).resolve().parents[2]

# pnp, killed by itself at the N-th rename made while a swap is carried out
_KILLED_AT_RENAME = """
import os, signal, sys
import generator.files as files
limit, renames, carrying = int(sys.argv[1]), [0], [False]
real_replace, real_carry_out = os.replace, files._carry_out
def carry_out(*args):
    carrying[0] = True
    return real_carry_out(*args)
def replace(source, target):
    if carrying[0]:
        renames[0] += 1
        if renames[0] == limit:
            os.kill(os.getpid(), signal.SIGKILL)
    return real_replace(source, target)
files._carry_out, os.replace = carry_out, replace
sys.argv = ["pnp", *sys.argv[2:]]
from generator.__main__ import run
run()
"""


def _killed_build(game: Path, out: Path, rename: int) -> int:
    command = [sys.executable, "-c", _KILLED_AT_RENAME, str(rename), "build", str(game), "--out", str(out),
               "--jobs", "1", "-q"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, timeout=120).returncode


@pytest.fixture(scope="module")
def old_and_new(tmp_path_factory) -> tuple[Path, Path, Path]:
    """(the old content's output, the new content's game, its clean build), built once for the cases
    below: each kills the swap of its own copy of the old output at another rename."""
    root = tmp_path_factory.mktemp("swaps")
    old = cards_game(root / "old", cards=3, name="Old")
    assert build(old, root / "old-out").exit_code == 0
    new = cards_game(root / "new", cards=2, name="New")            # new text, one card fewer
    assert build(new, root / "reference").exit_code == 0
    return root / "old-out", new, root / "reference"


@pytest.mark.parametrize("rename", [1, 2, 6, 11, 17])
def test_a_swap_killed_at_any_rename_is_completed_by_the_next_command(old_and_new, tmp_path, rename):
    old_out, game, reference = old_and_new
    out = tmp_path / "out"
    shutil.copytree(old_out, out)
    status = _killed_build(game, out, rename)
    assert status in (-signal.SIGKILL, 0)
    if status == -signal.SIGKILL:                                # the swap was cut: its journal is left
        assert list(out.glob(f"{STAGING_PREFIX}*/{JOURNAL}"))
    again = build(game, out, "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["files"] == []                # completed, stamped and trusted
    assert not list(out.glob(f"{STAGING_PREFIX}*"))
    assert without_digests(snapshot(out)) == without_digests(snapshot(reference))


def test_a_stamp_naming_a_file_behind_a_link_does_not_remove_it(tmp_path):
    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    (outside / "victim").write_text("keep me")
    game = cards_game(tmp_path, cards=2)
    assert build(game, out).exit_code == 0
    target = out / "g" / "standard" / "en"
    os.symlink(outside, target / "a4" / "ext")
    stamp = json.loads((target / STAMP).read_text())
    stamp["files"]["a4/ext/victim"] = [7, "0" * 64]               # anyone may edit a stamp
    (target / STAMP).write_text(json.dumps(stamp))
    assert build(game, out).exit_code == 0                         # a full build removes what it no longer makes...
    assert (outside / "victim").read_text() == "keep me"           # ...but never through a link out of the folder
    assert (target / "a4" / "ext").is_symlink()


def test_a_build_never_writes_through_a_link_out_of_the_output_folder(tmp_path):
    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    game = cards_game(tmp_path, cards=2)
    target = out / "g" / "standard" / "en"
    target.mkdir(parents=True)
    os.symlink(outside, target / "a4")
    result = build(game, out)
    assert result.exit_code == 1
    assert "link" in result.output and "a4" in result.output
    assert list(outside.iterdir()) == []                           # nothing written there
    assert not list(out.glob(f"{STAGING_PREFIX}*"))


def test_a_swap_undone_takes_the_folders_it_made_with_it(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path, cards=2)
    target = out / "g" / "standard" / "en"
    target.mkdir(parents=True)
    (target / "print-shop").write_text("mine")                     # in the way, after a4/ and letter/ are put
    result = build(game, out)
    assert result.exit_code == 1 and "a file is in the way" in result.output
    assert sorted(path.relative_to(out).as_posix() for path in out.rglob("*")) == \
        ["g", "g/standard", "g/standard/en", "g/standard/en/print-shop"]
