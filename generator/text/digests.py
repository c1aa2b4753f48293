"""A file's SHA-256, worked out once while the file stays as it is.

The text stage names what it keeps on disk by the digest of the file it came from: a font's cut
instances and character map (fonts.py), a hyphenation dictionary's parsed patterns (hyphenation.py).
The digest is remembered by the file's stat signature (input_files.file_signature), so a long
process (`pnp serve`) sees a file edited in place.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from generator.caches import cached
from generator.input_files import file_signature


def sha256_hex(path: Path) -> str:
    """The file's SHA-256 in hex (OSError for a file that cannot be read)."""
    return _sha256_hex(path, file_signature(path))


@cached("text.file_sha256", maxsize=1024, reads_files=True)
def _sha256_hex(path: Path, signature: tuple[int, ...]) -> str:
    # (an OSError is raised, not remembered: the next call reads the file again)
    return hashlib.sha256(path.read_bytes()).hexdigest()
