"""A tiny game written to tmp_path/g, the tests running from tmp_path so messages show `g/...`: what the
exchange tests (XLIFF, PO, their tools) start from."""

from __future__ import annotations

from pathlib import Path

import pytest


def write_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        path = tmp_path / "g" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "g"
