"""Lengths with units: '63mm', '2.5in', '9pt', '1cm' or a bare number of millimetres.

Every length read from content is finite and inside a range a real game never leaves
(NaN or 1e30 mm would reach the PDF as '-nan' or a number viewers refuse): the
ranges are here, and the messages that name them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

MM_PER_UNIT: Mapping[str, float] = MappingProxyType({"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0})
PT_PER_MM = 72.0 / 25.4

MAX_LENGTH = 2000.0      # mm: a template, a box, a position (a 1 m board is already huge)
MAX_FONT_SIZE = 1000.0   # pt: a board's title is 30 pt

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt)?\s*$")
_FORMS = "such as 63mm, 2.5in or 9pt"


class OutOfRange(ValueError):
    """A number that parsed but lies outside its range (or is NaN or infinite); carries a hint."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def parse_length(value: object, default_unit: str = "mm") -> float:
    """Return the length in millimetres; raise ValueError with a readable message.

    NaN and infinity are refused here, whatever the field's range.
    """
    if isinstance(value, bool):
        raise ValueError(f"expected a length {_FORMS}, got {value!r}")
    if isinstance(value, (int, float)):
        length = float(value) * MM_PER_UNIT[default_unit]
    elif isinstance(value, str) and (match := _LENGTH.match(value)):
        number, unit = match.groups()
        length = float(number) * MM_PER_UNIT[unit or default_unit]
    else:
        raise ValueError(f"expected a length {_FORMS}, got {value!r}")
    if not math.isfinite(length):
        raise OutOfRange(f"expected a finite length {_FORMS}, got {shown(value)}",
                         "write a number of millimetres, or a number with a unit")
    return length


def parse_font_size(value: object) -> float:
    """Font sizes default to points; returns points."""
    return parse_length(value, default_unit="pt") * PT_PER_MM


def shown(value: object) -> str:
    """A value as the user wrote it: YAML's .nan and .inf rather than Python's nan and inf."""
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    return repr(value)


def _number(value: float) -> str:
    return f"{value:,g}" if abs(value) < 1e6 else f"{value:g}"


def length_in(low: float | None, high: float, *, above: bool = False,
              what: str = "a length", unit: str = "mm") -> Callable[[object], float]:
    """A validator: parse a length (font sizes: unit 'pt') and keep it in [low, high].

    `above` makes low exclusive (a size must be more than 0); low None leaves the
    lower bound to a constraint declared beside it.
    """
    parse = parse_font_size if unit == "pt" else parse_length

    def validate(value: object) -> float:
        try:
            length = parse(value)
        except OutOfRange:
            length = math.nan
        too_low = low is not None and (length <= low if above else length < low)
        if math.isnan(length) or too_low or length > high:
            raise OutOfRange(f"expected {what} {_range(low, high, above, unit)}, got {shown(value)}",
                             _range_hint(unit))
        return length
    return validate


def _range(low: float | None, high: float, above: bool, unit: str) -> str:
    if low is None:
        return f"of at most {_number(high)} {unit}"
    if above:
        return f"above {_number(low)} and at most {_number(high)} {unit}"
    return f"from {_number(low)} to {_number(high)} {unit}"


def _range_hint(unit: str) -> str:
    if unit == "pt":
        return "font sizes are points (9pt, or 9); check for a typo"
    return "lengths are millimetres unless a unit is given (63mm, 6.3cm, 2.5in, 9pt); check for a typo"


def number_in(low: float, high: float, *, above: bool = False, what: str = "a number",
              hint: str = "check for a typo") -> Callable[[object], float]:
    """A validator for plain numbers (coordinates, weights): finite and in [low, high]."""

    def validate(value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"expected {what}, got {value!r}")
        number = float(value)
        too_low = number <= low if above else number < low
        if math.isnan(number) or too_low or number > high:
            bounds = (f"above {_number(low)} and at most {_number(high)}" if above
                      else f"from {_number(low)} to {_number(high)}")
            raise OutOfRange(f"expected {what} {bounds}, got {shown(value)}", hint)
        return number
    return validate


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    return pt / PT_PER_MM
