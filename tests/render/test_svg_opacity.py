"""Issue 32 item 5: SVG `opacity`, `fill-opacity`, `stroke-opacity` and group opacity as printed, in the home
cards, the print-shop file, PDF/X-4 and the flattened PDF/X-1a — measured in pixels rendered by two renderers
that are not pnp's: pdfium (pypdfium2) and poppler (pdftoppm), Ghostscript too where installed.

Each card's art is one red picture spanning x, y = 1…9 of a 10-unit viewBox; a card of the same picture opaque
is its reference. What a pixel must be, in each renderer's own terms:
- home and print-shop files are RGB: `a` opacity of red over white paper is 255 − a·(255 − the reference);
- PDF/X-4 is CMYK, and pdfium and poppler composite transparency in RGB (the page names no blending space), so
  its pixels are the same mix of the reference's RGB; poppler's CMYK output and Ghostscript's composite in
  CMYK, as a press does: there the inks are `a` times the reference's;
- PDF/X-1a has no transparency: the art is an opaque raster holding `a` times the reference's inks, so in
  RGB it must look as those inks look when painted plainly (a patch of them rendered by the same renderer).
A picture composited shape by shape (two overlapping squares of a half-opaque group at 75 % where they
overlap, not 50 %), drawn opaque, or lost to a missing resource fails by far more than the tolerance."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.preflight import inspect
from generator.render.pdfx_rules import pdfx_problems
from generator.render.transparency_check import read_transparency
from tests.test_content_errors import BASE_FILES, make_game, pnp

DPI = 50
TOLERANCE = 3                # of 255: renderers' rounding (a shape-by-shape group is 64 off)
INK_TOLERANCE = 4            # poppler's CMYK comes as JPEG
PDFTOPPM, GS, MUTOOL = shutil.which("pdftoppm"), shutil.which("gs"), shutil.which("mutool")

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">{}</svg>\n'
GRADIENT = ('<defs><linearGradient id="g"><stop offset="0" stop-color="#ff0000"/>'
            '<stop offset="1" stop-color="#0000ff"/></linearGradient></defs>')
SQUARE = '<rect x="1" y="1" width="8" height="8" fill="#ff0000"{}/>'
# card → (its picture, the opaque card it is compared with, its opacity, where it is measured in viewBox units)
CARDS = {
    "opacity": (SQUARE.format(' opacity="0.4"'), "full", 0.4, [(5, 5), (2.5, 2.5)]),
    "fill": (SQUARE.format(' fill-opacity="0.4"'), "full", 0.4, [(5, 5), (2.5, 2.5)]),
    # a ring stroked 4 wide on a 4-unit square: its paint covers 1…9, measured off its middle line
    "stroke": ('<rect x="3" y="3" width="4" height="4" fill="none" stroke="#ff0000" stroke-width="4" '
               'stroke-opacity="0.4"/>', "full", 0.4, [(2, 2), (2, 5)]),
    # filled and stroked: where the stroke lies on the fill (2…3) the shape is still 40 %, not 64 %
    "both": ('<rect x="2" y="2" width="6" height="6" fill="#ff0000" stroke="#ff0000" stroke-width="2" '
             'opacity="0.4"/>', "full", 0.4, [(5, 5), (2.5, 5), (1.5, 5)]),
    # two overlapping squares of a half-opaque group: 50 % where they overlap too
    "group": ('<g opacity="0.5"><rect x="1" y="1" width="8" height="8" fill="#ff0000"/>'
              '<rect x="3" y="3" width="4" height="4" fill="#ff0000"/></g>', "full", 0.5, [(5, 5), (2, 5)]),
    "nested": ('<g opacity="0.5"><g opacity="0.5"><rect x="1" y="1" width="8" height="8" fill="#ff0000"/>'
               '<rect x="3" y="3" width="4" height="4" fill="#ff0000"/></g></g>', "full", 0.25, [(5, 5), (2, 5)]),
    "use": ('<defs><rect id="r" x="1" y="1" width="8" height="8" fill="#ff0000"/></defs>'
            '<use href="#r" style="opacity: 0.4"/>', "full", 0.4, [(5, 5), (2.5, 2.5)]),
    "root": ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10" opacity="0.4">'
             + SQUARE.format("") + '</svg>\n', "full", 0.4, [(5, 5), (2.5, 2.5)]),      # the whole file's
    "full": (SQUARE.format(""), None, 1.0, []),
    "gradient": (GRADIENT + '<rect x="1" y="1" width="8" height="8" fill="url(#g)"/>', None, 1.0, []),
    "faded-gradient": (GRADIENT + '<rect x="1" y="1" width="8" height="8" fill="url(#g)" opacity="0.4"/>',
                       "gradient", 0.4, [(5, 5), (2.5, 5), (7.5, 5)]),
}
OUTPUTS = {"home": ("--only", "cards"), "shop": ("--only", "print-shop"),
           "x4": ("--only", "print-shop", "--pdfx", "4"), "x1a": ("--only", "print-shop", "--pdfx", "1a")}


def _game(folder: Path) -> Path:
    """The minimal game with a card per picture, in CARDS' order."""
    ids = {name: name.replace("-", "_") for name in CARDS}
    cards = "decks:\n  - id: cards\n    name: deck.cards\n    template: card\n    back: back\n    cards:\n" + "".join(
        f"      - id: {ids[name]}\n        count: 1\n        fields: {{name: cards.{ids[name]}, art: art/{name}.svg}}\n"
        for name in CARDS)
    words = BASE_FILES["i18n/en.yaml"] + "".join(f"    {ids[name]}: \"{name}\"\n" for name in CARDS)
    files = {f"art/{name}.svg": picture if picture.startswith("<svg") else SVG.format(picture)
             for name, (picture, *_) in CARDS.items()}
    return make_game(folder, {**files, "cards.yaml": cards, "i18n/en.yaml": words})


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    game = _game(tmp_path_factory.mktemp("svg-opacity"))
    files = {}
    for output, options in OUTPUTS.items():
        out = tmp_path_factory.mktemp(output)
        result = pnp("build", str(game), "--paper", "a4", "--out", str(out), "-q", "--jobs", "1", *options)
        assert result.exit_code == 0, result.output
        files[output] = out / "g" / "standard" / "en" / ("a4" if output == "home" else "print-shop") / "cards.pdf"
    return files


