"""SVG art's colours in the inks that print them: greys as black ink alone, and in CMYK output every colour.

svglib draws an SVG in RGB. A printer converting an RGB grey spends all four inks on it, so every
drawing's greys become K as soon as it is read (ink-saver backs stay light, line art sharp); a CMYK
file separates every colour (render/colour.py, or an ICC profile's `separation`), and PDF/X-1a, which
has no transparency, wants each colour as it shows on white paper. Takes a ReportLab drawing; gives
it recoloured (in place, or a separated copy).
"""

from __future__ import annotations

import copy

from reportlab.lib.colors import Color

from generator.render.colour import convert
from generator.render.svg_drawing import fold_opacities


def recolour(node, mode: str, ink_limit: float, separation=None, opaque: bool = False) -> None:
    """Greys print with black ink only (an RGB grey costs all four inks once a printer converts it:
    as K alone it keeps ink-saver backs light and line art sharp); in CMYK output, every colour."""
    for attribute in ("fillColor", "strokeColor"):
        value = getattr(node, attribute, None)
        if value is not None:
            if opaque:
                value = _on_paper(value)
            setattr(node, attribute, convert(value, mode, ink_limit, separation))
    stops = getattr(node, "_rl_colors", None)      # a gradient's colours (svglib's gradient shapes)
    if stops and mode == "cmyk":                    # (all of one kind: a shading has one colour space)
        node._rl_colors = [convert(_on_paper(colour) if opaque else colour, mode, ink_limit, separation)
                           for colour in stops]
    if opaque:
        for attribute in ("fillOpacity", "strokeOpacity"):
            if getattr(node, attribute, None) is not None:
                setattr(node, attribute, 1)
    for child in getattr(node, "contents", ()):
        recolour(child, mode, ink_limit, separation, opaque)


def separated(drawing, ink_limit: float, separation=None, opaque: bool = False):
    """A copy of the drawing with every colour separated to CMYK (through `separation`'s profile when
    given); `opaque`: every colour with opacity as it shows on white paper, at full opacity (PDF/X-1a)."""
    copied = copy.deepcopy(drawing)
    if opaque:         # a group's opacity into its colours' alpha, which recolour mixes with the paper
        fold_opacities(copied)
    recolour(copied, "cmyk", ink_limit, separation, opaque)
    return copied


def _on_paper(colour):
    """A colour with opacity as it shows on white paper, opaque (PDF/X-1a has no transparency)."""
    alpha = getattr(colour, "alpha", 1) or 0
    if type(colour) is not Color or alpha >= 1:
        return colour
    def mix(value: float) -> float:
        return 1 - alpha * (1 - value)
    return Color(mix(colour.red), mix(colour.green), mix(colour.blue))
