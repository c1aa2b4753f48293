"""Raster art in the render stage: CMYK separation of whole images (the same inks as the formula gives
one colour), and PNG pixel data that ends before the image's last row."""

from __future__ import annotations

import io
import random
import struct
import zlib

import numpy
import pytest
from PIL import Image

from generator.render import colour
from generator.render.raster_check import png_rows_missing
from generator.render.colour import separate, separate_image


def separated_one_by_one(image: Image.Image, ink_limit: float) -> numpy.ndarray:
    """What separate_image gave before it worked on whole rows: `separate` per pixel, rounded."""
    pixels = [tuple(round(255 * value) for value in separate(r / 255, g / 255, b / 255, ink_limit))
              for r, g, b in numpy.asarray(image.convert("RGB")).reshape(-1, 3).tolist()]
    return numpy.array(pixels, dtype=numpy.uint8).reshape(image.height, image.width, 4)


def sample_colours() -> Image.Image:
    """Every grey, the corners of the cube, the colours next to them and 40,000 random ones."""
    rng = random.Random(26)
    values = [(v, v, v) for v in range(256)]
    values += [(r, g, b) for r in (0, 1, 254, 255) for g in (0, 1, 254, 255) for b in (0, 1, 254, 255)]
    values += [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(40_000)]
    values += [values[-1]] * (-len(values) % 211)
    image = Image.new("RGB", (211, len(values) // 211))
    image.putdata(values)
    return image


@pytest.mark.parametrize("ink_limit", [4.0, 3.0, 2.4, 2.0, 1.0])
def test_whole_image_separation_gives_every_pixel_the_inks_of_the_formula(ink_limit, monkeypatch):
    monkeypatch.setattr(colour, "SEPARATION_BAND_PIXELS", 5_000)     # several bands, one cut mid-image
    image = sample_colours()
    separated = separate_image(image, ink_limit)
    assert separated.mode == "CMYK" and separated.size == image.size
    assert numpy.array_equal(numpy.asarray(separated), separated_one_by_one(image, ink_limit))


def test_separation_takes_rgba_and_palette_images():
    image = sample_colours()
    for mode in ("RGBA", "P", "L"):
        converted = image.convert(mode)
        assert numpy.array_equal(numpy.asarray(separate_image(converted, 3.0)),
                                 separated_one_by_one(converted.convert("RGB"), 3.0))


# ------------------------------------------------------------------ PNG data that ends early

def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("mode", ["1", "L", "LA", "P", "RGB", "RGBA", "I;16"])
def test_a_whole_png_of_any_kind_is_not_taken_for_a_truncated_one(mode):
    """Bit depths 1, 8 and 16, grey, grey and alpha, palette, colour, colour and alpha."""
    image = Image.effect_noise((37, 23), 50).convert("L").convert(mode)
    assert not png_rows_missing(io.BytesIO(png_bytes(image)))


def png_file(width: int, height: int, colour_type: int, interlaced: bool, rows: bytes) -> bytes:
    """A PNG of 8-bit samples whose IDAT holds `rows` (filter bytes included)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, int(interlaced))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def interlaced_rows(width: int, height: int, channels: int) -> bytes:
    """Adam7's seven reduced images of a width × height image, each row with its filter byte."""
    data = b""
    for x0, y0, dx, dy in ADAM7:
        columns, rows = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if columns > 0 and rows > 0:
            data += (b"\0" + b"\x80" * columns * channels) * rows
    return data


@pytest.mark.parametrize("width, height", [(1, 1), (5, 3), (8, 8), (13, 29)])
def test_an_interlaced_png_is_counted_pass_by_pass(width, height):
    rows = interlaced_rows(width, height, 3)
    whole = png_file(width, height, 2, True, rows)
    with Image.open(io.BytesIO(whole)) as image:      # Pillow reads it: the passes are what it expects
        image.load()
    assert not png_rows_missing(io.BytesIO(whole))
    assert png_rows_missing(io.BytesIO(png_file(width, height, 2, True, rows[:-1])))


def test_a_png_with_rows_missing_is_found_though_pillow_loads_it():
    row = b"\0" + bytes((200, 40, 40)) * 40           # filter byte, then 40 red pixels
    short = png_file(40, 30, 2, False, row * 10)
    with Image.open(io.BytesIO(short)) as loaded:
        loaded.load()                                  # no error: the last 20 rows come out black
        assert loaded.getpixel((5, 25)) == (0, 0, 0)
    assert png_rows_missing(io.BytesIO(short))
    assert not png_rows_missing(io.BytesIO(png_file(40, 30, 2, False, row * 30)))


def limited_whole(cmyk: Image.Image, ink_limit: float) -> numpy.ndarray:
    """The profile separation's ink limit as it was written for a whole image at once."""
    inks = numpy.asarray(cmyk, dtype=numpy.float64) / 255
    colour, black = inks[..., :3].sum(axis=2), inks[..., 3]
    over = colour + black > ink_limit
    scale = numpy.ones_like(colour)
    scale[over] = numpy.clip(ink_limit - black[over], 0, None) / numpy.maximum(colour[over], 1e-9)
    inks[..., :3] *= scale[..., None]
    return numpy.rint(inks * 255).astype(numpy.uint8)


@pytest.mark.parametrize("ink_limit", [3.0, 2.4, 1.5])
def test_a_profiles_ink_limit_is_the_same_a_band_at_a_time(ink_limit, monkeypatch):
    """A 16-megapixel image separated through an ICC profile held ~1 GB of float64 inks at once."""
    from generator.render.icc_profile import pnp_cmyk_profile
    from generator.render.separation import ProfileSeparation
    monkeypatch.setattr(colour, "SEPARATION_BAND_PIXELS", 5_000)
    separation = ProfileSeparation.of(pnp_cmyk_profile())
    image = sample_colours()
    whole = limited_whole(separation._transform.apply(image), ink_limit)
    assert numpy.array_equal(numpy.asarray(separation.image(image, ink_limit)), whole)
