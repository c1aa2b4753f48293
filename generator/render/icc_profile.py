"""pnp's own CMYK output profile: the declared separation (render/colour.py) written as an ICC v2 profile.

PDF/X needs an output intent with a CMYK profile. The profiles print shops name
(FOGRA39, GRACoL, SWOP) are characterisation data whose profile files may not be
redistributed freely, and none with a free licence was found to ship (colord's
FOGRA/GRACoL profiles are not in Debian's colord-data; Ghostscript's default_cmyk.icc
is AGPL): `pnp build --pdfx` uses the shop's profile given with `--icc`, or else this
one, made here byte for byte, so it is pnp's own work under pnp's licence.

It describes the conversion pnp has always declared: CMYK (c, m, y, k) prints the sRGB
colour ((1 − c)(1 − k), (1 − m)(1 − k), (1 − y)(1 − k)); the reverse table separates with
full grey-component replacement. It is a printer ('prtr') profile, CMYK to Lab (D50),
with 16-bit lookup tables (lut16Type) in both directions.

An ICC v2 output profile carries a pair of tables per rendering intent and a gamut tag
(ICC.1:2001-04, 6.3.3 "Output profile": desc, A2B0/B2A0 perceptual, A2B1/B2A1 colorimetric,
A2B2/B2A2 saturation, gamt, wtpt, cprt). pnp separates with the relative colorimetric intent
(render/separation.py), and this profile's one pair of tables is that mapping: its media
white is the PCS white (D50, Lab 100 0 0), so relative and absolute colorimetric coincide, and
a colour outside the gamut is clipped by chroma at its hue and lightness, with no perceptual
compression. So the three intents' tags name the same two tables (tag-table entries may share
one element's data, which littlecms reads as linked tags): a colour management module asked
for relative colorimetric finds A2B1/B2A1, where it used to fall back to the perceptual pair.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from generator.caches import cached
from generator.render.colour import separate

DESCRIPTION = "pnp CMYK (declared GCR separation of sRGB)"
COPYRIGHT = "No copyright: made by pnp's generator/render/icc_profile.py (CC0 1.0)"
A2B_GRID = 9          # CMYK → Lab: 9^4 points
B2A_GRID = 17         # Lab → CMYK, and Lab → in or out of gamut: 17^3 points
# the rendering intents' table tags (perceptual, relative colorimetric, saturation), each naming the same data
A2B_TAGS = (b"A2B0", b"A2B1", b"A2B2")
B2A_TAGS = (b"B2A0", b"B2A1", b"B2A2")
D50 = (0.9642, 1.0, 0.8249)
# sRGB (D65) to XYZ D50 (Bradford-adapted), as the ICC's sRGB profiles have it
RGB_TO_XYZ_D50 = ((0.4360747, 0.3850649, 0.1430804),
                  (0.2225045, 0.7168786, 0.0606169),
                  (0.0139322, 0.0971045, 0.7141733))
XYZ_D50_TO_RGB = ((3.1338561, -1.6168667, -0.4906146),
                  (-0.9787684, 1.9161415, 0.0334540),
                  (0.0719453, -0.2289914, 1.4052427))


def _linear(value: float) -> float:
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> float:
    value = min(1.0, max(0.0, value))
    return 12.92 * value if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055


def _f(t: float) -> float:
    return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29


def _f_inverse(t: float) -> float:
    return t ** 3 if t > 6 / 29 else 3 * (6 / 29) ** 2 * (t - 4 / 29)


def srgb_to_lab(red: float, green: float, blue: float) -> tuple[float, float, float]:
    linear = [_linear(v) for v in (red, green, blue)]
    x, y, z = (sum(row[i] * linear[i] for i in range(3)) for row in RGB_TO_XYZ_D50)
    fx, fy, fz = _f(x / D50[0]), _f(y / D50[1]), _f(z / D50[2])
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _lab_to_linear(lightness: float, a: float, b: float) -> list[float]:
    fy = (lightness + 16) / 116
    x, y, z = D50[0] * _f_inverse(fy + a / 500), D50[1] * _f_inverse(fy), D50[2] * _f_inverse(fy - b / 200)
    return [sum(row[i] * (x, y, z)[i] for i in range(3)) for row in XYZ_D50_TO_RGB]


def _inside(linear: list[float]) -> bool:
    """Linear sRGB within the cube: a colour the declared separation prints (its CMYK reaches every sRGB colour)."""
    return all(-1e-6 <= value <= 1 + 1e-6 for value in linear)


def _fitting_chroma(lightness: float, a: float, b: float) -> float:
    """The share of Lab's chroma that fits sRGB's gamut at its hue and lightness (1: all of it)."""
    if _inside(_lab_to_linear(lightness, a, b)):
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(20):
        middle = (low + high) / 2
        low, high = (middle, high) if _inside(_lab_to_linear(lightness, a * middle, b * middle)) else (low, middle)
    return low


def lab_to_srgb(lightness: float, a: float, b: float) -> tuple[float, float, float]:
    """The sRGB colour of Lab; outside sRGB's gamut the chroma is reduced (hue and lightness kept) until it fits."""
    share = _fitting_chroma(lightness, a, b)
    return _srgb(lightness, a * share, b * share)


def _srgb(lightness: float, a: float, b: float) -> tuple[float, float, float]:
    red, green, blue = (_encoded(value) for value in _lab_to_linear(lightness, a, b))
    return red, green, blue


