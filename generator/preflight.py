"""`pnp check --preflight`: inspect built PDFs the way a print shop does.

Per file: fonts embedded, raster images' effective resolution, TrimBox and
BleedBox (apart by the bleed a print shop of the catalogue asks: 3 mm generic,
⅛ in for the US shops; the shop's own when it is named), art reaching the bleed
edge, text inside the safe zone, and ink coverage per page (with the ink-saver ratio).
The file is read through pikepdf's objects (fonts, content streams) and pdfium (pages).

A built file is read with bounds, as a hostile one would be: only regular files inside the output
folder (a FIFO in place of cards.pdf hung it; a link may lead anywhere), and no stream that would
inflate past a size no pnp output reaches (a small deflate bomb took 1.5 GB before it aborted).
Such a file is reported as that file's problem.
"""

from __future__ import annotations

import base64
import binascii
import ctypes
import io
import os
import stat
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

from generator.content.schema import MIN_GAME_TEXT
from generator.imposition.shops import PRINT_PPI, SHOP_PRESETS, shop_bleeds
from generator.render.ink import page_ink
from generator.render.pdfx import pdfx_problems
from generator.render.transparency_check import read_transparency

PT = 25.4 / 72
MIN_PPI = MappingProxyType({"print-shop": PRINT_PPI, "home": 150})     # a named --shop: its own (shops.py)
# a glyph under 1 mm tall is art, not text a trim could take from a reader: game text is at least 6 pt (its
# capitals ~1.5 mm); only a rulebook's miniatures (a board drawn on the cover, a figure's cards) are smaller
ART_GLYPH = 1.0
PPI_TOLERANCE = 0.005      # a flattened image drawn at exactly its shop's ppi measures 299.9 through the matrix
BLEED_TOLERANCE = 0.05     # mm either way: a shop's bleed as pnp writes it (MPC's 3.05 mm is within 3 mm's)
SHOWN_PER_FILE = 10   # problems printed per file; the rest are counted
# Bounds no file pnp writes comes near: a page's content is kilobytes, an embedded font at most 32 MiB, a 300 dpi
# A2 board 35 megapixels. An image's data is not counted: pdfium decodes an image only as far as its pixels
# need (a 10 × 10 image whose data inflates to a GiB renders at once), so its pixels are what is bounded.
MAX_STREAM_BYTES = 128 << 20      # one stream (not an image), decoded
MAX_DECODED_BYTES = 1 << 30       # all of them: counting a GiB takes about two seconds
MAX_IMAGE_PIXELS = 64_000_000     # one image (pdfium decodes it whole to render a page)
INFLATE_CHUNK = 1 << 20           # compressed bytes fed to zlib at a time
INFLATED_CHUNK = 16 << 20         # bytes it may inflate them to at a time (counted, then dropped)
REBUILD = "run `pnp build` to rebuild it"


class Unreadable(Exception):
    """A file preflight refuses to read, or stops reading: the reason, said to the user as its problem."""


@dataclass(frozen=True)
class DecodeBounds:
    """How many decoded bytes preflight reads of one file: a stream (MAX_STREAM_BYTES) and all of them
    (MAX_DECODED_BYTES). `pnp check --preflight` reads with these; a test lowers them to see the bound at
    work without inflating a GiB."""

    stream: int = MAX_STREAM_BYTES
    total: int = MAX_DECODED_BYTES


def _bytes(size: int) -> str:
    """1 GiB, 128 MiB, 64 KiB: a bound as its message says it."""
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size:,} bytes"


@dataclass
class FileReport:
    path: Path
    pages: int = 0
    fonts: str = ""
    images: str = ""
    boxes: str = ""
    bleed: str = ""
    safe: str = ""
    ink: str = ""
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)      # said, never a problem (text a game set below 6 pt)
    damaged: bool = False        # not readable as a PDF: nothing else was inspected


def font_report(data: bytes) -> dict[str, bool]:
    """Each font the PDF names → whether its program is embedded (a FontFile in its descriptor)."""
    fonts: dict[str, bool] = {}
    with pikepdf.open(io.BytesIO(data)) as document:
        for item in document.objects:
            if not isinstance(item, pikepdf.Dictionary):
                continue
            if "/BaseFont" in item:
                fonts.setdefault(_name(item.BaseFont), False)
            if item.get("/Type") == pikepdf.Name.FontDescriptor and "/FontName" in item:
                fonts[_name(item.FontName)] = any(key in item for key in ("/FontFile", "/FontFile2", "/FontFile3"))
    return fonts


