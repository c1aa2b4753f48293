"""JSON Schemas of the content files, for editors (VS Code's YAML extension and others).

Each content file starts with `# yaml-language-server: $schema=<relative path>`,
so a designer gets completion, descriptions and validation while typing. The schemas
are written where the games are (`pnp schema`, `pnp new`) and also ship inside the
package (generator.shared_schemas), so a relative path always has something to point at.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from generator.content.project_schema import ProjectFile
from generator.content.rules_schema import RulesFile
from generator.content.schema import BoardsFile, CardsFile, Game, PawnsFile, SheetsFile, Template, TokensFile
from generator.files import write_atomically
from generator.project import PROJECT_FILE

MODELS: Mapping[str, type[BaseModel]] = MappingProxyType({
    "game": Game, "cards": CardsFile, "tokens": TokensFile, "pawns": PawnsFile, "board": BoardsFile, "rules": RulesFile,
    "sheets": SheetsFile, "template": Template, "project": ProjectFile})
HEADER = "# yaml-language-server: $schema="


def catalog_schema() -> dict[str, Any]:
    """A catalog's schema (i18n/<lang>.yaml), which no pydantic model describes: it is read by hand."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Translation catalog",
        "description": "One language: a single root key (the language code) over nested keys. A mapping of "
                       "CLDR plural categories (one, few, many, other …) is a plural. {name} is a placeholder.",
        "type": "object", "minProperties": 1, "maxProperties": 1,
        "additionalProperties": {"$ref": "#/$defs/node"},
        "$defs": {"node": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"},
                                     {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}}]}},
    }


def schemas() -> dict[str, dict]:
    result = {name: model.model_json_schema() for name, model in MODELS.items()}
    result["catalog"] = catalog_schema()
    return result


def schema_text(schema: dict) -> str:
    return json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_schemas(folder: Path) -> int:
    """Every schema as <name>.schema.json in `folder`; how many."""
    written = schemas()
    for name, schema in written.items():
        write_atomically(folder / f"{name}.schema.json", schema_text(schema).encode("utf-8"))
    return len(written)


def schema_folder_of(game_folder: Path) -> Path:
    """The folder the game's schema lines point at (its game.yaml's first line), else its own schemas/."""
    try:
        first = (game_folder / "game.yaml").read_text(encoding="utf-8").split("\n", 1)[0]
    except (OSError, UnicodeDecodeError):
        first = ""
    if first.startswith(HEADER):
        return (game_folder / first[len(HEADER):].strip()).parent
    return game_folder / "schemas"


def kind_of(file: Path) -> str | None:
    """Which schema a content or template YAML file follows."""
    if file.name == PROJECT_FILE:
        return "project"
    if file.parent.name == "templates":
        return "template"
    if file.parent.name == "i18n":
        return "catalog"
    stem = file.stem
    return stem if stem in MODELS else None


def header_for(file: Path, schema_folder: Path) -> str:
    kind = kind_of(file)
    relative = os.path.relpath(schema_folder / f"{kind}.schema.json", file.parent)
    return HEADER + relative.replace(os.sep, "/")


def annotate(file: Path, schema_folder: Path) -> bool:
    """Put (or refresh) the schema line at the top of a YAML file; True when the file changed."""
    if kind_of(file) is None or file.is_symlink() or not file.is_file():
        return False     # a link may lead out of the game folder: never write through it
    text = file.read_text(encoding="utf-8")
    lines = text.split("\n")
    header = header_for(file, schema_folder)
    if lines and lines[0].startswith(HEADER):
        if lines[0] == header:
            return False
        lines[0] = header
    else:
        lines.insert(0, header)
    file.write_text("\n".join(lines), encoding="utf-8")
    return True