def _lab16(lightness: float, a: float, b: float) -> tuple[int, int, int]:
    """Lab in the ICC v2 16-bit encoding of lut16Type: L 0–100 → 0–0xFF00, a and b −128 → 0, +127.996 → 0xFFFF."""
    def clamp(value: float) -> int:
        return max(0, min(0xFFFF, round(value)))
    return clamp(lightness * 0xFF00 / 100), clamp((a + 128) * 256), clamp((b + 128) * 256)


def _lut16(inputs: int, outputs: int, grid: int, clut: Sequence[tuple[int, ...]]) -> bytes:
    identity = struct.pack(">2H", 0, 0xFFFF)
    matrix = struct.pack(">9i", 65536, 0, 0, 0, 65536, 0, 0, 0, 65536)
    body = b"mft2" + bytes(4) + struct.pack(">4B", inputs, outputs, grid, 0) + matrix + struct.pack(">2H", 2, 2)
    body += identity * inputs
    body += b"".join(struct.pack(f">{outputs}H", *entry) for entry in clut)
    return body + identity * outputs


def _a2b0() -> bytes:
    steps = [index / (A2B_GRID - 1) for index in range(A2B_GRID)]
    clut = []
    for c in steps:                 # the first input channel varies slowest
        for m in steps:
            for y in steps:
                for k in steps:
                    rgb = ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
                    clut.append(_lab16(*srgb_to_lab(*rgb)))
    return _lut16(4, 3, A2B_GRID, clut)


def _from_lab() -> tuple[bytes, bytes]:
    """The two tables from Lab, over one grid: B2A (Lab → CMYK, the separation) and gamt (Lab → how far out
    of gamut). gamt says 0 where the colour prints as asked, else the chroma the separation clips (ΔE*ab,
    1/100 of full scale each), so that a colour on the gamut's edge, between grid points in and out, reads
    as just out and not as far out; under half a ΔE counts as printed (the white point itself comes out of
    the 7-digit matrices a hair over the cube)."""
    separation, gamut = [], []
    for li in range(B2A_GRID):
        for ai in range(B2A_GRID):
            for bi in range(B2A_GRID):
                lightness, a, b = _lab_grid_point(li, ai, bi, B2A_GRID)
                lightness = min(lightness, 100.0)     # the top row's L of 100.4 is the paper white's
                share = _fitting_chroma(lightness, a, b)
                # to 8-bit levels first, as colours arrive: near black, the formula would turn a
                # millionth of a hue into full colour ink under the K
                red, green, blue = (round(v * 255) / 255 for v in _srgb(lightness, a * share, b * share))
                cmyk = separate(red, green, blue, 4.0)
                separation.append(tuple(max(0, min(0xFFFF, round(v * 0xFFFF))) for v in cmyk))
                clipped = (1 - share) * math.hypot(a, b)
                gamut.append((0 if clipped < 0.5 else min(0xFFFF, round(clipped / 100 * 0xFFFF)),))
    return _lut16(3, 4, B2A_GRID, separation), _lut16(3, 1, B2A_GRID, gamut)


def _lab_grid_point(li: int, ai: int, bi: int, grid: int) -> tuple[float, float, float]:
    """Lab at a grid point of a table from Lab, in the 16-bit encoding: L to 100 · 0xFFFF / 0xFF00, a and b to
    +127.996."""
    lightness = li / (grid - 1) * 0xFFFF * 100 / 0xFF00
    a, b = (index / (grid - 1) * 0xFFFF / 256 - 128 for index in (ai, bi))
    return lightness, a, b


def _desc(text: str) -> bytes:
    ascii_text = text.encode("ascii") + b"\0"
    return (b"desc" + bytes(4) + struct.pack(">I", len(ascii_text)) + ascii_text
            + struct.pack(">II", 0, 0) + struct.pack(">HB", 0, 0) + bytes(67))


def _text(text: str) -> bytes:
    return b"text" + bytes(4) + text.encode("ascii") + b"\0"


def _xyz(x: float, y: float, z: float) -> bytes:
    return b"XYZ " + bytes(4) + struct.pack(">3i", *(round(v * 65536) for v in (x, y, z)))


@cached("render.pnp_cmyk_profile", maxsize=1)
def pnp_cmyk_profile() -> bytes:
    """The profile's bytes (the same on every machine)."""
    # each element of data once, under every signature that names it (the intents share their tables)
    separation, gamut = _from_lab()
    elements = [((b"desc",), _desc(DESCRIPTION)), ((b"cprt",), _text(COPYRIGHT)), ((b"wtpt",), _xyz(*D50)),
                (A2B_TAGS, _a2b0()), (B2A_TAGS, separation), ((b"gamt",), gamut)]
    count = sum(len(signatures) for signatures, _ in elements)
    offset = 128 + 4 + 12 * count
    table, data = [], b""
    for signatures, body in elements:
        size = len(body)
        body += bytes(-len(body) % 4)             # every tag starts on a 4-byte boundary
        table += [struct.pack(">4sII", signature, offset + len(data), size) for signature in signatures]
        data += body
    size = offset + len(data)
    header = (struct.pack(">I", size) + b"lcms" + struct.pack(">I", 0x02100000) + b"prtrCMYKLab "
              + struct.pack(">6H", 2000, 1, 1, 0, 0, 0) + b"acsp" + bytes(4) + struct.pack(">I", 0)
              + bytes(8) + bytes(8) + struct.pack(">I", 0) + struct.pack(">3i", *(round(v * 65536) for v in D50))
              + b"pnp " + bytes(44))
    assert len(header) == 128
    return header + struct.pack(">I", count) + b"".join(table) + data
