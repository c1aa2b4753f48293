"""Issue 32 item 4: PDF/X-4 and PDF/X-1a:2003 metadata a print shop's preflight accepts, read back from files
built through the real command line: the XMP parsed here with ElementTree (not through the writer's or the
checker's code), the Info dictionary and output intent with pikepdf, the profile with littlecms; the rule
checker (render/pdfx_rules.py) passes them and fails each rule broken on purpose; qpdf, xmllint, exiftool and
Argyll's iccdump/icclu, where installed, read the same files independently."""

from __future__ import annotations

import io
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

import pikepdf
import pytest

from generator.render.icc_profile import pnp_cmyk_profile
from generator.render.pdfx import make_pdfx
from generator.render.pdfx_rules import pdfx_problems
from generator.render.pdfx_standard import REGISTERED_NAME, REGISTERED_PROFILES, STANDARDS, registered_condition
from generator.render.separation import ProfileSeparation
from tests.test_content_errors import make_game, pnp

# the namespaces as the standards write them (spelled here, not imported: a typo in the engine must fail)
PDFXID = "http://www.npes.org/pdfx/ns/id/"          # ISO 15930-7 (PDF/X-4) identification
PDFX13 = "http://ns.adobe.com/pdfx/1.3/"            # PDF/X-1a:2003's identification in XMP
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
DC = "http://purl.org/dc/elements/1.1/"
XMP = "http://ns.adobe.com/xap/1.0/"
MM = "http://ns.adobe.com/xap/1.0/mm/"
PDF = "http://ns.adobe.com/pdf/1.3/"
OWN_DESCRIPTION = "pnp CMYK (declared GCR separation of sRGB)"


def _build(game: Path, out: Path, *args: str) -> Path:
    result = pnp("build", str(game), "--paper", "a4", "--out", str(out), "-q", "--only", "print-shop", *args)
    assert result.exit_code == 0, result.output
    return out / "g" / "standard" / "en" / "print-shop" / "cards.pdf"


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return make_game(tmp_path_factory.mktemp("pdfx-metadata"), {})


@pytest.fixture(scope="module")
def built(game, tmp_path_factory) -> dict[str, Path]:
    """cards.pdf as PDF/X-4 and as PDF/X-1a:2003, through pnp's own profile."""
    return {option: _build(game, tmp_path_factory.mktemp(f"x{option}"), "--pdfx", option) for option in ("4", "1a")}


def _xmp(path: Path) -> dict[tuple[str, str], list[str]]:
    """The file's XMP properties, (namespace, name) → values, read with the standard library's parser."""
    with pikepdf.open(path) as pdf:
        root = ET.fromstring(pdf.Root.Metadata.read_bytes())
    found: dict[tuple[str, str], list[str]] = {}
    for description in root.iter(f"{{{RDF}}}Description"):
        for element in description:
            namespace, name = element.tag[1:].split("}")
            items = element.findall(f"{{{RDF}}}*/{{{RDF}}}li")
            found[namespace, name] = [item.text or "" for item in items] if items else [element.text or ""]
        for key, value in description.attrib.items():
            if key.startswith("{") and not key.startswith(f"{{{RDF}}}"):
                namespace, name = key[1:].split("}")
                found[namespace, name] = [value]
    return found


def _info(path: Path) -> dict[str, str]:
    with pikepdf.open(path) as pdf:
        return {key: str(value) for key, value in pdf.docinfo.items()}


