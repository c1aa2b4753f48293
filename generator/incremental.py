"""Incremental builds: a target whose inputs have not changed since its last build is skipped.

Each edition × language of a game records, beside its output, a digest of
everything it was built from: the game folder's files, the shared templates,
the engine's own source, the versions of the packages that draw (fonts
included) and the build options, and the size and sha256 of every file it wrote.
A no-op build only reads files and hashes them. The stamp is written last, when
every file of the target is in place (`commit_targets`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from functools import lru_cache
from importlib import metadata
from pathlib import Path, PurePosixPath

from generator.content.templates import template_folders
from generator.files import Staging, Swap, fingerprint, interrupts_deferred, remove_empty_folders

STAMP = ".pnp-build.json"
STAMP_FORMAT = 2           # files: name → [size, sha256]; format 1 listed names only
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


def read_stamp(folder: Path) -> dict | None:
    """The target's stamp, or None when it is missing, unreadable, malformed or of an older format."""
    try:
        stamp = json.loads((folder / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stamp, dict) or stamp.get("format") != STAMP_FORMAT \
            or not isinstance(stamp.get("digest"), str) or not isinstance(stamp.get("files"), dict):
        return None
    for name, entry in stamp["files"].items():
        if not _inside(name) or not (isinstance(entry, list) and len(entry) == 2
                                     and isinstance(entry[0], int) and isinstance(entry[1], str)):
            return None
    return stamp


def is_fresh(folder: Path, digest: str) -> bool:
    """The target was built from these very inputs, and every file it wrote is still there, whole.

    Each file is read and hashed (about 0.15 s for the five games' 200 MB): a truncated or
    edited output is rebuilt, never trusted because its name, size and date look right.
    """
    stamp = read_stamp(folder)
    if stamp is None or stamp["digest"] != digest:
        return False
    for name, (size, sha256) in stamp["files"].items():
        path = folder / name
        try:
            if path.stat().st_size != size or fingerprint(path) != (size, sha256):
                return False
        except OSError:
            return False
    return True


def stamped_names(folder: Path) -> set[str]:
    """The files the previous build of this target listed (any stamp format): those it may remove."""
    try:
        stamp = json.loads((folder / STAMP).read_text(encoding="utf-8"))
        names = stamp.get("files", [])
    except (OSError, ValueError, AttributeError):
        return set()
    return {name for name in names if isinstance(name, str) and _inside(name)}


def _inside(name: str) -> bool:
    """A stamp is a file in the output folder anyone may edit: it never names a file outside its target."""
    parts = PurePosixPath(name).parts
    return bool(parts) and not PurePosixPath(name).is_absolute() and ".." not in parts and parts[0] != STAMP


def stamp_text(digest: str, files: dict[str, tuple[int, str]]) -> bytes:
    """The stamp written last, once every file of the target is in place."""
    listed = {name: [size, sha256] for name, (size, sha256) in sorted(files.items())}
    return json.dumps({"format": STAMP_FORMAT, "digest": digest, "files": listed}, indent=1).encode()


def commit_targets(staging: Staging, built: dict[tuple[str, str, str], dict[str, tuple[int, str]]],
                   digests: dict[tuple[str, str, str], str]) -> None:
    """Move every built target's staged files into place as one change.

    Old stamps go first (a crash in the middle leaves targets stale, never trusted), then
    the new files, then the files an old stamp listed that this build no longer makes,
    and the new stamps last. An error undoes it all; Ctrl-C waits for the end.
    """
    swap = Swap(staging)
    emptied: set[Path] = set()
    with interrupts_deferred():
        try:
            folders = {key: staging.out.joinpath(*key) for key in built}
            old = {key: stamped_names(folder) for key, folder in folders.items()}
            for folder in folders.values():
                swap.remove(folder / STAMP)
            for key, files in built.items():
                for name in sorted(files):
                    swap.put(staging.staged(folders[key] / name), folders[key] / name)
            for key, files in built.items():
                for name in sorted(old[key] - set(files)):
                    swap.remove(folders[key] / name)
                    emptied.add((folders[key] / name).parent)
            for key, files in built.items():
                if key in digests:
                    staged = staging.staged(folders[key] / STAMP)
                    staged.parent.mkdir(parents=True, exist_ok=True)
                    staged.write_bytes(stamp_text(digests[key], files))
                    swap.put(staged, folders[key] / STAMP)
        except BaseException:
            swap.rollback()
            raise
    for key in built:
        remove_empty_folders({folder for folder in emptied if folders[key] in folder.parents}, folders[key])
