"""How a colour is written in content: '#rrggbb', or 'cmyk(c, m, y, k)' in percent.

The schema checks palettes with it and layout checks box colours with it; the render
stage reads the same pattern when it turns a colour into ink (generator.render.colour).
"""

from __future__ import annotations

COLOUR_PATTERN = r"^(#[0-9a-fA-F]{6}|cmyk\(\s*[\d.]+\s*,\s*[\d.]+\s*,\s*[\d.]+\s*,\s*[\d.]+\s*\))$"
