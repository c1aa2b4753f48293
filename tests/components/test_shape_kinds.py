"""Shapes typed per kind: each kind's class drawn by render/pdf.py's table, measured in pixels.

One 100 × 60 mm face per case, rendered at SCALE pixels per mm;
a pixel is looked up at a point in mm from the face's top-left, so a shape drawn in the wrong
place, the wrong way up or not at all changes what is read there.
"""

from __future__ import annotations

import dataclasses

import pypdfium2 as pdfium
import pytest

from generator.components.piece import Curve, Ellipse, Face, Line, Polygon, Rect, Shape, Triangle
from generator.imposition.sheet import Document, Page, Placement
from generator.render.pdf import _DRAW, SHAPE_OUTLINES, FacePainter, render_pdf
from generator.text.fonts import FontLibrary

RED, WHITE = (255, 0, 0), (255, 255, 255)
SCALE = 4            # pixels per mm


def _pixels(*items: Shape):
    """The face's pixels (SCALE per mm) and a reader of the colour at (x, y) mm."""
    face = Face("shapes", 100, 60, 0, tuple(items))
    page = Page(100, 60, (Placement(face, 0, 0, (0, 0, 100, 60)),))
    pdf = render_pdf(Document([page]), FontLibrary().face("nunito").name)
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=SCALE * 25.4 / 72).to_pil().convert("RGB")
    document.close()
    return lambda x, y: image.getpixel((round(x * SCALE), round(y * SCALE)))


def _red(colour) -> bool:
    return colour[0] > 200 and colour[1] < 60 and colour[2] < 60


def test_every_shape_class_has_its_outline_and_its_row_in_the_draw_table() -> None:
    kinds = {cls for cls in (Rect, Ellipse, Line, Curve, Triangle, Polygon)}
    assert set(SHAPE_OUTLINES) == kinds
    assert kinds <= set(_DRAW) and all(hasattr(FacePainter, _DRAW[cls]) for cls in _DRAW)
    assert {cls.kind for cls in kinds} == {"rect", "ellipse", "line", "curve", "triangle", "polygon"}
    for cls in kinds:                    # frozen values: equal shapes are one item to the layer planner
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen


def test_a_rect_and_its_rounded_corner() -> None:
    at = _pixels(Rect(10, 10, 40, 30, fill="#ff0000", radius=8))
    assert _red(at(30, 25)) and _red(at(10.5, 25)) and _red(at(30, 10.5))
    assert at(10.6, 10.6) == WHITE            # the corner is rounded off
    assert at(55, 25) == WHITE


def test_an_ellipse_touches_its_frame_but_not_its_corners() -> None:
    at = _pixels(Ellipse(10, 10, 60, 40, fill="#ff0000"))
    assert _red(at(40, 30)) and _red(at(11, 30)) and _red(at(40, 11))
    assert at(12, 12) == WHITE


@pytest.mark.parametrize(("point", "inside", "outside"), [
    ("right", (45, 30), (45, 12)),     # tip at the middle of the right side
    ("left", (15, 30), (15, 12)),
    ("up", (30, 15), (12, 15)),
    ("down", (30, 45), (12, 45)),
])
def test_a_triangle_points_where_it_says(point, inside, outside) -> None:
    at = _pixels(Triangle(10, 10, 40, 40, fill="#ff0000", point=point))
    assert _red(at(*inside)), point
    assert at(*outside) == WHITE, point


def test_a_polygon_goes_through_its_points_and_a_line_is_stroked() -> None:
    at = _pixels(Polygon(0, 0, 0, 0, fill="#ff0000", points=((60, 10), (90, 10), (90, 50))),
                 Line(5, 55, 50, 0, stroke="#ff0000", stroke_width=1.0))
    assert _red(at(85, 15)) and at(65, 45) == WHITE         # the triangle's half above its diagonal
    assert _red(at(30, 55)) and at(30, 53) == WHITE


def test_a_curve_bends_towards_its_control_point() -> None:
    at = _pixels(Curve(10, 50, 80, 0, stroke="#ff0000", stroke_width=1.0, control=(50, 10)))
    # a quadratic curve from (10, 50) to (90, 50) through control (50, 10) peaks at y = 30 in its middle
    assert _red(at(50, 30)) and at(50, 49.5) == WHITE
