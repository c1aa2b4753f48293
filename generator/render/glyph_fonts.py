"""Shaped glyphs in a PDF: one Type0 font per face and document, written through ReportLab's font protocol.

Takes the glyphs the text stage shaped (generator/text/shaping.py) and gives what a page's text
object writes and what the document embeds. A face registered with ReportLab (text/fonts.py) gets a
`GlyphFont` beside it (`glyph_font`), registered under its name + GLYPHS with
`pdfmetrics.registerFont`: a font object as ReportLab's own standard fonts are (`fontName`, `face`,
`addObjects(doc)`), so `canvas.setFont` gives it its resource name and puts it in the pages' font
resources. In each document it is one composite font:

- `/Type0` with `/Encoding /Identity-H`: a string is two bytes per glyph, the glyph id itself;
- its `/CIDFontType2` descendant (`/CIDToGIDMap /Identity`) with a `/W` array of the glyphs used
  (each glyph's own advance; kerning and marks are the text object's `TJ` adjustments and rises);
- `/FontFile2`: the face's TrueType file cut down to the glyphs used (HarfBuzz's subsetter, glyph ids
  kept, so the strings written on the pages stay valid), made when the document is written;
- `/ToUnicode`: each glyph to the text of the cluster it was first drawn for (a ligature to all its
  letters); where the glyphs drawn do not read back as the text (right to left, Indic reordering, a
  glyph met first in another cluster) the text object says the text itself (`/ActualText`).

The subset is named `TAG+PostScriptName`, its six-capital tag from a digest of what it holds, so
identical input gives identical bytes and two different subsets never share a tag.

What a canvas has drawn in each glyph font (`GlyphUsage`: the glyphs and their texts) is kept on the
canvas itself (`usage_of`), so every painter of a canvas shares it; ReportLab calls `addObjects(doc)`
once when the canvas first selects the font and once more (its delayed fonts) when the document is
written, which is when the subset is cut.
"""

from __future__ import annotations

import hashlib
import os
import threading
import weakref
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.cache_folder import oldest_beyond
from generator.text.fonts import cut_source
from generator.text.shaping import HbFont, hb_font, run_pieces

GLYPHS = "~glyphs"          # a glyph font's name: its face's registered name + this
USAGE = "pnp_glyph_usage"   # the canvas attribute holding what it drew in each glyph font
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class GlyphUsage:
    """What one canvas drew in one glyph font: its resource name and each glyph's text (the first met)."""

    resource: str = ""
    glyphs: set[int] = field(default_factory=set)         # every glyph drawn (a mark has no text of its own)
    texts: dict[int, str] = field(default_factory=dict)
    # each piece of a run (a word, a space) drawn so far, by (features, right to left), then by its
    # text: its operators, what it reads back as, whether that is its own text, whether a mark is raised
    pieces: dict[Any, dict[str, tuple[str, str, bool, bool]]] = field(default_factory=dict)
    # the operators of those that read back as their own text (a run of them needs no other look-up)
    plain: dict[Any, dict[str, str]] = field(default_factory=dict)


class _Face:
    """What ReportLab's canvas asks of a font's face (setFont checks `builtIn`)."""

    builtIn = 0

    def __init__(self, name: str):
        self.name = name


