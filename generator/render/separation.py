"""Colour separation through an ICC output profile (littlecms via Pillow's ImageCms), for PDF/X files.

Every RGB colour (vector fills and strokes, SVG art, raster art) goes from sRGB to the
output profile's CMYK with the relative colorimetric intent, then its total ink is held
under the limit the same way the declared separation does it (render/colour.py).
Neutral greys stay black ink only, as everywhere in pnp: text and line art print sharp.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field

from generator.caches import cached


class ProfileError(Exception):
    """An --icc file that cannot serve as a CMYK output profile; the message says why."""


@dataclass(frozen=True)
class ProfileSeparation:
    """sRGB → the profile's CMYK. Equal (and hashed) by the profile's digest."""

    profile: bytes = field(compare=False, repr=False)
    digest: str = ""
    description: str = ""

    @classmethod
    def of(cls, profile: bytes) -> "ProfileSeparation":
        """The separation of a CMYK output profile's bytes, or ProfileError."""
        from PIL import ImageCms     # (a PDF/X build only: the build context loads this module at start)
        try:
            opened = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        except (OSError, ValueError, TypeError) as error:
            raise ProfileError(f"not an ICC profile ({error})") from None
        space = opened.profile.xcolor_space.strip()
        if space != "CMYK":
            raise ProfileError(f"an ICC profile of {space} colours; PDF/X's output intent needs a CMYK "
                               "(printer) profile")
        description = (ImageCms.getProfileDescription(opened) or "CMYK").strip()
        return cls(profile, hashlib.sha256(profile).hexdigest(), description)

    @property
    def _transform(self):
        """sRGB → the profile's CMYK (built once per profile, in the build's caches)."""
        return _profile_transform(self)

    def rgb(self, red: float, green: float, blue: float, ink_limit: float) -> tuple[float, float, float, float]:
        """One colour (0–1 each) as CMYK (0–1 each), total ink ≤ ink_limit; greys on K alone."""
        if red == green == blue:
            return 0.0, 0.0, 0.0, 1 - red
        from PIL import Image     # (a PDF/X build only, as above)
        pixel = Image.new("RGB", (1, 1), tuple(round(255 * v) for v in (red, green, blue)))
        c, m, y, k = (v / 255 for v in self._transform.apply(pixel).getpixel((0, 0)))
        return limit_ink(c, m, y, k, ink_limit)

    def image(self, image, ink_limit: float):
        """A PIL image in the profile's CMYK, total ink ≤ ink_limit (alpha, if any, is the caller's)."""
        cmyk = self._transform.apply(image.convert("RGB"))
        if ink_limit >= 4.0:
            return cmyk
        # (raster art of a PDF/X build only: numpy, PIL and the colour module's ReportLab load late)
        import numpy    # whole rows at once, not pixel by pixel
        from PIL import Image

        from generator.render.colour import in_bands
        limited = in_bands(numpy.asarray(cmyk), 4, lambda band: _limited_band(band, ink_limit))
        return Image.fromarray(limited, "CMYK")


# built once per profile (littlecms takes a while): a build has one profile, a test a few
@cached("render.icc_transform", maxsize=8)
def _profile_transform(separation: ProfileSeparation):
    """sRGB → the profile's CMYK, relative colorimetric."""
    from PIL import ImageCms     # (a PDF/X build only)
    source = ImageCms.createProfile("sRGB")
    target = ImageCms.ImageCmsProfile(io.BytesIO(separation.profile))
    return ImageCms.buildTransform(source, target, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


def _limited_band(band, ink_limit: float):
    """Rows of CMYK inks (uint8) with the ink over the limit taken out of C, M and Y, as limit_ink does."""
    import numpy     # (raster art only)
    inks = band.astype(numpy.float64) / 255
    colour, black = inks[..., :3].sum(axis=2), inks[..., 3]
    over = colour + black > ink_limit
    scale = numpy.ones_like(colour)
    scale[over] = numpy.clip(ink_limit - black[over], 0, None) / numpy.maximum(colour[over], 1e-9)
    inks[..., :3] *= scale[..., None]
    return numpy.rint(inks * 255).astype(numpy.uint8)


def limit_ink(c: float, m: float, y: float, k: float, ink_limit: float) -> tuple[float, float, float, float]:
    """Take ink over the limit out of C, M and Y, keeping K."""
    total = c + m + y + k
    if total > ink_limit and c + m + y > 0:
        scale = max(0.0, ink_limit - k) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return c, m, y, k