def _name(value: object) -> str:
    """A PDF name as the font is called (without its slash)."""
    return str(value).removeprefix("/")


def read_regular(path: Path, folder: Path) -> bytes:
    """The bytes of a regular file inside `folder` (the output folder), never waiting on a FIFO or device
    and never following a link out of the folder."""
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(Path(os.path.realpath(folder))):
        raise Unreadable(f"a link leading out of the output folder (to {real}): remove it and {REBUILD}")
    try:
        # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer
        descriptor = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as error:
        raise Unreadable(f"cannot be opened ({error.strerror}): {REBUILD}") from None
    with os.fdopen(descriptor, "rb") as file:
        kind = os.fstat(file.fileno()).st_mode
        if not stat.S_ISREG(kind):
            raise Unreadable(f"not a regular file but a {_kind(kind)}: remove it and {REBUILD}")
        return file.read()


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISDIR, "folder"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device")):
        if test(mode):
            return name
    return "special file"


def check_stream_sizes(data: bytes, bounds: DecodeBounds = DecodeBounds()) -> None:
    """Refuse a PDF with a stream that inflates past `bounds.stream`, all of them past `bounds.total`, or
    an image of more than MAX_IMAGE_PIXELS, before pdfium decodes any of them. Compressed streams are
    inflated a chunk at a time and the output counted, never kept."""
    total = 0
    with pikepdf.open(io.BytesIO(data)) as document:
        for item in document.objects:
            if not isinstance(item, pikepdf.Stream):
                continue
            number = item.objgen[0]
            if item.get("/Subtype") == "/Image":
                pixels = _number(item.get("/Width")) * _number(item.get("/Height"))
                if pixels > MAX_IMAGE_PIXELS:
                    raise Unreadable(f"object {number}: an image of {pixels / 1e6:.0f} megapixels (more than "
                                     f"{MAX_IMAGE_PIXELS / 1e6:.0f}): {REBUILD}")
                continue
            size = _decoded_size(item, bounds.stream + 1)
            if size > bounds.stream:
                raise Unreadable(f"object {number}: a stream that inflates past {_bytes(bounds.stream)} "
                                 f"(a deflate bomb, or not a file pnp wrote): {REBUILD}")
            total += size
            if total > bounds.total:
                raise Unreadable(f"its streams inflate past {_bytes(bounds.total)} in all: {REBUILD}")


def _number(value) -> int:
    try:
        return max(int(value), 0)
    except (TypeError, ValueError):
        return 0


def _decoded_size(stream, limit: int) -> int:
    """How many bytes the stream decodes to (at most `limit`: counting stops there)."""
    filters = stream.get("/Filter")
    names = [] if filters is None else [str(name) for name in (filters if isinstance(filters, pikepdf.Array)
                                                               else [filters])]
    raw = stream.read_raw_bytes()
    if not names:
        return len(raw)
    # text encodings only shrink what they carry: undone whole, then the first compression counted
    while names and names[0] in ("/ASCIIHexDecode", "/ASCII85Decode", "/AHx", "/A85"):
        raw = _ascii_decoded(raw, names.pop(0))
    if not names:
        return len(raw)
    if names[0] in ("/FlateDecode", "/Fl"):
        return _inflated_size(raw, limit)
    if names[0] in ("/DCTDecode", "/JPXDecode", "/CCITTFaxDecode", "/JBIG2Decode", "/DCT", "/CCF"):
        return len(raw)          # image codecs (an image is bounded by its pixels): what they hold
    raise Unreadable(f"a stream in {names[0][1:]}, which pnp never writes: {REBUILD}")


def _ascii_decoded(raw: bytes, name: str) -> bytes:
    try:
        if name in ("/ASCIIHexDecode", "/AHx"):
            text = bytes(byte for byte in raw.split(b">", 1)[0] if not chr(byte).isspace())
            return binascii.unhexlify(text + b"0" * (len(text) % 2))
        text = raw.strip()
        return base64.a85decode(text if text.startswith(b"<~") else b"<~" + text, adobe=True)
    except ValueError as error:
        raise Unreadable(f"a stream's {name[1:]} data is damaged ({error}): {REBUILD}") from None


