"""Attack cases on art, round 3 (issue 26): SVG text reaching for font files, opacity dropped, a huge
path read before it is refused, CMYK raster art separated pixel by pixel, PNG data that ends early
drawn black, and art kept by path in a long-running process.

Each ends in a located message at the art reference (exit 1 from `pnp check` and `pnp build`) or in
the art drawn as the file says, within its time and memory budget.
"""

from __future__ import annotations

import io
import os
import struct
import sys
import zlib
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from PIL import Image

from tests.conftest import private_font_cache
from tests.robustness.harness import run_pnp
from tests.robustness.test_art_and_fonts import ART_MARK, game_with_art, nunito_bytes, refused_by_check_and_build
from tests.test_content_errors import BASE_FILES, pnp, problem_lines

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' \
           'width="100" height="100" viewBox="0 0 100 100">\n'
CARDS_PDF = Path("out/g/standard/en/a4/cards.pdf")


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Messages name files relative to where pnp runs: run it beside the game, as a user does."""
    monkeypatch.chdir(tmp_path)


def build_cards(*options: str) -> Path:
    """`pnp build g` (in-process) of the card sheet on A4 only; the PDF's path."""
    built = pnp("build", "g", "--out", "out", "--paper", "a4", "--only", "cards", *options)
    assert built.exit_code == 0, built.output
    return CARDS_PDF


def first_page(pdf: Path, dpi: float = 72) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def colour_share(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 8) -> float:
    """The share of the image's pixels within `tolerance` of `colour` in every channel."""
    pixels = _pixels(image)
    near = sum(1 for pixel in pixels if all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False)))
    return near / len(pixels)


# --------------------------------------------------------------- 1. SVG text in pnp's fonts only

class OpenedFiles:
    """Files opened and programs started while recording (an audit hook: it sees ReportLab's and
    svglib's own open() calls and fontconfig's fc-match being started)."""

    def __init__(self):
        self.recording = False
        self.events: list[str] = []
        sys.addaudithook(self._hook)     # hooks cannot be removed: this one records only while asked

    def _hook(self, event: str, arguments) -> None:
        if self.recording and event in ("open", "os.posix_spawn", "subprocess.Popen", "os.exec"):
            self.events.append(f"{event} {arguments[0]!r} {arguments[1]!r}"[:300])


@pytest.fixture(scope="module")
def opened_files():
    return OpenedFiles()


@pytest.mark.parametrize("family", ["{evil}", "{evil_stem}", "../fonts/evil", "../fonts/evil.ttf",
                                    "Arial", "'{evil}', Helvetica-Bogus"])
def test_svg_text_never_opens_a_font_file_nor_asks_fontconfig(tmp_path, opened_files, family):
    """svglib opened '/any/path/evil.ttf' (the family with .ttf added) and asked fc-match for the rest,
    embedding whatever the machine had: now such a text is refused at its line, nothing opened."""
    elsewhere = tmp_path / "x"
    elsewhere.mkdir()
    (elsewhere / "evil.ttf").write_bytes(nunito_bytes())
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "evil.ttf").write_bytes(nunito_bytes())
    named = family.format(evil=elsewhere / "evil.ttf", evil_stem=elsewhere / "evil")
    svg = f'{SVG_OPEN}<rect width="10" height="10"/>\n<text x="5" y="50" font-family="{named}">Evil</text>\n</svg>'
    folder = game_with_art(tmp_path, "star.svg", svg.encode())
    opened_files.events.clear()
    opened_files.recording = True
    try:
        output = refused_by_check_and_build(folder, [     # (a family is quoted to its first 80 characters)
            f"{ART_MARK}: art/star.svg: refused: the text at line 3 is in the font {named[:80]!r}, "
            "not one of pnp's fonts"])
    finally:
        opened_files.recording = False
    from generator.text.fonts import FontLibrary
    fonts = sorted(FontLibrary().families)          # pnp's own and the installed extras' (CJK is one)
    assert {"inter", "noto-sans", "noto-sans-georgian", "noto-sans-symbols", "nunito"} <= set(fonts)
    assert "hint: convert the text to paths (Inkscape: Path > Object to Path), or set it in one of pnp's fonts: " \
           f"{', '.join(fonts)}, or sans-serif" in output
    assert not [event for event in opened_files.events if "evil" in event or "fc-match" in event]


