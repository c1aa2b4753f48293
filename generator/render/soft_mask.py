"""Transparency as ReportLab writes it into a form: raster art's alpha as a soft mask, an SVG's
opacities as graphics states. Below both the drawing (render/pdf.py) and the flattening
(render/transparency.py), which use it."""

from __future__ import annotations

import secrets
from typing import Any

from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFFormXObject, PDFResourceDictionary, xObjectName
from reportlab.pdfgen.canvas import Canvas

from generator.render.colour import on_paper, separate_image
from generator.render.separation import ProfileSeparation

OPAQUE = 255

# The flattened rasters are CMYK: blended in the output's CMYK as a PDF/X-4 page with transparency prints
# (its blending space is the output intent's). PNG has no CMYK, so the four inks ride in an RGBA PNG's four
# channels, marked by a text chunk whose value is this process's own (no art file can carry it by chance).
CMYK_MARK = "pnp-cmyk"
CMYK_TOKEN = secrets.token_hex(16)


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
    if image.info.get(CMYK_MARK) != CMYK_TOKEN:
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


def carry_graphics_states(canvas: Canvas, name: str) -> None:
    """Give the form `name`, just ended, the graphics states (opacities) its drawing selects.

    ReportLab notes them on the form (Canvas._setExtGState) but PDFFormXObject.format writes the
    form's /Resources without any /ExtGState: its `/gRLs0 gs` named nothing, and every fill- or
    stroke-opacity inside an art form was drawn opaque. The form becomes one whose resources have them.
    """
    form = canvas._doc.idToObject.get(xObjectName(name))
    if type(form) is PDFFormXObject and form.ExtGState:
        form.__class__ = FormWithGraphicsStates


class FormWithGraphicsStates(PDFFormXObject):
    """A form whose resources name the graphics states its drawing selects (see carry_graphics_states)."""

    def format(self, document: Any) -> bytes:
        if not getattr(self, "Resources", None):         # the resources PDFFormXObject.format makes, and the states
            resources = PDFResourceDictionary()
            resources.basicFonts()
            if self.hasImages:
                resources.allProcs()
            else:
                resources.basicProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            resources.ExtGState = self.ExtGState
            self.Resources = resources
        written: bytes = super().format(document)
        return written
