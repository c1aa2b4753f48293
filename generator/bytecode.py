"""pnp's own compiled modules, kept in pnp's cache folder where Python is told not to write them.

Where PYTHONDONTWRITEBYTECODE is set (sys.dont_write_bytecode), Python compiles every module
that has no bytecode yet from its source, on every run, and writes none. An installed wheel
has its bytecode (pip compiles it), but an editable install (`pip install -e .`, the README's)
has none: every pnp command then compiled ~90 modules again, ~0.12 s of CPU — a fifth of
building a 1,000-card deck. So pnp keeps the compiled code of its own modules, and only of its
own, in its cache folder (PNP_CACHE_DIR or ~/.cache/pnp, under bytecode/), never beside the
sources: a module's entry is used only while its source file's bytes hash the same, and one
that cannot be read or written is compiled as Python would. Everything else imports as usual.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import marshal
import os
import sys
import zlib
from pathlib import Path

# imported here, before the finder is installed: the loader needs it to find its own cache
from generator.cache_folder import cache_root

_PACKAGE = __name__.rpartition(".")[0]      # "generator"
_MAGIC = importlib.util.MAGIC_NUMBER          # this Python's bytecode format


def install() -> None:
    """Load pnp's own modules through the cache from now on (only where Python writes no bytecode)."""
    if not sys.dont_write_bytecode or any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, _Finder())


def _folder() -> Path:
    return cache_root() / "bytecode" / (sys.implementation.cache_tag or "python")


class _Finder:
    """Finds pnp's submodules as Python's path finder does, and loads them with _CachedLoader."""

    def find_spec(self, fullname: str, path=None, target=None):
        if path is None or not fullname.startswith(_PACKAGE + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
            spec.loader = _CachedLoader(spec.loader.name, spec.loader.path)
        return spec


class _CachedLoader(importlib.machinery.SourceFileLoader):
    """A module's code from the cache when its source hashes as it did, else compiled and kept."""

    def get_code(self, fullname: str):
        source = self.get_data(self.path)
        key = importlib.util.source_hash(source)
        # one entry per module and source file: two checkouts of pnp do not overwrite each other's
        cached = _folder() / f"{fullname}-{zlib.crc32(self.path.encode()):08x}.pyc"
        try:
            data = cached.read_bytes()
            if data[:4] == _MAGIC and data[4:12] == key:
                return marshal.loads(memoryview(data)[12:])
        except (OSError, ValueError, EOFError, TypeError):      # none yet, or damaged: compile it
            pass
        code = self.source_to_code(source, self.path)
        try:     # (written here, not with files.write_atomically: importing that at start costs every command)
            cached.parent.mkdir(parents=True, exist_ok=True)
            temporary = cached.with_name(f".{cached.name}.{os.getpid()}.tmp")
            temporary.write_bytes(_MAGIC + key + marshal.dumps(code))
            os.replace(temporary, cached)
        except OSError:          # a read-only cache: compiled again next time, as Python would
            pass
        return code
