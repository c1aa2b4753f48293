"""Raster art (PNG, JPEG) checked whole before it is drawn: its pixel count, every pixel decoded, no row missing.

Pillow reads the size from the header, so a picture too big to print is refused before a pixel is
decoded; decoding every pixel once then finds a damaged file during `pnp check`, not half-way through
writing a PDF. One damage Pillow does not report: a PNG whose compressed data ends cleanly before its
last row prints those rows black, so the rows are counted here. Takes an open image and its file;
gives why it cannot be printed (message, hint), or None.
"""

from __future__ import annotations

import io
import struct
import zlib
from types import MappingProxyType

from PIL import Image, UnidentifiedImageError

from generator.input_files import shown

MAX_PIXELS = 60_000_000        # 60 megapixels: a 63 × 88 mm card at 1,200 ppi is 9 MP
MAX_SIDE = 20_000
TRUNCATED = "the image data ends early (truncated file)"
_EXPORT_AGAIN = "export it again"


def raster_problem(image, handle) -> tuple[str, str] | None:
    """Why the opened image (`handle`: its open binary file) cannot be printed, or None; every pixel
    is decoded. What Pillow raises while decoding is told by `decoding_problem`."""
    width, height = image.size   # the header only: the size is known before any pixel
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        return (f"refused: {width} × {height} pixels is more than any printed piece "
                f"needs (at most {MAX_PIXELS // 1_000_000} megapixels, {MAX_SIDE} "
                f"pixels a side)", "scale the image down: 300 ppi at its printed size is enough")
    image.load()                 # a truncated or damaged file fails here, not while drawing
    if image.format == "PNG" and png_rows_missing(handle):
        return (TRUNCATED, _EXPORT_AGAIN)
    return None


def decoding_problem(error: Exception) -> tuple[str, str]:
    """What an error met while reading or decoding an image means (message, hint)."""
    if isinstance(error, Image.DecompressionBombError):
        return (f"refused: more pixels than any printed piece needs (at most "
                f"{MAX_PIXELS // 1_000_000} megapixels)",
                "scale the image down: 300 ppi at its printed size is enough")
    if isinstance(error, UnidentifiedImageError):
        return ("cannot read image: not a PNG or JPEG file", "export it as PNG or JPEG")
    if isinstance(error, OSError) and "truncated" in str(error):
        return (TRUNCATED, _EXPORT_AGAIN)   # Pillow: 'image file is truncated (… bytes not processed)'
    return (f"cannot read image: {shown(str(error))}", "export the image again")


# Adam7's passes: first column and row, column and row steps
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))
_CHANNELS = MappingProxyType({0: 1, 2: 3, 3: 1, 4: 2, 6: 4})      # by PNG colour type


def png_rows_missing(handle) -> bool:
    """True when a PNG (an open binary file) has compressed pixel data that ends before its last row.
    Pillow fills the rows a complete zlib stream never gave with black and says nothing (an exporter
    that stopped half-way and still closed the stream); counted here by inflating the IDAT chunks
    1 MiB at a time."""
    handle.seek(0)
    try:
        width, height, depth, colour, _, _, interlaced = struct.unpack(">IIBBBBB", handle.read(29)[16:29])
    except struct.error:
        return True
    bits = depth * _CHANNELS.get(colour, 4)
    passes = _ADAM7 if interlaced else ((0, 0, 1, 1),)
    expected = 0
    for x0, y0, dx, dy in passes:
        columns, rows = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if columns > 0 and rows > 0:
            expected += rows * (1 + -(-columns * bits // 8))
    return _inflated_idat_size(handle, expected) < expected


def _inflated_idat_size(handle, enough: int) -> int:
    """How many bytes the IDAT chunks inflate to (counting stops at `enough`)."""
    inflater, size = zlib.decompressobj(), 0
    handle.seek(8)
    while size < enough:
        head = handle.read(8)
        if len(head) < 8:
            break
        length, kind = struct.unpack(">I4s", head)
        if kind == b"IEND":
            break
        if kind != b"IDAT":
            handle.seek(length + 4, io.SEEK_CUR)
            continue
        left = length
        while left and size < enough:
            pending = handle.read(min(left, 1 << 20))
            if not pending:
                return size
            left -= len(pending)
            while pending and size < enough:
                size += len(inflater.decompress(pending, 1 << 20))
                pending = inflater.unconsumed_tail
        handle.seek(left + 4, io.SEEK_CUR)        # what is left of the chunk, and its CRC
    return size