# ------------------------------------------------------------------ rendering and finding the pictures

def _pdfium(path: Path) -> list[numpy.ndarray]:
    document = pdfium.PdfDocument(str(path))
    try:
        return [numpy.asarray(page.render(scale=DPI / 72).to_pil().convert("RGB"), dtype=float) for page in document]
    finally:
        document.close()


def _poppler(path: Path, folder: Path, cmyk: bool = False) -> list[numpy.ndarray]:
    if PDFTOPPM is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    folder.mkdir(exist_ok=True)
    # (-jpegopt applies to -jpegcmyk too, whatever poppler 22 warns)
    form = ["-jpegcmyk", "-jpegopt", "quality=100"] if cmyk else ["-png"]
    subprocess.run([PDFTOPPM, "-r", str(DPI), *form, str(path), str(folder / "p")], check=True, capture_output=True)
    return [numpy.asarray(Image.open(page), dtype=float) for page in sorted(folder.glob("p-*"))]


def _ghostscript(path: Path, folder: Path) -> list[numpy.ndarray]:
    if GS is None:
        pytest.skip("Ghostscript is not installed")
    folder.mkdir(exist_ok=True)
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=tiff32nc", f"-r{DPI}",
                    f"-sOutputFile={folder / 'p-%03d.tif'}", str(path)], check=True, capture_output=True)
    return [numpy.asarray(Image.open(page), dtype=float) for page in sorted(folder.glob("p-*"))]


def _runs(mask: numpy.ndarray) -> list[tuple[int, int]]:
    edges = numpy.flatnonzero(numpy.diff(numpy.concatenate(([0], mask.astype(int), [0]))))
    return list(zip(edges[::2], edges[1::2], strict=True))


def _pictures(pages: list[numpy.ndarray], cmyk: bool) -> dict[str, tuple[numpy.ndarray, tuple[int, int, int, int]]]:
    """Each card's picture, in card order (rows of a sheet, then pages): the page it is on and its box of
    coloured pixels (grey text and black marks are not coloured; specks of a JPEG's noise by black text are
    too small to be a picture 32 mm wide)."""
    boxes = []
    for page in pages:
        coloured = page[..., :3].sum(axis=2) > 40 if cmyk else page.max(axis=2) - page.min(axis=2) > 12
        for top, bottom in _runs(coloured.any(axis=1)):
            for left, right in _runs(coloured[top:bottom].any(axis=0)):
                if min(right - left, bottom - top) > DPI / 2:
                    boxes.append((page, (left, top, right, bottom)))
    assert len(boxes) == len(CARDS), f"{len(boxes)} pictures found, not {len(CARDS)}"
    return dict(zip(CARDS, boxes, strict=True))


