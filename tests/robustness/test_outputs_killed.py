"""A killed or interrupted build is never trusted half done, and takes its workers with it.

Every case measures the real files: a build killed at any moment (SIGKILL) or interrupted (Ctrl-C)
must leave each target exactly as a clean build of the old or (after the next build) the new content
writes it, byte for byte; the workers of a killed build must be gone. These cases run `pnp` in child
processes (a kill is about the process) and are the slowest of the outputs' cases: they are a file of
their own so pytest-xdist's --dist loadfile runs them beside tests/robustness/test_outputs.py.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.files import STAGING_PREFIX
from generator.incremental import STAMP
from tests.robustness.test_outputs import assert_same_outputs, build, cards_game, snapshot, without_digests

ROOT = Path(__file__).resolve().parents[2]
KILL_DELAYS = 8
A4 = ("--paper", "a4")
WHILE_DRAWING = {3, 6}        # steps whose kill waits for the build to be drawing (not for a timed moment)


# ------------------------------------------------------------- kill -9

def spawn_build(game: Path, out: Path, *more: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from generator.cli import main; main()", "build", str(game),
                             "--out", str(out), "-q", *more], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def ctrl_c_heard() -> None:
    """In a child about to start: Ctrl-C as a terminal's process has it. A shell that starts pytest in the
    background without job control (`pytest &` in a script) has it ignored, and a child keeps that: pnp
    would never hear the test's Ctrl-C and build to the end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_staging(out: Path, process: subprocess.Popen, timeout: float) -> None:
    """Until a file is drawn in the build's staging folder under `out`, the build ends, or timeout."""
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        for staging in out.glob(STAGING_PREFIX + "*"):
            if any(path.is_file() for path in staging.rglob("*")):
                return
        time.sleep(0.005)


def test_a_build_killed_at_any_moment_is_never_trusted_half_done(tmp_path):
    """Content A is built, B is started and killed; the next build must give exactly B's clean outputs.
    Two targets of every output (cards, kit, print-shop PDF and PNGs) on one paper: 4 cards each (the
    moments are spread over the build however long it is; with 12 cards each rebuild drew three times
    the pages and proved no more: a kill lands in start-up, layout, drawing or the swap either way)."""
    contents = {"moon": dict(name="Moon"), "star": dict(name="Star")}
    games = {}
    for label, settings in contents.items():
        games[label] = cards_game(tmp_path / label, cards=4, languages=("en", "de"), **settings)
    # the kills' moments are spread over the time a child's whole build takes (start-up to swap); the other
    # reference is built in this process first (the same bytes: a clean build is the same in or out of a
    # child), so the child is timed with the fonts cut: on a new machine's empty cache the first build
    # cuts them, several times longer than every build the kills land in
    assert build(games["moon"], tmp_path / "ref-moon", *A4).exit_code == 0
    started = time.perf_counter()
    spawn_build(games["star"], tmp_path / "ref-star", *A4).wait()
    seconds = time.perf_counter() - started
    references = {label: snapshot(tmp_path / f"ref-{label}") for label in contents}
    assert references["moon"]["g/standard/en/a4/cards.pdf"] != references["star"]["g/standard/en/a4/cards.pdf"]
    out = tmp_path / "out"
    shutil.copytree(tmp_path / "ref-moon", out)
    game = tmp_path / "game"
    killed_while_drawing = 0
    for step in range(KILL_DELAYS):
        old, new = ("moon", "star") if step % 2 == 0 else ("star", "moon")
        shutil.rmtree(game, ignore_errors=True)
        shutil.copytree(games[new], game)        # the same folder name: the same output folder g/
        process = spawn_build(game, out, "--jobs", "2", *A4)
        if step in WHILE_DRAWING:
            # the timed moments drift with the machine's load (another test worker): these kills wait for
            # the staging folder, so some kill lands while drawing however fast or slow the machine is now
            wait_for_staging(out, process, timeout=seconds * 10)
        else:
            time.sleep(0.05 + (seconds * 1.1 - 0.05) * step / (KILL_DELAYS - 1))   # from start-up to the swap
        process.send_signal(signal.SIGKILL)
        process.wait()
        after_kill = without_digests(snapshot(out))
        stamps = {name for name in after_kill if name.endswith(STAMP)}
        killed_while_drawing += any(STAGING_PREFIX in name for name in after_kill)
        for stamp in stamps:                       # a stamp only ever stands over its own target's files
            target = stamp.rsplit("/", 1)[0]
            ours = {name: data for name, data in after_kill.items()
                    if name.startswith(target + "/") and STAGING_PREFIX not in name}
            assert ours in ({n: d for n, d in without_digests(references[old]).items() if n.startswith(target + "/")},
                            {n: d for n, d in without_digests(references[new]).items()
                             if n.startswith(target + "/")}), stamp
        again = build(game, out, *A4)              # whatever the kill left, it is not taken as up to date
        assert again.exit_code == 0, again.output
        assert_same_outputs(out, references[new])  # also: no staging folder of the killed build left
        assert sorted(json.loads(build(game, out, "--json", *A4).output)["up_to_date"]) == ["g/standard/de",
                                                                              "g/standard/en"]
    assert 0 < killed_while_drawing < KILL_DELAYS


