"""What a build wrote: its files, their pages, per-target figures (a light module: the CLI reads it
without importing the drawing stages)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import Problem


@dataclass
class BuildReport:
    """What a build (or one target of it) wrote: files, page counts, per-target figures."""

    written: list[Path] = field(default_factory=list)
    up_to_date: list[str] = field(default_factory=list)     # targets skipped, unchanged
    retired: list[str] = field(default_factory=list)        # targets the game no longer has: their outputs removed
    pages: dict[Path, int] = field(default_factory=dict)     # pages of each PDF written
    targets: list[dict[str, Any]] = field(default_factory=list)   # per target: files, pages, bytes, seconds
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    # per target written: each file's path relative to the target's folder → its size and sha256
    produced: dict[tuple[str, str, str], dict[str, tuple[int, str]]] = field(default_factory=dict)
    # told the number of pages (PDF pages, PNG images) each time some are written; not in worker processes
    on_pages: Callable[[int], None] | None = field(default=None, repr=False, compare=False)
