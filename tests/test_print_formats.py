"""Issue 20 measured in the written files: PDF/X print-shop files, cut files, card sizes per shop preset,
and the Tabletop Simulator export — each on a tiny synthetic game built through the real command line."""

from __future__ import annotations

import io
import json
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

from tests.test_content_errors import edit, make_game, pnp

# A full-bleed poker card whose art is a PNG with transparency (half-transparent red over the card's blue)
FULL_BLEED = """\
size: {width: 63mm, height: 88mm}
bleed: 3mm
safe: 4mm
palette:
  ink: "#222222"
boxes:
  ground: {kind: rect, area: bleed, fill: "#2255aa"}
  art: {kind: art, art: art/glass.png, x: 10, y: 10, width: 43, height: 40}
  name: {kind: text, text: "@name", x: 5, y: 60, width: 53, height: 10}
"""
ROUND_TOKEN = """\
size: {width: 20mm, height: 20mm}
bleed: 2mm
shape: round
boxes:
  disc: {kind: ellipse, area: trim, fill: "#aa3322"}
"""
TOKENS = """\
sets:
  - id: coins
    name: deck.cards
    template: coin
    back: coin
    tokens:
      - id: coin
        count: 3
"""


def _png_rgba(width: int = 8, height: int = 8, rgba=(200, 0, 0, 128)) -> bytes:
    """A tiny RGBA PNG written by hand (no Pillow needed to make the fixture)."""
    raw = b"".join(b"\x00" + bytes(rgba) * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("print-formats")
    folder = make_game(root, {"templates/card.yaml": FULL_BLEED, "templates/coin.yaml": ROUND_TOKEN,
                              "tokens.yaml": TOKENS})
    (folder / "art" / "glass.png").write_bytes(_png_rgba())
    return folder


def _build(game: Path, out: Path, *args: str):
    result = pnp("build", str(game), "--paper", "a4", "--out", str(out), "-q", *args)
    assert result.exit_code == 0, result.output
    return out / "g" / "standard" / "en"


# ------------------------------------------------------------------ PDF/X

@pytest.fixture(scope="module")
def pdfx4(game, tmp_path_factory) -> Path:
    return _build(game, tmp_path_factory.mktemp("x4"), "--only", "print-shop", "--pdfx", "4") / "print-shop"


@pytest.fixture(scope="module")
def pdfx1a(game, tmp_path_factory) -> Path:
    return _build(game, tmp_path_factory.mktemp("x1a"), "--only", "print-shop", "--pdfx", "1a") / "print-shop"


def test_pdfx4_cards_carry_an_output_intent_with_an_embedded_cmyk_profile(pdfx4):
    import pikepdf
    from PIL import ImageCms
    with pikepdf.open(pdfx4 / "cards.pdf") as pdf:
        assert pdf.pdf_version == "1.6"
        intents = pdf.Root.OutputIntents
        assert len(intents) == 1 and intents[0].S == "/GTS_PDFX"
        profile = intents[0].DestOutputProfile
        assert int(profile.N) == 4
        opened = ImageCms.ImageCmsProfile(io.BytesIO(profile.read_bytes()))
        assert opened.profile.xcolor_space.strip() == "CMYK" and opened.profile.device_class == "prtr"
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-4"
        assert pdf.docinfo.Trapped == "/False"
        assert "cards print shop" in str(pdf.docinfo.Title)
        assert pdf.open_metadata()["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
        for page in pdf.pages:     # TrimBox 3 mm inside BleedBox = MediaBox, on every page
            media, trim, bleed = ([float(v) for v in page.obj[key]] for key in ("/MediaBox", "/TrimBox", "/BleedBox"))
            assert bleed == media
            assert trim[0] - bleed[0] == pytest.approx(3 / 25.4 * 72, abs=0.01)


def _colour_operators(pdf) -> set[str]:
    import pikepdf
    found = set()

    def visit(content, resources):
        for _operands, operator in pikepdf.parse_content_stream(content):
            found.add(str(operator))
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.Subtype == "/Form":
                visit(xobject, xobject.get("/Resources") or resources)
    for page in pdf.pages:
        visit(page, page.Resources)
    return found & {"rg", "RG", "k", "K", "g", "G", "sc", "scn", "SC", "SCN", "cs", "CS"}


def _images(pdf):
    seen = {}

    def visit(resources):
        for _name, xobject in (resources.get("/XObject") or {}).items():
            if xobject.objgen in seen:
                continue
            seen[xobject.objgen] = xobject
            if xobject.Subtype == "/Form" and "/Resources" in xobject:
                visit(xobject.Resources)
    for page in pdf.pages:
        visit(page.Resources)
    return [x for x in seen.values() if x.Subtype == "/Image"]


def test_pdfx1a_is_cmyk_only_without_transparency(pdfx1a):
    import pikepdf
    with pikepdf.open(pdfx1a / "cards.pdf") as pdf:
        assert pdf.pdf_version == "1.4"
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert str(pdf.docinfo.GTS_PDFXConformance) == "PDF/X-1a:2003"
        assert pdf.Root.OutputIntents[0].S == "/GTS_PDFX"
        assert _colour_operators(pdf) <= {"k", "K"}            # CMYK only: no rg/RG/g/G, no colour spaces
        images = _images(pdf)
        assert images, "the card's PNG art is in the file"
        for image in images:
            assert "/SMask" not in image and "/Mask" not in image
            assert image.ColorSpace == "/DeviceCMYK"
        for page in pdf.pages:
            for state in (page.Resources.get("/ExtGState") or {}).values():
                assert float(state.get("/CA", 1)) == 1 and float(state.get("/ca", 1)) == 1


def test_pdfx1a_flattens_the_transparent_art_onto_what_lies_beneath_it(pdfx1a):
    """Half-transparent red over the card's blue: the flattened raster's inks are the two colours' inks blended
    half and half (as a PDF/X-4 page blends them in the output's CMYK), not red on white paper."""
    import pikepdf
    from pikepdf import PdfImage

    from generator.print_facts import INK_LIMIT
    from generator.render.pdfx import output_separation
    separation = output_separation(None)
    red, blue = separation.rgb(200 / 255, 0, 0, INK_LIMIT), separation.rgb(0x22 / 255, 0x55 / 255, 0xaa / 255,
                                                                            INK_LIMIT)
    alpha = 128 / 255
    expected = [round(255 * (alpha * r + (1 - alpha) * b)) for r, b in zip(red, blue, strict=False)]
    with pikepdf.open(pdfx1a / "cards.pdf") as pdf:
        image = PdfImage(_images(pdf)[0]).as_pil_image()
    assert image.mode == "CMYK"
    for point in ((3, 3), (image.width // 2, image.height // 2), (image.width - 4, image.height - 4)):
        assert all(abs(got - want) <= 2 for got, want in zip(image.getpixel(point), expected, strict=False)), point
    assert image.width == pytest.approx(40 / 25.4 * 300, abs=3)      # the art's 40 mm at 300 dpi


def _rendered(pdf: Path, dpi: int = 150):
    import numpy
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(pdf)
    try:
        return [numpy.asarray(page.render(scale=dpi / 72).to_pil().convert("RGB"), dtype=numpy.int16)
                for page in document]
    finally:
        document.close()


def test_pdfx1a_pages_render_like_the_pdfx4_pages(pdfx4, pdfx1a):
    """At 150 dpi: outside the art the pages are the same pixels; over it only the viewer's blending differs
    (pdfium blends X-4's transparency in RGB, the flattened inks were blended in CMYK)."""
    import numpy
    x4, x1a = _rendered(pdfx4 / "cards.pdf"), _rendered(pdfx1a / "cards.pdf")
    assert len(x4) == len(x1a) == 4
    for page4, page1a in zip(x4, x1a, strict=False):
        assert page4.shape == page1a.shape
        difference = numpy.abs(page4 - page1a).max(axis=2)
        art = numpy.zeros(difference.shape, bool)       # the art box: x 10–53 mm, y 10–50 mm of the trim, 3 mm bleed
        def to_px(mm):
            return round((mm + 3) / 25.4 * 150)
        art[to_px(10) - 2:to_px(50) + 2, to_px(10) - 2:to_px(53) + 2] = True
        assert difference[~art].max() <= 2
        assert difference[art].max() <= 20 and difference.mean() <= 5


def test_pdfx4_keeps_the_arts_transparency_as_a_soft_mask(pdfx4):
    import pikepdf
    with pikepdf.open(pdfx4 / "cards.pdf") as pdf:
        images = [image for image in _images(pdf) if "/SMask" in image]
        assert images and all(image.ColorSpace == "/DeviceCMYK" for image in images)
        mask = pikepdf.PdfImage(images[0].SMask).as_pil_image()
        assert mask.getextrema() == (128, 128)


def test_flattening_follows_a_turned_group(tmp_path):
    """Transparent art in a group turned a quarter (a standee's half, a board space): the flattened page
    renders like the transparent one, the raster turned back into the group's frame."""
    import numpy
    from PIL import Image

    from generator.components.piece import ArtPlacement, Face, Group, Rect
    from generator.imposition.sheet import Document, Page, Placement
    from generator.print_facts import INK_LIMIT
    from generator.render.pdf import render_pdf
    from generator.render.pdfx import output_separation
    from generator.render.transparency import flatten_document
    from generator.text.fonts import FontLibrary
    font = FontLibrary().face("nunito").name
    art = tmp_path / "wedge.png"
    wedge = numpy.zeros((40, 80, 4), numpy.uint8)
    wedge[..., 0], wedge[..., 3] = 220, numpy.linspace(0, 255, 80, dtype=numpy.uint8)   # fades in to the right
    Image.fromarray(wedge, "RGBA").save(art)
    group = Group(30, 10, 20, 40, 40, 20, 90, (ArtPlacement(art, 0, 0, 40, 20),))
    face = Face("turned", 60, 60, 0, (Rect(0, 0, 30, 60, fill="#2255aa"), Rect(30, 0, 30, 60, fill="#ffcc00"),
                                      group))
    document = Document([Page(60, 60, (Placement(face, 0, 0, (0, 0, 60, 60)),))])
    separation = output_separation(None)
    (tmp_path / "flat").mkdir()
    flat = flatten_document(document, font, tmp_path / "flat", INK_LIMIT, separation)
    assert flat.pages[0].placements[0].face.items[2].items[0].file.parent == tmp_path / "flat"
    (tmp_path / "x4.pdf").write_bytes(render_pdf(document, font, "cmyk", INK_LIMIT, separation))
    (tmp_path / "x1a.pdf").write_bytes(render_pdf(flat, font, "cmyk", INK_LIMIT, separation,
                                                  opaque=True))
    (x4,), (x1a,) = _rendered(tmp_path / "x4.pdf"), _rendered(tmp_path / "x1a.pdf")
    difference = numpy.abs(x4 - x1a).max(axis=2)
    assert difference.mean() <= 3 and numpy.percentile(difference, 99) <= 24
    column = x1a[:, round(40 / 25.4 * 150)]          # turned, the wedge fades in downwards: yellow above, red below
    assert column[round(12 / 25.4 * 150)][1] > 150 and column[round(48 / 25.4 * 150)][1] < 90


def test_pdfx_needs_a_cmyk_profile(game, tmp_path):
    rgb_profile = tmp_path / "srgb.icc"
    from PIL import ImageCms
    rgb_profile.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    result = pnp("build", str(game), "--paper", "a4", "--out", str(tmp_path / "o"), "--pdfx", "4",
                 "--icc", str(rgb_profile))
    assert result.exit_code == 2
    assert "CMYK" in result.output and "srgb.icc" in result.output


def test_pdfx_with_the_users_profile_embeds_that_profile(game, tmp_path):
    import pikepdf
    from generator.render.icc_profile import pnp_cmyk_profile
    own = tmp_path / "shop.icc"
    own.write_bytes(pnp_cmyk_profile())
    folder = _build(game, tmp_path / "o", "--only", "print-shop", "--pdfx", "4", "--icc", str(own))
    with pikepdf.open(folder / "print-shop" / "cards.pdf") as pdf:
        assert pdf.Root.OutputIntents[0].DestOutputProfile.read_bytes() == own.read_bytes()


def test_pdfx_builds_are_byte_identical(game, pdfx4, tmp_path):
    again = _build(game, tmp_path / "o", "--only", "print-shop", "--pdfx", "4") / "print-shop"
    assert (again / "cards.pdf").read_bytes() == (pdfx4 / "cards.pdf").read_bytes()


def test_preflight_checks_the_pdfx_rules(pdfx4, pdfx1a, tmp_path):
    import pikepdf
    from generator.preflight import inspect
    for folder in (pdfx4, pdfx1a):
        report = inspect(folder / "cards.pdf", shop=True)
        assert not [error for error in report.errors if "PDF/X" in error], report.errors
    with pikepdf.open(pdfx4 / "cards.pdf") as pdf:      # the same file without its output intent
        del pdf.Root.OutputIntents
        pdf.save(tmp_path / "broken.pdf")
    report = inspect(tmp_path / "broken.pdf", shop=True)
    assert "PDF/X: 0 OutputIntents of subtype GTS_PDFX (one is needed)" in report.errors


# ------------------------------------------------------------------ cut files

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def cut_svg(game, tmp_path_factory) -> Path:
    return _build(game, tmp_path_factory.mktemp("cut"), "--only", "cards,tokens", "--cut", "svg") / "a4"


def _paths(svg: Path):
    root = ET.parse(svg).getroot()
    return root, root.findall(f".//{SVG}path")


def test_cut_svg_has_one_closed_path_per_card_at_63_by_88_mm(cut_svg):
    root, paths = _paths(cut_svg / "cut" / "cards-1.svg")
    assert root.get("width") == "210mm" and root.get("height") == "297mm" and root.get("viewBox") == "0 0 210 297"
    assert len(paths) == 2                       # the game's two cards
    for path in paths:
        d = path.get("d")
        assert d.startswith("M") and d.rstrip().endswith("Z")
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
        _xs, _ys = numbers[0::2], numbers[1::2]
        # the rounded corners' arcs (A r,r 0 0,1 x,y) put flags among the numbers: measure the end points
        points = re.findall(r"(?:[MHVLA][^MHVLAZ]*)", d)
        ends = [tuple(float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", p)[-2:]) for p in points if p[0] in "MA"]
        width = max(x for x, _ in ends) - min(x for x, _ in ends)
        height = max(y for _, y in ends) - min(y for _, y in ends)
        assert (width, height) == (pytest.approx(63), pytest.approx(88))
        assert " A3,3 " in d                        # 3 mm rounded corners


def test_cut_paths_lie_where_the_cards_are_printed(cut_svg, game, tmp_path):
    """The first path's top-left corner is the first card's trim corner on the PDF page (its blue ground)."""
    import pypdfium2 as pdfium
    _, paths = _paths(cut_svg / "cut" / "cards-1.svg")
    x, y = (float(v) for v in re.match(r"M(-?[\d.]+),(-?[\d.]+)", paths[0].get("d")).groups())
    x -= 3.0                                        # the path starts after the 3 mm corner
    document = pdfium.PdfDocument(str(cut_svg / "cards.pdf"))
    image = document[0].render(scale=100 / 72).to_pil().convert("RGB")
    def px(mm):
        return round(mm / 25.4 * 100)
    assert image.getpixel((px(x + 2), px(y + 2))) == pytest.approx((0x22, 0x55, 0xaa), abs=6)   # inside the card
    document.close()


def test_round_tokens_are_circles_in_cut_files_and_on_the_home_sheet(cut_svg):
    import pypdfium2 as pdfium
    _, paths = _paths(cut_svg / "cut" / "tokens-1.svg")
    assert len(paths) == 3
    image = pdfium.PdfDocument(str(cut_svg / "tokens.pdf"))[0].render(scale=400 / 72).to_pil().convert("RGB")
    def px(mm):
        return round(mm / 25.4 * 400)
    for path in paths:
        d = path.get("d")
        assert d.count("A10,10 ") == 2 and d.endswith("Z")          # two half circles of radius 10 mm
        left, middle = (float(v) for v in re.match(r"M([\d.]+),([\d.]+)", d).groups())
        assert sum(image.getpixel((px(left), px(middle)))) < 200      # the black cut line on the trim circle
        assert image.getpixel((px(left + 1.5), px(middle))) == pytest.approx((0xaa, 0x33, 0x22), abs=8)
        # the token's corner, outside the circle, is paper (the disc is round; the cell is square)
        assert image.getpixel((px(left + 0.6), px(middle - 9.4))) == (255, 255, 255)


def test_cut_dxf_reads_back_in_ezdxf(game, tmp_path):
    import ezdxf
    folder = _build(game, tmp_path / "o", "--only", "cards,tokens", "--cut", "dxf") / "a4" / "cut"
    cards = ezdxf.readfile(folder / "cards-1.dxf")
    assert cards.units == ezdxf.units.MM
    polylines = [e for e in cards.modelspace() if e.dxftype() == "LWPOLYLINE"]
    assert len(polylines) == 2 and all(p.closed for p in polylines)
    for polyline in polylines:
        xs = [x for x, y in polyline.get_points("xy")]
        ys = [y for x, y in polyline.get_points("xy")]
        assert max(xs) - min(xs) == pytest.approx(63) and max(ys) - min(ys) == pytest.approx(88)
    circles = [e for e in ezdxf.readfile(folder / "tokens-1.dxf").modelspace() if e.dxftype() == "CIRCLE"]
    assert [c.dxf.radius for c in circles] == [pytest.approx(10)] * 3
    again = _build(game, tmp_path / "p", "--only", "cards", "--cut", "dxf") / "a4" / "cut"
    assert (again / "cards-1.dxf").read_bytes() == (folder / "cards-1.dxf").read_bytes()


def test_silhouette_marks_and_pieces_clear_of_them(game, tmp_path):
    """A4 holds 8 poker cards landscape inside the marks' 16 mm border (4 portrait): the sheet turns."""
    import pypdfium2 as pdfium
    folder = _build(game, tmp_path / "o", "--only", "cards", "--cut", "silhouette") / "a4"
    assert (folder / "cut" / "cards-1.svg").is_file() and (folder / "cut" / "cards-1.dxf").is_file()
    document = pdfium.PdfDocument(str(folder / "cards.pdf"))
    assert document[0].get_size() == (pytest.approx(297 / 25.4 * 72), pytest.approx(210 / 25.4 * 72))
    image = document[0].render(scale=200 / 72).to_pil().convert("L")
    backs = document[1].render(scale=200 / 72).to_pil().convert("L")
    def px(mm):
        return round(mm / 25.4 * 200)
    for sheet, dark in ((image, True), (backs, False)):             # the marks are on the fronts only
        assert (sheet.getpixel((px(12.5), px(12.5))) < 40) is dark       # the 5 mm square, 10 mm in
        assert (sheet.getpixel((px(297 - 10.15), px(13))) < 90) is dark  # the top-right L's 0.3 mm arm down the side
        assert (sheet.getpixel((px(13), px(210 - 10.15))) < 90) is dark  # the bottom-left L's arm along the foot
    assert image.getpixel((px(297 - 9.7), px(13))) > 200 and image.getpixel((px(297 - 10.6), px(13))) > 200
    root, paths = _paths(folder / "cut" / "cards-1.svg")
    assert root.get("viewBox") == "0 0 297 210"
    for path in paths:
        x, y = (float(v) for v in re.match(r"M([\d.]+),([\d.]+)", path.get("d")).groups())
        assert x - 3 >= 16 and y >= 16                                   # inside the marks' border


def test_cut_with_gutterfold_is_a_usage_error(game, tmp_path):
    result = pnp("build", str(game), "--out", str(tmp_path), "--cut", "svg", "--layout", "gutterfold")
    assert result.exit_code == 2 and "--layout duplex" in result.output


# ------------------------------------------------------------------ card sizes and shop presets

BRIDGE_BACK = """\
size: {width: 57mm, height: 89mm}
bleed: 3mm
boxes:
  ground: {kind: rect, area: bleed, fill: "#335577"}
"""


def test_every_shared_size_template_has_its_size():
    from generator.project import package_folder
    import yaml
    folder = package_folder("shared_templates")
    sizes = {"mini": (44, 68), "tarot": (70, 120), "square": (70, 70), "bridge": (57, 89), "euro": (59, 92),
             "japanese": (59, 86)}
    for name, (width, height) in sizes.items():
        data = yaml.safe_load((Path(folder) / f"{name}-card.yaml").read_text())
        assert data["size"] == {"width": f"{width}mm", "height": f"{height}mm"}


@pytest.fixture(scope="module")
def bridge_game(tmp_path_factory) -> Path:
    card = ("extends: bridge-card\nboxes:\n  ground: {kind: rect, area: bleed, fill: \"#2255aa\"}\n"
            "  name: {kind: text, text: \"@name\", x: 5, y: 60, width: 47, height: 10, style: body}\n")
    return make_game(tmp_path_factory.mktemp("bridge"), {"templates/card.yaml": card,
                                                         "templates/back.yaml": BRIDGE_BACK})


def test_a_bridge_deck_is_printed_as_tgcs_bridge_product(bridge_game, tmp_path):
    import pikepdf
    folder = _build(bridge_game, tmp_path / "o", "--only", "print-shop", "--shop", "tgc")
    with pikepdf.open(folder / "print-shop" / "cards.pdf") as pdf:
        media = [float(v) / 72 for v in pdf.pages[0].MediaBox]
        trim = [float(v) / 72 for v in pdf.pages[0].TrimBox]
    assert media[2:] == [pytest.approx(2.5), pytest.approx(3.75)]        # 2.25 × 3.5 in + 1/8 in bleed
    assert trim[2] - trim[0] == pytest.approx(2.25) and trim[3] - trim[1] == pytest.approx(3.5)


def test_a_shop_without_the_size_is_a_located_error_naming_its_sizes(bridge_game, tmp_path):
    result = pnp("build", str(bridge_game), "--paper", "a4", "--out", str(tmp_path), "--shop", "drivethrucards")
    assert result.exit_code == 1
    assert re.search(r"cards\.yaml:4:\d+: deck 'cards' is bridge size \(57 × 89 mm\): print-shop preset "
                     r"'drivethrucards' makes no such card \(it offers poker 63\.5 × 88\.9 mm, tarot", result.output)
    assert "--shop generic" in result.output
    assert not (tmp_path / "g").exists()


def test_every_preset_maps_every_named_size_or_refuses_it():
    from generator.imposition.shops import CARD_SIZES, SHOP_PRESETS
    for preset in SHOP_PRESETS.values():
        for size in CARD_SIZES:
            product = preset.product_for(size.width, size.height)
            if product is not None:       # fitted by its bleed box: at most a 1.5 % stretch
                assert abs(product.trim[0] / size.width - 1) <= 0.015
                assert abs(product.trim[1] / size.height - 1) <= 0.015
    assert SHOP_PRESETS["generic"].product_for(59, 86).trim == (59, 86)


# ------------------------------------------------------------------ Tabletop Simulator

def test_tts_export_names_its_sheets_and_keeps_them_within_4096_px(game, tmp_path):
    from PIL import Image
    big = make_game(tmp_path / "big", edit("cards.yaml", "count: 2", "count: 1"))
    cards = (big / "cards.yaml").read_text() + "".join(
        f"      - id: c{n}\n        count: 2\n        fields: {{name: cards.star, art: art/star.svg}}\n"
        for n in range(80))
    (big / "cards.yaml").write_text(cards)
    result = pnp("export", "tts", str(big), "--out", str(tmp_path / "tts"))
    assert result.exit_code == 0, result.output
    save = json.loads((tmp_path / "tts" / "g-standard-en.json").read_text())
    decks = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(decks) == 1
    deck = decks[0]
    assert len(deck["ContainedObjects"]) == 161 and len(deck["DeckIDs"]) == 161
    assert len(deck["CustomDeck"]) == 2                      # 81 distinct faces: two sheets
    for _number, sheet in deck["CustomDeck"].items():
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7 and sheet["BackIsHidden"] is True
        face = Path(sheet["FaceURL"].removeprefix("file://"))
        assert face.is_file() and face.name.startswith("cards-")
        with Image.open(face) as image:
            assert max(image.size) <= 4096
            assert image.size[0] % sheet["NumWidth"] == 0
        assert Path(sheet["BackURL"].removeprefix("file://")).is_file()
    for card_id, card in zip(deck["DeckIDs"], deck["ContainedObjects"], strict=False):
        sheet = deck["CustomDeck"][str(card_id // 100)]
        assert card["CardID"] == card_id and card_id % 100 < sheet["NumWidth"] * sheet["NumHeight"]
    assert {o["Name"] for o in save["ObjectStates"]} == {"DeckCustom"}


def test_tts_tokens_are_custom_tiles_round_ones_circles(game, tmp_path):
    result = pnp("export", "tts", str(game), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    save = json.loads((tmp_path / "g-standard-en.json").read_text())
    tiles = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]
    assert len(tiles) == 3
    for tile in tiles:
        assert tile["CustomImage"]["CustomTile"]["Type"] == 2
        assert Path(tile["CustomImage"]["ImageURL"].removeprefix("file://")).is_file()


def test_cricut_gets_pieces_as_print_then_cut_images_and_no_marks(game, tmp_path):
    """Design Space prints its own marks: the sheets carry none; each distinct piece is a 300 dpi PNG whose
    opaque outline is its cut line (rounded corners for cards, a circle for round tokens)."""
    import pypdfium2 as pdfium
    from PIL import Image
    folder = _build(game, tmp_path / "o", "--only", "cards,tokens", "--cut", "cricut") / "a4"
    sheet = pdfium.PdfDocument(str(folder / "cards.pdf"))[0].render(scale=100 / 72).to_pil().convert("L")
    margin = [sheet.getpixel((x, y)) for x in range(0, sheet.width, 3) for y in range(0, 40, 3)]
    assert min(margin) > 200                                      # nothing printed in the top 10 mm: no frame
    cards = sorted((folder / "cut").glob("cards-*-x*.png"))
    tokens = sorted((folder / "cut").glob("tokens-*-x*.png"))
    assert [p.name for p in cards] == ["cards-001-x2.png"] and [p.name for p in tokens] == ["tokens-001-x3.png"]
    with Image.open(cards[0]) as card:
        assert card.size[0] == pytest.approx(63 / 25.4 * 300, abs=1.5)
        assert card.size[1] == pytest.approx(88 / 25.4 * 300, abs=1.5)
        assert card.getpixel((0, 0))[3] == 0 and card.getpixel((card.width // 2, 2))[3] == 255
        assert card.getpixel((6, 6))[3] == 0                      # inside the 3 mm corner's curve
        assert card.getpixel((card.width // 2, card.height // 2))[:3] != (255, 255, 255)
    with Image.open(tokens[0]) as token:                          # round: transparent where the circle is not
        assert token.getpixel((token.width // 8, token.height // 8))[3] == 0
        assert token.getpixel((token.width // 2, 1))[3] > 200


def test_cricut_pieces_stay_inside_its_print_then_cut_area(game, tmp_path):
    folder = _build(game, tmp_path / "o", "--only", "cards,tokens", "--cut", "cricut") / "a4"
    assert not list((folder / "cut").glob("*.dxf"))               # Design Space reads SVG
    area_w, area_h = 6.75 * 25.4, 9.25 * 25.4
    for svg in (folder / "cut").glob("*.svg"):
        root, paths = _paths(svg)
        width, height = (float(v) for v in root.get("viewBox").split()[2:])
        left, top = (width - area_w) / 2, (height - area_h) / 2
        for path in paths:
            commands = re.findall(r"[MHVA][^MHVAZ]*", path.get("d"))
            xs = [float(re.findall(r"-?[\d.]+", c)[-2 if c[0] in "MA" else -1]) for c in commands if c[0] != "V"]
            ys = [float(re.findall(r"-?[\d.]+", c)[-1]) for c in commands if c[0] in "MAV"]
            assert min(xs) >= left - 0.01 and max(xs) <= width - left + 0.01
            assert min(ys) >= top - 0.01 and max(ys) <= height - top + 0.01
        assert paths


# Keys Tabletop Simulator writes for each object type, read from saves TTS wrote (saved objects and mods
# committed to GitHub: a DeckCustom with its Card objects, a Custom_Tile, a Figurine_Custom).
TTS_COMMON = {"GUID", "Name", "Transform", "Nickname", "Description", "GMNotes", "ColorDiffuse",
              "LayoutGroupSortIndex", "Value", "Locked", "Grid", "Snap", "IgnoreFoW", "MeasureMovement",
              "DragSelectable", "Autoraise", "Sticky", "Tooltip", "GridProjection", "HideWhenFaceDown", "Hands",
              "LuaScript", "LuaScriptState", "XmlUI"}
TTS_KEYS = {"DeckCustom": TTS_COMMON | {"SidewaysCard", "DeckIDs", "CustomDeck", "ContainedObjects"},
            "Card": TTS_COMMON | {"CardID", "SidewaysCard", "CustomDeck"},
            "Custom_Tile": TTS_COMMON | {"CustomImage"},
            "Figurine_Custom": TTS_COMMON | {"CustomImage"}}
TTS_TRANSFORM = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
TTS_SHEET = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}
TTS_SAVE = {"SaveName", "Date", "VersionNumber", "GameMode", "GameType", "GameComplexity", "Tags", "Gravity",
            "PlayArea", "Table", "Sky", "Note", "TabStates", "LuaScript", "LuaScriptState", "XmlUI", "ObjectStates"}
PAWNS = """\
sets:
  - id: meeples
    name: deck.cards
    template: figure
    standee: {base: 8mm}
    pawns:
      - {id: red, count: 2, fields: {name: cards.star}}
"""
FIGURE = """\
size: {width: 16mm, height: 24mm}
boxes:
  ground: {kind: rect, area: trim, fill: "#cc2222"}
  name: {kind: text, text: "@name", x: 1, y: 16, width: 14, height: 6}
"""


def test_tts_objects_carry_every_key_real_saves_have(tmp_path):
    from PIL import Image
    folder = make_game(tmp_path / "g", {"templates/card.yaml": FULL_BLEED, "templates/coin.yaml": ROUND_TOKEN,
                                        "templates/figure.yaml": FIGURE, "tokens.yaml": TOKENS,
                                        "pawns.yaml": PAWNS})
    (folder / "art" / "glass.png").write_bytes(_png_rgba())
    result = pnp("export", "tts", str(folder), "--out", str(tmp_path / "tts"))
    assert result.exit_code == 0, result.output
    save = json.loads((tmp_path / "tts" / "g-standard-en.json").read_text())
    assert TTS_SAVE <= set(save)
    objects = save["ObjectStates"] + [card for o in save["ObjectStates"] for card in o.get("ContainedObjects", ())]
    assert {o["Name"] for o in objects} == set(TTS_KEYS)
    guids = [o["GUID"] for o in objects]
    assert len(set(guids)) == len(guids) and all(re.fullmatch(r"[0-9a-f]{6}", g) for g in guids)
    for thing in objects:
        assert TTS_KEYS[thing["Name"]] <= set(thing), (thing["Name"], TTS_KEYS[thing["Name"]] - set(thing))
        assert set(thing["Transform"]) == TTS_TRANSFORM
        for sheet in thing.get("CustomDeck", {}).values():
            assert set(sheet) == TTS_SHEET
        if thing["Name"] in ("Custom_Tile", "Figurine_Custom"):
            image = thing["CustomImage"]
            assert {"ImageURL", "ImageSecondaryURL", "ImageScalar", "WidthScale"} <= set(image)
        if thing["Name"] == "Custom_Tile":
            assert set(image["CustomTile"]) == {"Type", "Thickness", "Stackable", "Stretch"}
    figurines = [o for o in objects if o["Name"] == "Figurine_Custom"]
    assert len(figurines) == 2
    front = Path(figurines[0]["CustomImage"]["ImageURL"].removeprefix("file://"))
    with Image.open(front) as image:       # the figure alone (16 × 24 mm), upright: red, its name at the foot
        assert image.width / image.height == pytest.approx(16 / 24, abs=0.02)
        assert image.convert("RGB").getpixel((image.width // 2, 5))[0] > 150


def test_a_tts_export_that_fails_half_way_leaves_its_folder_as_it_was(game, tmp_path, monkeypatch):
    import errno

    from generator import export_tts
    out = tmp_path / "tts"
    assert pnp("export", "tts", str(game), "--out", str(out)).exit_code == 0
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    assert len(before) >= 3
    drawn, calls = export_tts._faces_png, []

    def full_disk_from_the_third_image(faces, size, font):
        calls.append(1)
        if len(calls) >= 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return drawn(faces, size, font)
    monkeypatch.setattr(export_tts, "_faces_png", full_disk_from_the_third_image)
    result = pnp("export", "tts", str(game), "--out", str(out))
    assert result.exit_code == 1 and "No space left on device" in result.output, result.output
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before    # no staging left, nothing new
    calls.clear()
    fresh = tmp_path / "fresh"
    assert pnp("export", "tts", str(game), "--out", str(fresh)).exit_code == 1
    assert not fresh.exists(), "a folder made for a failed export goes with it"