def _pixel(picture, at: tuple[float, float]) -> numpy.ndarray:
    """The pixel at viewBox units (x, y) of a picture spanning 1…9 (the mean of its 3 × 3 neighbourhood:
    a JPEG's noise evened out)."""
    page, (left, top, right, bottom) = picture
    x, y = ((at[0] - 1) / 8, (at[1] - 1) / 8)
    row, column = round(top + y * (bottom - top)), round(left + x * (right - left))
    return page[row - 1:row + 2, column - 1:column + 2].mean(axis=(0, 1))


def _mixed(pictures, tolerance: float = TOLERANCE, leaving: tuple[str, ...] = ()) -> None:
    """Each transparent picture (but those `leaving`) measured where it should be its reference mixed with
    white paper (RGB) or with no ink (CMYK, where white is 0)."""
    for name, (_, reference, opacity, points) in CARDS.items():
        if name in leaving:
            continue
        for at in points:
            shown, full = _pixel(pictures[name], at), _pixel(pictures[reference], at)
            paper = 255.0 if shown.shape[0] == 3 else 0.0
            expected = paper - opacity * (paper - full)
            assert numpy.abs(shown - expected).max() <= tolerance, (name, at, shown.tolist(), expected.tolist())


# ------------------------------------------------------------------ the outputs

@pytest.mark.parametrize("output", ["home", "shop", "x4"])
def test_pdfium_composites_every_opacity(built, output):
    pictures = _pictures(_pdfium(built[output]), cmyk=False)
    if output != "x4":                     # the reference is pure red on an RGB page: 40 % is (255, 153, 153)
        assert numpy.abs(_pixel(pictures["opacity"], (5, 5)) - (255, 153, 153)).max() <= TOLERANCE
    _mixed(pictures)


@pytest.mark.parametrize("output", ["home", "shop", "x4"])
def test_poppler_composites_every_opacity(built, output, tmp_path):
    pictures = _pictures(_poppler(built[output], tmp_path / "rgb"), cmyk=False)
    if output != "x4":
        assert numpy.abs(_pixel(pictures["opacity"], (5, 5)) - (255, 153, 153)).max() <= TOLERANCE
    _mixed(pictures)


@pytest.mark.parametrize("output", ["x4", "x1a"])
def test_cmyk_renderers_find_the_inks_at_their_opacity(built, output, tmp_path):
    """poppler's CMYK output and Ghostscript's: the inks `a` times the reference's (X-4 composited in CMYK as a
    press does, X-1a flattened by pnp)."""
    # (X-1a's faded gradient is left out: the flattened raster separates the gradient's colours as SVG blends
    # them, in sRGB, where the opaque gradient's shading blends its stops' inks — another purple mid-way)
    leaving = ("faded-gradient",) if output == "x1a" else ()
    _mixed(_pictures(_poppler(built[output], tmp_path / "cmyk", cmyk=True), cmyk=True), INK_TOLERANCE, leaving)
    _mixed(_pictures(_ghostscript(built[output], tmp_path / "gs"), cmyk=True), INK_TOLERANCE, leaving)


@pytest.fixture(scope="module")
def full_inks(built) -> tuple[float, ...]:
    """The CMYK the PDF/X-1a file fills the opaque red square with, read from its content streams (the
    first fill colour with any of C, M, Y: the text is black ink only)."""
    with pikepdf.open(built["x1a"]) as pdf:
        page = pdf.pages[2 * list(CARDS).index("full")]           # a front, then its back, per card
        streams, seen = [(page.obj, page.Resources)], set()
        while streams:
            stream, resources = streams.pop(0)
            for operands, operator in pikepdf.parse_content_stream(stream):
                if str(operator) == "k" and any(float(value) for value in operands[:3]):
                    return tuple(float(value) for value in operands)
                if str(operator) == "Do":
                    xobject = resources.XObject[operands[0]]
                    if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                        seen.add(xobject.objgen)
                        streams.append((xobject, xobject.get("/Resources", resources)))
    raise AssertionError("no CMYK fill found for the red square")


