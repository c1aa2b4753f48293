"""Where pnp keeps what it works out once and reuses: PNP_CACHE_DIR, else $XDG_CACHE_HOME/pnp, else ~/.cache/pnp.

Font instances (fonts/), parsed hyphenation dictionaries (hyphenation/), fitted texts (layouts/),
face images (faces/) and `pnp serve`'s builds (serve/). A bytecode/ folder there was left by
earlier versions (which kept pnp's compiled modules in it) and may be deleted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def cache_root() -> Path:
    root = os.environ.get("PNP_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pnp")
    return Path(root)


def oldest_beyond(files: Iterable[Path], keep: int) -> list[Path]:
    """The files but the `keep` most recently written: what a bounded cache folder removes. A file
    another process removed meanwhile is left out."""
    dated = []
    for path in files:
        try:
            dated.append((path.stat().st_mtime, path))
        except OSError:
            pass
    return [path for _, path in sorted(dated, reverse=True)[keep:]]
