"""PDF/X-4 and PDF/X-1a:2003 print-shop files: the file structure, written with pikepdf after drawing.

Drawing already made the content fit for PDF/X (render/pdf.py with a ProfileSeparation:
every colour CMYK through the output profile, fonts embedded, TrimBox and BleedBox on
every page; for X-1a no transparency). This stage adds what the standards ask of the
file: an OutputIntent /GTS_PDFX carrying the ICC profile, GTS_PDFXVersion (and
GTS_PDFXConformance for X-1a) in the Info dictionary and, for X-4, in XMP metadata,
/Trapped /False, a Title, fixed dates (builds stay byte-identical) and the PDF version
the standard names (1.4 for X-1a:2003, 1.6 for X-4).
"""

from __future__ import annotations

import io
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import pikepdf
from pikepdf import Dictionary, Name, String

from generator.input_files import FileRefused, read_regular
from generator.render.icc_profile import pnp_cmyk_profile
from generator.render.pdf import render_pdf
from generator.render.settings import DrawingSettings
from generator.render.separation import ProfileError, ProfileSeparation
from generator.render.transparency import flatten_document

# ReportLab's invariant date: the same fixed moment in every file pnp writes
FIXED_DATE = "D:20000101000000+00'00'"
FIXED_XMP_DATE = "2000-01-01T00:00:00+00:00"


@dataclass(frozen=True)
class PdfxStandard:
    """One PDF/X conformance level: what it is called and what it allows."""

    option: str                  # --pdfx value
    version: str                 # GTS_PDFXVersion
    conformance: str | None      # GTS_PDFXConformance (X-1a only)
    pdf_version: str
    transparency: bool


STANDARDS = MappingProxyType({
    "4": PdfxStandard("4", "PDF/X-4", None, "1.6", True),
    "1a": PdfxStandard("1a", "PDF/X-1a:2003", "PDF/X-1a:2003", "1.4", False),
})


MAX_ICC_BYTES = 16 * 2**20


def output_separation(icc: Path | None) -> ProfileSeparation:
    """The separation through the user's profile (--icc) or pnp's own; ProfileError for a file that is none."""
    if icc is None:
        return ProfileSeparation.of(pnp_cmyk_profile())
    try:      # a FIFO is refused from its stat (reading one blocked the build); press profiles are ~0.5–2 MB
        data = read_regular(icc.resolve(), MAX_ICC_BYTES, "ICC profile")
    except FileRefused as error:
        raise ProfileError(str(error)) from None
    except (OSError, RuntimeError) as error:
        raise ProfileError(f"cannot read it ({getattr(error, 'strerror', None) or error})") from None
    separation = ProfileSeparation.of(data)
    try:       # a damaged profile, or one that cannot be a destination (no B2A tables), fails only here
        separation.rgb(0.8, 0.2, 0.1, 4.0)
    except Exception as error:      # littlecms says PyCMSError or OSError, depending on Pillow's version
        raise ProfileError(f"a CMYK profile that cannot convert sRGB colours ({error}): damaged, or not an "
                           "output (printer) profile") from None
    return separation


def draw_pdfx(document, initial_font: str, ink_limit: float, separation: ProfileSeparation,
              standard: PdfxStandard, title: str) -> bytes:
    """The document drawn in CMYK through `separation` and made a PDF/X file of `standard`; for X-1a its
    transparent art first flattened onto what lies beneath it (render/transparency.py)."""

    with tempfile.TemporaryDirectory(prefix="pnp-flatten-") as folder:
        if not standard.transparency:
            document = flatten_document(document, initial_font, Path(folder), ink_limit, separation)
        drawn = render_pdf(document, DrawingSettings(initial_font, "cmyk", ink_limit, separation,
                                                    opaque=not standard.transparency))
    return make_pdfx(drawn, standard, separation, title)


