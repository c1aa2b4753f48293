"""Face images kept on disk: a laid-out face's PNG at a resolution, under the cache folder's faces/.

Keyed by a digest of the laid-out face (every shape, placed glyph run and art placement), the art
files' bytes and the engine (`pnp serve` and `pnp preview`): an unchanged card is never rendered
twice, and an art file edited in place is a new digest (its bytes are hashed, by stat signature:
face_cache.file_digest). Output stage: it reads the laid-out faces of the components stage.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from generator.cache_folder import cache_root
from generator.components.piece import ArtPlacement, Face, walk
from generator.engine import engine_digest
from generator.face_cache import file_digest


def face_digest(face: Face, dpi: float) -> str:
    """A laid-out face at a resolution: every item it draws, its art files' bytes, the engine."""
    digest = hashlib.sha256(f"{engine_digest()}:{dpi!r}:".encode())
    digest.update(pickle.dumps((face.width, face.height, face.bleed, face.items), protocol=4))
    for item in walk(face.items):
        if isinstance(item, ArtPlacement):
            digest.update(file_digest(item.file).encode())
    return digest.hexdigest()


def face_png_path(digest: str) -> Path:
    """Where the PNG of the face of this digest is kept."""
    return cache_root() / "faces" / digest[:2] / f"{digest}.png"
