"""The content stage keeps no module state a caller could change: the strict YAML loader's table is its
own (PyYAML's loaders read YAML 1.1 as before), and the schemas handed out are fresh each time."""

from __future__ import annotations

from pathlib import Path

import yaml

from generator.content.json_schema import schemas
from generator.content.yaml_source import parse_yaml
from generator.errors import Problems


def test_the_strict_loader_leaves_pyyamls_own_loaders_as_they_were():
    document = parse_yaml("a: yes\nb: 0123\nc: true\n", Path("x.yaml"), Problems())
    assert document is not None and document.data == {"a": "yes", "b": "0123", "c": True}
    assert yaml.safe_load("a: yes\nb: 0123\n") == {"a": True, "b": 83}        # YAML 1.1, untouched
    assert yaml.load("a: yes\n", Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) == {"a": True}


def test_each_call_hands_out_its_own_schemas():
    first = schemas()
    first["catalog"]["title"] = "changed by a caller"
    first["game"]["title"] = "changed too"
    second = schemas()
    assert second["catalog"]["title"] == "Translation catalog"
    assert second["game"]["title"] != "changed too"
