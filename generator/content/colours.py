"""How a colour is written in content: '#rrggbb', or 'cmyk(c, m, y, k)' in percent.

The schema checks every colour a palette, style or box writes with it, and layout every
colour a field gives, so the render stage (generator.render.colour) only meets colours it can ink.
`separate` is the declared conversion of an RGB colour to inks: the render stage prints CMYK with it, and
layout estimates with it what a full-bleed back costs a home printer (components/ink_saver.py).
"""

from __future__ import annotations

import re

from generator.caches import cached

COLOUR_FORMS = "'#rrggbb' or 'cmyk(c, m, y, k)', each ink a percent from 0 to 100"

_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_CMYK = re.compile(r"cmyk\((.*)\)", re.DOTALL)
# ASCII digits only: the render stage reads the inks with float(), which would take '٣' or '1_0'
_INK = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def written_as_colour(value: str) -> bool:
    """Whether a value is written as a colour itself, not as a palette name or '@field'."""
    return value.startswith(("#", "cmyk("))


def written_inks(value: str) -> list[str] | None:
    """The inks of a 'cmyk(…)' value as written, in order (None for anything else): what the check
    below judges and the render stage (generator.render.colour) reads, once it is judged a colour."""
    match = _CMYK.fullmatch(value)
    return None if match is None else [ink.strip() for ink in match.group(1).split(",")]


# layout asks for every box of every card: a deck has a few colours
@cached("content.colour_problem", maxsize=1024)
def colour_problem(value: str) -> str | None:
    """Why `value` is not a colour pnp can ink (a phrase to follow the value), or None when it is one."""
    if _HEX.fullmatch(value):
        return None
    inks = written_inks(value)
    if inks is None:
        return "is not a colour" + (": '#' takes six hex digits (0-9, a-f)" if value.startswith("#") else "")
    if len(inks) != 4:
        return f"is not a colour: cmyk takes four inks (cyan, magenta, yellow, black), not {len(inks)}"
    for name, ink in zip(("cyan", "magenta", "yellow", "black"), inks, strict=True):
        if not _INK.fullmatch(ink):
            return f"is not a colour: its {name}, {ink!r}, is not a number from 0 to 100"
        if float(ink) > 100:
            return f"is not a colour: its {name} is {ink} %, and an ink goes from 0 to 100 %"
    return None


def separate(red: float, green: float, blue: float, ink_limit: float) -> tuple[float, float, float, float]:
    """RGB (0–1) to CMYK (0–1) with full grey-component replacement, total ink ≤ ink_limit."""
    k = 1 - max(red, green, blue)
    if k >= 1:
        return 0.0, 0.0, 0.0, 1.0
    c, m, y = ((1 - value - k) / (1 - k) for value in (red, green, blue))
    total = c + m + y + k
    if total > ink_limit:                      # take the excess out of the colour inks, keep K
        scale = max(0.0, ink_limit - k) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return c, m, y, k