class GlyphFont(pdfmetrics.Font):
    """A registered face's glyphs as a composite font (see the module's docstring).

    A subclass of ReportLab's font for its protocol only (not a dynamic, not a multi-byte font to
    ReportLab: its strings are written by pnp, text_out.py); none of Font's tables are made."""

    def __init__(self, name: str, truetype: Any):
        # (Font.__init__ is not called: it looks up a Type 1 face and encoding this font has none of)
        self.fontName = name + GLYPHS
        self.truetype = truetype          # ReportLab's TTFont of the face: its file and descriptor metrics
        self.path = Path(truetype.face.filename)
        self.face = _Face(self.fontName)
        self.encName = "Identity-H"
        self.substitutionFonts: list[Any] = []
        self.lock = threading.Lock()
        self.receiving: GlyphUsage | None = None
        self.documents: weakref.WeakKeyDictionary[Any, GlyphUsage] = weakref.WeakKeyDictionary()
        # each glyph's own advance in thousandths of an em, as the /W array gives it (filled as asked)
        self.advances: dict[int, int] = {}

    def advance(self, gid: int) -> int:
        """A glyph's own advance in thousandths of an em (its /W width: what the PDF's pen moves by)."""
        width = self.advances.get(gid)
        if width is None:
            hb = self.hb
            width = self.advances[gid] = round(hb.font.get_glyph_h_advance(gid) * 1000 / hb.upem)
        return width

    @property
    def hb(self) -> HbFont:
        return hb_font(self.path)

    def stringWidth(self, text: str, size: float, encoding: str = "utf8") -> float:
        return sum(piece.width for piece in run_pieces(self.path, text, (), "ltr")) * size

    def select(self, canvas: Canvas, size: float) -> GlyphUsage:
        """The canvas's usage of this font, the font selected on it once (ReportLab names it then)."""
        usage: GlyphUsage | None = getattr(canvas, USAGE, {}).get(self.fontName)
        if usage is not None:
            return usage
        usage = GlyphUsage()
        with self.lock:
            self.receiving = usage
            try:
                canvas.setFont(self.fontName, size)     # addObjects(doc) takes the usage
            finally:
                self.receiving = None
        if not usage.resource:      # the document knew the font already (another canvas of it)
            raise RuntimeError(f"{self.fontName} was selected on a canvas before pnp drew on it")
        usages = getattr(canvas, USAGE, None)
        if usages is None:
            usages = {}
            setattr(canvas, USAGE, usages)
        usages[self.fontName] = usage
        return usage

    def addObjects(self, doc: Any) -> None:
        """ReportLab's call: the first time, the font's resource name; the second (the document being
        written, every page drawn), its objects with the subset of the glyphs drawn."""
        usage = self.documents.get(doc)
        if usage is None:
            usage = self.receiving if self.receiving is not None else GlyphUsage()
            resource = "F" + repr(len(doc.fontMapping) + 1)
            doc.fontMapping[self.fontName] = "/" + resource
            usage.resource = "/" + resource
            self.documents[doc] = usage
            font = pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("Font")})
            doc.idToObject["BasicFonts"].dict[resource] = doc.Reference(font, resource)
            doc.delayedFonts.append(self)
            return
        del self.documents[doc]
        self._write(doc, usage)

    def _write(self, doc: Any, usage: GlyphUsage) -> None:
        """The font's objects in the document, for the glyphs its canvas drew."""
        resource = usage.resource[1:]
        font = doc.idToObject[resource]
        hb = self.hb
        glyphs = sorted(usage.glyphs | set(usage.texts) | {0})
        program = subset_program(hb, glyphs)
        cmap = to_unicode(usage.texts)
        widths = {gid: self.advance(gid) for gid in glyphs}
        postscript = self.truetype.face.name.decode("latin-1") if isinstance(self.truetype.face.name, bytes) \
            else str(self.truetype.face.name)
        tag = subset_tag(program, cmap, widths)
        base = f"{tag}+{postscript}"
        face = self.truetype.face

        stream = pdfdoc.PDFStream(dictionary=pdfdoc.PDFDictionary({"Length1": len(program)}),
                                  content=zlib.compress(program, 6), filters=[])
        stream.dictionary["Filter"] = pdfdoc.PDFName("FlateDecode")
        descriptor = pdfdoc.PDFDictionary({
            "Type": pdfdoc.PDFName("FontDescriptor"), "FontName": pdfdoc.PDFName(base),
            "Flags": 4, "FontBBox": pdfdoc.PDFArray(list(face.bbox)), "ItalicAngle": face.italicAngle,
            "Ascent": face.ascent, "Descent": face.descent, "CapHeight": face.capHeight,
            "StemV": face.stemV, "FontFile2": doc.Reference(stream, f"FontFile2:{resource}"),
        })
        descendant = pdfdoc.PDFDictionary({
            "Type": pdfdoc.PDFName("Font"), "Subtype": pdfdoc.PDFName("CIDFontType2"),
            "BaseFont": pdfdoc.PDFName(base),
            "CIDSystemInfo": pdfdoc.PDFDictionary({"Registry": pdfdoc.PDFString("Adobe"),
                                                   "Ordering": pdfdoc.PDFString("Identity"), "Supplement": 0}),
            "FontDescriptor": doc.Reference(descriptor, f"FontDescriptor:{resource}"),
            "W": pdfdoc.PDFArray(width_array(widths)), "DW": 0,
            "CIDToGIDMap": pdfdoc.PDFName("Identity"),
        })
        unicode = pdfdoc.PDFStream(content=cmap.encode("ascii"), filters=[pdfdoc.PDFZCompress])
        font.dict.update({
            "Subtype": pdfdoc.PDFName("Type0"), "BaseFont": pdfdoc.PDFName(base),
            "Encoding": pdfdoc.PDFName("Identity-H"),
            "DescendantFonts": pdfdoc.PDFArray([doc.Reference(descendant, f"CIDFont:{resource}")]),
            "ToUnicode": doc.Reference(unicode, f"ToUnicode:{resource}"),
        })


