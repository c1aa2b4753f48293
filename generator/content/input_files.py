"""Reading a game's text files: only regular files, inside the folder they belong to, of a sane size.

Every YAML file the engine reads (game files, catalogs, templates) comes through here.
Links are followed before the check, so a `cards.yaml` linked to /etc/passwd is refused
without a byte of it read (and so never echoed in an error); a FIFO or a device is
refused without being opened (opening a FIFO blocks until someone writes to it).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_TEXT_BYTES = 16 * 1024 * 1024   # 16 MiB: a 10,000-card deck with its own words on every card is ~2 MiB


class InputFileError(Exception):
    """A file the engine will not read; `message` says why and `hint` what to do."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.message, self.hint = message, hint


def read_text_file(file: Path, root: Path) -> str:
    """The UTF-8 text of `file`, which must lie inside `root` once links are followed."""
    resolved_root = root.resolve()
    try:
        resolved = file.resolve(strict=True)
    except FileNotFoundError:
        raise InputFileError("file not found", "create it or fix the reference to it") from None
    except (OSError, RuntimeError) as error:   # a link loop, a name too long
        raise InputFileError(f"cannot be read: {_reason(error)}", "fix or remove the link") from None
    if resolved != resolved_root and resolved_root not in resolved.parents:
        raise InputFileError(f"leads outside {_folder_name(root)} (to {resolved})",
                             "copy the file into the folder instead of linking to it")
    kind = _kind(resolved)
    if kind != "file":
        raise InputFileError(f"is a {kind}, not a file", f"replace it with a regular {file.suffix or 'text'} file")
    data = _read_bounded(resolved)
    try:
        return data.decode("utf-8-sig")       # a BOM from a Windows editor is not an error
    except UnicodeDecodeError as error:
        raise InputFileError(f"not UTF-8 text ({error.reason} at byte {error.start})",
                             "save the file as UTF-8") from None


def _kind(path: Path) -> str:
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device"


def _read_bounded(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_TEXT_BYTES + 1)
    except OSError as error:
        raise InputFileError(f"cannot be read: {_reason(error)}", "check the file's permissions") from None
    if len(data) > MAX_TEXT_BYTES:
        raise InputFileError(f"is larger than {MAX_TEXT_BYTES // 2**20} MiB, more than any game's text needs",
                             "split it, or check that it is the file you meant")
    return data


def _reason(error: OSError | RuntimeError) -> str:
    return getattr(error, "strerror", None) or str(error)


def _folder_name(root: Path) -> str:
    return "the templates folder" if root.name == "templates" else "the game folder"
