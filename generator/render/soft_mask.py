"""Transparency as ReportLab writes it into a form: raster art's alpha as a soft mask, an SVG's
opacities as graphics states and transparency groups, in forms whose resources name all they use.
Below both the drawing (render/pdf.py) and the flattening (render/transparency.py), which use it."""

from __future__ import annotations

import hashlib
from typing import Any

from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import (PDFDictionary, PDFFormXObject, PDFName, PDFResourceDictionary, PDFStream,
                                      xObjectName)
from reportlab.pdfgen.canvas import Canvas

from generator.caches import cached
from generator.engine import engine_digest
from generator.render.colour import on_paper, separate_image
from generator.render.separation import ProfileSeparation
from generator.render.svg_drawing import GROUP_OPACITY

OPAQUE = 255

# The flattened rasters are CMYK: blended in the output's CMYK as a PDF/X-4 page with transparency prints
# (its blending space is the output intent's). PNG has no CMYK, so the four inks ride in an RGBA PNG's four
# channels, marked by a text chunk whose value is the engine's own (cmyk_token).
CMYK_MARK = "pnp-cmyk"


def cmyk_token() -> str:
    """The value that marks a flattened raster: no art file carries it by chance, and the same engine writes
    it alike in every process — the raster's bytes name its form, so a value of the process's own made each
    PDF/X-1a build of transparent art another file."""
    return hashlib.sha256(f"{CMYK_MARK}:{engine_digest()}".encode()).hexdigest()[:32]


def cmyk_image(image: Image.Image, ink_limit: float, separation: ProfileSeparation | None = None,
               keep_alpha: bool = True) -> ImageReader:
    """A ReportLab image of `image` separated to CMYK: its alpha kept as the image's soft mask
    (`keep_alpha`) or, where a file may carry no transparency, its transparent pixels showing the paper."""
    flattened = cmyk_pixels(image)
    if flattened is not None:
        return ImageReader(flattened)
    alpha = alpha_channel(image)
    if alpha is None or not keep_alpha:
        return ImageReader(separate_image(on_paper(image), ink_limit, separation))
    return _CmykWithAlpha(separate_image(image.convert("RGB"), ink_limit, separation), alpha)


def cmyk_pixels(image: Image.Image) -> Image.Image | None:
    """The CMYK image a flattened raster carries, or None for any other image."""
    if image.info.get(CMYK_MARK) != cmyk_token():
        return None
    return Image.frombytes("CMYK", image.size, image.convert("RGBA").tobytes())


def alpha_channel(image: Image.Image) -> Image.Image | None:
    """The image's alpha channel ('L'), or None when every pixel is opaque."""
    if image.mode not in ("RGBA", "LA", "PA") and not (image.mode == "P" and "transparency" in image.info):
        return None
    alpha = image.convert("RGBA").getchannel("A")
    return None if alpha.getextrema()[0] == OPAQUE else alpha


class _CmykWithAlpha(ImageReader):
    """A CMYK image with a soft mask: ReportLab makes an /SMask of `_dataA`, which it fills only for RGBA
    and LA images, after reading the pixels — so it is set here once they are read."""

    def __init__(self, cmyk: Image.Image, alpha: Image.Image) -> None:
        super().__init__(cmyk)
        self._alpha_image = alpha

    def getRGBData(self) -> Any:
        data = super().getRGBData()
        self._dataA = ImageReader(self._alpha_image)
        return data


def end_form(canvas: Canvas, transparency_group: bool = False) -> None:
    """End the form being drawn on `canvas` as one whose resources name everything its drawing uses;
    `transparency_group`: one composited as a whole before it is laid on the page (its /Group).

    ReportLab notes a form's graphics states (Canvas._setExtGState) but PDFFormXObject.format writes
    the form's /Resources without any /ExtGState, and it keeps no note of the shadings drawn in it:
    a `/gRLs0 gs` or `/Sh0 sh` inside an art form then named nothing, an SVG's fill-opacity came out
    solid and its gradients black (poppler, MuPDF and Ghostscript say the resource is missing).
    """
    name = canvas._formData[0]
    shadings = dict(canvas._shadingUsed)         # endForm forgets them: taken first
    canvas.endForm()
    form = canvas._doc.idToObject.get(xObjectName(name))
    if type(form) is PDFFormXObject and (form.ExtGState or shadings or getattr(form, "_colorsUsed", None)
                                         or transparency_group):
        form.__class__ = FormWithResources
        form.shadings = shadings
        form.transparency_group = transparency_group


