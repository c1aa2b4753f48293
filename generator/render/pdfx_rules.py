"""A PDF/X rule checker: what keeps a file that declares PDF/X-4 or PDF/X-1a:2003 from being one, as a print
shop's preflight would say it.

Each rule reads the file itself (pikepdf for the objects, lxml for the XMP packet, littlecms for the
profile), not what pnp meant to write; the facts come from render/pdfx_standard.py, which says where
each comes from. It covers the identification and metadata (Info, XMP and their agreement), the output
intent and its profile, the file identifier, encryption, the page boxes, every name a content stream
selects that its resources lack (render/transparency_check.py), and for X-1a transparency and RGB colour.
It does not check fonts (preflight.py does) or every content operator of the standard.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import datetime

import pikepdf

from generator.render.pdfx_standard import (CUSTOM_CONDITION, ICC_REGISTRY, INFO_IN_XMP, PDFX13, PDFXID,
                                            PREFIXES, RDF, REGISTERED_NAME, REQUIRED_XMP_MM, STANDARDS, XMP_MM,
                                            PdfxStandard, pdf_date, xmp_date)
from generator.render.separation import ProfileError, ProfileSeparation
from generator.render.transparency_check import read_transparency

MAX_XMP_BYTES = 4 * 2**20       # a PDF/X packet is a few KB; Acrobat's with its history stays under 100 KB
BOX_TOLERANCE = 0.01            # points: boxes computed in millimetres and written to 4 decimals


def pdfx_problems(data: bytes) -> list[str]:
    """What keeps a file that declares PDF/X (GTS_PDFXVersion or an OutputIntent) from being one; [] for a
    conforming file or one that declares nothing."""
    with pikepdf.open(io.BytesIO(data)) as document:
        info = document.trailer.get("/Info")
        info = info if isinstance(info, pikepdf.Dictionary) else pikepdf.Dictionary()
        version = _text(info.get("/GTS_PDFXVersion"))
        intents = document.Root.get("/OutputIntents")
        if not version and not intents:
            return []
        standard = next((s for s in STANDARDS.values() if s.version == version), None)
        if standard is None:          # ISO 15930-4 and -7: the version key in the Info dictionary
            return [f"PDF/X: GTS_PDFXVersion {version or 'missing'} is none of "
                    f"{', '.join(s.version for s in STANDARDS.values())}"]
        problems = list(_file(document, standard))
        problems += _info(info, standard)
        xmp, xmp_problems = _xmp(document, standard)
        problems += xmp_problems
        if xmp is not None:
            problems += _identified_in_xmp(xmp, standard)
            problems += _agreement(info, xmp)
        problems += _output_intent(intents, standard)
        problems += _pages(document)
        reading = read_transparency(document)
        problems += [f"PDF/X: {missing}" for missing in reading.missing]
        if not standard.transparency:
            problems += _transparency_and_rgb(document, reading.transparency)
    return problems


def _file(document, standard: PdfxStandard) -> Iterator[str]:
    """The PDF version the standard names (PDF 1.4 for X-1a:2003, 1.6 for X-4), a file identifier (the
    trailer's ID, ISO 32000-1 14.4, which both standards require) and no encryption (both forbid it)."""
    if document.pdf_version != standard.pdf_version:
        yield f"PDF/X: {standard.version} asks PDF {standard.pdf_version}, the file is PDF {document.pdf_version}"
    identifier = document.trailer.get("/ID")
    if not isinstance(identifier, pikepdf.Array) or len(identifier) != 2:
        yield "PDF/X: the trailer has no file identifier (ID)"
    if "/Encrypt" in document.trailer:
        yield "PDF/X: the file is encrypted"


def _info(info, standard: PdfxStandard) -> Iterator[str]:
    """The Info dictionary (ISO 32000-1 14.3.3) as both standards require it: a Title, CreationDate and
    ModDate that are dates, Trapped True or False (Unknown is not allowed), X-1a's conformance key."""
    if not _text(info.get("/Title")).strip():
        yield "PDF/X: the file has no Title"
    for key in ("/CreationDate", "/ModDate"):
        if pdf_date(_text(info.get(key))) is None:
            yield f"PDF/X: the Info dictionary's {key[1:]} is {'not a date' if key in info else 'missing'}"
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        yield "PDF/X: /Trapped must be /True or /False"
    if standard.conformance and _text(info.get("/GTS_PDFXConformance")) != standard.conformance:
        yield f"PDF/X: GTS_PDFXConformance must be {standard.conformance}"


# ------------------------------------------------------------------------------------------------ XMP

Properties = dict[tuple[str, str], list[str]]      # (namespace, name) → its values (one, or an array's items)


def _xmp(document, standard: PdfxStandard) -> tuple[Properties | None, list[str]]:
    """The document's XMP properties, read from its packet (the catalog's Metadata stream, ISO 32000-1 14.3.2).
    X-4 requires the packet; X-1a:2003 files may carry one, which is then held to the same agreement."""
    stream = document.Root.get("/Metadata")
    if not isinstance(stream, pikepdf.Stream):
        return None, ([f"PDF/X: {standard.version} requires XMP metadata (the catalog has no Metadata stream)"]
                      if standard.xmp_required else [])
    from lxml import etree     # (preflight of PDF/X files only)
    try:
        raw = stream.read_bytes()
    except pikepdf.PdfError as error:
        return None, [f"PDF/X: the XMP metadata stream cannot be read ({_reason(error)})"]
    if len(raw) > MAX_XMP_BYTES:
        return None, [f"PDF/X: the XMP metadata is {len(raw) / 2**20:.1f} MB, more than any packet needs"]
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as error:
        return None, [f"PDF/X: the XMP metadata is not well-formed XML ({error})"]
    descriptions = root.findall(f".//{{{RDF}}}RDF/{{{RDF}}}Description")
    if not descriptions:
        return None, ["PDF/X: the XMP metadata has no rdf:RDF with rdf:Description"]
    properties: Properties = {}
    for description in descriptions:
        for name, value in description.attrib.items():      # simple properties written as attributes
            namespace, local = _split(name)
            if namespace != RDF:
                properties.setdefault((namespace, local), []).append(value)
        for element in description:
            if isinstance(element.tag, str):
                namespace, local = _split(element.tag)
                items = element.findall(f"{{{RDF}}}*/{{{RDF}}}li")    # rdf:Alt, rdf:Seq, rdf:Bag
                properties.setdefault((namespace, local), []).extend(
                    [(item.text or "").strip() for item in items] if items else [(element.text or "").strip()])
    return properties, []


def _split(name: str) -> tuple[str, str]:
    namespace, _, local = name[1:].partition("}") if name.startswith("{") else ("", "", name)
    return namespace, local


def _shown(namespace: str, name: str) -> str:
    return f"{PREFIXES.get(namespace, namespace)}:{name}"


def _identified_in_xmp(xmp: Properties, standard: PdfxStandard) -> Iterator[str]:
    """GTS_PDFXVersion in the standard's own XMP namespace: pdfxid (www.npes.org/pdfx/ns/id/) for X-4,
    pdfx (ns.adobe.com/pdfx/1.3/) for X-1a:2003; X-4 also its xmpMM DocumentID, VersionID and RenditionClass."""
    stated = xmp.get((standard.namespace, "GTS_PDFXVersion"))
    other = PDFX13 if standard.namespace == PDFXID else PDFXID
    elsewhere = (other, "GTS_PDFXVersion") in xmp       # X-1a's XMP with X-4's identification, or the reverse
    if stated is None and (standard.xmp_required or elsewhere):
        yield (f"PDF/X: the XMP does not identify {standard.version} as "
               f"{_shown(standard.namespace, 'GTS_PDFXVersion')}"
               + (f" (it says it with {_shown(other, 'GTS_PDFXVersion')})" if elsewhere else ""))
    elif stated is not None and stated != [standard.version]:
        yield (f"PDF/X: the XMP's {_shown(standard.namespace, 'GTS_PDFXVersion')} is {', '.join(stated)}, "
               f"the Info dictionary's {standard.version}")
    elif stated is not None and elsewhere and standard.namespace == PDFX13:
        yield f"PDF/X: {standard.version}'s XMP also claims PDF/X-4's {_shown(PDFXID, 'GTS_PDFXVersion')}"
    if standard.conformance:
        conformance = xmp.get((standard.namespace, "GTS_PDFXConformance"))
        if conformance is not None and conformance != [standard.conformance]:
            yield f"PDF/X: the XMP's GTS_PDFXConformance is {', '.join(conformance)}, not {standard.conformance}"
    if standard.xmp_required:
        for name in REQUIRED_XMP_MM:
            if not any(xmp.get((XMP_MM, name), [])):
                yield f"PDF/X: {standard.version} requires xmpMM:{name} in the XMP"


def _agreement(info, xmp: Properties) -> Iterator[str]:
    """Every Info entry that has an XMP equivalent says the same in the XMP: a preflight stops a file whose
    Info says Author "anonymous" where its XMP names no creator, or whose dates differ."""
    for key, (namespace, name) in INFO_IN_XMP.items():
        if key not in info:
            continue
        said = str(info[key])[1:] if key == "/Trapped" else _text(info[key])
        values = xmp.get((namespace, name))
        if values is None:
            yield f"PDF/X: the Info dictionary's {key[1:]} ({said!r}) is not in the XMP ({_shown(namespace, name)})"
        elif not _agrees(key, said, values):
            yield f"PDF/X: the Info dictionary's {key[1:]} ({said!r}) and the XMP's {_shown(namespace, name)} " \
                  f"({'; '.join(values)!r}) differ"


def _agrees(key: str, said: str, values: list[str]) -> bool:
    if key in ("/CreationDate", "/ModDate"):
        written: datetime | None = pdf_date(said)
        return written is not None and len(values) == 1 and xmp_date(values[0]) == written
    if key == "/Author":                 # dc:creator is a list: the Info string names them all, or the first
        return bool(values) and said in (values[0], ", ".join(values), "; ".join(values))
    return bool(values) and said == values[0]      # dc:title and dc:description: the first (x-default) item


# ------------------------------------------------------------------------------------- output intent

def _output_intent(intents, standard: PdfxStandard) -> Iterator[str]:
    """One GTS_PDFX output intent (ISO 32000-1 14.11.5, Table 365) naming its printing condition: a registered
    one by its ICC reference name with RegistryName the ICC's registry, any other as Custom with an Info text;
    the profile embedded (X-4 always; X-1a unless the condition is registered), a CMYK output ('prtr') profile
    of an ICC version the file's PDF version reads, whose N matches."""
    gts = [intent for intent in (intents or []) if isinstance(intent, pikepdf.Dictionary)
           and intent.get("/S") == "/GTS_PDFX"]
    if len(gts) != 1:
        yield f"PDF/X: {len(gts)} OutputIntents of subtype GTS_PDFX (one is needed)"
        return
    intent = gts[0]
    identifier = _text(intent.get("/OutputConditionIdentifier")).strip()
    registered = bool(REGISTERED_NAME.fullmatch(identifier))
    registry = _text(intent.get("/RegistryName")).strip().rstrip("/")
    if not identifier:
        yield "PDF/X: the OutputIntent has no OutputConditionIdentifier"
    elif registry == ICC_REGISTRY and not registered:
        yield f"PDF/X: the OutputIntent names the ICC registry, but {identifier!r} is no registered printing " \
              f"condition (a condition of its own is {CUSTOM_CONDITION!r}, without RegistryName)"
    elif registered and registry != ICC_REGISTRY:
        yield f"PDF/X: the OutputIntent's registered condition {identifier} needs RegistryName {ICC_REGISTRY}"
    if identifier and not registered and not _text(intent.get("/Info")).strip():
        yield "PDF/X: the OutputIntent's condition is not a registered one, so it needs an Info text describing it"
    if "/DestOutputProfile" not in intent:
        if standard.xmp_required or not registered:
            yield "PDF/X: the OutputIntent has no embedded ICC profile (DestOutputProfile)"
        return
    profile = intent.DestOutputProfile
    try:
        data = profile.read_bytes()
        ProfileSeparation.of(data)
    except pikepdf.PdfError as error:
        yield f"PDF/X: the output profile stream cannot be read ({_reason(error)})"
        return
    except ProfileError as error:
        yield f"PDF/X: the output profile is {error}"
        return
    if data[12:16] != b"prtr":
        yield f"PDF/X: the output profile is a {data[12:16].decode('latin-1')!r} profile, not an output ('prtr') one"
    if data[8] not in standard.icc_versions:
        yield f"PDF/X: the output profile is ICC version {data[8]}; PDF {standard.pdf_version} reads " \
              f"{' or '.join(map(str, standard.icc_versions))}"
    if profile.get("/N") != 4:
        yield f"PDF/X: the output profile stream's N is {profile.get('/N')}, its CMYK profile has 4 channels"


# --------------------------------------------------------------------------------------------- pages

def _pages(document) -> Iterator[str]:
    """Every page has a TrimBox and a BleedBox (pnp's print-shop pages always have both; the standards ask a
    TrimBox or an ArtBox, not both), the TrimBox inside the BleedBox and the BleedBox inside the MediaBox."""
    for number, page in enumerate(document.pages, start=1):
        obj = page.obj
        if "/TrimBox" not in obj or "/BleedBox" not in obj:
            yield f"PDF/X: page {number} has no TrimBox or BleedBox"
            return
        if "/ArtBox" in obj:
            yield f"PDF/X: page {number} has both a TrimBox and an ArtBox"
            return
        media, bleed, trim = (_box(page.mediabox), _box(obj.BleedBox), _box(obj.TrimBox))
        if not _inside(trim, bleed) or not _inside(bleed, media):
            yield f"PDF/X: page {number}'s TrimBox is not inside its BleedBox, or the BleedBox not inside the MediaBox"
            return


def _box(values) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in values)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return (inner[0] >= outer[0] - BOX_TOLERANCE and inner[1] >= outer[1] - BOX_TOLERANCE
            and inner[2] <= outer[2] + BOX_TOLERANCE and inner[3] <= outer[3] + BOX_TOLERANCE)


# ------------------------------------------------------------------------------------------ X-1a content

def _transparency_and_rgb(document, transparency: set[str]) -> list[str]:
    """PDF/X-1a: no soft masks, no constant alpha under 1, no RGB (operators or images); `transparency`: what
    else render/transparency_check.py found (a transparency group, a blend mode)."""
    found: set[str] = set(transparency)
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


def _reason(error: pikepdf.PdfError) -> str:
    """qpdf's reason without its preamble (the stream's object and offset, the in-memory file's repr)."""
    return str(error).rsplit(": ", 1)[-1]


def _text(value) -> str:
    """A PDF string's text ('' for none or for another kind of object)."""
    return str(value) if isinstance(value, pikepdf.String) else ""