def embedded_fonts(pdf: Path) -> set[tuple[str, bool]]:
    """(BaseFont, embedded) of every font the PDF's pages and forms use."""
    found = set()

    def walk(resources):
        for font in (resources.get("/Font") or {}).values():
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and font.get("/DescendantFonts"):
                descriptor = font.DescendantFonts[0].get("/FontDescriptor")
            embedded = descriptor is not None and \
                any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            found.add((str(font.BaseFont), embedded))
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.get("/Resources") is not None:
                walk(xobject.Resources)

    with pikepdf.open(pdf) as document:
        for page in document.pages:
            walk(page.Resources)
    return found


def test_svg_text_is_set_in_pnps_faces_and_embedded(tmp_path):
    """No family (svglib's Helvetica, never embedded), a generic one after an unknown one, a pnp family by
    its display name, bold and italic: every one is a pnp face, embedded (a machine's fonts never are)."""
    svg = (f'{SVG_OPEN}<text x="5" y="20">Plain</text>\n'
           '<text x="5" y="40" font-family="Arial, sans-serif" font-weight="bold">Bold</text>\n'
           '<text x="5" y="60" style="font-family:\'Noto Sans\';font-style:italic">Italic</text>\n'
           '<text x="5" y="80" font-family="inter">Inter</text>\n</svg>')
    game_with_art(tmp_path, "star.svg", svg.encode())
    fonts = embedded_fonts(build_cards())
    names = {name.split("+")[-1].rsplit("-", 1)[0] for name, _ in fonts}
    assert names == {"Nunito-400", "Nunito-700", "NotoSans-Italic-400", "Inter-400"}, fonts
    assert all(embedded for _, embedded in fonts), fonts


def test_svg_text_goes_to_the_first_of_its_fonts_that_has_every_character(tmp_path):
    """Nunito has no ★ (a missing glyph prints as nothing): a text in no family, pnp's default stack,
    is set in Inter, the first of the stack that has all of '2★'."""
    svg = f'{SVG_OPEN}<text x="5" y="30">2★</text>\n<text x="5" y="60" font-family="nunito, inter">★</text>\n</svg>'
    game_with_art(tmp_path, "star.svg", svg.encode())
    fonts = embedded_fonts(build_cards())
    assert {name.split("+")[-1].rsplit("-", 1)[0] for name, _ in fonts} == {"Nunito-400", "Inter-400"}, fonts


def test_svg_text_in_a_font_without_its_characters_is_refused(tmp_path):
    svg = f'{SVG_OPEN}<rect width="1" height="1"/>\n<text x="5" y="60" font-family="nunito">3★</text>\n</svg>'
    folder = game_with_art(tmp_path, "star.svg", svg.encode())
    output = refused_by_check_and_build(folder, [
        f"{ART_MARK}: art/star.svg: refused: the text at line 3 is in the font 'nunito', and none of pnp's fonts "
        f"it means (nunito) has all its characters: nunito lacks '★' (U+2605), which would print as nothing"])
    from generator.text.fonts import FontLibrary
    library = FontLibrary()
    having = [family for family in sorted(library.families) if {"3", "★"} <= library.characters(family)]
    assert "inter" in having and "nunito" not in having        # (the CJK extra's families have them too)
    assert (f"hint: set the text in a family that has them all ({', '.join(having)}), split it into texts of one "
            "font each, or convert it to paths (Inkscape: Path > Object to Path)") in output


# --------------------------------------------------------------- 2. opacity

HALF_BLUE = (128, 128, 255)      # #0000ff at half opacity on white paper
QUARTER_BLUE = (191, 191, 255)


def test_svg_opacity_of_shapes_groups_and_styles_is_drawn(tmp_path):
    """Each quarter of the art is blue at half opacity, four ways; all four were drawn solid blue
    (svglib drops `opacity`, and ReportLab wrote an art form's graphics states nowhere)."""
    svg = (f'{SVG_OPEN}<rect x="0" y="0" width="50" height="50" fill="#0000ff" opacity="0.5"/>\n'
           '<rect x="50" y="0" width="50" height="50" fill="#0000ff" fill-opacity="0.5"/>\n'
           '<g opacity="0.5"><rect x="0" y="50" width="50" height="50" fill="#0000ff"/></g>\n'
           '<rect x="50" y="50" width="50" height="50" style="fill:#0000ff;opacity:50%"/>\n</svg>')
    game_with_art(tmp_path, "star.svg", svg.encode())
    art = bluish(first_page(build_cards(), dpi=100))
    assert colour_share(art, HALF_BLUE) > 0.95, sorted(art.getcolors(1 << 20), reverse=True)[:5]
    assert colour_share(art, (0, 0, 255)) == 0