def _pdf_date(text: str) -> datetime:
    found = re.fullmatch(r"D:(\d{14})([+-])(\d\d)'(\d\d)'?", text)
    assert found, text
    assert (found.group(3), found.group(4)) == ("00", "00"), "pnp's fixed date is UTC"
    return datetime.strptime(found.group(1), "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)


# ------------------------------------------------------------------ identification in XMP, per standard

def test_x4_identifies_itself_with_pdfxid_and_carries_the_media_management_ids(built):
    xmp = _xmp(built["4"])
    assert xmp[PDFXID, "GTS_PDFXVersion"] == ["PDF/X-4"]
    assert not [key for key in xmp if key[0] == PDFX13]
    assert xmp[MM, "RenditionClass"] == ["default"]
    for name in ("DocumentID", "InstanceID", "VersionID"):
        assert xmp[MM, name] and xmp[MM, name][0].strip(), name


def test_x1a_identifies_itself_in_the_pdfx_1_3_namespace_not_pdfxid(built):
    xmp = _xmp(built["1a"])
    assert xmp[PDFX13, "GTS_PDFXVersion"] == ["PDF/X-1a:2003"]
    assert xmp[PDFX13, "GTS_PDFXConformance"] == ["PDF/X-1a:2003"]
    with pikepdf.open(built["1a"]) as pdf:
        assert PDFXID.encode() not in pdf.Root.Metadata.read_bytes()


# ------------------------------------------------------------------ Info and XMP say the same things

@pytest.mark.parametrize("option", ["4", "1a"])
def test_info_and_xmp_agree_and_keep_no_placeholders(built, option):
    info, xmp = _info(built[option]), _xmp(built[option])
    assert info["/Title"] and xmp[DC, "title"] == [info["/Title"]]
    assert xmp[XMP, "CreatorTool"] == [info["/Creator"]] and xmp[PDF, "Producer"] == [info["/Producer"]]
    assert info["/Trapped"] == "/False" and xmp[PDF, "Trapped"] == ["False"]
    for key, name in (("/CreationDate", "CreateDate"), ("/ModDate", "ModifyDate")):
        assert datetime.fromisoformat(xmp[XMP, name][0]) == _pdf_date(info[key]), key
    # ReportLab's "anonymous" and "unspecified" are gone from Info, and nothing stands for them in XMP
    assert not {"/Author", "/Subject", "/Keywords"} & info.keys(), info
    assert not {(DC, "creator"), (DC, "description"), (PDF, "Keywords")} & xmp.keys()
    assert info["/GTS_PDFXVersion"] == STANDARDS[option].version


def test_ids_are_fixed_for_identical_input_and_follow_the_content(built, game, tmp_path):
    x4, x1a = _xmp(built["4"]), _xmp(built["1a"])
    # one document: the same DocumentID for its X-4 and X-1a renditions; two files: other instance and version
    assert x4[MM, "DocumentID"] == x1a[MM, "DocumentID"]
    assert x4[MM, "InstanceID"] != x1a[MM, "InstanceID"] and x4[MM, "VersionID"] != x1a[MM, "VersionID"]
    assert _build(game, tmp_path / "again", "--pdfx", "4").read_bytes() == built["4"].read_bytes()
    changed = make_game(tmp_path / "changed", {"i18n/en.yaml": "en:\n  game: {title: T, edition: S}\n"
                                               "  deck: {cards: C}\n  cards: {star: Another star}\n"})
    other = _xmp(_build(changed, tmp_path / "other", "--pdfx", "4"))
    assert other[MM, "DocumentID"] == x4[MM, "DocumentID"]        # the same game's same file
    assert other[MM, "VersionID"] != x4[MM, "VersionID"] and other[MM, "InstanceID"] != x4[MM, "InstanceID"]


# ------------------------------------------------------------------ the output intent

def _intent(path: Path) -> dict[str, object]:
    with pikepdf.open(path) as pdf:
        (intent,) = pdf.Root.OutputIntents
        return {key: (intent[key].read_bytes() if key == "/DestOutputProfile" else str(intent[key]))
                for key in intent.keys()} | {"N": int(intent.DestOutputProfile.N)}


@pytest.mark.parametrize("option", ["4", "1a"])
def test_pnps_own_profile_is_a_custom_condition_described_and_embedded(built, option):
    intent = _intent(built[option])
    assert intent["/S"] == "/GTS_PDFX"
    assert intent["/OutputConditionIdentifier"] == "Custom" and "/RegistryName" not in intent
    assert intent["/Info"] == intent["/OutputCondition"] == OWN_DESCRIPTION
    assert intent["/DestOutputProfile"] == pnp_cmyk_profile() and intent["N"] == 4


def _desc(text: str) -> bytes:          # an ICC v2 textDescriptionType
    ascii_text = text.encode("ascii") + b"\0"
    return b"desc" + bytes(4) + struct.pack(">I", len(ascii_text)) + ascii_text + bytes(8) + bytes(3) + bytes(67)


def _retagged(profile: bytes, tags: dict[bytes, bytes]) -> bytes:
    """The ICC profile with the given tags replaced or added (written here, not with the engine's writer)."""
    count = struct.unpack(">I", profile[128:132])[0]
    entries = [struct.unpack(">4sII", profile[132 + 12 * i:144 + 12 * i]) for i in range(count)]
    kept = [(signature, profile[offset:offset + size]) for signature, offset, size in entries if signature not in tags]
    every = kept + list(tags.items())
    start, data, placed, table = 132 + 12 * len(every), b"", {}, []
    for signature, body in every:
        if body not in placed:
            placed[body] = start + len(data)
            data += body + bytes(-len(body) % 4)
        table.append(struct.pack(">4sII", signature, placed[body], len(body)))
    header = struct.pack(">I", start + len(data)) + profile[4:128]
    return header + struct.pack(">I", len(every)) + b"".join(table) + data


def test_a_registered_press_profile_names_its_condition_and_the_icc_registry(game, tmp_path):
    fogra = tmp_path / "fogra39.icc"
    fogra.write_bytes(_retagged(pnp_cmyk_profile(), {b"desc": _desc("Coated FOGRA39 (ISO 12647-2:2004)")}))
    intent = _intent(_build(game, tmp_path / "o", "--pdfx", "4", "--icc", str(fogra)))
    assert intent["/OutputConditionIdentifier"] == "FOGRA39"
    assert intent["/RegistryName"] == "http://www.color.org"
    assert intent["/Info"] == intent["/OutputCondition"] == "Coated FOGRA39 (ISO 12647-2:2004)"
    assert intent["/DestOutputProfile"] == fogra.read_bytes()


def test_a_profile_named_by_its_characterization_target_only(tmp_path):
    """A shop's profile called anything, whose 'targ' tag names the data set it was made from."""
    target = b"text" + bytes(4) + b"FOGRA51\0"         # an ICC textType
    profile = _retagged(pnp_cmyk_profile(), {b"desc": _desc("Our press 2024"), b"targ": target})
    data = make_pdfx(_blank_pdf(), STANDARDS["4"], ProfileSeparation.of(profile), "t")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert str(pdf.Root.OutputIntents[0].OutputConditionIdentifier) == "FOGRA51"
    assert pdfx_problems(data) == []


@pytest.mark.parametrize("description, target, name", [
    ("Coated FOGRA39 (ISO 12647-2:2004)", None, "FOGRA39"), ("ISO Coated v2 (ECI)", None, "FOGRA39"),
    ("ISO Coated v2 300% (ECI)", None, "FOGRA39"), ("PSO Uncoated v3 (FOGRA52)", None, "FOGRA52"),
    ("U.S. Web Coated (SWOP) v2", None, "CGATS TR 001"), ("Japan Color 2001 Coated", None, "JC200103"),
    ("Press 7", "CGATS TR 006", "CGATS TR 006"),
    (OWN_DESCRIPTION, None, None), ("Glossy photo paper", None, None), ("ISO Coated v2 look-alike", None, None),
])
def test_registered_conditions_are_read_from_what_the_profile_says(description, target, name):
    assert registered_condition(description, target) == name


def test_every_known_profile_maps_to_a_name_the_checker_takes_for_registered():
    assert all(REGISTERED_NAME.fullmatch(name) for name in REGISTERED_PROFILES.values())


# ------------------------------------------------------------------ the rule checker

def _blank_pdf() -> bytes:
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 300))
    page = pdf.pages[0]
    page.obj.BleedBox = pikepdf.Array([0, 0, 200, 300])
    page.obj.TrimBox = pikepdf.Array([9, 9, 191, 291])
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _set_xmp(pdf, old: str, new: str) -> None:
    xml = pdf.Root.Metadata.read_bytes().decode()
    assert old in xml, old
    pdf.Root.Metadata.write(xml.replace(old, new).encode())


