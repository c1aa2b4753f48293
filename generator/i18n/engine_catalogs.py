"""Where pnp's own catalogs are and which languages they speak: a module that imports nothing, so the
command line can offer `pnp calibrate --lang`'s choices without loading the catalogs' reader."""

from __future__ import annotations

from pathlib import Path

ENGINE_CATALOGS = Path(__file__).with_name("engine")


def engine_languages() -> tuple[str, ...]:
    """The languages pnp speaks itself (its catalogs' names), sorted."""
    return tuple(sorted(path.stem for path in ENGINE_CATALOGS.glob("*.yaml")))