def test_svg_stroke_opacity_is_drawn(tmp_path):
    svg = (f'{SVG_OPEN}<path d="M0 50 L100 50" stroke="#0000ff" stroke-width="100" stroke-opacity="0.5" '
           'fill="none"/>\n</svg>')
    game_with_art(tmp_path, "star.svg", svg.encode())
    art = bluish(first_page(build_cards(), dpi=100))
    assert colour_share(art, HALF_BLUE) > 0.95, sorted(art.getcolors(1 << 20), reverse=True)[:5]


def test_nested_and_used_opacities_multiply(tmp_path):
    svg = (f'{SVG_OPEN}<defs><rect id="r" width="100" height="50" fill="#0000ff" opacity="0.5"/></defs>\n'
           '<g opacity="0.5"><rect width="100" height="50" fill="#0000ff" opacity="0.5"/></g>\n'
           '<use xlink:href="#r" y="50" opacity="0.5"/>\n</svg>')
    game_with_art(tmp_path, "star.svg", svg.encode())
    art = bluish(first_page(build_cards(), dpi=100))
    assert colour_share(art, QUARTER_BLUE) > 0.95, sorted(art.getcolors(1 << 20), reverse=True)[:5]


def bluish(page: Image.Image) -> Image.Image:
    """The page's pixels with more blue than red (the art's, nothing else on the minimal card is blue),
    as a one-row image."""
    pixels = [pixel for pixel in _pixels(page) if pixel[2] - pixel[0] > 30]
    row = Image.new("RGB", (len(pixels), 1))
    row.putdata(pixels)
    return row


def _pixels(image: Image.Image) -> list:
    return list(image.get_flattened_data() if hasattr(image, "get_flattened_data") else image.getdata())


# --------------------------------------------------------------- 3. a huge path, refused before svglib reads it

def huge_path_svg() -> bytes:
    """A 7 MB path of 1.75 million points (the benchmark reuses it)."""
    return f'{SVG_OPEN}<path d="M0 0L{"1 2 " * 1_750_000}"/></svg>'.encode()


def test_a_huge_path_is_refused_before_svglib_parses_it(tmp_path):
    """A 7 MB path of 1.75 million points: 8.7 s and 440 MiB here (16-38 s on the issue's machine)
    before svglib's drawing was refused; now the guard counts its numbers first."""
    game = game_with_art(tmp_path, "star.svg", BASE_FILES["art/star.svg"].encode())
    # its own cache, warm (the fonts pnp cut already, linked, and the first check's): no other test cuts fonts in it
    cache = {"PNP_CACHE_DIR": str(private_font_cache(tmp_path / "cache"))}
    run_pnp("check", "g", cwd=tmp_path, env=cache).assert_clean(0)
    (game / "art" / "star.svg").write_bytes(huge_path_svg())
    run = run_pnp("check", "g", cwd=tmp_path, env=cache).assert_clean(1)
    assert problem_lines(run.stderr) == [
        f"{ART_MARK}: art/star.svg: refused: its paths and polygons have about 1,750,001 points by line 2, "
        f"more than any piece of art needs (at most 500,000)"], run.output
    assert run.peak_bytes < 200 * 2**20, run.peak_bytes / 2**20     # svglib's drawing of it took 440 MiB
    # its time (4 s for the command, 1 s for the count alone) is timed by tests/benchmarks/bench_budgets.py


def test_a_style_sheet_of_more_rules_than_art_has_is_refused(tmp_path):
    """svglib matches every rule against every shape: 100,000 rules and 29,000 shapes took 23 s and 393 MiB."""
    rules = "".join(f".c{number} {{ fill: #123456 }}\n" for number in range(10_001))
    svg = f'{SVG_OPEN}<style>{rules}</style><rect class="c1" width="10" height="10"/></svg>'
    folder = game_with_art(tmp_path, "star.svg", svg.encode())
    refused_by_check_and_build(folder, [f"{ART_MARK}: art/star.svg: refused: the <style> at line 2 has about "
                                        f"10,001 rules, more than any piece of art needs (at most 10,000)"])


# --------------------------------------------------------------- 4. CMYK raster art at C speed

def sixteen_megapixel_png() -> bytes:
    """A 4000 × 4000 RGB PNG of gradients and noise (tests/benchmarks/bench_budgets.py times it)."""
    return noisy_png(4000)


