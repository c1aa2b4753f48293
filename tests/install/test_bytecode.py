"""pnp's own bytecode where Python writes none (PYTHONDONTWRITEBYTECODE): kept in pnp's cache folder.

An editable install has no bytecode; with PYTHONDONTWRITEBYTECODE set, Python compiled every pnp
module again in every command. Each check runs child processes with a cache folder of their own
and a copy of the package (so an edit can be made to it), and looks at what they load.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import generator

PACKAGE = Path(generator.__file__).parent
# after `import generator` (which installs the finder), compiling any further pnp module fails
NO_COMPILING = """
import sys
import generator.bytecode as bytecode
def refuse(self, data, path):
    raise SystemExit("compiled " + path)
bytecode._CachedLoader.source_to_code = refuse
"""


def child(code: str, copy: Path, cache: Path, dont_write: bool = True) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(copy), PNP_CACHE_DIR=str(cache))
    if dont_write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=copy)


def package_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "src"
    shutil.copytree(PACKAGE, copy / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_modules_compiled_once_are_read_from_the_cache(tmp_path: Path) -> None:
    copy, cache = package_copy(tmp_path), tmp_path / "cache"
    first = child("import generator.build, generator.targets, generator.write", copy, cache)
    assert first.returncode == 0, first.stderr
    kept = {path.name.split("-")[0] for path in (cache / "bytecode").rglob("*.pyc")}
    assert {"generator.build", "generator.targets", "generator.write", "generator.text.layout"} <= kept
    assert not list(copy.rglob("__pycache__")), "nothing is written beside the sources"
    again = child(NO_COMPILING + "import generator.build, generator.targets, generator.write\n"
                  "import generator.text.layout as layout; print(layout.__file__)", copy, cache)
    assert again.returncode == 0, again.stderr + again.stdout
    assert again.stdout.strip() == str(copy / "generator" / "text" / "layout.py")


def test_an_edited_module_is_compiled_again(tmp_path: Path) -> None:
    copy, cache = package_copy(tmp_path), tmp_path / "cache"
    assert child("import generator.units", copy, cache).returncode == 0
    units = copy / "generator" / "units.py"
    units.write_text(units.read_text(encoding="utf-8") + "\nEDITED = 'yes'\n", encoding="utf-8")
    edited = child("import generator.units as units; print(units.EDITED)", copy, cache)
    assert edited.returncode == 0 and edited.stdout.strip() == "yes", edited.stderr
    # and a damaged entry is compiled again, not trusted
    for path in (cache / "bytecode").rglob("generator.units-*.pyc"):
        path.write_bytes(path.read_bytes()[:20])
    damaged = child("import generator.units as units; print(units.EDITED)", copy, cache)
    assert damaged.returncode == 0 and damaged.stdout.strip() == "yes", damaged.stderr


def test_where_python_writes_bytecode_it_is_left_to_python(tmp_path: Path) -> None:
    copy, cache = package_copy(tmp_path), tmp_path / "cache"
    result = child("import sys, generator.units; import generator.bytecode as b; "
                   "print(any(isinstance(f, b._Finder) for f in sys.meta_path))", copy, cache, dont_write=False)
    assert result.returncode == 0 and result.stdout.strip() == "False", result.stderr
    assert not (cache / "bytecode").exists()
