"""Zip archives that unpack to hundreds of megabytes, made in milliseconds: for the tests of bombs.

zipfile deflates a 300 MB run of spaces in 1.2 s of processor time (three tests made one each). A run
is deflated here once, a mebibyte of it, ended by a full flush (the compressor forgets what it saw
and starts on a byte): every further mebibyte deflates to the same bytes, which are repeated. The
archive is what zipfile writes (local headers, data, central directory; sizes and CRC-32 true), so
zipfile and pnp read it as any other; only making it is cheap.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence

_CHUNK = 1 << 20

Piece = bytes | tuple[bytes, int]          # bytes as they are, or (unit, times): the unit repeated


def _deflated(pieces: Iterable[Piece]) -> tuple[bytes, int, int]:
    """One entry's raw deflate stream, its CRC-32 and its unpacked size."""
    out, crc, size = [], 0, 0

    def deflate(data: bytes) -> bytes:
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)
    for piece in pieces:
        if isinstance(piece, bytes):
            out.append(deflate(piece))
            crc, size = zlib.crc32(piece, crc), size + len(piece)
            continue
        unit, times = piece
        per_chunk = max(1, _CHUNK // len(unit))
        chunk = unit * per_chunk
        whole, rest = divmod(times, per_chunk)
        packed = deflate(chunk)
        out.append(packed * whole)
        for _ in range(whole):
            crc = zlib.crc32(chunk, crc)
        tail = unit * rest
        out.append(deflate(tail))
        crc, size = zlib.crc32(tail, crc), size + len(chunk) * whole + len(tail)
    out.append(b"\x03\x00")                  # an empty last block: the stream ends
    return b"".join(out), crc, size


def zip_of(entries: Sequence[tuple[str, Sequence[Piece]]]) -> bytes:
    """A deflated zip archive of (name, pieces) entries, each unpacking to its pieces joined."""
    body, directory = bytearray(), bytearray()
    for name, pieces in entries:
        data, crc, size = _deflated(pieces)
        encoded = name.encode()
        offset = len(body)
        body += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(data), size,
                            len(encoded), 0) + encoded + data
        directory += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, 8, 0, 0x21, crc, len(data),
                                 size, len(encoded), 0, 0, 0, 0, 0, offset) + encoded
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(entries), len(entries), len(directory), len(body), 0)
    return bytes(body + directory + end)
