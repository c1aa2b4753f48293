"""The engine's own identity: a digest of pnp's source and of the packages that draw.

Stamped on every built target (incremental.py) and mixed into the keys of the on-disk caches of
fitted texts and face images (face_cache.py, face_images.py): a different engine never trusts what
another one built. Foundation stage: it reads only files and package metadata, and imports nothing of pnp's
stages, so every stage above may ask for it.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys

from generator.caches import cached

DRAWING_PACKAGES = ("reportlab", "pypdfium2", "svglib", "fonttools", "pyphen", "babel", "pillow",
                    "fontpkg-nunito", "fontpkg-inter", "fontpkg-noto-sans",
                    "icu4py", "python-bidi",      # ICU's break rules and dictionaries; the bidi levels
                    "uharfbuzz")                  # the shaping: every width and glyph
# the files of the package that make the engine: its code and the fonts it ships (generator/fonts)
ENGINE_FILES = (".py", ".ttf", ".otf")


# The code that runs does not change while it runs: an edit of pnp's sources is a new engine for the
# next process, so the digest is worked out once per set of caches and is no file cache to empty
# (`Caches.files_changed`, which `pnp serve` calls for the game's files).
@cached("engine.digest", maxsize=1)
def engine_digest() -> str:
    """What the engine is: every .py and font file of the package (its name and bytes) and the versions
    of the packages that draw. A build stamps it on each target; any edit of the engine changes it."""
    digest = hashlib.sha256()
    package = os.path.dirname(os.path.abspath(__file__))
    sources = []
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        sources += [os.path.join(folder, name) for name in names if name.endswith(ENGINE_FILES)]
    for relative, path in sorted((os.path.relpath(path, package), path) for path in sources):
        digest.update(relative.encode())
        with open(path, "rb") as file:
            digest.update(file.read())
    for name, version in _drawing_versions().items():
        digest.update(f"{name}={version}".encode())
    return digest.hexdigest()


def _drawing_versions() -> dict[str, str]:
    """The installed version of each of DRAWING_PACKAGES ('none' when it is not installed).

    Read, as importlib.metadata finds it, from the first `<name>-<version>.dist-info` folder along
    sys.path, in 0.5 ms: asking importlib.metadata cost ~4 ms, and importing it ~9 ms more (which a
    build that lays out pays anyway, for pydantic, but a no-op build does not). A package whose
    metadata is anywhere else (an .egg-info, a zip on sys.path) is asked of importlib.metadata itself.
    """
    wanted = {_normalised(name): name for name in DRAWING_PACKAGES}
    found: dict[str, str | None] = {}           # normalised name → version (None: ask importlib.metadata)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except NotADirectoryError:              # a zip: only importlib.metadata reads its metadata
            return _versions_from_metadata()
        except OSError:                         # missing or unreadable: importlib.metadata skips it too
            continue
        for folder in names:
            stem, _, kind = folder.rpartition(".")
            if kind not in ("dist-info", "egg-info"):
                continue
            name, _, version = stem.partition("-")
            key = _normalised(name)
            if key in wanted and key not in found:
                found[key] = version if kind == "dist-info" and version else None
    if any(version is None for version in found.values()):
        return _versions_from_metadata()
    return {name: found.get(key) or "none" for key, name in wanted.items()}


def _versions_from_metadata() -> dict[str, str]:
    from importlib import metadata     # (~9 ms to import: only where the folders above did not say)
    versions = {}
    for name in DRAWING_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "none"
    return versions


def _normalised(name: str) -> str:
    """A distribution's name as its metadata folder spells it, compared case-blind (PEP 503/427)."""
    return re.sub(r"[-_.]+", "_", name).lower()
