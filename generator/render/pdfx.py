"""PDF/X-4 and PDF/X-1a:2003 print-shop files: the file structure, written with pikepdf after drawing.

Drawing already made the content fit for PDF/X (render/pdf.py with a ProfileSeparation:
every colour CMYK through the output profile, fonts embedded, TrimBox and BleedBox on
every page; for X-1a no transparency). This stage adds what the standards ask of the
file (render/pdfx_standard.py has the facts, render/pdfx_rules.py checks them): an
OutputIntent /GTS_PDFX carrying the ICC profile, named by its registered printing
condition or "Custom"; an Info dictionary and XMP metadata that say the same things
(GTS_PDFXVersion, GTS_PDFXConformance for X-1a, each in its standard's XMP namespace;
the title, Trapped False, creator, producer and fixed dates, so builds stay byte-identical;
for X-4 the document, version and rendition identifiers), and nothing else: ReportLab's
placeholder author and subject are not kept. The PDF version is the one the standard
names (1.4 for X-1a:2003, 1.6 for X-4).
"""

from __future__ import annotations

import hashlib
import io
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from pikepdf import Dictionary, Name, String

from generator.input_files import FileRefused, read_regular
from generator.render.icc_profile import pnp_cmyk_profile
from generator.render.pdf import render_pdf
from generator.render.pdfx_rules import pdfx_problems as pdfx_problems     # (preflight imports it from here)
from generator.render.pdfx_standard import (CUSTOM_CONDITION, ICC_REGISTRY, PREFIXES, RENDITION_CLASS,
                                            STANDARDS, PdfxStandard, registered_condition)
from generator.render.separation import ProfileError, ProfileSeparation
from generator.render.settings import DrawingSettings
from generator.render.transparency import flatten_document

__all__ = ["STANDARDS", "PdfxStandard", "draw_pdfx", "make_pdfx", "output_separation", "pdfx_problems"]

# ReportLab's invariant date: the same fixed moment in every file pnp writes
FIXED_DATE = "D:20000101000000+00'00'"
FIXED_XMP_DATE = "2000-01-01T00:00:00+00:00"
CREATOR = "pnp"
PRODUCER = "pnp (ReportLab, pikepdf)"


@dataclass(frozen=True)
class DocumentFacts:
    """What a PDF/X file says about itself, once: the Info dictionary and the XMP are both written from it."""

    title: str
    document_id: str      # one document, whatever its version or rendition: from its title (game, edition,
    instance_id: str      # language, file); this file and this version: from what was drawn, the standard
    version_id: str       # and the profile, so an identical build is identical and a changed one is not


def document_facts(title: str, drawn: bytes, standard: PdfxStandard, separation: ProfileSeparation) -> DocumentFacts:
    content = hashlib.sha256(drawn + standard.version.encode() + separation.digest.encode()).hexdigest()
    return DocumentFacts(title, "uuid:" + _stable_uuid("pnp:" + title), "uuid:" + _stable_uuid("pnp:" + content),
                         content[:16])


def _stable_uuid(text: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, text))


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
    for page in document.pages:          # imposition gave every print-shop page both; PDF/X wants them
        if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj:
            raise ValueError("a page without TrimBox and BleedBox cannot go into a PDF/X file")
    document.Root.OutputIntents = pikepdf.Array([document.make_indirect(_output_intent(document, separation))])
    facts = document_facts(title, pdf, standard, separation)
    # a new Info dictionary, not ReportLab's edited: only what the XMP says too (no Author "anonymous")
    document.trailer.Info = document.make_indirect(_info(facts, standard))
    _write_xmp(document, standard, facts)
    out = io.BytesIO()
    document.save(out, min_version=standard.pdf_version, force_version=standard.pdf_version,
                  deterministic_id=True, compress_streams=True,
                  object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def _output_intent(document, separation: ProfileSeparation) -> Dictionary:
    """The GTS_PDFX output intent (ISO 32000-1 14.11.5): the profile embedded, the condition by its ICC
    reference name when the profile characterizes a registered one (FOGRA39, CGATS TR 001 …), else Custom."""
    from PIL import ImageCms     # (PDF/X builds only) the profile's characterization target ('targ')
    profile = pikepdf.Stream(document, separation.profile)
    profile.N = 4
    target = ImageCms.ImageCmsProfile(io.BytesIO(separation.profile)).profile.target
    registered = registered_condition(separation.description, target)
    intent = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX,
                        OutputConditionIdentifier=String(registered or CUSTOM_CONDITION),
                        OutputCondition=String(separation.description), Info=String(separation.description),
                        DestOutputProfile=profile)
    if registered:
        intent.RegistryName = String(ICC_REGISTRY)
    return intent


def _info(facts: DocumentFacts, standard: PdfxStandard) -> Dictionary:
    info = Dictionary(Title=String(facts.title), Creator=String(CREATOR), Producer=String(PRODUCER),
                      CreationDate=String(FIXED_DATE), ModDate=String(FIXED_DATE), Trapped=Name("/False"),
                      GTS_PDFXVersion=String(standard.version))
    if standard.conformance:
        info.GTS_PDFXConformance = String(standard.conformance)
    return info


def _write_xmp(document, standard: PdfxStandard, facts: DocumentFacts) -> None:
    """XMP metadata saying what the Info dictionary says (X-4 requires it; X-1a files carry it too)."""
    with document.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        identification = PREFIXES[standard.namespace]
        meta.register_xml_namespace(standard.namespace, identification)
        meta["dc:title"] = facts.title
        meta["dc:format"] = "application/pdf"
        meta["xmp:CreateDate"] = FIXED_XMP_DATE
        meta["xmp:ModifyDate"] = FIXED_XMP_DATE
        meta["xmp:MetadataDate"] = FIXED_XMP_DATE
        meta["xmp:CreatorTool"] = CREATOR
        meta["pdf:Producer"] = PRODUCER
        meta["pdf:Trapped"] = "False"
        meta[f"{identification}:GTS_PDFXVersion"] = standard.version
        if standard.conformance:
            meta[f"{identification}:GTS_PDFXConformance"] = standard.conformance
        meta["xmpMM:DocumentID"] = facts.document_id
        meta["xmpMM:InstanceID"] = facts.instance_id
        meta["xmpMM:VersionID"] = facts.version_id
        meta["xmpMM:RenditionClass"] = RENDITION_CLASS


