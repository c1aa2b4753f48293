"""Shape boxes: rect, ellipse, line and triangle fill their box; a polygon goes through its corners.

Colours are resolved where they are written (a bad fill is reported at `fill:`); a
polygon's corners may come from the subject's field.
"""

from __future__ import annotations

from generator.components.box_call import BoxCall, DrawTemplate
from generator.components.piece import Ellipse, Item, Line, Polygon, Rect, Triangle
from generator.components.subject import MISSING, value_of
from generator.content.payloads import field_name, parse_points


def _paint(call: BoxCall) -> dict:
    """The box's fill, outline colour, width and dashes, colours resolved where they are written."""
    box = call.box
    return {"fill": call.colour(getattr(box, "fill", None), "fill"), "stroke": call.colour(box.stroke, "stroke"),
            "stroke_width": box.stroke_width, "dash": tuple(box.dash) if box.dash else None}


def layout_rect(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """A rectangle filling the call's frame, its corners rounded by the box's radius."""
    return [Rect(*call.frame, **_paint(call), radius=call.box.radius)]


def layout_ellipse(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """An ellipse touching the frame's sides."""
    return [Ellipse(*call.frame, **_paint(call))]


def layout_line(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """A line from the frame's top-left to its bottom-right."""
    return [Line(*call.frame, **_paint(call))]


def layout_triangle(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """A triangle filling the frame, pointing where the box says."""
    return [Triangle(*call.frame, **_paint(call), point=call.box.point)]


def layout_polygon(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """A polygon through its corners [x, y], in mm from the frame's top-left."""
    box = call.box
    points = value_of(box.points, call.subject)
    if points is MISSING:
        call.require(box.points)      # says which field is missing
        return []
    corners, issues = parse_points(points, field_name(box.points, "points"))
    for issue in issues:
        call.report(box.points, issue)
    if corners is None:
        return []
    x, y, _, _ = call.frame
    return [Polygon(x, y, 0, 0, fill=call.colour(box.fill, "fill"), stroke=call.colour(box.stroke, "stroke"),
                    stroke_width=box.stroke_width, dash=tuple(box.dash) if box.dash else None,
                    points=tuple((x + px, y + py) for px, py in corners))]