def _drop(pdf, name: str) -> None:
    _set_xmp(pdf, re.search(rf"<{name}[ >].*?</{name}>", pdf.Root.Metadata.read_bytes().decode()).group(0), "")


def _intent_of(pdf):
    return pdf.Root.OutputIntents[0]


BROKEN = [  # (standard, what is done to pnp's file, what the checker says)
    ("4", lambda pdf: _drop(pdf, "xmpMM:VersionID"), "PDF/X-4 requires xmpMM:VersionID"),
    ("4", lambda pdf: _drop(pdf, "xmpMM:RenditionClass"), "PDF/X-4 requires xmpMM:RenditionClass"),
    ("4", lambda pdf: _drop(pdf, "xmpMM:DocumentID"), "PDF/X-4 requires xmpMM:DocumentID"),
    ("4", lambda pdf: _drop(pdf, "pdfxid:GTS_PDFXVersion"), "does not identify PDF/X-4 as pdfxid:GTS_PDFXVersion"),
    ("4", lambda pdf: delattr(pdf.Root, "Metadata"), "PDF/X-4 requires XMP metadata"),
    ("4", lambda pdf: pdf.Root.Metadata.write(b"<x:xmpmeta"), "not well-formed"),
    ("4", lambda pdf: pdf.Root.Metadata.write(b"not deflated", filter=pikepdf.Name.FlateDecode),
     "the XMP metadata stream cannot be read (incorrect header check)"),
    ("1a", lambda pdf: _intent_of(pdf).DestOutputProfile.write(b"not deflated", filter=pikepdf.Name.FlateDecode),
     "the output profile stream cannot be read (incorrect header check)"),
    ("1a", lambda pdf: _set_xmp(pdf, "pdfx:GTS_PDFXVersion xmlns:pdfx=\"http://ns.adobe.com/pdfx/1.3/\">",
                                "pdfxid:GTS_PDFXVersion xmlns:pdfxid=\"http://www.npes.org/pdfx/ns/id/\">")
     or _set_xmp(pdf, "</pdfx:GTS_PDFXVersion>", "</pdfxid:GTS_PDFXVersion>"),
     "(it says it with pdfxid:GTS_PDFXVersion)"),
    ("4", lambda pdf: setattr(pdf.docinfo, "Author", pikepdf.String("anonymous")),
     "Author ('anonymous') is not in the XMP (dc:creator)"),
    ("1a", lambda pdf: setattr(pdf.docinfo, "Subject", pikepdf.String("unspecified")),
     "Subject ('unspecified') is not in the XMP (dc:description)"),
    ("4", lambda pdf: setattr(pdf.docinfo, "Title", pikepdf.String("another title")),
     "Title ('another title') and the XMP's dc:title"),
    ("4", lambda pdf: setattr(pdf.docinfo, "ModDate", pikepdf.String("D:20240101000000Z")),
     "ModDate ('D:20240101000000Z') and the XMP's xmp:ModifyDate"),
    ("1a", lambda pdf: setattr(pdf.docinfo, "CreationDate", pikepdf.String("yesterday")),
     "the Info dictionary's CreationDate is not a date"),
    ("4", lambda pdf: setattr(pdf.docinfo, "Trapped", pikepdf.Name.Unknown), "/Trapped must be /True or /False"),
    ("1a", lambda pdf: delattr(pdf.docinfo, "GTS_PDFXConformance"), "GTS_PDFXConformance must be PDF/X-1a:2003"),
    ("4", lambda pdf: [setattr(_intent_of(pdf), "OutputConditionIdentifier", pikepdf.String(OWN_DESCRIPTION)),
                       setattr(_intent_of(pdf), "RegistryName", pikepdf.String("http://www.color.org"))],
     f"{OWN_DESCRIPTION!r} is no registered printing condition"),
    ("1a", lambda pdf: setattr(_intent_of(pdf), "OutputConditionIdentifier", pikepdf.String("FOGRA39")),
     "registered condition FOGRA39 needs RegistryName http://www.color.org"),
    ("4", lambda pdf: delattr(_intent_of(pdf), "Info"), "needs an Info text describing it"),
    ("4", lambda pdf: delattr(_intent_of(pdf), "DestOutputProfile"), "no embedded ICC profile"),
    ("4", lambda pdf: setattr(_intent_of(pdf).DestOutputProfile, "N", 3), "the output profile stream's N is 3"),
    ("4", lambda pdf: _intent_of(pdf).DestOutputProfile.write(
        pnp_cmyk_profile()[:12] + b"scnr" + pnp_cmyk_profile()[16:]), "not an output ('prtr') one"),
    ("1a", lambda pdf: _intent_of(pdf).DestOutputProfile.write(
        pnp_cmyk_profile()[:8] + b"\x04\x20" + pnp_cmyk_profile()[10:]), "ICC version 4; PDF 1.4 reads 2"),
    ("4", lambda pdf: setattr(pdf.pages[0].obj, "TrimBox", pikepdf.Array([-5, 0, 100, 100])),
     "page 1's TrimBox is not inside its BleedBox"),
    ("1a", lambda pdf: setattr(pdf.pages[0].obj, "ArtBox", pdf.pages[0].obj.TrimBox),
     "page 1 has both a TrimBox and an ArtBox"),
]


