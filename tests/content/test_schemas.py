"""Editor support: committed JSON Schemas are current, and every content file names its schema."""

import json
from pathlib import Path

from generator.content.json_schema import HEADER, kind_of, schema_text, schemas

ROOT = Path(__file__).resolve().parents[2]


def test_committed_schemas_match_the_models():
    for name, schema in schemas().items():
        committed = ROOT / "schemas" / f"{name}.schema.json"
        assert committed.read_text(encoding="utf-8") == schema_text(schema), f"run `pnp schema` ({name})"


def test_every_content_file_points_at_its_schema():
    files = sorted((ROOT / "content").rglob("*.yaml")) + sorted((ROOT / "templates").glob("*.yaml"))
    assert len(files) > 20
    for file in files:
        first = file.read_text(encoding="utf-8").split("\n", 1)[0]
        assert first.startswith(HEADER), file
        target = (file.parent / first[len(HEADER):]).resolve()
        assert target.name == f"{kind_of(file)}.schema.json" and target.exists(), file


def test_lengths_accept_units_in_the_schema_and_the_schema_documents_fields():
    template = json.loads((ROOT / "schemas" / "template.schema.json").read_text())
    bleed = template["properties"]["bleed"]
    assert {"type": "string", "pattern": r"^-?\d*\.?\d+\s*(mm|cm|in|pt)?$"} in bleed["anyOf"][0]["anyOf"]
    cards = json.loads((ROOT / "schemas" / "cards.schema.json").read_text())
    assert "per edition" in json.dumps(cards)         # field descriptions travel to the editor