def _inflated_size(raw: bytes, limit: int) -> int:
    """Bytes a zlib stream inflates to, counted a bounded chunk at a time, stopping at `limit`."""
    inflater = zlib.decompressobj()
    size = 0
    try:
        for start in range(0, len(raw), INFLATE_CHUNK):
            pending = raw[start:start + INFLATE_CHUNK]
            while pending and size <= limit:
                size += len(inflater.decompress(pending, INFLATED_CHUNK))
                pending = inflater.unconsumed_tail
            if size > limit or inflater.eof:
                return size
    except zlib.error:
        pass                     # damaged data: pdfium says what it can read of it
    return size


def inspect(path: Path, shop: bool, ink_pages: int = 4, cmyk_limit: float | None = None,
            folder: Path | None = None, preset: str | None = None,
            bounds: DecodeBounds = DecodeBounds()) -> FileReport:
    """One built PDF's report (`folder`: the output folder it must lie in; its own folder unless given).
    `preset`: the print shop it was built for (--shop), whose bleed a print-shop file must have; None:
    any bleed a shop of the catalogue asks. `bounds`: the decoded bytes read of it at most."""
    data = read_regular(path, path.parent if folder is None else folder)
    check_stream_sizes(data, bounds)
    report = FileReport(path)
    fonts = font_report(data)
    unembedded = [name for name, embedded in fonts.items() if not embedded]
    report.fonts = f"{len(fonts) - len(unembedded)}/{len(fonts)} embedded"
    for name in unembedded:
        report.errors.append(f"font {name} is not embedded")
    document = pdfium.PdfDocument(data)
    try:
        report.pages = len(document)
        _images(document, shop, report, SHOP_PRESETS[preset].ppi if preset is not None else None)
        if shop:
            if path.name != "rules.pdf":      # (the rulebook's figures show pieces small on purpose)
                _small_text(document, report)     # one piece a page, no engine marks: all its text is game text
            _shop_pages(document, report, preset)
        inks = [page_ink(data, index, dpi=36).total for index in range(min(ink_pages, len(document)))]
        report.ink = " ".join(f"{ink:.0%}" for ink in inks)
    finally:
        document.close()
    _missing_resources(data, report)
    if cmyk_limit is not None:
        check_cmyk(report, data, cmyk_limit)
    if shop and b"GTS_PDFX" in data:      # a PDF/X file (pnp build --pdfx): the standard's rules too
        report.errors += pdfx_problems(data)
    return report


# the page objects whose matrices are read: forms (what they hold is placed by them), images and text
_PLACED = frozenset({pdfium_raw.FPDF_PAGEOBJ_FORM, pdfium_raw.FPDF_PAGEOBJ_IMAGE, pdfium_raw.FPDF_PAGEOBJ_TEXT})


def _missing_resources(data: bytes, report: FileReport) -> None:
    """Every name a content stream selects (a graphics state, shading, form, font, colour space) that the
    resources in force lack: poppler, MuPDF and Ghostscript draw such a form's opacity opaque, or not at all."""
    with pikepdf.open(io.BytesIO(data)) as document:
        missing = read_transparency(document).missing
    report.errors += missing[:SHOWN_PER_FILE * 2]


def _images(document, shop: bool, report: FileReport, shop_ppi: int | None = None) -> None:
    """Effective resolution of every placed raster: pixels over the width it is printed at (a print-shop
    file's: its named shop's ppi, else the catalogue's), within PPI_TOLERANCE."""
    lowest = None
    needed = (shop_ppi or MIN_PPI["print-shop"]) if shop else MIN_PPI["home"]
    for index in range(len(document)):
        page = document[index]
        forms: dict[int, tuple] = {}          # level → the matrix of the form open at that level
        for obj in page.get_objects(max_depth=15):
            if obj.type not in _PLACED:         # a path or shading: pdfium gives a shading no matrix
                continue
            parent = forms.get(obj.level - 1, (1, 0, 0, 1, 0, 0))
            matrix = _combine(_tuple(obj.get_matrix()), parent)
            if obj.type == pdfium_raw.FPDF_PAGEOBJ_FORM:
                forms[obj.level] = matrix
            elif obj.type == pdfium_raw.FPDF_PAGEOBJ_IMAGE:
                width_px, _ = obj.get_px_size()
                printed = (matrix[0] ** 2 + matrix[1] ** 2) ** 0.5      # points the unit square spans
                if printed <= 0:
                    continue
                ppi = width_px / (printed / 72)
                lowest = ppi if lowest is None else min(lowest, ppi)
                if ppi < needed * (1 - PPI_TOLERANCE):
                    report.errors.append(f"page {index + 1}: an image at {ppi:.0f} ppi (needs {needed})")
    report.images = "none" if lowest is None else f"lowest {lowest:.0f} ppi"


