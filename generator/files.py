"""Output files written whole or not at all.

One file: written beside its final name, then renamed (`write_atomically`). A build:
every file of every target is first written into a private staging folder inside the
output folder (same filesystem, so a rename is atomic), and only once all of them are
drawn does a `Swap` rename them into place, as one change that is undone on an error.
"""

from __future__ import annotations

import errno
import hashlib
import itertools
import os
import shutil
import signal
import threading
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Callable, Iterator

STAGING_PREFIX = ".pnp-staging-"


def write_atomically(path: Path, data: bytes) -> None:
    """Write beside the target, then rename: a crash never leaves a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()


def fingerprint(path: Path) -> tuple[int, str]:
    """A file's size and sha256: what a later no-op build checks before trusting it."""
    with open(path, "rb") as file:
        return os.fstat(file.fileno()).st_size, hashlib.file_digest(file, "sha256").hexdigest()


class Staging:
    """A folder `<out>/.pnp-staging-<pid>/` mirroring the output folder, removed when the build ends.

    Entering it also removes staging folders that dead builds (killed, power lost) left behind.
    """

    def __init__(self, out: Path):
        self.out = out
        self.folder = out / f"{STAGING_PREFIX}{os.getpid()}"

    def __enter__(self) -> "Staging":
        remove_dead_staging(self.out)
        shutil.rmtree(self.folder, ignore_errors=True)     # a dead build of a recycled pid
        self.folder.mkdir(parents=True)
        return self

    def __exit__(self, *failure) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def staged(self, final: Path) -> Path:
        return self.folder / final.relative_to(self.out)

    def final(self, staged: Path) -> Path:
        """The output path a staged path stands for (paths outside the staging folder are returned as they are)."""
        try:
            return self.out / Path(staged).relative_to(self.folder)
        except ValueError:
            return Path(staged)


def remove_dead_staging(out: Path) -> None:
    """Staging folders whose build process is no longer alive: debris of a killed build."""
    try:
        entries = list(os.scandir(out))
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(STAGING_PREFIX):]
        if entry.name.startswith(STAGING_PREFIX) and pid.isdigit() and int(pid) != os.getpid() \
                and not _alive(int(pid)):
            shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True             # someone else's process
    return True


class Swap:
    """Staged files renamed into place, and old outputs removed, as one change.

    Every step records how to undo it; `rollback()` restores the outputs as they were.
    A replaced file is first hard-linked aside, so even a kill -9 in the middle never
    leaves a final path empty (the caller removes stamps first so such a target is rebuilt).
    """

    def __init__(self, staging: Staging):
        self.aside = staging.folder / ".replaced"
        self.undo: list[Callable[[], object]] = []
        self._names = itertools.count()

    def put(self, staged: Path, final: Path) -> None:
        self._make_folders(final.parent)
        kept = self._link_aside(final)
        os.replace(staged, final)
        self.undo.append(partial(os.replace, kept, final) if kept else final.unlink)

    def remove(self, final: Path) -> None:
        if not os.path.lexists(final) or (final.is_dir() and not final.is_symlink()):
            return
        kept = self._aside_path(final)
        os.replace(final, kept)
        self.undo.append(partial(os.replace, kept, final))

    def rollback(self) -> None:
        """Undo every step, the last first; a step that cannot be undone does not stop the others."""
        for step in reversed(self.undo):
            try:
                step()
            except OSError:
                pass
        self.undo.clear()

    def _make_folders(self, folder: Path) -> None:
        missing = []
        while not folder.is_dir():
            if os.path.lexists(folder):      # a file (or a dangling link) where a folder belongs
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
            missing.append(folder)
            folder = folder.parent
        for created in reversed(missing):
            created.mkdir()
            self.undo.append(created.rmdir)

    def _link_aside(self, final: Path) -> Path | None:
        """A second name for the file about to be replaced; None if there is none (or it was moved aside)."""
        if not os.path.lexists(final):
            return None
        if final.is_dir() and not final.is_symlink():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(final))
        kept = self._aside_path(final)
        try:
            os.link(final, kept, follow_symlinks=False)
        except OSError:                       # a file system without hard links: move it aside instead
            self.remove(final)
            return None
        return kept

    def _aside_path(self, final: Path) -> Path:
        self.aside.mkdir(parents=True, exist_ok=True)
        return self.aside / f"{next(self._names)}-{final.name}"


def remove_empty_folders(folders: set[Path], stop: Path) -> None:
    """Folders that removing old outputs emptied (a removed deck's png/<deck>/), up to `stop`."""
    for folder in sorted(folders, key=lambda path: len(path.parts), reverse=True):
        while folder != stop and stop in folder.parents:
            try:
                folder.rmdir()
            except OSError:
                break
            folder = folder.parent


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Ctrl-C waits until the block is over: the few renames of a swap are never cut in half."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: received.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received:
            raise KeyboardInterrupt


def output_problem(error: OSError, staging: Staging | None = None) -> tuple[Path | None, str, str]:
    """An error writing outputs as (the output path, message, hint) a user can act on."""
    path = Path(error.filename) if error.filename else None
    if path is not None and staging is not None:
        path = staging.final(path)
    number = error.errno
    if number == errno.ENOSPC or number == errno.EDQUOT:
        return path, "no space left on the device for the build's files", \
            "free some space or build with --out on another disk; no file was replaced"
    if number == errno.ENOTDIR or (number == errno.EEXIST and path is not None and not path.is_dir()):
        return _file_in_the_way(path), "a file is in the way where pnp needs a folder", \
            "move or delete that file, or build with --out into another folder; no file was replaced"
    if number == errno.EISDIR:
        return path, "a folder is in the way where pnp writes a file", \
            "move or delete that folder, or build with --out into another folder; no file was replaced"
    if number in (errno.EACCES, errno.EPERM, errno.EROFS):
        return path, "cannot write here: permission denied (or a read-only file system)", \
            "make the folder writable (chmod u+w, chattr -i) or build with --out into another folder; " \
            "no file was replaced"
    return path, f"could not write: {error.strerror or error}", \
        "check the output folder, or build with --out into another folder; no file was replaced"


def _file_in_the_way(path: Path | None) -> Path | None:
    """The outermost part of `path` that exists and is not a folder: what the user must move."""
    if path is None:
        return None
    for part in reversed([path, *path.parents]):
        if os.path.lexists(part) and not part.is_dir():
            return part
    return path
