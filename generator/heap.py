"""Garbage collection during a build: paused while objects pile up, then set aside (gc.freeze)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Reading YAML and laying out make hundreds of thousands of small objects (nodes, marks,
# items, glyph runs) and almost no garbage, yet CPython's collector, triggered by
# allocation counts, walks every live object again and again while they pile up: that made
# loading a 10,000-card deck 2.7× slower and cost a seventh of a 1,000-card build. So the
# collector pauses during those stages, and what they leave is set aside (gc.freeze) for
# the rest of the build. Drawing and rendering PNGs run with the collector on: their
# garbage (canvases, bitmaps) is large.


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Objects alive at entry, and those set aside by allocation_burst, are skipped by collections."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def allocation_burst() -> Iterator[None]:
    """No collections inside; at the end, everything made inside set aside.

    No collection at the end either: it would walk every object the stage made (a tenth of
    a 1,000-card build's CPU, growing with the deck) to find a few hundred in cycles
    (exceptions and closures while loading), which stay set aside instead."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        gc.freeze()
