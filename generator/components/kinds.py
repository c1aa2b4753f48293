"""The one table from a box's kind to its layout: each kind's function takes a BoxCall and a DrawTemplate.

A kind is its model in generator/content/schema.py (BOX_KINDS: its keys, its JSON
Schema) and its function here; `READS_FIELDS_ONLY_BY_VALUE` says which kinds may be laid
out once per template when no value of the box is an '@field'.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from generator.components.art_box import layout_art
from generator.components.box_call import BoxLayout
from generator.components.cells import layout_cells
from generator.components.network import layout_network
from generator.components.shapes import layout_ellipse, layout_line, layout_polygon, layout_rect, layout_triangle
from generator.components.text_boxes import table_items, text_items
from generator.content.schema import BOX_KINDS

LAYOUTS: Mapping[str, BoxLayout] = MappingProxyType({
    "rect": layout_rect,
    "ellipse": layout_ellipse,
    "line": layout_line,
    "triangle": layout_triangle,
    "polygon": layout_polygon,
    "art": layout_art,
    "table": table_items,
    "text": text_items,        # reads card fields through {placeholders} too
    "cells": layout_cells,     # and cells and networks through their cells and nodes
    "network": layout_network,
})

# Kinds whose items depend on nothing but the box when no value is an '@field': laid out once.
READS_FIELDS_ONLY_BY_VALUE = frozenset({"rect", "ellipse", "line", "triangle", "art", "polygon", "table"})

# Kinds whose box must lie inside the safe area (their words could be cut off).
WORDS = frozenset({"text", "table"})

assert set(LAYOUTS) == set(BOX_KINDS), "every kind of the schema has its layout, and no other"
