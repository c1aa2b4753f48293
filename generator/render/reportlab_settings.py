"""ReportLab's process-wide settings as pnp draws with them, in force only while pnp draws.

ReportLab reads some choices from its module `rl_config` while a canvas draws and saves (no
canvas or document argument carries them). pnp changes them only inside `pnp_settings()`,
which restores ReportLab's own values when the last drawing leaves it: importing pnp changes
nothing, and a program that uses ReportLab beside pnp keeps its settings.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import MappingProxyType

from reportlab import rl_config

# ASCII85 makes files bigger and builds slower (docs/pitfalls.md): streams are only deflated
PNP_SETTINGS = MappingProxyType({"useA85": 0})


class _Settings:
    """Who is drawing: the first to enter sets pnp's values, the last to leave restores ReportLab's.

    Counted, not nested save-and-restore: two threads drawing at once (pnp serve rebuilding while
    a worker draws) must not restore ReportLab's values under each other."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._drawing = 0
        self._saved: dict[str, object] = {}

    def enter(self) -> None:
        with self._lock:
            if self._drawing == 0:
                self._saved = {name: getattr(rl_config, name) for name in PNP_SETTINGS}
                for name, value in PNP_SETTINGS.items():
                    setattr(rl_config, name, value)
            self._drawing += 1

    def leave(self) -> None:
        with self._lock:
            self._drawing -= 1
            if self._drawing == 0:
                for name, value in self._saved.items():
                    setattr(rl_config, name, value)
                self._saved = {}


_SETTINGS = _Settings()


@contextmanager
def pnp_settings() -> Iterator[None]:
    """ReportLab set as pnp draws (PNP_SETTINGS) inside the `with`: draw and save a canvas in it."""
    _SETTINGS.enter()
    try:
        yield
    finally:
        _SETTINGS.leave()