def _small_text(document, report: FileReport) -> None:
    """Text printed below MIN_GAME_TEXT (a game's min_text_size allows it): a warning per page, with its size."""
    for index in range(len(document)):
        smallest = _smallest_text(document[index])
        if smallest is not None and smallest < MIN_GAME_TEXT - 0.05:
            report.warnings.append(f"page {index + 1}: text at {smallest:.1f} pt, below {MIN_GAME_TEXT:g} pt")


def _smallest_text(page) -> float | None:
    """The smallest font size on the page as printed (the size times the text's and its forms' vertical scale)."""
    smallest = None
    forms: dict[int, tuple] = {}
    for obj in page.get_objects(max_depth=15):
        if obj.type not in _PLACED:
            continue
        matrix = _combine(_tuple(obj.get_matrix()), forms.get(obj.level - 1, (1, 0, 0, 1, 0, 0)))
        if obj.type == pdfium_raw.FPDF_PAGEOBJ_FORM:
            forms[obj.level] = matrix
        elif obj.type == pdfium_raw.FPDF_PAGEOBJ_TEXT:
            size = ctypes.c_float()
            if pdfium_raw.FPDFTextObj_GetFontSize(obj.raw, size) and size.value > 0:
                printed = size.value * (matrix[2] ** 2 + matrix[3] ** 2) ** 0.5
                smallest = printed if smallest is None else min(smallest, printed)
    return smallest


def _tuple(matrix) -> tuple:
    return (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)


