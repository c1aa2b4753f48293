"""The cache of fitted texts: what laying out a face cost, kept on disk between builds.

Under the cache folder (`PNP_CACHE_DIR`, default ~/.cache/pnp):

- `layouts/`: every text a face sets (its fitted lines, the costly part of laying out a
  card: ~1 ms of a card's 1.1 ms), keyed by a digest of everything the fit reads — the
  words and their markup, the box's room, the resolved style (fonts, size range, leading,
  language, line-breaking rules, inline icons' files), the fonts' bytes and the engine's
  own source. One file per game folder; a build loads it once and writes it back when
  anything new was set. Editing one card's words sets only that card's texts again.
  The files a build opens are its `LayoutFiles` (the build context owns them and saves them
  when the build ends).
- `faces/`: a face's PNG at a resolution (generator/face_images.py, above the components
  stage whose faces it hashes).

A digest covers every input, so a hit is the very result the engine would compute: the
built files are byte-identical with or without the cache (PNP_NO_CACHE=1 turns it off).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.cache_folder import cache_root, oldest_beyond
from generator.caches import cached
from generator.engine import engine_digest
from generator.input_files import file_signature
from generator.text.digests import sha256_hex

if TYPE_CHECKING:        # (the setter is handed in: this module sits below no stage that would import it)
    from generator.text.fonts import FontLibrary
    from generator.text.setter import TextSetter

LAYOUTS_FORMAT = 3       # the file's layout (records, 3: each with its checksum); the engine's source is in its name
MAX_GAME_FILES = 64      # games' files kept; the least recently built go first
MAX_LAYOUTS = 200_000     # entries kept in one game's file (a 10,000-card deck in 8 languages has ~100,000)


def enabled() -> bool:
    return os.environ.get("PNP_NO_CACHE", "") in ("", "0")


def file_digest(path: Path) -> str:
    """A file's bytes, hashed once while the file stays as it is ('' for a file that cannot be read: the
    loader reports it). A long process (`pnp serve`) sees a file edited in place: the digest is
    remembered by the file's stat signature (text/digests.py), which any write changes."""
    try:
        return sha256_hex(path)
    except (OSError, ValueError):
        return ""


def stable(value) -> str:
    """A text that is the same for equal values in every process (set order, hash seeds aside);
    a file path stands for its bytes."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (bool, int, float)) or value is None:
        return repr(value)
    if isinstance(value, Path):
        return f"file({str(value)!r},{file_digest(value)})"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(stable(item) for item in value) + ")"
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(stable(item) for item in value)) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{stable(k)}:{stable(v)}" for k, v in value.items())) + "}"
    if dataclasses.is_dataclass(value):
        return type(value).__name__ + "(" + ",".join(stable(getattr(value, field.name))
                                                     for field in dataclasses.fields(value)) + ")"
    raise TypeError(f"no stable form for {type(value).__name__}")


# A style's stable form holds the digests of the files it names (inline icons): a file table, so
# `pnp serve` sees an icon edited in place once the game's files changed (`Caches.files_changed`).
@cached("face_cache.stable_style", maxsize=1024, reads_files=True)
def _stable_style(style: Any) -> str:
    return stable(style)


class LayoutCache(dict):
    """TextSetter.layouts backed by the game's file of fitted texts.

    fit_text asks `get((paragraphs, width, height, style))` (fit_whole_words adds its name to the
    key) and stores what it computes: a key
    not in memory is looked up on disk by its digest; a hit registers the fonts its lines use
    (as fitting them would have).

    The file is a run of records, one per fitted text, each pickled on its own: reading keeps
    the file's bytes and unpickles a text only when a build asks for it, and writing pickles
    one text at a time straight into the file. (One pickle of the whole table needed its memo
    of every object at once: +100 MiB for a 10,000-card deck.)"""

    def __init__(self, setter: TextSetter, game_folder: Path):
        super().__init__()
        self.setter = setter
        self.fonts = _fonts_digest(setter.library)
        self.path = cache_root() / "layouts" / (hashlib.sha256(
            f"{game_folder.resolve()}:{engine_digest()}:{self.fonts}".encode()).hexdigest()[:24] + ".records")
        self.stored: dict[str, memoryview | tuple] = _read(self.path)   # digest → record (or its value)
        self.fresh: dict[str, tuple] = {}                                 # digest → (layout, faces it uses)
        self.ensured: set[str] = set()
        self._font_faces: dict[str, tuple] = {}      # font name → the library's keys of its face

    def get(self, key, default=None):
        found = dict.get(self, key)
        if found is not None:
            return found
        digest = self.digest(key)
        entry = self.stored.get(digest)
        if entry is None:
            return default
        try:
            layout, faces = pickle.loads(entry) if isinstance(entry, memoryview) else entry
        except Exception:        # a damaged record: set the text again
            return default
        self.stored[digest] = (layout, faces)      # (its record's bytes are not needed again)
        for run in layout.runs:     # each record has its own copies of the few font and colour names: share them
            object.__setattr__(run, "font", sys.intern(run.font))
            object.__setattr__(run, "color", sys.intern(run.color))
        for face in faces:
            if face not in self.ensured:
                self.ensured.add(face)
                self.setter.library.face(*face)
        dict.__setitem__(self, key, layout)
        return layout

    def __setitem__(self, key, layout) -> None:
        dict.__setitem__(self, key, layout)
        self.fresh[self.digest(key)] = (layout, self._faces_of(layout))

    def _faces_of(self, layout) -> tuple:
        """The library's keys of the faces the layout's lines are set in, sorted."""
        keys: set = set()
        for run in layout.runs:
            known = self._font_faces.get(run.font)
            if known is None:
                known = self._font_faces[run.font] = tuple(
                    face_key for face_key, face in self.setter.library._faces.items() if face.name == run.font)
            keys.update(known)
        return tuple(sorted(keys))

    def digest(self, key) -> str:
        paragraphs, width, height, style, *how = key    # how: the fit's mode beyond fit_text's (a name)
        # paragraphs are tuples of frozen dataclasses of text and flags: pickle's bytes are stable
        # and made in C; the style (sets, icon files) is put in its stable form once
        digest = hashlib.sha256(pickle.dumps((paragraphs, width, height, *how), protocol=4))
        digest.update(_stable_style(style).encode())
        return digest.hexdigest()

    def save(self) -> None:
        """Write the file back if anything new was set (atomically: builds may run side by side)."""
        if not self.fresh:
            return
        merged: dict = {**self.stored, **self.fresh}
        if len(merged) > MAX_LAYOUTS:       # keep what this process set, then the newest others
            keep = list(self.stored)[-(MAX_LAYOUTS - len(self.fresh)):] if MAX_LAYOUTS > len(self.fresh) else []
            merged = {**{digest: self.stored[digest] for digest in keep}, **self.fresh}
        try:
            _write(self.path, merged)
        except OSError:
            return            # a read-only cache folder: the build is only slower next time
        self.stored, self.fresh = merged, {}
        _prune(self.path.parent, MAX_GAME_FILES)


# a record: the digest (64 hex digits), the pickle's length (4 bytes, little-endian), the CRC-32 of the
# digest and the pickle (4 bytes: a damaged record, or one moved under another digest, is set again), the pickle
_MAGIC = b"pnp-layouts\n"
_DIGEST = 64
_HEAD = _DIGEST + 8


def _checksum(digest: bytes, data) -> int:
    return zlib.crc32(data, zlib.crc32(digest))


def _write(path: Path, entries: dict) -> None:
    """The records of `entries` (digest → record bytes or (layout, faces)) written beside `path`, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as file:
            file.write(_MAGIC + LAYOUTS_FORMAT.to_bytes(4, "little"))
            for digest, entry in entries.items():
                data = entry if isinstance(entry, memoryview) else pickle.dumps(entry, pickle.HIGHEST_PROTOCOL)
                key = digest.encode("ascii")
                file.write(key + len(data).to_bytes(4, "little") + _checksum(key, data).to_bytes(4, "little"))
                file.write(data)
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()


