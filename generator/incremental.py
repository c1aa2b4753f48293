"""Incremental builds: a target whose inputs have not changed since its last build is skipped.

Each edition × language of a game records, beside its output, a digest of
everything it was built from: the game folder's files, the shared templates,
the engine's own source, the versions of the packages that draw (fonts
included) and the build options. A no-op build only reads files and hashes them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from generator.content.templates import template_folders

STAMP = ".pnp-build.json"
DRAWING_PACKAGES = ("reportlab", "pypdfium2", "svglib", "fonttools", "pyphen", "babel", "pillow",
                    "fontpkg-nunito", "fontpkg-inter", "manimgx-fonts")


@lru_cache(maxsize=None)
def engine_digest() -> str:
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    for name in DRAWING_PACKAGES:
        try:
            digest.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=none".encode())
    return digest.hexdigest()


def inputs_digest(game_folder: Path) -> str:
    """Every file the game can read: its folder and the shared templates."""
    digest = hashlib.sha256(engine_digest().encode())
    for root in [game_folder, *template_folders(game_folder)]:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def target_digest(game_digest: str, edition: str, lang: str, options) -> str:
    settings = {key: value for key, value in asdict(options).items()
                if key not in ("editions", "languages", "out", "force", "check_only", "jobs")}
    text = json.dumps([game_digest, edition, lang, settings], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def is_fresh(folder: Path, digest: str) -> bool:
    try:
        stamp = json.loads((folder / STAMP).read_text())
    except (OSError, ValueError):
        return False
    return stamp.get("digest") == digest and all((folder / name).exists() for name in stamp.get("files", []))


def record(folder: Path, digest: str, files: list[Path]) -> None:
    from generator.files import write_atomically
    names = sorted(str(path.relative_to(folder)) for path in files if folder in path.parents)
    write_atomically(folder / STAMP, json.dumps({"digest": digest, "files": names}, indent=1).encode())