class FormWithResources(PDFFormXObject):
    """A form whose resources name the graphics states, shadings and colour spaces its drawing selects,
    and which may be a transparency group (see end_form)."""

    shadings: dict = {}
    transparency_group = False

    def format(self, document: Any) -> bytes:
        if not getattr(self, "Resources", None):         # the resources PDFFormXObject.format makes, and the rest
            resources = PDFResourceDictionary()
            resources.basicFonts()
            if self.hasImages:
                resources.allProcs()
            else:
                resources.basicProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            if self.ExtGState:
                resources.ExtGState = self.ExtGState
            resources.setShading(self.shadings)
            resources.setColorSpace(getattr(self, "_colorsUsed", None) or {})
            self.Resources = resources
        if self.transparency_group and not getattr(self, "Contents", None):
            # the stream PDFFormXObject.format makes, with its /Group: drawn alone, then laid down as one
            contents = PDFStream()
            contents.content = self.stream
            contents.__Comment__ = "xobject form stream"
            contents.dictionary["Group"] = PDFDictionary({"Type": PDFName("Group"), "S": PDFName("Transparency")})
            self.Contents = contents
        written: bytes = super().format(document)
        return written


def draw_drawing(drawing: Any, canvas: Canvas) -> None:
    """A ReportLab drawing drawn at the origin of the form being drawn on `canvas`, as renderPDF draws
    it, except that each group marked with an opacity (svg_drawing.GROUP_OPACITY) is drawn as a
    transparency group of its own, then laid on what lies beneath at that opacity — as SVG means a
    group's opacity (its shapes composited together first: where two overlap they do not show through
    each other)."""
    from reportlab.graphics.renderPDF import renderScaledDrawing     # (see _grouping_renderer)
    _grouping_renderer()(canvas._formData[0]).draw(renderScaledDrawing(drawing), canvas, 0, 0)


# made once per build's caches: it imports renderPDF (and with it all of platypus, ~70 ms), which a file
# without SVG art never needs
@cached("render.grouping_renderer", maxsize=1)
def _grouping_renderer():
    from reportlab.graphics.renderPDF import _PDFRenderer
    from reportlab.graphics.renderbase import getStateDelta
    from reportlab.graphics.shapes import transformPoint

    class GroupingRenderer(_PDFRenderer):
        """renderPDF's renderer, drawing a node marked with GROUP_OPACITY as a transparency group: a form
        of its own (named after the art's form, in drawing order), selected at that opacity."""

        def __init__(self, form: str) -> None:
            super().__init__()
            self.form, self.groups = form, 0

        def drawNode(self, node) -> None:
            opacity = getattr(node, GROUP_OPACITY, None)
            if opacity is None:
                super().drawNode(node)
                return
            canvas = self._canvas
            canvas.saveState()
            deltas = getStateDelta(node)       # the node's transform and paint, as drawNode sets them
            self._tracker.push(deltas)
            self.applyStateChanges(deltas, {})
            box = self._visible_box()
            if box is not None and opacity > 0:
                self.groups += 1
                name = f"{self.form}G{self.groups}"
                # a form drawn inherits the graphics state where it is drawn (but for its opacity, which a
                # transparency group starts without): ReportLab is told so, as it writes text by its font
                inherited = {key: canvas.__dict__[key] for key in canvas.STATE_ATTRIBUTES if key != "_extgstate"}
                canvas.beginForm(name, *box)
                canvas.__dict__.update(inherited)
                self.drawNodeDispatcher(node)
                end_form(canvas, transparency_group=True)
                canvas.setFillAlpha(opacity)
                canvas.setStrokeAlpha(opacity)
                canvas.doForm(name)
            self._tracker.pop()
            canvas.restoreState()

        def _visible_box(self) -> tuple[float, float, float, float] | None:
            """The drawing's own box (what its form shows) in the node's coordinates; None where the
            node is flattened to nothing (a scale of 0)."""
            a, b, c, d, e, f = self._tracker.getCTM()
            det = a * d - b * c
            if not det:
                return None
            inverse = (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
            width, height = self._drawing.width, self._drawing.height
            corners = [transformPoint(inverse, (x, y)) for x in (0, width) for y in (0, height)]
            xs, ys = [x for x, _ in corners], [y for _, y in corners]
            return min(xs), min(ys), max(xs), max(ys)

    return GroupingRenderer
