"""Output files written whole or not at all.

One file: written beside its final name, then renamed (`write_atomically`). A build:
every file of every target is first written into a private staging folder inside the
output folder (same filesystem, so a rename is atomic), and only once all of them are
drawn does a `Swap` rename them into place, as one change that is undone on an error.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import threading
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Iterator

STAGING_PREFIX = ".pnp-staging-"


def write_atomically(path: Path, data: bytes, inside: Path | None = None) -> None:
    """Write beside the target, then rename: a crash never leaves a half-written file. With `inside`,
    the folder the file belongs to: a link on the way there leading out of it is refused (ENOTDIR,
    which `output_problem` words), never written through."""
    if inside is not None:
        linked = outside_link(path.parent, inside)
        if linked is not None:
            raise NotADirectoryError(errno.ENOTDIR, "a link leading out of the output folder is in the way",
                                     str(linked))
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

    Entering it also finishes what dead builds (killed, power lost) left behind: a swap they had
    begun is completed from its journal, then their staging folders are removed.
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
    """Staging folders whose build process is no longer alive: debris of a killed build. A swap it had
    begun is first completed (or, if it cannot be, undone) from its journal, so that no target is left
    with files of two builds."""
    try:
        entries = list(os.scandir(out))
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(STAGING_PREFIX):]
        if entry.name.startswith(STAGING_PREFIX) and pid.isdigit() and int(pid) != os.getpid() \
                and not _alive(int(pid)) and entry.is_dir(follow_symlinks=False):
            _finish_journal(out, Path(entry.path))
            shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True             # someone else's process
    return True


JOURNAL = "swap-journal.json"


class Swap:
    """Staged files renamed into place, and old outputs removed, as one change.

    `put` and `remove` plan the steps; `commit` writes them to a journal in the staging folder,
    then carries them out. Each step can tell from the files alone whether it was done (a put's
    staged file is gone, a removed file's aside copy exists), so a swap cut by kill -9 is completed
    by the next pnp command (`remove_dead_staging`), and one that fails is undone step by step into
    states the journal can still complete. A replaced file is hard-linked aside first, so no final
    path is ever empty. No step follows a link out of the output folder: a file is never put or
    removed through a linked folder (`outside_link`).
    """

    def __init__(self, staging: Staging):
        self.out = staging.out
        self.folder = staging.folder
        self.steps: list[tuple[str, str, str]] = []      # (put|remove, staged, final), relative to out

    def put(self, staged: Path, final: Path) -> None:
        self.steps.append(("put", self._relative(staged), self._relative(final)))

    def remove(self, final: Path) -> None:
        """Plan the removal of an old output (nothing for a missing path or a folder)."""
        if os.path.lexists(final) and not (final.is_dir() and not final.is_symlink()):
            self.steps.append(("remove", "", self._relative(final)))

    def commit(self) -> None:
        """Carry out every planned step as one change: Ctrl-C waits for the end, an error undoes it all."""
        if not self.steps:
            return
        journal = self.folder / JOURNAL
        _write_synced(journal, json.dumps({"out": str(self.out), "steps": self.steps}).encode())
        with interrupts_deferred():
            _carry_out(self.out, self.folder, self.steps)
        journal.unlink()

    def _relative(self, path: Path) -> str:
        return Path(path).relative_to(self.out).as_posix()


def _carry_out(out: Path, folder: Path, steps: list[tuple[str, str, str]]) -> None:
    """Every step not yet done, in order; on an error, every step undone, the last first."""
    done = 0
    links: dict[Path, Path | None] = {}
    created: list[Path] = []
    try:
        for done, step in enumerate(steps, start=1):
            _step_forward(out, folder, done, *step, links, created)
    except BaseException:
        for number in range(done, 0, -1):
            try:
                _step_back(out, folder, number, *steps[number - 1])
            except OSError:
                pass
        for made in reversed(created):          # the folders this swap made, now empty again
            try:
                made.rmdir()
            except OSError:
                pass
        raise


def _aside(folder: Path, number: int, final: str) -> Path:
    return folder / ".replaced" / f"{number}-{PurePosixPath(final).name}"


def _step_forward(out: Path, folder: Path, number: int, kind: str, staged: str, final: str,
                  links: dict[Path, Path | None], created: list[Path]) -> None:
    target, kept = out / final, _aside(folder, number, final)
    linked = outside_link(target.parent, out, links)
    if kind == "remove":
        if linked is None and not os.path.lexists(kept) and os.path.lexists(target):
            kept.parent.mkdir(parents=True, exist_ok=True)
            os.replace(target, kept)
        return                  # a file behind a link out of the output folder is not pnp's to remove
    source = out / staged
    if not os.path.lexists(source):
        return                  # done before the build was cut
    if linked is not None:
        raise NotADirectoryError(errno.ENOTDIR, "a link leading out of the output folder is in the way",
                                 str(linked))
    created += _make_folders(target.parent)
    if os.path.lexists(target) and not os.path.lexists(kept):
        if target.is_dir() and not target.is_symlink():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        kept.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(target, kept, follow_symlinks=False)
        except OSError:          # a file system without hard links: move it aside instead
            os.replace(target, kept)
    os.replace(source, target)


def _step_back(out: Path, folder: Path, number: int, kind: str, staged: str, final: str) -> None:
    """Undo one step into the state before it (a put's new file goes back to its staged name)."""
    target, kept = out / final, _aside(folder, number, final)
    if kind == "put" and not os.path.lexists(out / staged) and os.path.lexists(target):
        os.replace(target, out / staged)
    if os.path.lexists(kept):
        os.replace(kept, target)


def _finish_journal(out: Path, folder: Path) -> None:
    """Complete the swap a dead build had begun; if that fails, undo it. Silent: either way every
    target ends whole, as one build wrote it."""
    try:
        journal = json.loads((folder / JOURNAL).read_bytes())
        read = [tuple(step) for step in journal["steps"]]
        if not all(len(step) == 3 and step[0] in ("put", "remove") and all(isinstance(p, str) for p in step)
                   and _inside_out(step[1]) and _inside_out(step[2]) for step in read):
            return
        steps = [(kind, staged, final) for kind, staged, final in read]
    except (OSError, ValueError, KeyError, TypeError):
        return                   # no swap was begun (or its journal is not pnp's): nothing to finish
    try:
        _carry_out(out, folder, steps)
    except OSError:
        pass                     # undone by _carry_out


def _inside_out(relative: str) -> bool:
    parts = PurePosixPath(relative).parts
    return relative == "" or (not PurePosixPath(relative).is_absolute() and ".." not in parts)


def _make_folders(folder: Path) -> list[Path]:
    """The folders up to `folder` that are missing, made, outermost first; the ones it made."""
    missing = []
    while not folder.is_dir():
        if os.path.lexists(folder):      # a file (or a dangling link) where a folder belongs
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
        missing.append(folder)
        folder = folder.parent
    made = []
    for created in reversed(missing):
        created.mkdir()
        made.append(created)
    return made


def _write_synced(path: Path, data: bytes) -> None:
    """The journal reaches the disk before the first rename it describes."""
    with open(path, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())


def outside_link(path: Path, root: Path, known: dict[Path, Path | None] | None = None) -> Path | None:
    """The first folder from `root` down to `path` that is a symbolic link leading out of `root`, or None.
    `root` itself may be a link (the user's own choice); `path` must lie under it. `known` keeps the
    answers for folders already asked about (a swap asks for the same few folders a thousand times)."""
    if known is not None and path in known:
        return known[path]
    real_root = os.path.realpath(root)
    found, current = None, Path(root)
    for part in Path(path).relative_to(root).parts:
        current = current / part
        if current.is_symlink():
            resolved = os.path.realpath(current)
            if resolved != real_root and not resolved.startswith(real_root + os.sep):
                found = current
                break
    if known is not None:
        known[path] = found
    return found


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
    if number == errno.ENOTDIR and path is not None and path.is_symlink():
        return path, "a link leading out of the output folder is in the way: pnp never writes through it", \
            "remove the link (pnp builds a folder there), or build with --out into another folder; " \
            "no file was replaced"
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