def noisy_png(side: int) -> bytes:
    """A side × side RGB PNG of gradients and noise (little compression: every pixel its own)."""
    gradient = Image.linear_gradient("L").resize((side, side))
    noise = Image.effect_noise((side, side), 20)
    image = Image.merge("RGB", (gradient, gradient.rotate(90), noise))
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def test_a_4_megapixel_png_builds_in_cmyk_in_bands(tmp_path):
    """Separated pixel by pixel in Python a 16-megapixel PNG took 98 s and 1.6 GB here (120 s on the issue's
    machine); tests/benchmarks/bench_budgets.py times that one (10 s of processor time). Its memory is
    bounded here at a quarter of its size, where banding shows as well: the build's peak was 154 MiB in
    bands, 792 MiB with the image separated whole (16 megapixels: 324 and 2,402 MiB), in 3 s instead of 8."""
    game_with_art(tmp_path, "big.png", noisy_png(2000))
    run = run_pnp("build", "g", "--out", "out", "--paper", "a4", "--only", "cards", "--color", "cmyk", "-q",
                  cwd=tmp_path).assert_clean(0)
    assert run.peak_bytes < 400 * 2**20, f"{run.peak_bytes / 2**20:.0f} MiB"
    with pikepdf.open(tmp_path / CARDS_PDF) as pdf:
        images = [xobject for page in pdf.pages for form in page.Resources.XObject.values()
                  for xobject in _images_in(form)]
    assert any(image.ColorSpace == "/DeviceCMYK" and image.Width == 2000 for image in images)


def _images_in(xobject):
    if xobject.get("/Subtype") == "/Image":
        yield xobject
    for inner in ((xobject.get("/Resources") or {}).get("/XObject") or {}).values():
        yield from _images_in(inner)


# --------------------------------------------------------------- 5. PNG data that ends early

def png_with_rows(image: Image.Image, rows: int) -> bytes:
    """A PNG of `image` whose (complete, well-formed) zlib stream holds only its first `rows` rows,
    as an exporter that stopped half-way and still closed the file writes it."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    data = buffer.getvalue()
    header = data[8:33]                                   # the IHDR chunk, whole
    raw = zlib.decompress(b"".join(_chunks(data, b"IDAT")))
    stride = len(raw) // image.height
    idat = zlib.compress(raw[:rows * stride])
    chunk = struct.pack(">I", len(idat)) + b"IDAT" + idat + struct.pack(">I", zlib.crc32(b"IDAT" + idat))
    end = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return data[:8] + header + chunk + end


def _chunks(data: bytes, kind: bytes):
    offset = 8
    while offset < len(data):
        length, found = struct.unpack(">I4s", data[offset:offset + 8])
        if found == kind:
            yield data[offset + 8:offset + 8 + length]
        offset += 12 + length


def test_a_png_whose_rows_end_early_is_refused_not_drawn_black(tmp_path):
    """Pillow filled the missing two thirds with black and said nothing: the card printed a black block."""
    image = Image.new("RGB", (60, 90), (200, 40, 40))
    folder = game_with_art(tmp_path, "art.png", png_with_rows(image, 30))
    output = refused_by_check_and_build(folder, [
        f"{ART_MARK}: art/art.png: the image data ends early (truncated file)"])
    assert "hint: export it again" in output


def test_a_png_cut_off_is_refused_with_the_same_words(tmp_path):
    image = Image.effect_noise((64, 48), 40).convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    folder = game_with_art(tmp_path, "art.png", buffer.getvalue()[:2000])
    refused_by_check_and_build(folder, [f"{ART_MARK}: art/art.png: the image data ends early (truncated file)"])


# --------------------------------------------------------------- 6. art kept by version, not by path

RED_SVG = f'{SVG_OPEN}<rect width="100" height="100" fill="#ff0000"/></svg>'
BLUE_SVG = RED_SVG.replace("#ff0000", "#0000ff")


def edit_in_place(path: Path, text: str) -> None:
    """Rewrite the file's bytes (same size) and put its times back, as some editors and sync tools do."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    with open(path, "r+b") as handle:        # the same inode
        handle.write(text.encode())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)


def fill_of(drawing) -> tuple[float, ...]:
    stack = [drawing]
    while stack:
        node = stack.pop()
        colour = getattr(node, "fillColor", None)
        if colour is not None:
            return tuple(round(value, 3) for value in colour.rgb())
        stack.extend(getattr(node, "contents", ()))
    raise AssertionError("no fill")


