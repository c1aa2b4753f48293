"""Shared fixtures: the real game built once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import BuildOptions, build

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


@pytest.fixture(scope="session")
def built_christmas(tmp_path_factory) -> Path:
    """output/ of a full build of christmas-round (both editions, bg and en, A4 and Letter)."""
    out = tmp_path_factory.mktemp("out")
    build([CONTENT / "christmas-round"], BuildOptions(out=out))
    return out / "christmas-round"