def make_pdfx(pdf: bytes, standard: PdfxStandard, separation: ProfileSeparation, title: str) -> bytes:
    """The drawn PDF made a PDF/X file of `standard`, its output intent `separation`'s profile."""

    document = pikepdf.open(io.BytesIO(pdf))
    profile = pikepdf.Stream(document, separation.profile)
    profile.N = 4
    condition = separation.description
    intent = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=String(condition),
                        OutputCondition=String(condition), Info=String(condition),
                        RegistryName=String("http://www.color.org"), DestOutputProfile=profile)
    document.Root.OutputIntents = pikepdf.Array([document.make_indirect(intent)])
    info = document.docinfo
    info.Title = String(title)
    info.Trapped = Name("/False")
    info.GTS_PDFXVersion = String(standard.version)
    if standard.conformance:
        info.GTS_PDFXConformance = String(standard.conformance)
    info.CreationDate = String(FIXED_DATE)
    info.ModDate = String(FIXED_DATE)
    info.Creator = String("pnp")
    info.Producer = String("pnp (ReportLab, pikepdf)")
    for page in document.pages:          # imposition gave every print-shop page both; PDF/X wants them
        if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj:
            raise ValueError("a page without TrimBox and BleedBox cannot go into a PDF/X file")
    _write_xmp(document, standard, title)
    out = io.BytesIO()
    document.save(out, min_version=standard.pdf_version, force_version=standard.pdf_version,
                  deterministic_id=True, compress_streams=True,
                  object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def _write_xmp(document, standard: PdfxStandard, title: str) -> None:
    """XMP metadata matching the Info dictionary (X-4 requires it; X-1a files carry it too)."""
    with document.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta.register_xml_namespace("http://www.npes.org/pdfx/ns/id/", "pdfxid")
        meta["dc:title"] = title
        meta["xmp:CreateDate"] = FIXED_XMP_DATE
        meta["xmp:ModifyDate"] = FIXED_XMP_DATE
        meta["xmp:MetadataDate"] = FIXED_XMP_DATE
        meta["xmp:CreatorTool"] = "pnp"
        meta["pdf:Producer"] = "pnp (ReportLab, pikepdf)"
        meta["pdf:Trapped"] = "False"
        meta["pdfxid:GTS_PDFXVersion"] = standard.version
        meta["xmpMM:DocumentID"] = "uuid:" + _stable_uuid(title)
        meta["xmpMM:InstanceID"] = "uuid:" + _stable_uuid(title + " instance")


def _stable_uuid(text: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "pnp:" + text))


def pdfx_problems(data: bytes) -> list[str]:
    """What keeps a file that declares PDF/X (GTS_PDFXVersion or an OutputIntent) from being one, as a print
    shop's preflight would say it; [] for a conforming file or one that declares nothing."""
    problems: list[str] = []
    with pikepdf.open(io.BytesIO(data)) as document:
        version = str(document.docinfo.get("/GTS_PDFXVersion", ""))
        intents = document.Root.get("/OutputIntents")
        if not version and not intents:
            return []
        standard = next((s for s in STANDARDS.values() if s.version == version), None)
        if standard is None:
            return [f"PDF/X: GTS_PDFXVersion {version or 'missing'} is none of "
                    f"{', '.join(s.version for s in STANDARDS.values())}"]
        if document.pdf_version != standard.pdf_version:
            problems.append(f"PDF/X: {version} asks PDF {standard.pdf_version}, the file is PDF {document.pdf_version}")
        gts = [intent for intent in (intents or []) if intent.get("/S") == "/GTS_PDFX"]
        if len(gts) != 1:
            problems.append(f"PDF/X: {len(gts)} OutputIntents of subtype GTS_PDFX (one is needed)")
        elif "/DestOutputProfile" not in gts[0]:
            problems.append("PDF/X: the OutputIntent has no embedded ICC profile (DestOutputProfile)")
        else:
            try:
                ProfileSeparation.of(gts[0].DestOutputProfile.read_bytes())
            except ProfileError as error:
                problems.append(f"PDF/X: the output profile is {error}")
        if str(document.docinfo.get("/Trapped", "")) not in ("/True", "/False"):
            problems.append("PDF/X: /Trapped must be /True or /False")
        if not str(document.docinfo.get("/Title", "")):
            problems.append("PDF/X: the file has no Title")
        if standard.conformance and str(document.docinfo.get("/GTS_PDFXConformance", "")) != standard.conformance:
            problems.append(f"PDF/X: GTS_PDFXConformance must be {standard.conformance}")
        for number, page in enumerate(document.pages, start=1):
            if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj:
                problems.append(f"PDF/X: page {number} has no TrimBox or BleedBox")
                break
        if not standard.transparency:
            problems += _transparency_and_rgb(document)
    return problems


def _transparency_and_rgb(document) -> list[str]:
    """PDF/X-1a: no soft masks, no constant alpha under 1, no RGB (operators or images)."""
    found: set[str] = set()
    seen: set = set()

    def visit(content, resources) -> None:
        for instruction in pikepdf.parse_content_stream(content):
            if str(instruction.operator) in ("rg", "RG"):
                found.add("RGB colours")
        for state in (resources.get("/ExtGState") or {}).values():
            if float(state.get("/CA", 1)) < 1 or float(state.get("/ca", 1)) < 1:
                found.add("transparency (opacity under 1)")
            mask = state.get("/SMask")
            if mask is not None and mask != pikepdf.Name("/None"):
                found.add("transparency (a soft mask)")
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            if xobject.get("/Subtype") == "/Image":
                if "/SMask" in xobject:
                    found.add("transparency (an image's soft mask)")
                if xobject.get("/ColorSpace") not in ("/DeviceCMYK", "/DeviceGray"):
                    found.add("an image that is not CMYK or grey")
            elif xobject.get("/Subtype") == "/Form":
                visit(xobject, xobject.get("/Resources") or resources)
    for page in document.pages:
        visit(page, page.Resources)
    return [f"PDF/X-1a: {what}" for what in sorted(found)]
