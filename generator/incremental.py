"""Incremental builds: a target whose inputs have not changed since its last build is skipped.

Each edition × language of a game records, beside its output, a digest of
everything it was built from: the game folder's files (of its catalogs only the
target's language and the source language, so a French edit rebuilds French only),
the shared templates, the engine's own source, the versions of the packages that draw
(fonts included) and the build options, and the size and sha256 of every file it wrote.
A no-op build only reads files and hashes them. The stamp is written last, when
every file of the target is in place (`commit_targets`).

A build makes some parts of a target — each paper's home outputs, the print-shop files —
(`BuildOptions.coverage`: `--paper a4` makes the A4 part, `--only cards` the cards of each paper).
Its stamp says which parts its files cover (`covers`), so a later build that wants more does not
trust it. Files of parts it did not make are never removed: they stay listed as made from these
inputs when the old stamp has this very digest, else their names are kept as `older` (so a later
build of their part can still remove those it no longer makes). An A4 build and a Letter build
into one folder thus keep both, and either one after the other is a no-op.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath

from generator.engine import engine_digest
from generator.files import Staging, Swap, fingerprint, remove_empty_folders
from generator.i18n.pseudo import PSEUDO
from generator.options import BuildOptions, coverage_of
from generator.project import template_folders

STAMP = ".pnp-build.json"
STAMP_FORMAT = 4           # 4: `covers`; 3: `only` and `older`; 2: files name → [size, sha256]; 1 listed names only


@dataclass(frozen=True)
class GameDigest:
    """What a game's targets are built from: every file but the catalogs, and each catalog apart."""

    common: str
    catalogs: dict[str, str]        # language → digest of i18n/<language>.yaml ('' when there is none)

    def of_language(self, lang: str, source_lang: str) -> str:
        """A target reads its own catalog and the source language's (fallbacks, the pseudo-locale)."""
        return f"{self.common}:{self.catalogs.get(lang, '')}:{self.catalogs.get(source_lang, '')}"