def glyph_font(name: str) -> GlyphFont:
    """The glyph font of the face registered with ReportLab as `name`, registered beside it the first time."""
    # (getFont of a name not registered looks for a Type 1 font of that name on disk: asked only once known)
    if name + GLYPHS in pdfmetrics.getRegisteredFontNames():
        found = pdfmetrics.getFont(name + GLYPHS)
        if isinstance(found, GlyphFont):
            return found
    font = GlyphFont(name, pdfmetrics.getFont(name))
    pdfmetrics.registerFont(font)
    return font


def subset_program(font: HbFont, glyphs: list[int]) -> bytes:
    """The face's TrueType program cut down to the glyphs (ids kept), by HarfBuzz's subsetter."""
    return _subset(font.path, tuple(glyphs), font)


def _subset(path: Any, glyphs: tuple[int, ...], font: HbFont) -> bytes:
    source = cut_source(font.path)
    if source is None:
        return _subset_face(path, glyphs, font.font.face)
    return _kept_cut(*source, glyphs)


GLYPH_CUT_FORMAT = 1     # what _cut_from_source makes: a new way of cutting is a new format (another key)
MAX_KEPT_CUTS = 128      # the latest documents' cuts (a CJK face's few hundred glyphs: ~30-60 KB each, compressed)


def _kept_cut(source: Path, index: int, embolden: float, glyphs: tuple[int, ...]) -> bytes:
    """`_cut_from_source`, kept in pnp's cache by what it is cut from: a CJK face's cut takes ~0.2 s
    (reading the subset's 40,000-odd retained glyph ids, writing them), and a warm build of a game's
    Japanese and Chinese cards made six (1.2 s of its 5.3). A kept file whose checksum fails is cut again."""
    import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]  # (see _subset_face)
    from fontTools import version as fonttools_version

    from generator.text.fonts import cache_dir, file_digest
    key = hashlib.sha256(repr((GLYPH_CUT_FORMAT, file_digest(source), index, embolden, sorted(set(glyphs)),
                               hb.__version__, fonttools_version)).encode("ascii")).hexdigest()[:32]
    folder = cache_dir() / f"glyph-cuts-{GLYPH_CUT_FORMAT}"
    kept = folder / f"{key}.z"
    try:
        data = kept.read_bytes()
        if hashlib.sha256(data[32:]).digest() == data[:32]:
            return zlib.decompress(data[32:])
    except (OSError, zlib.error):
        pass
    program = _cut_from_source(source, index, embolden, glyphs)
    packed = zlib.compress(program, 6)
    try:
        folder.mkdir(exist_ok=True)
        temporary = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
        temporary.write_bytes(hashlib.sha256(packed).digest() + packed)
        os.replace(temporary, kept)
        for stale in oldest_beyond(folder.glob("*.z"), MAX_KEPT_CUTS):    # the least recently written
            stale.unlink(missing_ok=True)
    except OSError:
        pass            # a read-only cache: cut again next time
    return program