@pytest.mark.parametrize("option", ["4", "1a"])
def test_the_rule_checker_passes_pnps_files(built, option):
    assert pdfx_problems(built[option].read_bytes()) == []


@pytest.mark.parametrize("option, breaking, message", BROKEN, ids=[case[2][:40] for case in BROKEN])
def test_the_rule_checker_fails_each_rule_broken(built, tmp_path, option, breaking, message):
    with pikepdf.open(built[option]) as pdf:
        breaking(pdf)
        pdf.save(tmp_path / "broken.pdf", fix_metadata_version=False)     # (pikepdf would replace bad XMP)
    problems = pdfx_problems((tmp_path / "broken.pdf").read_bytes())
    assert any(message in problem for problem in problems), problems


def test_the_rule_checker_needs_a_file_identifier(built):
    data = built["4"].read_bytes()
    trailer_id = re.search(rb"/ID \[<[0-9a-f]+><[0-9a-f]+>\]", data)
    assert trailer_id, "qpdf writes a classic trailer with its ID (no object streams)"
    without = data.replace(trailer_id.group(0), b" " * len(trailer_id.group(0)))
    assert "PDF/X: the trailer has no file identifier (ID)" in pdfx_problems(without)


# ------------------------------------------------------------------ the ICC profile and what the docs say