def _patch(inks: tuple[float, ...], folder: Path) -> Path:
    """A PDF of one page painted with nothing but these inks."""
    folder.mkdir()
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(72, 72))
    pdf.pages[0].Contents = pdf.make_stream("{:.4f} {:.4f} {:.4f} {:.4f} k 0 0 72 72 re f".format(*inks).encode())
    pdf.save(folder / "patch.pdf")
    return folder / "patch.pdf"


def _against_patches(pictures, full_inks, render, folder: Path) -> None:
    """Each flattened picture where it should show `opacity` times the full red's inks, against a patch of
    those inks drawn by the same renderer."""
    for name, (_, reference, opacity, points) in CARDS.items():
        if reference != "full":
            continue                       # (a gradient's inks vary across it: the CMYK renderers measure it)
        inks = tuple(opacity * ink for ink in full_inks)
        patch = render(_patch(inks, folder / name))[0][20, 20]
        for at in points:
            shown = _pixel(pictures[name], at)
            assert numpy.abs(shown - patch).max() <= TOLERANCE, (name, at, shown.tolist(), patch.tolist())


def test_pdfium_shows_the_flattened_x1a_art_as_its_inks(built, full_inks, tmp_path):
    _against_patches(_pictures(_pdfium(built["x1a"]), cmyk=False), full_inks, _pdfium, tmp_path)


def test_poppler_shows_the_flattened_x1a_art_as_its_inks(built, full_inks, tmp_path):
    _against_patches(_pictures(_poppler(built["x1a"], tmp_path / "x1a"), cmyk=False), full_inks,
                     lambda path: _poppler(path, path.parent / "rendered"), tmp_path)


# ------------------------------------------------------------------ what the files hold

def test_no_name_is_missing_from_the_resources_in_force(built):
    """Every graphics state, shading, form and font a content stream selects is in its resources (the art
    forms' opacities and gradients were not); X-1a keeps no transparency, X-4 its groups and opacities."""
    readings = {output: read_transparency(pikepdf.open(path)) for output, path in built.items()}
    for reading in readings.values():
        assert reading.missing == []
    assert readings["x1a"].transparency == set()
    assert readings["x4"].transparency == {"transparency (opacity under 1)", "transparency (a transparency group)"}


@pytest.mark.parametrize("tool", ["mutool", "gs", "pdftoppm"])
def test_other_renderers_miss_no_resource(built, tool, tmp_path):
    found = {"mutool": MUTOOL, "gs": GS, "pdftoppm": PDFTOPPM}[tool]
    if found is None:
        pytest.skip(f"{tool} is not installed")
    for path in built.values():
        command = {"mutool": [found, "draw", "-r", "10", "-o", str(tmp_path / "m-%d.png"), str(path)],
                   "gs": [found, "-q", "-o", "/dev/null", "-sDEVICE=nullpage", str(path)],
                   "pdftoppm": [found, "-r", "10", "-png", str(path), str(tmp_path / "p")]}[tool]
        said = subprocess.run(command, capture_output=True, text=True, check=True)
        complaints = [line for line in (said.stdout + said.stderr).splitlines()
                      if "ICC support" not in line and not line.startswith("page ")]
        assert complaints == [], (path, complaints)


def test_gradients_are_inks_in_cmyk_files(built):
    """A gradient's colours are separated as every other colour is (the shading was RGB in a PDF/X file)."""
    for output in ("x4", "x1a"):
        with pikepdf.open(built[output]) as pdf:
            spaces = {str(obj.ColorSpace) for obj in pdf.objects
                      if isinstance(obj, pikepdf.Dictionary) and "/ShadingType" in obj}
        assert spaces == {"/DeviceCMYK"}, (output, spaces)


def test_preflight_reads_files_whose_art_has_gradients(built):
    """pnp check --preflight read every page object's matrix, and pdfium has none for a shading: a file with
    a gradient that draws was called damaged."""
    for output, path in built.items():
        assert inspect(path, shop=output != "home").pages == (4 if output == "home" else 2 * len(CARDS))


def test_gradient_runs_from_red_to_blue(built):
    picture = _pictures(_pdfium(built["home"]), cmyk=False)["gradient"]
    left, right = _pixel(picture, (1.3, 5)), _pixel(picture, (8.7, 5))
    assert left[0] > 220 and left[2] < 40 and right[2] > 220 and right[0] < 40, (left.tolist(), right.tolist())