def _combine(inner: tuple, outer: tuple) -> tuple:
    """inner, then outer (PDF matrices, row-vector convention)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _shop_pages(document, report: FileReport, preset: str | None = None) -> None:
    inside = True
    bleeding = True
    bleeds: dict[float, tuple[str, ...]] = ({SHOP_PRESETS[preset].bleed: (preset,)} if preset is not None
                                            else shop_bleeds())
    bleed_of_file: float | None = None
    # the named shop's safe zone; else the narrowest any shop of the catalogue keeps
    zone = SHOP_PRESETS[preset].safe if preset is not None else min(shop.safe for shop in SHOP_PRESETS.values())
    for index in range(len(document)):
        page = document[index]
        trim = page.get_trimbox(fallback_ok=False)       # None when the page has no such box
        bleed = page.get_bleedbox(fallback_ok=False)
        if trim is None or bleed is None:
            report.errors.append(f"page {index + 1}: TrimBox or BleedBox missing")
            continue
        margins = [(trim[0] - bleed[0]) * PT, (trim[1] - bleed[1]) * PT, (bleed[2] - trim[2]) * PT,
                   (bleed[3] - trim[3]) * PT]
        asked = next((bleed for bleed in bleeds
                      if all(abs(margin - bleed) <= BLEED_TOLERANCE for margin in margins)), None)
        if asked is None:
            report.errors.append(f"page {index + 1}: bleed {min(margins):.2f}–{max(margins):.2f} mm, "
                                 f"not {_bleeds_asked(bleeds)}")
        else:
            bleed_of_file = asked if bleed_of_file is None else bleed_of_file
        if index < 8:   # sample: art to the bleed edge, text in the safe zone
            if _stops_at_trim(page, trim):
                bleeding = False
            textpage = page.get_textpage()
            inset = zone / PT           # (a glyph may reach 0.5 pt into it: its side bearing, rounding)
            safe = (trim[0] + inset, trim[1] + inset, trim[2] - inset, trim[3] - inset)
            for char in range(textpage.count_chars()):
                left, bottom, right, top = textpage.get_charbox(char)
                if right - left <= 0 or top - bottom < ART_GLYPH / PT:
                    continue
                if left < safe[0] - 0.5 or bottom < safe[1] - 0.5 or right > safe[2] + 0.5 or top > safe[3] + 0.5:
                    inside = False
                    report.errors.append(f"page {index + 1}: text reaches into the {_mm(zone)} safe zone"
                                         + (f" of {preset}" if preset else ""))
                    break
    report.boxes = "ok" if not any("Box" in e or "bleed" in e for e in report.errors) else "errors"
    report.bleed = "ok" if bleeding else "stops at trim"
    report.safe = "inside" if inside else "outside"
    if not bleeding:
        bleed = bleed_of_file if bleed_of_file is not None else min(bleeds)
        report.errors.append(f"art runs to the trim but not on into the bleed: extend it {_mm(bleed)} past the trim")


def _mm(length: float) -> str:
    """A bleed as a message gives it: '3 mm', '3.175 mm'."""
    return f"{round(length, 3):g} mm"


def _bleeds_asked(bleeds: dict[float, tuple[str, ...]]) -> str:
    """'3 mm' (one shop's, or only one asked), else each bleed with the shops asking it."""
    if len(bleeds) == 1 or set(bleeds) == {min(bleeds)}:
        return _mm(min(bleeds))
    return " or ".join(f"{_mm(bleed)} ({', '.join(shops)})" for bleed, shops in sorted(bleeds.items()))


def _stops_at_trim(page, trim) -> bool:
    """Full-bleed art: colour just inside the trim must go on to the bleed edge (checked mid-side)."""
    dpi = 72.0
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")
    width, height = page.get_size()
    inside = 1.0 / PT       # 1 mm inside the trim, in points
    mid_x, mid_y = width / 2, height / 2
    probes = [((trim[0] + inside, mid_y), (1, mid_y)), ((trim[2] - inside, mid_y), (width - 1, mid_y)),
              ((mid_x, trim[1] + inside), (mid_x, 1)), ((mid_x, trim[3] - inside), (mid_x, height - 1))]
    for (ix, iy), (ex, ey) in probes:
        near = image.getpixel((int(ix), int(height - iy)))
        edge = image.getpixel((min(int(ex), image.width - 1), min(int(height - ey), image.height - 1)))
        if near != (255, 255, 255) and edge == (255, 255, 255):
            return True
    return False


def preflight(out: Path, targets: list[tuple[str, str, str]], cmyk_limit: float | None = None,
              preset: str | None = None, bounds: DecodeBounds = DecodeBounds()) -> list[FileReport]:
    """Every built PDF of the (game, edition, language) targets; with cmyk_limit, print-shop files must be
    CMYK within it; with `preset` (the build's --shop), print-shop files must have that shop's bleed;
    `bounds`: the decoded bytes read of each file at most."""
    reports = []
    for target in targets:
        for path in built_pdfs(out.joinpath(*target)):
            if "preview" in path.parts:
                continue
            shop = "print-shop" in path.parts
            reports.append(_inspect_readable(path, shop, cmyk_limit if shop else None, out, preset, bounds))
    return reports


def built_pdfs(folder: Path) -> list[Path]:
    """Every *.pdf name under the folder, of whatever kind (a FIFO or link is reported, not read), without
    going down a linked folder."""
    found = []
    for root, folders, files in os.walk(folder):        # os.walk does not follow links to folders
        found += [Path(root, name) for name in files + folders if name.endswith(".pdf")]
    return sorted(found)


def _inspect_readable(path: Path, shop: bool, cmyk_limit: float | None, folder: Path,
                      preset: str | None = None, bounds: DecodeBounds = DecodeBounds()) -> FileReport:
    """inspect(), with a file that cannot be read as a PDF (truncated, garbage) reported as its problem."""
    try:
        return inspect(path, shop=shop, cmyk_limit=cmyk_limit, folder=folder, preset=preset, bounds=bounds)
    except Unreadable as error:
        report = FileReport(path, damaged=True)
        report.errors.append(str(error))
        return report
    except Exception as error:     # pdfium, zlib and our own parsing all fail their own way on a damaged file
        reason = str(error).strip().rstrip(".") or type(error).__name__
        report = FileReport(path, damaged=True)
        report.errors.append(f"not readable as a PDF, damaged or truncated ({reason}): run `pnp build` to "
                             "rebuild it")
        return report


def ink_saver_ratios(reports: list[FileReport]) -> list[str]:
    """Ink-saver back pages against the standard ones, file by file."""
    lines = []
    for report in reports:
        if report.path.name == "cards-ink-saver.pdf" and not report.damaged:
            standard = report.path.with_name("cards.pdf")
            try:
                light = page_ink(read_regular(report.path, report.path.parent), 1, 36).total
                dark_data = read_regular(standard, standard.parent)
                check_stream_sizes(dark_data)
                dark = page_ink(dark_data, 1, 36).total
            except Exception:      # a missing, damaged or refused cards.pdf: its own report says so
                continue
            if dark > 0:
                lines.append(f"{report.path}: backs {light:.1%} vs {dark:.0%} ({light / dark:.1%} of the standard)")
    return lines


def format_preflight(reports: list[FileReport]) -> str:
    lines = [f"{'file':<60} {'pages':>5}  {'fonts':<13} {'images':<16} {'boxes':<6} {'bleed':<12} "
             f"{'safe':<8} ink (first pages)"]
    for report in reports:
        lines.append(f"{str(report.path):<60} {report.pages:>5}  {report.fonts:<13} {report.images:<16} "
                     f"{report.boxes or '-':<6} {report.bleed or '-':<12} {report.safe or '-':<8} {report.ink}")
        lines.extend(f"    error: {error}" for error in report.errors[:SHOWN_PER_FILE])
        lines.extend(f"    warning: {warning}" for warning in report.warnings[:SHOWN_PER_FILE])
        if len(report.errors) > SHOWN_PER_FILE:
            lines.append(f"    … and {len(report.errors) - SHOWN_PER_FILE} more problem(s) in this file "
                         f"({len(report.errors)} in all)")
    return "\n".join(lines)


_RGB_OPERATORS = frozenset({"rg", "RG"})
_CMYK_OPERATORS = frozenset({"k", "K"})


def colour_operators(data: bytes) -> tuple[int, float]:
    """RGB colour operators in the content streams (pages' and forms'), and the most ink any CMYK colour asks for.
    Bounded: check_stream_sizes has let no stream through that decodes past MAX_STREAM_BYTES."""
    rgb, most = 0, 0.0
    with pikepdf.open(io.BytesIO(data)) as document:
        for content in _content_streams(document):
            try:
                instructions = pikepdf.parse_content_stream(content)
            except pikepdf.PdfError:
                continue       # damaged: pdfium says what it can read of it
            for instruction in instructions:
                operator = str(instruction.operator)
                if operator in _RGB_OPERATORS:
                    rgb += 1
                elif operator in _CMYK_OPERATORS and len(instruction.operands) == 4:
                    most = max(most, sum(_ink(value) for value in instruction.operands))
    return rgb, most


def _content_streams(document: pikepdf.Pdf) -> list[pikepdf.Stream]:
    """The streams that hold drawing: each page's contents and every form XObject (art, faces, layers)."""
    streams: list[pikepdf.Stream] = []
    for page in document.pages:
        contents = page.obj.get("/Contents")
        parts = contents if isinstance(contents, pikepdf.Array) else [contents]
        streams += [part for part in parts if isinstance(part, pikepdf.Stream)]
    streams += [item for item in document.objects
                if isinstance(item, pikepdf.Stream) and item.get("/Subtype") == pikepdf.Name.Form]
    return streams


def _ink(value: object) -> float:
    try:
        return float(value)     # type: ignore[arg-type]  # a content stream's operand: a number, or damage
    except (TypeError, ValueError):
        return 0.0


def check_cmyk(report: FileReport, data: bytes, ink_limit: float) -> None:
    rgb, most = colour_operators(data)
    report.ink += f"  CMYK max {most:.0%}"
    if rgb:
        report.errors.append(f"{rgb} RGB colour(s) in a CMYK file")
    if most > ink_limit + 0.005:
        report.errors.append(f"a colour asks for {most:.0%} ink, over the {ink_limit:.0%} limit")
