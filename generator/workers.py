"""Worker process pools whose workers end when the process that started them dies.

A killed `pnp build` must not leave workers behind that go on drawing and writing:
on Linux each worker asks the kernel for SIGKILL when its parent dies
(prctl PR_SET_PDEATHSIG); elsewhere a thread in the worker watches its parent's pid.
Workers ignore Ctrl-C: the parent stops them (`stop_workers`) and reports it once.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

PR_SET_PDEATHSIG = 1
_KILL = 9                   # SIGKILL
_WATCH_SECONDS = 0.2


def worker_pool(workers: int, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of `workers` fresh interpreters (spawn: no inherited ReportLab state) tied to this process."""
    context = multiprocessing.get_context("spawn")
    return concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                                  initargs=(os.getpid(), initializer, initargs))


def stop_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """End the pool now, its running tasks included (on Ctrl-C or an error: what they draw is thrown away)."""
    for future_process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            future_process.kill()
        except (OSError, ValueError):
            pass
    pool.shutdown(wait=True, cancel_futures=True)


def _start_worker(parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    die_with_parent(parent)
    # Ctrl-C reaches the whole process group: the parent alone decides (stop_workers), and a
    # worker interrupted while idle would print a traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


def die_with_parent(parent: int) -> None:
    """End this process as soon as `parent` (the pid that started it) is gone."""
    if not _ask_kernel():
        threading.Thread(target=_watch, args=(parent,), name="watch-parent", daemon=True).start()
    if os.getppid() != parent:        # it died before we asked
        _orphaned()


def _ask_kernel() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes      # (only where a worker starts, on Linux)
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, _KILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    _orphaned()


def _orphaned() -> None:
    """End a worker whose build is gone, at once: os._exit, not sys.exit. The watching thread cannot
    raise SystemExit in the thread that draws, and nothing a worker holds is worth keeping — its
    files are in a staging folder the next build removes, and the pool's machinery would only
    wait for a parent that will never read its results."""
    os._exit(1)