def test_an_svg_edited_in_place_is_read_again_by_a_long_running_process(tmp_path):
    """pnp serve is one process: the drawing, its CMYK copy and its form's name were kept by path (and a
    stat that an edit putting the modification time back leaves as it was)."""
    from generator.render.art import cmyk_svg, load_svg
    path = (tmp_path / "art.svg").resolve()
    path.write_text(RED_SVG)
    assert fill_of(load_svg(path)) == (1.0, 0.0, 0.0)
    assert fill_of(cmyk_svg(path, 3.0)) == (1.0, 0.0, 0.0)
    edit_in_place(path, BLUE_SVG)
    assert fill_of(load_svg(path)) == (0.0, 0.0, 1.0)
    assert fill_of(cmyk_svg(path, 3.0)) == (0.0, 0.0, 1.0)


def test_an_edited_svg_gets_a_form_of_its_new_content(tmp_path):
    """The form an art file is drawn as is named by the digest of its bytes: kept by path, an edit in
    place kept the old name (the next PDF differed from one a fresh process builds)."""
    import hashlib

    from generator.render.pdf import _art_form_name
    path = (tmp_path / "art.svg").resolve()
    path.write_text(RED_SVG)
    assert _art_form_name(path) == "A" + hashlib.sha256(RED_SVG.encode()).hexdigest()[:16]
    edit_in_place(path, BLUE_SVG)
    assert _art_form_name(path) == "A" + hashlib.sha256(BLUE_SVG.encode()).hexdigest()[:16]


def test_a_build_in_the_same_process_draws_the_edited_art(tmp_path):
    """Two builds in one process (as `pnp serve` rebuilds): the second draws the edited colour."""
    game_with_art(tmp_path, "star.svg", RED_SVG.encode())
    assert colour_share(first_page(build_cards()), (255, 0, 0), 4) > 0.05
    edit_in_place(tmp_path / "g" / "art" / "star.svg", BLUE_SVG)
    page = first_page(build_cards("--force"))
    assert colour_share(page, (255, 0, 0), 4) == 0
    assert colour_share(page, (0, 0, 255), 4) > 0.05


def test_art_replaced_by_a_link_leading_outside_is_refused_in_a_long_running_process(tmp_path):
    from generator.render.art import ArtError, art_problem, art_size, load_svg
    path = (tmp_path / "game" / "art.svg")
    path.parent.mkdir()
    path.write_text(RED_SVG)
    path = path.resolve()
    assert art_problem(path) is None and art_size(path) == (75.0, 75.0)
    outside = tmp_path / "outside.svg"
    outside.write_text(BLUE_SVG)
    path.unlink()
    path.symlink_to(outside)
    problem = art_problem(path)
    assert str(problem) == (f"has become a link (to {outside.resolve()}) since pnp found it, and pnp follows "
                            f"no link made while it runs")
    assert problem.hint == ("copy the file into the game folder instead of linking to it (a link inside the game "
                            "folder is followed when pnp starts again)")
    with pytest.raises(ArtError):
        load_svg(path)


def test_a_second_build_in_the_same_process_refuses_art_swapped_for_a_link_outside(tmp_path):
    """As `pnp serve` rebuilds after a save: the PNG swapped for a link to a file outside is refused at
    the card, and nothing of the outside file reaches a PDF."""
    buffer = io.BytesIO()
    Image.new("RGB", (30, 30), (255, 0, 0)).save(buffer, "PNG")
    folder = game_with_art(tmp_path, "a.png", buffer.getvalue())
    build_cards()
    Image.new("RGB", (30, 30), (0, 255, 0)).save(tmp_path / "outside.png")
    (folder / "art" / "a.png").unlink()
    (folder / "art" / "a.png").symlink_to(tmp_path / "outside.png")
    built = pnp("build", "g", "--out", "out", "--paper", "a4", "--only", "cards", "--force")
    assert built.exit_code == 1, built.output
    # refused where the card names it: found again outside the game folder, or (where the place found
    # is kept) refused by the art's own reading as a link made while pnp ran
    assert problem_lines(built.output) in ([f"{ART_MARK}: 'art/a.png' is outside the game folder"], [
        f"{ART_MARK}: art/a.png: has become a link (to {(tmp_path / 'outside.png').resolve()}) since pnp found it, "
        f"and pnp follows no link made while it runs"]), built.output
    assert colour_share(first_page(CARDS_PDF), (0, 255, 0), 4) == 0
