"""Run `pnp` as a user does, in its own process, and measure what an attack case costs it.

Every case of the attack suite must end in a located message or a clean exit, within
1 GB; a case that blows up must not take the test machine with it, so the child runs
under a hard address-space cap well above the budget. How long a case takes is the
machine's speed, not pnp's behaviour: no test asserts it (a child still running after
HANG_SECONDS is killed as hung); tests/benchmarks/bench_budgets.py times the cases
that had a time budget (30 s for any case). A case about what pnp says and writes, not about
its process (no memory bound, no hang, no signal), runs in the test's process (run_in_process):
a child's start costs more than most such cases.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HANG_SECONDS = 120.0             # a child still running then is hung (a FIFO waited on, a loop): killed
MEMORY_BYTES = 1 << 30           # 1 GiB of resident memory
_ADDRESS_SPACE_CAP = 6 << 30     # hard stop for a runaway child (virtual memory is larger than resident)


@dataclass(frozen=True)
class Run:
    """What one `pnp` process did: its exit status, its output and what it cost."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_bytes: int

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def assert_clean(self, *statuses: int) -> "Run":
        """No traceback, an expected exit status, within the memory budget."""
        assert "Traceback" not in self.output, self.output
        assert self.returncode in (statuses or (0, 1)), (self.returncode, self.output)
        assert self.peak_bytes < MEMORY_BYTES, f"{self.args}: {self.peak_bytes / 2**20:.0f} MiB"
        return self


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_ADDRESS_SPACE_CAP, _ADDRESS_SPACE_CAP))


# The child reports its own peak (and its workers') as it exits, on a line of its own. Its own is the
# high-water mark of its memory since exec (VmHWM): Linux keeps in ru_maxrss the size of the process it
# was forked from (a pytest worker of 230 MiB late in a full run), which is not pnp's.
_PEAK = "@@pnp-peak-kib "
_MEASURED_MAIN = f"""
import atexit, os, resource, sys
sys.argv[0] = "pnp"
def _own_peak_kib():
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
def _peak():
    kib = max(_own_peak_kib(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    os.write(2, ("\\n{_PEAK}%d\\n" % kib).encode())
atexit.register(_peak)
from generator.__main__ import run
run()
"""


def run_pnp(*args: str, cwd: Path | None = None, timeout: float = HANG_SECONDS,
            env: dict[str, str] | None = None, stdin=subprocess.DEVNULL) -> Run:
    """`python -m generator.cli ARGS` in a child process; its peak resident memory from wait4."""
    command = [sys.executable, "-c", _MEASURED_MAIN, *args]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, **(env or {})}, preexec_fn=_cap_memory)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        raise AssertionError(f"pnp {' '.join(args)} did not end within {timeout:.0f} s") from None
    seconds = time.perf_counter() - started
    errors, _, peak = stderr.decode("utf-8", "replace").rpartition(f"\n{_PEAK}")
    if not _:                                  # killed, or ended without running atexit
        errors, peak = stderr.decode("utf-8", "replace"), "0"
    return Run(tuple(args), process.returncode, stdout.decode("utf-8", "replace"), errors,
               seconds, int(peak.strip() or 0) * 1024)


def run_in_process(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    """`pnp ARGS` in this process, through click's runner, as a Run: for a case that is about what pnp
    says and writes, not about its process (no start-up paid). Its memory is not measured (peak_bytes 0)
    and a hang would hang the test: a case about memory, a FIFO or a signal runs in a child (run_pnp).
    An exception pnp lets out is raised here, with its traceback."""
    from click.testing import CliRunner

    from generator.cli import main
    previous = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner(env=env).invoke(main, list(args))
    finally:
        os.chdir(previous)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(tuple(args), result.exit_code, result.stdout, result.stderr, 0.0, 0)
