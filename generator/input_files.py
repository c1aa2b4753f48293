"""Every file a game gives the engine to read — YAML, catalogs, templates, art, fonts — goes through here:
found inside its folder, regular files only, read within a size.

Links are followed before any check, so a link cannot lead out of the game folder (a
`cards.yaml` linked to /etc/passwd is refused unread, and so never echoed in an error). A
FIFO, a device or a folder is refused from its stat, never opened: opening a FIFO blocks
until someone writes to it. The file is opened non-blocking and checked again on the open
handle, so one swapped in after the first check cannot block or slip through either.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


MAX_TEXT_BYTES = 16 * 2**20   # YAML: a 10,000-card deck with its own words on every card is ~2 MiB


class FileRefused(Exception):
    """A file the engine will not read; the message says why, `hint` what to do, `position`
    the 1-based line and column of the fault when it lies inside the file."""

    def __init__(self, message: str, hint: str = "replace it with a regular file",
                 position: tuple[int, int] | None = None):
        super().__init__(message)
        self.hint = hint
        self.position = position


def shown(name: str) -> str:
    """A file name as it may be printed: control characters escaped as in repr, no quotes added.

    A file name is user data: a raw ESC or U+202E in it would rewrite the user's terminal line.
    """
    return repr(str(name))[1:-1]


def quoted(name: str) -> str:
    """A file name in quotes, control characters escaped (repr)."""
    return repr(str(name))


def locate(folder: Path, relative: str) -> tuple[Path, str | None]:
    """The file a game names and None, or why it cannot be used.

    The reason is 'outside', 'missing', 'unreadable: <why>' or the kind of special file
    ('folder', 'named pipe (FIFO)', 'socket', 'device').
    """
    root = folder.resolve()
    try:
        path = (root / relative).resolve()
    except (OSError, RuntimeError, ValueError) as error:   # a link loop, a NUL byte, a name too long
        return root / relative, f"unreadable: {_reason(error)}"
    if root not in path.parents:
        return path, "outside"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return path, "missing"
    except (OSError, ValueError) as error:
        return path, f"unreadable: {_reason(error)}"
    kind = file_kind(mode)
    return path, None if kind == "file" else kind


def file_signature(path: Path) -> tuple[int, ...]:
    """What changes when the file does (a stat, never an open): a key for caching what was read from it;
    () for a file that is not there. The change time moves with every write, which no tool can set back,
    so an edit that keeps the size and puts the modification time back is seen; a file put in its place
    (os.replace) is another inode, a folder or a pipe another mode."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return ()
    return status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_mode


def file_kind(mode: int) -> str:
    """'file' for a regular file, else what it is, in words."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device"


def problem_message(problem: str, relative: str) -> str:
    """What `locate`'s reason means, as the user reads it."""
    if problem == "outside":
        return f"{quoted(relative)} is outside the game folder"
    if problem == "missing":
        return f"file not found: {shown(relative)}"
    if problem.startswith("unreadable: "):
        return f"cannot read {quoted(relative)}: {problem.removeprefix('unreadable: ')}"
    return f"{quoted(relative)} is a {problem}, not a regular file"


def open_regular(path: Path, max_bytes: int, what: str, too_big_hint: str = ""):
    """A binary handle on a regular file of at most `max_bytes`; FileRefused otherwise.

    O_NONBLOCK: a FIFO put in the file's place since `locate` checked it does not block the open.
    O_NOFOLLOW: `path` is resolved, so a link appearing there since is refused, not followed.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except (OSError, ValueError) as error:
        raise FileRefused(f"cannot be opened: {_reason(error)}") from None
    try:
        status = os.fstat(descriptor)
        kind = file_kind(status.st_mode)
        if kind != "file":
            raise FileRefused(f"is a {kind}, not a regular file")
        if status.st_size > max_bytes:
            raise FileRefused(f"refused: {status.st_size / 2**20:.1f} MB is more than any {what} needs "
                              f"(at most {max_bytes // 2**20} MB)",
                              too_big_hint or f"check that it is the {what} you meant")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path: Path, max_bytes: int, what: str, too_big_hint: str = "") -> bytes:
    """The bytes of a regular file of at most `max_bytes` (read in one go, so what is checked is
    what is used); FileRefused otherwise."""
    with open_regular(path, max_bytes, what, too_big_hint) as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:     # grown since its stat
        raise FileRefused(f"refused: more than any {what} needs (at most {max_bytes // 2**20} MB)",
                          too_big_hint or f"check that it is the {what} you meant")
    return data


def _reason(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error) or type(error).__name__


def read_text_file(file: Path, root: Path) -> str:
    """The UTF-8 text of a game's YAML `file`, which must lie inside `root` once links are followed."""
    path, problem = locate(root, str(file.absolute().relative_to(root.absolute())))
    if problem == "missing":
        raise FileRefused("file not found", "create it or fix the reference to it")
    if problem == "outside":
        where = "the templates folder" if root.name == "templates" else "the game folder"
        raise FileRefused(f"leads outside {where} (to {shown(str(path))})",
                          "copy the file into the folder instead of linking to it")
    if problem is not None and problem.startswith("unreadable: "):
        raise FileRefused(f"cannot be read: {problem.removeprefix('unreadable: ')}", "fix or remove the link")
    if problem is not None:
        raise FileRefused(f"is a {problem}, not a regular file", f"replace it with a regular {file.suffix} file")
    data = read_regular(path, MAX_TEXT_BYTES, "game file",
                        "no game's text needs that much: check that it is the file you meant")
    try:
        return data.decode("utf-8-sig")       # a BOM from a Windows editor is not an error
    except UnicodeDecodeError as error:
        raise FileRefused(f"not UTF-8 text: byte {data[error.start]:#04x} cannot be read ({error.reason})",
                          "save the file as UTF-8 (an editor's 'save with encoding')",
                          _line_and_column(data, error.start)) from None


def _line_and_column(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in characters, as an editor counts them) of a byte offset."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    before = data[line_start:offset].decode("utf-8", "replace").removeprefix("\ufeff")
    return data.count(b"\n", 0, offset) + 1, len(before) + 1