def test_the_profile_carries_the_relative_colorimetric_tables_the_docs_promise():
    from PIL import Image, ImageCms
    profile = pnp_cmyk_profile()
    count = struct.unpack(">I", profile[128:132])[0]
    tags = {sig: (offset, size) for sig, offset, size in
            (struct.unpack(">4sII", profile[132 + 12 * i:144 + 12 * i]) for i in range(count))}
    assert {b"desc", b"cprt", b"wtpt", b"gamt", b"A2B0", b"A2B1", b"A2B2", b"B2A0", b"B2A1", b"B2A2"} <= tags.keys()
    assert tags[b"A2B1"] == tags[b"A2B0"] and tags[b"B2A1"] == tags[b"B2A0"]     # one mapping, shared
    opened = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    relative = ImageCms.Intent.RELATIVE_COLORIMETRIC
    assert opened.profile.intent_supported[relative] == (True, True, True)     # littlecms: input, output, proof
    # and "relative colorimetric" is not a fallback to the perceptual table: the same numbers, read from A2B1/B2A1
    colours = Image.frombytes("RGB", (4, 1), bytes([230, 40, 20, 20, 120, 220, 128, 128, 128, 250, 240, 10]))
    srgb = ImageCms.createProfile("sRGB")
    converted = [ImageCms.buildTransform(srgb, opened, "RGB", "CMYK", renderingIntent=intent).apply(colours).tobytes()
                 for intent in (ImageCms.Intent.PERCEPTUAL, relative)]
    assert converted[0] == converted[1]
    assert ImageCms.getProfileDescription(opened).strip() == OWN_DESCRIPTION


@pytest.mark.skipif(not shutil.which("icclu"), reason="Argyll CMS (icclu) is not installed")
def test_argyll_reads_the_gamut_tag_greys_in_and_saturated_colours_out(tmp_path):
    (tmp_path / "pnp.icc").write_bytes(pnp_cmyk_profile())
    lab = "50 0 0\n95 0 0\n20 5 5\n50 80 80\n70 0 -60\n"
    run = subprocess.run(["icclu", "-fg", "-ir", "-pl", str(tmp_path / "pnp.icc")], input=lab, text=True,
                         capture_output=True, check=True)
    values = [float(v) for v in re.findall(r"-> Lut -> ([\d.]+) \[Gray\]", run.stdout)]
    assert len(values) == 5 and all(v < 0.001 for v in values[:3]) and all(v > 0.1 for v in values[3:]), run.stdout


# ------------------------------------------------------------------ independent tools

@pytest.mark.skipif(not shutil.which("qpdf"), reason="qpdf is not installed")
@pytest.mark.parametrize("option", ["4", "1a"])
def test_qpdf_finds_no_structural_error(built, option):
    subprocess.run(["qpdf", "--check", str(built[option])], check=True, capture_output=True)


@pytest.mark.skipif(not shutil.which("xmllint"), reason="xmllint is not installed")
@pytest.mark.parametrize("option", ["4", "1a"])
def test_xmllint_reads_the_xmp_packet_as_well_formed_xml(built, option, tmp_path):
    with pikepdf.open(built[option]) as pdf:
        (tmp_path / "xmp.xml").write_bytes(pdf.Root.Metadata.read_bytes())
    subprocess.run(["xmllint", "--noout", str(tmp_path / "xmp.xml")], check=True, capture_output=True)


@pytest.mark.skipif(not shutil.which("exiftool"), reason="exiftool is not installed")
def test_exiftool_reads_each_standards_identification_from_its_namespace(built):
    def tag(path: Path, name: str) -> str:
        return subprocess.run(["exiftool", "-s3", f"-{name}", str(path)], check=True, capture_output=True,
                              text=True).stdout.strip()
    assert tag(built["4"], "XMP-pdfxid:GTS_PDFXVersion") == "PDF/X-4"
    assert tag(built["1a"], "XMP-pdfx:GTS_PDFXVersion") == "PDF/X-1a:2003"
    assert tag(built["1a"], "XMP-pdfxid:GTS_PDFXVersion") == ""
    assert tag(built["4"], "XMP-xmpMM:RenditionClass") == "default"
    assert tag(built["4"], "PDF:Author") == "" and tag(built["4"], "PDF:Subject") == ""