def inputs_digest(game_folder: Path, project_templates: Path | None = None) -> GameDigest:
    """Every file the game can read: its folder and the templates it can extend (the project's, pnp's)."""
    digest = hashlib.sha256(engine_digest().encode())
    catalogs: dict[str, str] = {}
    for path in sorted(p for p in game_folder.rglob("*") if p.is_symlink() or p.is_file()):
        relative = path.relative_to(game_folder)
        if path.is_symlink():
            # a link is hashed as where it points: what it leads to inside the folder is hashed on
            # its own, and a file outside (perhaps huge, or a device) is never read — the loader refuses it
            digest.update(f"{relative} -> {os.readlink(path)}".encode())
            continue
        if relative.parent == Path("i18n") and path.suffix == ".yaml":
            catalogs[path.stem] = hashlib.sha256(path.read_bytes()).hexdigest()
            continue
        digest.update(str(relative).encode())
        digest.update(path.read_bytes())
    for root in template_folders(game_folder, project_templates):
        if root == game_folder / "templates":        # the game's own are hashed above
            continue
        digest.update(b"\0templates")
        for path in sorted(root.glob("*.yaml")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return GameDigest(digest.hexdigest(), catalogs)


def target_digest(game_digest: str, edition: str, lang: str, options: BuildOptions) -> str:
    settings = {key: value for key, value in asdict(options).items()
                if key not in ("editions", "languages", "papers", "out", "force", "check_only", "jobs", "only",
                               "templates")}
    text = json.dumps([game_digest, edition, lang, settings], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def read_stamp(folder: Path) -> dict | None:
    """The target's stamp, or None when it is missing, unreadable, malformed or of an older format."""
    try:
        stamp = json.loads((folder / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stamp, dict) or stamp.get("format") != STAMP_FORMAT \
            or not isinstance(stamp.get("digest"), str) or not isinstance(stamp.get("files"), dict) \
            or not _names(stamp.get("covers")) or not _names(stamp.get("older", [])):
        return None
    for name, entry in stamp["files"].items():
        if not _inside(name) or not (isinstance(entry, list) and len(entry) == 2
                                     and isinstance(entry[0], int) and isinstance(entry[1], str)):
            return None
    return stamp


def _names(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def is_fresh(folder: Path, digest: str, coverage: frozenset[str]) -> bool:
    """The target was built from these very inputs, with every part this build makes (`coverage`,
    BuildOptions.coverage), and every file it wrote is still there, whole.

    Each file is read and hashed (about 0.15 s for the five games' 200 MB): a truncated or
    edited output is rebuilt, never trusted because its name, size and date look right.
    """
    stamp = read_stamp(folder)
    if stamp is None or stamp["digest"] != digest:
        return False
    if not coverage <= set(stamp["covers"]):
        return False            # an --only or one-paper build made less than this one wants
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
        names = list(stamp.get("files", []))
        older = stamp.get("older", [])
        names += older if isinstance(older, list) else []
    except (OSError, ValueError, AttributeError, TypeError):
        return set()
    return {name for name in names if isinstance(name, str) and _inside(name)}


def _inside(name: str) -> bool:
    """A stamp is a file in the output folder anyone may edit: it never names a file outside its target."""
    parts = PurePosixPath(name).parts
    return bool(parts) and not PurePosixPath(name).is_absolute() and ".." not in parts and parts[0] != STAMP


def stamp_text(digest: str, files: dict[str, tuple[int, str]], covers: frozenset[str],
               older: frozenset[str] | set[str] = frozenset()) -> bytes:
    """The stamp written last, once every file of the target is in place."""
    listed = {name: [size, sha256] for name, (size, sha256) in sorted(files.items())}
    return json.dumps({"format": STAMP_FORMAT, "digest": digest, "covers": sorted(covers),
                       "files": listed, "older": sorted(older)}, indent=1).encode()


@dataclass(frozen=True)
class NewStamp:
    """What a target's stamp says after this build, and which old files the build removes."""

    files: dict[str, tuple[int, str]]
    covers: frozenset[str]
    older: set[str]
    removed: set[str]


def next_stamp(folder: Path, digest: str | None, made: dict[str, tuple[int, str]],
               coverage: frozenset[str]) -> NewStamp:
    """Merge this build's files into what the target's old stamp says.

    The build removes the old files of the parts it makes (`coverage`) that it no longer makes. Old
    files of other parts stay where they are, listed as made (and trusted) only when the old stamp
    has this very digest, else as `older`.
    """
    old_names = stamped_names(folder)
    selected = {name for name in old_names if coverage_of(name) in coverage}
    removed = selected - set(made)
    stamp = read_stamp(folder)
    if stamp is not None and stamp["digest"] == digest:
        kept = {name: tuple(entry) for name, entry in stamp["files"].items()
                if coverage_of(name) not in coverage and name not in made}
        older = {name for name in stamp["older"] if coverage_of(name) not in coverage} - set(made)
        return NewStamp({**kept, **made}, coverage | set(stamp["covers"]), older, removed)
    return NewStamp(made, coverage, old_names - selected - set(made), removed)


def retired_targets(out: Path, game_id: str, editions, languages) -> list[tuple[str, str, str]]:
    """The targets built before into `out` that the game no longer has (an edition or a language taken out
    of game.yaml): folders <game>/<edition>/<lang> holding a stamp. The pseudo-locale, built only when
    asked for by name, is never one."""
    current = {(str(edition), str(lang)) for edition in editions for lang in languages}
    found = []
    try:
        for edition in sorted(os.scandir(out / game_id), key=lambda entry: entry.name):
            if not edition.is_dir(follow_symlinks=False):
                continue
            for lang in sorted(os.scandir(edition.path), key=lambda entry: entry.name):
                if lang.name != PSEUDO and (edition.name, lang.name) not in current \
                        and os.path.isfile(os.path.join(lang.path, STAMP)):
                    found.append((game_id, edition.name, lang.name))
    except OSError:          # no output yet, or not a folder
        pass
    return found


def retire_targets(out: Path, keys: list[tuple[str, str, str]]) -> list[str]:
    """Remove what pnp built for each target: the files its stamp lists and the stamp (a file of the
    user's own in the folder stays), then the folders left empty up to the game's. Each target is one
    change, undone on an error."""
    retired = []
    for key in keys:
        folder = out.joinpath(*key)
        names = stamped_names(folder)
        with Staging(out) as staging:
            swap = Swap(staging)
            swap.remove(folder / STAMP)
            for name in sorted(names):
                swap.remove(folder / name)
            swap.commit()
        remove_empty_folders({(folder / name).parent for name in names} | {folder}, out / key[0])
        retired.append("/".join(key))
    return retired


def commit_targets(staging: Staging, built: dict[tuple[str, str, str], dict[str, tuple[int, str]]],
                   digests: dict[tuple[str, str, str], str], coverage: frozenset[str]) -> None:
    """Move every built target's staged files into place as one change.

    Old stamps go first, then the new files, then the files an old stamp listed that this build
    no longer makes (of the parts it was asked for), and the new stamps last. The swap is
    journaled (files.Swap): an error undoes it all, Ctrl-C waits for the end, and a swap cut by
    kill -9 is completed by the next pnp command before it does anything else.
    """
    folders = {key: staging.out.joinpath(*key) for key in built}
    stamps = {key: next_stamp(folders[key], digests.get(key), files, coverage) for key, files in built.items()}
    for key, stamp in stamps.items():
        if key in digests:
            staged = staging.staged(folders[key] / STAMP)
            staged.parent.mkdir(parents=True, exist_ok=True)
            staged.write_bytes(stamp_text(digests[key], stamp.files, stamp.covers, stamp.older))
    swap = Swap(staging)
    for folder in folders.values():
        swap.remove(folder / STAMP)
    for key, files in built.items():
        for name in sorted(files):
            swap.put(staging.staged(folders[key] / name), folders[key] / name)
    emptied: set[Path] = set()
    for key in built:
        for name in sorted(stamps[key].removed):
            swap.remove(folders[key] / name)
            emptied.add((folders[key] / name).parent)
    for key in stamps:
        if key in digests:
            swap.put(staging.staged(folders[key] / STAMP), folders[key] / STAMP)
    swap.commit()
    for key in built:
        remove_empty_folders({folder for folder in emptied if folders[key] in folder.parents}, folders[key])
