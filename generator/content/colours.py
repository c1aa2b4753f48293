"""How a colour is written in content: '#rrggbb', or 'cmyk(c, m, y, k)' in percent.

The schema checks palettes with it and layout checks every colour a box or style
names with it, so the render stage (generator.render.colour) only meets colours it can ink.
"""

from __future__ import annotations

COLOUR_PATTERN = r"^(#[0-9a-fA-F]{6}|cmyk\(\s*[\d.]+\s*,\s*[\d.]+\s*,\s*[\d.]+\s*,\s*[\d.]+\s*\))$"