# ------------------------------------------------------------- workers die with their parent

def _proc_stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a live process, None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[1]), fields[0]


def _workers_of(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (_proc_stat(int(entry)) or (0, ""))[0] == parent:
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in command:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    stat = _proc_stat(pid)
    return stat is not None and stat[1] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_killing_the_build_kills_its_workers_and_nothing_is_written_after(tmp_path):
    game = cards_game(tmp_path, cards=60, languages=("en", "de"))
    out = tmp_path / "out"
    process = spawn_build(game, out, "--jobs", "2", "--paper", "a4")
    deadline = time.monotonic() + 20
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
        workers = _workers_of(process.pid)
    assert len(workers) == 2, "the build ended before its two workers were seen"
    time.sleep(0.3)                                  # let them draw
    assert all(_alive(pid) for pid in workers)
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(_alive(pid) for pid in workers)
    before = {path: path.stat().st_mtime_ns for path in out.rglob("*")}
    time.sleep(1.0)
    assert {path: path.stat().st_mtime_ns for path in out.rglob("*")} == before
    assert not list(out.glob("g/*/*/*/*.pdf"))      # killed before the swap: nothing in place
    assert build(game, out, "--paper", "a4", "--only", "cards").exit_code == 0     # any next build
    assert not list(out.glob(f"{STAGING_PREFIX}*"))  # the dead build's staging folder is cleared


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_while_workers_draw_replaces_nothing_and_leaves_nothing(tmp_path):
    """Ctrl-C reaches the whole process group, workers included: one line, 130, the old files."""
    game = cards_game(tmp_path, cards=60, languages=("en", "de"))
    out = tmp_path / "out"
    # the old files: the cards only (the interrupted build would replace them and add the rest)
    assert build(game, out, "--paper", "a4", "--only", "cards").exit_code == 0
    before = snapshot(out)
    for lang in ("en", "de"):
        catalog = game / "i18n" / f"{lang}.yaml"
        catalog.write_text(catalog.read_text().replace("Star", "Comet"))
    process = subprocess.Popen([sys.executable, "-m", "generator", "build", str(game), "--out", str(out), "-q",
                                "--jobs", "2", "--paper", "a4"], cwd=ROOT, start_new_session=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ctrl_c_heard)
    deadline = time.monotonic() + 20
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
        workers = _workers_of(process.pid)
    wait_for_staging(out, process, timeout=20)     # workers drawing (a fixed wait let a fast build end first)
    assert process.poll() is None, "the build ended before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    _, errors = process.communicate(timeout=20)
    assert process.returncode == 130 and b"Traceback" not in errors, errors
    assert not any(_alive(pid) for pid in workers)
    assert snapshot(out) == before                  # nothing replaced, no staging folder left


