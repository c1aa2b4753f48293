"""What a build's start loads (issue 17, speed): only the stages and validators the game needs.

A build of a deck-only game neither imports the rulebook stage or the spreadsheet readers nor
builds the pydantic validators of files the game does not have; a build with nothing to do
does not import importlib.metadata. Each is checked in a child process, as `pnp` runs, by what
it has loaded when it exits. The shortcuts taken for speed are checked against what they replace.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from yaml.resolver import BaseResolver

from generator.content.yaml_source import _StrictLoader
from generator.engine import _drawing_versions, _versions_from_metadata
from tests.test_content_errors import make_game

ROOT = Path(__file__).resolve().parents[1]

# What a child `pnp` reports at exit: the modules it loaded, and which schema models have a validator.
REPORT_AT_EXIT = """\
import atexit, json, sys
def report():
    schema = sys.modules.get("generator.content.schema")
    built = sorted(name for name, value in vars(schema).items()
                   if isinstance(value, type) and getattr(value, "__pydantic_complete__", False)) if schema else []
    print(json.dumps({"modules": sorted(sys.modules), "built": built}))
atexit.register(report)
sys.argv = ["pnp"] + ARGS
from generator.__main__ import run
run()
"""


def _pnp_child(args: list[str], cwd: Path) -> dict:
    code = REPORT_AT_EXIT.replace("ARGS", repr(args))
    result = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_deck_only_build_loads_no_rulebook_no_spreadsheet_reader_and_builds_only_its_files_validators(tmp_path):
    game = make_game(tmp_path, {})
    out = tmp_path / "out"
    loaded = _pnp_child(["build", str(game), "--only", "cards", "--paper", "a4", "-q", "--jobs", "1",
                         "--out", str(out)], tmp_path)
    assert (out / "g" / "standard" / "en" / "a4" / "cards.pdf").is_file()
    modules = set(loaded["modules"])
    assert "generator.content.game" in modules and "generator.render.pdf" in modules      # it did build
    unwanted = sorted(name for name in modules
                      if name.startswith(("generator.rulebook", "generator.content.spreadsheet",
                                          "generator.content.sheet_entries", "generator.content.rules_schema")))
    assert unwanted == []          # the rulebook's models are not even created
    built = set(loaded["built"])
    assert {"Game", "CardsFile", "Template"} <= built
    assert not built & {"BoardsFile", "SheetsFile", "TokensFile", "PawnsFile", "Board", "TextStyle"}
    # its boxes were validated by the Template's validator; a kind's own is built only when a box is
    # dumped or validated alone (faces._plan reads the boxes as they are)
    assert not built & {"RectBox", "ArtBox", "TextBox"}
    # nothing is counted and no catalog of the game has a plural: no CLDR data is read (pnp's own
    # catalogs' plurals are checked by tests/i18n/test_engine_catalogs.py, not by every build)
    assert not any(name == "babel" or name.startswith("babel.") for name in modules)


def test_the_content_schema_does_not_reach_the_rulebook_models():
    """rules_schema builds on schema, never the other way round (no cycle): importing schema creates
    none of the rulebook's models, and rules.yaml's models come from rules_schema alone."""
    code = ("import sys; import generator.content.schema as schema; "
            "print('generator.content.rules_schema' in sys.modules, hasattr(schema, 'RulesFile'))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]


def test_a_build_with_nothing_to_do_does_not_import_importlib_metadata(tmp_path):
    game = make_game(tmp_path, {})
    args = ["build", str(game), "--only", "cards", "--paper", "a4", "-q", "--jobs", "1", "--out", str(tmp_path / "o")]
    _pnp_child(args, tmp_path)
    again = _pnp_child(args, tmp_path)
    assert "pydantic" not in again["modules"]          # nothing was laid out: the stamp said up to date
    assert "importlib.metadata" not in again["modules"]


def test_the_drawing_packages_versions_are_those_importlib_metadata_reports():
    assert _drawing_versions() == _versions_from_metadata()
    assert _drawing_versions()["reportlab"] != "none"


def test_the_engine_digest_changes_with_any_edit_of_the_engine_s_code(tmp_path):
    """Even an edit that keeps the file's size (a digit changed): the stamp must not trust old outputs."""
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "generator", copy / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    code = "from generator.engine import engine_digest; print(engine_digest())"

    def digest() -> str:
        result = subprocess.run([sys.executable, "-c", code], cwd=copy, capture_output=True, text=True, timeout=60,
                                env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()
    first = digest()
    assert digest() == first
    units = copy / "generator" / "units.py"
    text = units.read_text(encoding="utf-8")
    units.write_text(text + "# one more line\n", encoding="utf-8")
    assert digest() != first
    same_size = text.replace("MAX_LENGTH = 2000.0", "MAX_LENGTH = 3000.0", 1)
    assert len(same_size) == len(text) and same_size != text
    units.write_text(same_size, encoding="utf-8")
    assert digest() != first


@pytest.mark.parametrize("value", [
    "", "true", "True", "TRUE", "false", "no", "yes", "on", "null", "Null", "~", "12", "-3", "+4", "0", "0123", "0x1F",
    "1_000", "12:30", "1.5", ".5", "5.", "1e5", "1.0e+5", "-1.0E-5", ".inf", "-.Inf", ".nan", "2024-01-01",
    "2001-12-14t21:59:43.10-05:00", "<<", "=", "!x", "&a", "*b", "card", "Привет", "-", "+", ".", "@name"])
def test_the_loader_s_quick_tag_resolution_is_pyyaml_s_own(value):
    """libyaml's composer asks the loader for the tag of every value; the quick version must answer as
    PyYAML's general one does, with the loader's own resolvers (true/false only, decimal numbers)."""
    loader = _StrictLoader("")
    for implicit in ((True, False), (False, True), (False, False), (True, True)):
        assert loader.resolve(yaml.ScalarNode, value, implicit) == \
            BaseResolver.resolve(loader, yaml.ScalarNode, value, implicit)
    for kind in (yaml.SequenceNode, yaml.MappingNode):
        assert loader.resolve(kind, None, (True, False)) == BaseResolver.resolve(loader, kind, None, (True, False))
