"""Lengths with units: '63mm', '2.5in', '9pt', '1cm' or a bare number of millimetres."""

from __future__ import annotations

import re

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
PT_PER_MM = 72.0 / 25.4

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt)?\s*$")


def parse_length(value: object, default_unit: str = "mm") -> float:
    """Return the length in millimetres; raise ValueError with a readable message."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length such as 63mm, 2.5in or 9pt, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value) * MM_PER_UNIT[default_unit]
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if match:
            number, unit = match.groups()
            return float(number) * MM_PER_UNIT[unit or default_unit]
    raise ValueError(f"expected a length such as 63mm, 2.5in or 9pt, got {value!r}")


def parse_font_size(value: object) -> float:
    """Font sizes default to points; returns points."""
    return parse_length(value, default_unit="pt") * PT_PER_MM


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    return pt / PT_PER_MM
