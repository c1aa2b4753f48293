"""What PDF/X-4 and PDF/X-1a:2003 ask of a file's identification and metadata: the facts the writer
(render/pdfx.py) follows and the rule checker (render/pdfx_rules.py) holds files to.

Sources: ISO 15930-7:2010 (PDF/X-4) and ISO 15930-4:2003 (PDF/X-1a:2003), their identification
and metadata requirements; ISO 32000-1:2008 for the objects they constrain (14.3.3 the document
information dictionary, 14.4 file identifiers, 14.11.5 output intents, Table 365); ISO 16684-1:2012
(XMP) 8.3, 8.4 and 8.6 for the dc, xmp and xmpMM properties.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from types import MappingProxyType

# XMP namespaces. PDF/X-4 identifies itself as pdfxid:GTS_PDFXVersion; PDF/X-1a:2003 predates that
# schema and, when its XMP carries the identification, does so in Adobe's PDF/X 1.3 namespace
# (pdfx:GTS_PDFXVersion, pdfx:GTS_PDFXConformance).
PDFXID = "http://www.npes.org/pdfx/ns/id/"
PDFX13 = "http://ns.adobe.com/pdfx/1.3/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
DC = "http://purl.org/dc/elements/1.1/"
XMP = "http://ns.adobe.com/xap/1.0/"
XMP_MM = "http://ns.adobe.com/xap/1.0/mm/"
PDF = "http://ns.adobe.com/pdf/1.3/"
PREFIXES = MappingProxyType({PDFXID: "pdfxid", PDFX13: "pdfx", DC: "dc", XMP: "xmp", XMP_MM: "xmpMM", PDF: "pdf"})


@dataclass(frozen=True)
class PdfxStandard:
    """One PDF/X conformance level: what it is called, what it allows and how a file says it is one."""

    option: str                  # --pdfx value
    version: str                 # GTS_PDFXVersion (Info, and XMP)
    conformance: str | None      # GTS_PDFXConformance (X-1a only)
    pdf_version: str
    transparency: bool
    namespace: str               # the XMP namespace of GTS_PDFXVersion
    xmp_required: bool           # X-4 requires XMP metadata; for X-1a:2003 it is optional
    icc_versions: tuple[int, ...]    # the ICC major versions its PDF version reads (ISO 32000-1 8.6.5.5, Table 67:
                                     # PDF 1.4 ICC 2.x, PDF 1.5 on also 4.x)


STANDARDS = MappingProxyType({
    "4": PdfxStandard("4", "PDF/X-4", None, "1.6", True, PDFXID, True, (2, 4)),
    "1a": PdfxStandard("1a", "PDF/X-1a:2003", "PDF/X-1a:2003", "1.4", False, PDFX13, False, (2,)),
})

# PDF/X-4's media-management properties (xmpMM, ISO 16684-1 8.6): one document's identifier, this
# version's, and the rendition: a print master is the "default" rendition, not a proof or a thumbnail
RENDITION_CLASS = "default"
REQUIRED_XMP_MM = ("DocumentID", "VersionID", "RenditionClass")

# Info keys and the XMP property that says the same (the equivalences PDF/A states in ISO 19005-1:2005,
# 6.7.3, Table 1, plus pdf:Trapped): where both are present they have to agree
INFO_IN_XMP = MappingProxyType({
    "/Title": (DC, "title"), "/Author": (DC, "creator"), "/Subject": (DC, "description"),
    "/Keywords": (PDF, "Keywords"), "/Creator": (XMP, "CreatorTool"), "/Producer": (PDF, "Producer"),
    "/CreationDate": (XMP, "CreateDate"), "/ModDate": (XMP, "ModifyDate"), "/Trapped": (PDF, "Trapped"),
})

# The output intent (ISO 32000-1 14.11.5, Table 365). A printing condition registered with the ICC is named by
# its reference name, RegistryName the ICC's registry; any other is "Custom", described by Info (which Table
# 365 requires when the identifier names no standard production condition) and carried by the embedded profile.
ICC_REGISTRY = "http://www.color.org"
CUSTOM_CONDITION = "Custom"
# what an ICC registry reference name looks like: the characterization data sets of FOGRA, CGATS/IDEAlliance,
# IFRA and Japan Color
REGISTERED_NAME = re.compile(r"FOGRA\d{2}|CGATS TR \d{3}|CGATS21[_ ]CRPC[1-7]|IFRA\d{2}|JC200103|JCN2002|JCW2003")
# press profiles whose description does not spell their condition's reference name
REGISTERED_PROFILES = MappingProxyType({
    "ISO Coated v2 (ECI)": "FOGRA39", "ISO Coated v2 300% (ECI)": "FOGRA39", "ISO Coated": "FOGRA27",
    "ISO Uncoated": "FOGRA29", "PSO Uncoated ISO12647 (ECI)": "FOGRA47", "PSO Coated v3": "FOGRA51",
    "U.S. Web Coated (SWOP) v2": "CGATS TR 001", "Coated GRACoL 2006 (ISO 12647-2:2004)": "CGATS TR 006",
    "Japan Color 2001 Coated": "JC200103",
})
_SPELLED = ((re.compile(r"\bFOGRA ?(\d{2})"), "FOGRA{}"), (re.compile(r"\bCGATS[ _]?TR[ _]?(\d{3})"), "CGATS TR {}"),
            (re.compile(r"\bJC200103\b"), "JC200103"))


def registered_condition(description: str, target: str | None) -> str | None:
    """The ICC reference name of the printing condition a profile characterizes, from its description or its
    characterization target (the 'targ' tag names the data set it was made from), or None: then the
    condition is "Custom". Only what the profile says is trusted: an unknown profile is never guessed."""
    if description.strip() in REGISTERED_PROFILES:
        return REGISTERED_PROFILES[description.strip()]
    for text in (description, target or ""):
        for pattern, name in _SPELLED:
            found = pattern.search(text)
            if found:
                return name.format(*found.groups())
    return None


# Dates: the Info dictionary's PDF date strings (ISO 32000-1 7.9.4) and XMP's ISO 8601 dates
_PDF_DATE = re.compile(r"D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?$")


def pdf_date(text: str) -> datetime | None:
    """A PDF date string as an aware datetime (no offset: UTC), or None if it is none."""
    found = _PDF_DATE.match(text.strip())
    if not found:
        return None
    defaults = (0, 1, 1, 0, 0, 0)        # a PDF date may stop after any field: January 1st, midnight
    year, month, day, hour, minute, second = (int(v) if v else d for v, d in zip(found.groups()[:6], defaults,
                                                                               strict=True))
    offset = timedelta(0)
    if found.group(8):
        offset = timedelta(hours=int(found.group(9)), minutes=int(found.group(10) or 0))
        offset = -offset if found.group(8) == "-" else offset
    try:
        return datetime(year, month, day, hour, minute, second, tzinfo=timezone(offset))
    except ValueError:
        return None


def xmp_date(text: str) -> datetime | None:
    """An XMP date (ISO 8601: a year, to the second and an offset) as an aware datetime, or None."""
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