def _prune(folder: Path, keep: int) -> None:
    """The least recently written files of the folder beyond `keep` removed (tests make a game a run)."""
    try:
        for path in oldest_beyond(folder.glob("*.records"), keep) + list(folder.glob("*.pickle")):
            path.unlink(missing_ok=True)      # (*.pickle: the files of format 1, unread now)
    except OSError:
        pass


def _read(path: Path) -> dict[str, memoryview | tuple]:
    """The file's records by digest, each still pickled (a file of another format: none; one cut short: what it
    holds whole; a record whose checksum fails is left out)."""
    try:
        data = memoryview(path.read_bytes())
    except OSError:
        return {}
    head = len(_MAGIC) + 4
    if bytes(data[:len(_MAGIC)]) != _MAGIC or int.from_bytes(data[len(_MAGIC):head], "little") != LAYOUTS_FORMAT:
        return {}
    records: dict[str, memoryview | tuple] = {}
    offset = head
    while offset + _HEAD <= len(data):
        key = bytes(data[offset:offset + _DIGEST])
        length = int.from_bytes(data[offset + _DIGEST:offset + _DIGEST + 4], "little")
        checksum = int.from_bytes(data[offset + _DIGEST + 4:offset + _HEAD], "little")
        start = offset + _HEAD
        if start + length > len(data):
            break
        record = data[start:start + length]
        if _checksum(key, record) == checksum:
            records[key.decode("ascii", "replace")] = record
        offset = start + length
    return records


def _fonts_digest(library: FontLibrary) -> str:
    """Every font file the library can set text in (the game's own included), by its path and stat
    signature (input_files.file_signature: inode, size, times): a font edited or installed again is
    another digest, and no build reads ~40 MB of font files to know (~40 ms) — at worst a file put
    back byte for byte sets its texts once more."""
    parts = []
    for name, family in sorted(library.families.items()):
        files = (family.upright, family.italic, family.bold, family.bold_italic)
        parts.append(f"{name}:" + ",".join(f"{file}@{file_signature(Path(file))}" if file else "-"
                                           for file in files))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


class LayoutFiles:
    """The game files of fitted texts one build opened: each setter's layouts backed by its game's
    file (`attach`), written back when anything new was set (`save`, and `close` when the build
    ends: the build context does it, so no file waits for the interpreter's exit)."""

    def __init__(self) -> None:
        self._open: list[LayoutCache] = []

    def attach(self, setter: TextSetter, game_folder: Path) -> None:
        """Back the setter's fitted texts with the game's file (nothing when PNP_NO_CACHE is set)."""
        if not enabled():
            return
        cache = LayoutCache(setter, game_folder)
        cache.update(setter.layouts)
        setter.layouts = cache
        self._open.append(cache)

    def save(self) -> None:
        """Write every file that set new texts (they stay open: drawing may fit more, a rulebook's)."""
        for cache in self._open:
            cache.save()

    def close(self) -> None:
        """Write what is new and let the files go (their setters keep what they hold)."""
        self.save()
        self._open.clear()
