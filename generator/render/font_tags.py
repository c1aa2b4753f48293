"""Every embedded font subset under its own subset tag (ISO 32000-1 §9.6.4).

Every text pnp draws is written in the composite fonts of shaped glyphs (render/glyph_fonts.py),
tagged by content as they are written (ReportLab's own TrueType subsets, AAAAAA+ afresh in every
file, are never written: no text goes through ReportLab's drawString). A composite font is one
subset: its Type0 dictionary, its CIDFont descendant and their descriptor carry one tag, and it is
counted once (by its Type0 dictionary).

Files joined or imposed by pdfium (render/merge.py) carry the tags their parts were written
with; `distinct_tags` gives a subset a new tag there only where two different subsets meet
under one, through pikepdf's object structure.
"""

from __future__ import annotations

import hashlib
import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pikepdf

_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FONT_FILES = ("FontFile2", "FontFile", "FontFile3")


def _tag_of(base_font: str) -> bytes:
    """The six-capital subset tag a font name starts with (b"" if none)."""
    raw = base_font.encode("latin-1", "replace")
    tag = raw[:6]
    return tag if len(raw) > 7 and raw[6:7] == b"+" and all(letter in _LETTERS for letter in tag) else b""


def _new_tag(digest: bytes, used: set[bytes]) -> bytes:
    """Six capitals from the digest; the next digest in line when a tag is taken (identical subsets too)."""
    while True:
        value = int.from_bytes(digest[:8], "big")
        tag = bytes(_LETTERS[(value // 26 ** i) % 26] for i in range(6))
        if tag not in used:
            used.add(tag)
            return tag
        digest = hashlib.sha256(digest).digest()


# ----------------------------------------------------------------- joined by pdfium
def subset_fonts(pdf: pikepdf.Pdf) -> list[pikepdf.Dictionary]:
    """Every subset font dictionary of the file (its BaseFont tagged), in object order; a composite
    font by its Type0 dictionary only (its descendant is part of it)."""
    import pikepdf     # only for files joined by pdfium: a build that joins none never loads it (~90 ms)
    found = []
    for item in pdf.objects:
        if isinstance(item, pikepdf.Dictionary) and item.get("/Type") == pikepdf.Name.Font \
                and item.get("/Subtype") not in (pikepdf.Name.CIDFontType2, pikepdf.Name.CIDFontType0) \
                and _tag_of(str(item.get("/BaseFont", ""))[1:]):
            found.append(item)
    return found


def _descendant(font: pikepdf.Dictionary) -> pikepdf.Dictionary | None:
    """A Type0 font's CIDFont (None for a simple font)."""
    import pikepdf     # see subset_fonts
    descendants = font.get("/DescendantFonts")
    if isinstance(descendants, pikepdf.Array) and len(descendants) == 1 \
            and isinstance(descendants[0], pikepdf.Dictionary):
        return descendants[0]
    return None


def subset_tags(data: bytes) -> list[tuple[bytes, bytes]]:
    """(tag, font name) of every subset font dictionary in a PDF file, in object order (tests read this)."""
    import pikepdf     # see subset_fonts
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [(name[:6], name[7:]) for name in (str(font.BaseFont)[1:].encode("latin-1")
                                                    for font in subset_fonts(pdf))]


def distinct_tags(pdf: pikepdf.Pdf) -> bool:
    """A new tag for every subset that meets another under its tag (files joined): whether any changed.

    The first subset under a tag keeps it; another (a different font dictionary, not sharing its
    descriptor) is named by a digest of what it holds. Dictionaries sharing a descriptor share a tag."""
    import pikepdf     # see subset_fonts
    used: set[bytes] = set()
    named: dict[tuple[int, int], bytes] = {}
    changed = False
    for font in subset_fonts(pdf):
        base = str(font.BaseFont)[1:].encode("latin-1")
        descendant = _descendant(font)
        descriptor = (descendant if descendant is not None else font).get("/FontDescriptor")
        key = descriptor.objgen if isinstance(descriptor, pikepdf.Dictionary) and descriptor.is_indirect \
            else font.objgen
        if key in named:
            tag = named[key]
        elif base[:6] not in used:
            tag = base[:6]
            used.add(tag)
        else:
            tag = _new_tag(_held(font, descriptor), used)
        named[key] = tag
        if tag != base[:6]:
            changed = True
            font.BaseFont = pikepdf.Name("/" + (tag + base[6:]).decode("latin-1"))
            if descendant is not None and "/BaseFont" in descendant:
                descendant.BaseFont = pikepdf.Name("/" + (tag + str(descendant.BaseFont)[7:].encode("latin-1"))
                                                   .decode("latin-1"))
            if isinstance(descriptor, pikepdf.Dictionary) and "/FontName" in descriptor:
                descriptor.FontName = pikepdf.Name("/" + (tag + str(descriptor.FontName)[7:].encode("latin-1"))
                                                   .decode("latin-1"))
    return changed


def _held(font: pikepdf.Dictionary, descriptor: object) -> bytes:
    """A digest of what a subset holds: its name, widths, ToUnicode map and font program (as stored)."""
    import pikepdf     # see subset_fonts
    digest = hashlib.sha256(str(font.get("/BaseFont", "")).encode("latin-1")[7:])
    digest.update(repr(font.get("/Widths", "")).encode())
    descendant = _descendant(font)
    if descendant is not None:
        digest.update(repr(descendant.get("/W", "")).encode())
    streams = [font.get("/ToUnicode")]
    if isinstance(descriptor, pikepdf.Dictionary):
        streams += [descriptor.get("/" + key) for key in _FONT_FILES]
    for stream in streams:
        if isinstance(stream, pikepdf.Stream):
            digest.update(stream.read_raw_bytes())
    return digest.digest()


def distinct_subset_tags(data: bytes) -> bytes:
    """A PDF file's subsets each under its own tag: the file itself when they are (every PDF pnp writes
    names its subsets as it writes them), else renamed through pikepdf (a file pnp did not write)."""
    import pikepdf     # see subset_fonts
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if not distinct_tags(pdf):
            return data
        buffer = io.BytesIO()
        pdf.save(buffer, deterministic_id=True, stream_decode_level=pikepdf.StreamDecodeLevel.none)
        return buffer.getvalue()