def _cut_from_source(source: Path, index: int, embolden: float, glyphs: tuple[int, ...]) -> bytes:
    """The glyphs of a face registered as a shell (text/fonts.py: a CFF font, a collection's, one
    emboldened) as a TrueType program: the source subset to them first (ids kept), and only those few
    converted to TrueType outlines and emboldened (cff.py), then subset as a whole face's are."""
    import io

    import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]  # (see _subset_face)
    from fontTools.ttLib import TTFont

    from generator.text.cff import cff_to_truetype
    few = _subset_face(source, glyphs, hb.Face(hb.Blob.from_file_path(str(source)), index))
    # (no save-time timestamp: the same glyphs give the same bytes, and the subset its tag)
    converted = cff_to_truetype(TTFont(io.BytesIO(few), recalcTimestamp=False), None, 0, embolden,
                                glyphs=frozenset(glyphs) | {0}, data=few)
    data = io.BytesIO()
    converted.save(data)
    return _subset_face(source, glyphs, hb.Face(hb.Blob(data.getvalue())))


def _subset_face(path: Any, glyphs: tuple[int, ...], face: Any) -> bytes:
    import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]  # drawing text loads it anyway (the text stage shaped with it)
    plan = hb.SubsetInput()
    plan.sets(hb.SubsetInputSets.GLYPH_INDEX).update(set(glyphs))
    plan.flags = hb.SubsetFlags.RETAIN_GIDS | hb.SubsetFlags.NO_HINTING | hb.SubsetFlags.NOTDEF_OUTLINE
    drop = plan.sets(hb.SubsetInputSets.DROP_TABLE_TAG)
    for tag in ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "kern", "morx", "kerx", "DSIG"):
        drop.add(_tag(tag))
    result = hb.subset(face, plan)
    if result is None:
        raise RuntimeError(f"HarfBuzz could not subset {path}")
    data: bytes = result.blob.data
    return data


def _tag(tag: str) -> int:
    return int.from_bytes(tag.encode("ascii"), "big")


def subset_tag(program: bytes, cmap: str, widths: dict[int, int]) -> str:
    """Six capitals from a digest of what a subset holds (its program, character map and widths)."""
    digest = hashlib.sha256(program)
    digest.update(cmap.encode("ascii"))
    digest.update(repr(sorted(widths.items())).encode("ascii"))
    value = int.from_bytes(digest.digest()[:8], "big")
    return "".join(_LETTERS[(value // 26 ** i) % 26] for i in range(6))


def width_array(widths: dict[int, int]) -> list[Any]:
    """The /W array: runs of consecutive glyph ids with their widths (c [w1 w2 …])."""
    result: list[Any] = []
    run: list[int] = []
    start = previous = None
    for gid in sorted(widths):
        if previous is not None and gid == previous + 1:
            run.append(widths[gid])
        else:
            if start is not None:
                result += [start, pdfdoc.PDFArray(run)]
            start, run = gid, [widths[gid]]
        previous = gid
    if start is not None:
        result += [start, pdfdoc.PDFArray(run)]
    return result


def to_unicode(texts: dict[int, str]) -> str:
    """The ToUnicode CMap of glyph ids (two bytes, Identity-H) to their texts (UTF-16BE)."""
    # (a glyph without a text of its own, an Arabic dot drawn as a mark, has no entry: the run it is
    # drawn in is marked with its text, text_out.py)
    entries = [(gid, text) for gid, text in sorted(texts.items()) if text]
    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
             "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
             "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def",
             "1 begincodespacerange", "<0000> <FFFF>", "endcodespacerange"]
    for start in range(0, len(entries), 100):
        block = entries[start:start + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines += [f"<{gid:04X}> <{text.encode('utf-16-be').hex().upper()}>" for gid, text in block]
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines) + "\n"
