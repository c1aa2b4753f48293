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
from dataclasses import dataclass
from pathlib import Path

from generator.render.icc_profile import pnp_cmyk_profile
from generator.render.separation import ProfileError, ProfileSeparation

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


STANDARDS = {
    "4": PdfxStandard("4", "PDF/X-4", None, "1.6", True),
    "1a": PdfxStandard("1a", "PDF/X-1a:2003", "PDF/X-1a:2003", "1.4", False),
}


def output_separation(icc: Path | None) -> ProfileSeparation:
    """The separation through the user's profile (--icc) or pnp's own; ProfileError for a file that is none."""
    if icc is None:
        return ProfileSeparation.of(pnp_cmyk_profile())
    try:
        data = icc.read_bytes()
    except OSError as error:
        raise ProfileError(f"cannot read it ({error.strerror or error})") from None
    return ProfileSeparation.of(data)


def make_pdfx(pdf: bytes, standard: PdfxStandard, separation: ProfileSeparation, title: str) -> bytes:
    """The drawn PDF made a PDF/X file of `standard`, its output intent `separation`'s profile."""
    import pikepdf
    from pikepdf import Dictionary, Name, String

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
    import uuid
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "pnp:" + text))
