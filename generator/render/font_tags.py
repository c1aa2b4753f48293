"""Every embedded font subset under its own subset tag (ISO 32000-1 §9.6.4), named as it is written.

ReportLab names the subsets of each font AAAAAA+, AAAAAB+ … afresh in every file, so a file
made of several (the kit with its rulebook booklet) would hold many different subsets all
called `AAAAAA+Nunito-…`, which print-shop RIPs may mix up. A canvas made by
`SubsetNamingCanvas` writes its document through `SubsetNamingDocument`, which, once the
subsets are known and numbered and before any object is written, names each subset by what
it holds (its font dictionary, character map and font program, as written, and so its place
in the file): identical input still gives identical bytes, and nothing is rewritten after.

The composite fonts of shaped glyphs (render/glyph_fonts.py) are tagged by content as they are
written. A composite font is one subset: its Type0 dictionary, its CIDFont descendant and their
descriptor carry one tag, and it is counted once (by its Type0 dictionary).

Files joined or imposed by pdfium (render/merge.py) carry the tags their parts were written
with; `distinct_tags` gives a subset a new tag there only where two different subsets meet
under one, through pikepdf's object structure.
"""

from __future__ import annotations

import hashlib
import io
from typing import TYPE_CHECKING, Any

from reportlab.pdfbase.pdfdoc import PDFDocument, PDFIndirectObject, PDFName, PDFTrueTypeFont
from reportlab.pdfgen.canvas import Canvas

from generator.render.reportlab_settings import pnp_settings

if TYPE_CHECKING:
    import pikepdf

_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FONT_FILES = ("FontFile2", "FontFile", "FontFile3")


# ----------------------------------------------------------------- written by ReportLab
class SubsetNamingDocument(PDFDocument):
    """ReportLab's document, its font subsets named by content just before it is written, and written
    with pnp's ReportLab settings (its pages' and forms' streams are encoded as it is written)."""

    def format(self) -> bytes:
        with pnp_settings():
            name_subsets(self)
            written: bytes = super().format()
        return written


class SubsetNamingCanvas(Canvas):
    """A ReportLab canvas whose PDF names every font subset by content (pass it as a doc template's
    `canvasmaker` to have a platypus document named the same way)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        name_subsets_when_written(self)


def name_subsets_when_written(canvas: Canvas) -> None:
    """Have the canvas's PDF name its subsets (and use pnp's settings) when it is written: the document
    the canvas made itself, the same object, of the class that does (a canvas pnp paints on, see
    FacePainter.on, is written so whoever made it)."""
    if type(canvas._doc) is PDFDocument:
        canvas._doc.__class__ = SubsetNamingDocument


def name_subsets(document: PDFDocument) -> None:
    """Each TrueType subset's dictionary (and its descriptor) under a tag derived from what it holds.

    A subset's tag is six capitals from the digest of its font dictionary as written (without
    its tag), its ToUnicode map and its font program; in object order, a tag already taken (an
    identical subset) goes to the next digest in line. Dictionaries sharing a descriptor share a tag."""
    numbers = document.idToObjectNumberAndVersion
    fonts = sorted((numbers[name][0], name, font) for name, font in document.idToObject.items()
                   if isinstance(font, PDFTrueTypeFont) and name in numbers and _tag_of(font.BaseFont))
    used: set[bytes] = set()
    named: dict[str, bytes] = {}          # descriptor's name → the tag it was given
    for _, name, font in fonts:
        old = _tag_of(font.BaseFont)
        descriptor = _referenced(document, font, "FontDescriptor")
        if descriptor is not None and descriptor in named:
            tag = named[descriptor]
        else:
            tag = _new_tag(_subset_digest(document, name, font, old, descriptor), used)
        font.BaseFont = (tag + font.BaseFont.encode("latin-1")[6:]).decode("latin-1")
        if descriptor is not None and descriptor not in named:
            described = document.idToObject[descriptor].dict
            written = str(described.get("FontName", ""))
            if _tag_of(written.removeprefix("/")):
                described["FontName"] = PDFName((tag + written.removeprefix("/").encode("latin-1")[6:])
                                                .decode("latin-1"))
            named[descriptor] = tag


def _subset_digest(document: PDFDocument, name: str, font: PDFTrueTypeFont, tag: bytes,
                   descriptor: str | None) -> bytes:
    """What identifies a subset: its dictionary as written without its tag, its ToUnicode map and font program."""
    body = _written(document, name)
    digest = hashlib.sha256(body.replace(b"/BaseFont /" + tag + b"+", b"/BaseFont/"))
    parts = [_referenced(document, font, "ToUnicode")]
    if descriptor is not None:
        described = document.idToObject[descriptor]
        parts += [_referenced(document, described, key) for key in _FONT_FILES]
    for part in parts:
        if part is not None:
            digest.update(_written(document, part))
    return digest.digest()


def _written(document: PDFDocument, name: str) -> bytes:
    """An object as the document will write it, from its `N 0 obj` up to its `endobj`."""
    written: bytes = PDFIndirectObject(name, document.idToObject[name]).format(document)
    return written[:written.find(b"endobj")]


def _referenced(document: PDFDocument, holder: Any, key: str) -> str | None:
    """The name of the object `holder[key]` refers to (an attribute of a font, a key of a dictionary)."""
    value = holder.dict.get(key) if hasattr(holder, "dict") else getattr(holder, key, None)
    name = getattr(value, "name", None)
    return name if isinstance(name, str) and name in document.idToObject else None


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
    names its subsets as it writes them), else renamed through pikepdf (a ReportLab file written
    without SubsetNamingCanvas)."""
    import pikepdf     # see subset_fonts
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if not distinct_tags(pdf):
            return data
        buffer = io.BytesIO()
        pdf.save(buffer, deterministic_id=True, stream_decode_level=pikepdf.StreamDecodeLevel.none)
        return buffer.getvalue()