def test_pnps_check_finds_a_graphics_state_its_form_lacks():
    """ReportLab's own forms (before pnp's end_form) select `/gRLs0 gs` and name no graphics state: the check
    says so, where and what."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    canvas.beginForm("art", 0, 0, 100, 100)
    canvas.setFillAlpha(0.4)
    canvas.rect(10, 10, 50, 50, fill=1)
    canvas.endForm()
    canvas.doForm("art")
    canvas.showPage()
    canvas.save()
    reading = read_transparency(pikepdf.open(io.BytesIO(buffer.getvalue())))
    assert reading.missing == ["page 1, form /FormXob.art: /gRLs0 gs selects a graphics state its resources lack"]


def test_a_group_opacity_is_folded_into_its_colours_where_no_transparency_may_be(tmp_path):
    """Art drawn opaque (PDF/X-1a, were any transparent art not flattened) keeps no group to composite: the
    group's opacity goes into its colours, which are then mixed with the paper."""
    from generator.render.art import cmyk_svg, load_svg
    from generator.render.svg_drawing import GROUP_OPACITY

    art = tmp_path / "group.svg"
    art.write_text(SVG.format(CARDS["group"][0]))

    def groups(node) -> list[float]:
        own = [getattr(node, GROUP_OPACITY)] if hasattr(node, GROUP_OPACITY) else []
        return own + [value for child in getattr(node, "contents", ()) for value in groups(child)]

    def fills(node) -> list:
        own = [node.fillColor] if getattr(node, "fillColor", None) is not None else []
        return own + [colour for child in getattr(node, "contents", ()) for colour in fills(child)]

    assert groups(load_svg(art)) == [0.5]
    opaque = cmyk_svg(art, 3.0, None, opaque=True)
    assert groups(opaque) == [] and groups(load_svg(art)) == [0.5]      # (a copy: the drawing itself kept)
    # half-opaque red on paper: no cyan, half of red's magenta and yellow (pnp's own separation: 1, 1)
    assert {tuple(round(value, 3) for value in (colour.cyan, colour.magenta, colour.yellow, colour.black))
            for colour in fills(opaque)} == {(0.0, 0.5, 0.5, 0.0)}


def test_flattened_x1a_files_are_the_same_bytes_from_process_to_process(tmp_path):
    """The flattened raster's mark is the engine's, not the process's: its bytes, which name its form, were
    another file's at each build (two processes, as two runs of pnp are)."""
    game = make_game(tmp_path, {"art/star.svg": SVG.format(CARDS["group"][0])})
    built = []
    for run in ("one", "two"):
        subprocess.run([sys.executable, "-m", "generator", "build", str(game), "--paper", "a4", "-q", "--jobs", "1",
                        "--only", "print-shop", "--pdfx", "1a", "--out", str(tmp_path / run)], check=True)
        built.append((tmp_path / run / "g" / "standard" / "en" / "print-shop" / "cards.pdf").read_bytes())
    assert built[0] == built[1]
    with pikepdf.open(io.BytesIO(built[0])) as pdf:          # (the art was flattened: an image, no group)
        assert any(obj.get("/Subtype") == "/Image" for obj in pdf.objects if isinstance(obj, pikepdf.Stream))


def test_pdfx_check_says_what_a_form_lacks_and_finds_a_transparency_group(built):
    """The PDF/X check (pnp check --preflight) on the X-1a file as built, then with a form drawn on its first
    page that selects a graphics state it lacks and is a transparency group: PDF/X-1a allows neither."""
    assert not [problem for problem in pdfx_problems(built["x1a"].read_bytes())
                if "transparency" in problem or "lack" in problem]
    with pikepdf.open(built["x1a"]) as pdf:
        form = pdf.make_stream(b"/G0 gs 0 0 10 10 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                               BBox=[0, 0, 10, 10], Resources=pikepdf.Dictionary(),
                               Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency))
        page = pdf.pages[0]
        page.Resources.XObject[pikepdf.Name("/Broken")] = form
        page.contents_add(pdf.make_stream(b"q /Broken Do Q"))
        buffer = io.BytesIO()
        pdf.save(buffer)
    problems = pdfx_problems(buffer.getvalue())
    assert "PDF/X: page 1, form /Broken: /G0 gs selects a graphics state its resources lack" in problems
    assert "PDF/X-1a: transparency (a transparency group)" in problems
