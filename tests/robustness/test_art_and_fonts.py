"""Attack cases on art and font files: links out of the game folder (in any encoding), bombs and
absurd sizes, damaged images and fonts, special files, control characters in file names.

Each ends in one located message at the art or font reference, exit status 1 from `pnp check`
and from `pnp build` (which writes nothing), within the time and memory budget.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from tests.robustness.harness import run_pnp
from tests.test_content_errors import BASE_FILES, make_game, pnp, problem_lines

ART_MARK = "g/cards.yaml:9:41"          # where the minimal game's card names its art
FONT_MARK = "g/game.yaml:9:18"          # where `font_files` below names the regular face
LINKS = ("refused: the SVG declares entities or links to other files or addresses (art must be self-contained)")
SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="10" height="10" viewBox="0 0 10 10">')
SECRET = "OUTSIDE-SECRET-7f3a"
OUTSIDE_SVG = (f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g id="x">'
               f'<text x="1" y="5">{SECRET}</text><rect width="5" height="5" fill="#0f0"/></g></svg>')


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Messages name files relative to where pnp runs: run it beside the game, as a user does."""
    monkeypatch.chdir(tmp_path)


def game_with_art(tmp_path: Path, name: str, content: bytes | None) -> Path:
    """The minimal game whose card shows art/NAME (written with `content` unless None)."""
    folder = make_game(tmp_path, {"cards.yaml": BASE_FILES["cards.yaml"].replace("art/star.svg", f"art/{name}")})
    (folder / "art" / "star.svg").unlink()
    if content is not None:
        (folder / "art" / name).write_bytes(content)
    return folder


def game_with_font(tmp_path: Path, name: str = "face.ttf") -> Path:
    """The minimal game whose body text is set in its own family, from NAME (not written)."""
    game = BASE_FILES["game.yaml"].replace("body: [nunito, inter]", "body: [own, inter]")
    return make_game(tmp_path, {"game.yaml": game + f"font_files:\n  own: {{regular: {name}}}\n"})


def refused_by_check_and_build(folder: Path, expected: list[str]) -> str:
    """`pnp check` and `pnp build` (in-process) print exactly `expected` and exit 1; nothing is written."""
    checked = pnp("check", folder.name)
    assert (checked.exit_code, problem_lines(checked.output)) == (1, expected), checked.output
    out = folder.parent / "out"
    built = pnp("build", folder.name, "--out", str(out), "--paper", "a4")
    assert (built.exit_code, problem_lines(built.output)) == (1, expected), built.output
    assert not out.exists() or not [path for path in out.rglob("*") if path.is_file()]
    return checked.output + built.output


def nunito_bytes() -> bytes:
    import fontpkg_nunito
    return (Path(fontpkg_nunito.__file__).parent / "files" / "Nunito[wght].ttf").read_bytes()


# --------------------------------------------------------------- 1. references out of the game folder

LINKING_SVGS = [
    pytest.param("utf-16", '<use xlink:href="../../outside.svg#x"/>',
                 "line 1: <use xlink:href='../../outside.svg#x'>", id="use-xlink-href-utf16"),
    pytest.param("utf-16-le", '<use href="../../outside.svg#x"/>',
                 "line 1: <use href='../../outside.svg#x'>", id="use-href-utf16le-no-bom"),
    pytest.param("utf-8", '<image href="file://{outside}" width="5" height="5"/>',
                 "line 1: <image href={outside_url}>", id="image-file-url"),
    pytest.param("utf-8", "<style>@import url(../../outside.css);</style>",
                 "line 1: <style> with @import, @font-face or a url() to another file", id="css-import"),
    pytest.param("utf-8", '<style>rect { fill: \\75 rl("../../outside.svg#x") }</style>',
                 "line 1: <style> with @import, @font-face or a url() to another file", id="css-escaped-url"),
    pytest.param("utf-8", """<rect width="5" height="5" style="fill:url('../../outside.svg#x')"/>""",
                 """line 1: <rect style="fill:url('../../outside.svg#x')">""", id="style-attribute-url"),
]


@pytest.mark.parametrize("encoding, body, where", LINKING_SVGS)
def test_svg_reaching_outside_the_game_folder_is_refused_in_any_encoding(tmp_path, encoding, body, where):
    outside = tmp_path / "outside.svg"
    outside.write_text(OUTSIDE_SVG)
    declared = encoding.split("-le")[0].upper()
    body, where = body.replace("{outside}", str(outside)), where.replace("{outside}", str(outside))
    where = where.replace("{outside_url}", repr(f"file://{outside}"[:80]))   # messages quote 80 characters
    text = f'<?xml version="1.0" encoding="{declared}"?>{SVG_HEAD}{body}</svg>'
    folder = game_with_art(tmp_path, "star.svg", text.encode(encoding))
    output = refused_by_check_and_build(folder, [f"{ART_MARK}: art/star.svg: {LINKS}: {where}"])
    assert SECRET not in output


def test_the_checked_tree_is_what_is_drawn_and_reaches_nothing_outside(tmp_path):
    """A local <use> still draws (the guard lets art through), and no file outside reaches the PDF."""
    (tmp_path / "outside.svg").write_text(OUTSIDE_SVG)
    svg = (f'{SVG_HEAD}<defs><g id="x"><text x="1" y="5">INSIDE-TEXT</text></g></defs>'
           f'<use xlink:href="#x"/></svg>')
    game_with_art(tmp_path, "star.svg", svg.encode("utf-16"))
    out = tmp_path / "out"
    assert pnp("build", "g", "--out", str(out), "--paper", "a4", "--shop", "generic").exit_code == 0
    import pypdfium2
    texts = []
    for pdf in out.rglob("*.pdf"):
        document = pypdfium2.PdfDocument(pdf)
        texts += [page.get_textpage().get_text_range() for page in document]
        document.close()
    assert any("INSIDE-TEXT" in text for text in texts)
    assert not any(SECRET in text for text in texts)
    assert not any(SECRET.encode() in path.read_bytes() for path in out.rglob("*") if path.is_file())


# --------------------------------------------------------------- 2. bounds

def test_a_huge_svg_is_refused_from_its_size_before_it_is_parsed(tmp_path):
    rects = '<rect width="1" height="1" fill="#123"/>' * (9 * 2**20 // 40)
    game_with_art(tmp_path, "star.svg", f"{SVG_HEAD}{rects}</svg>".encode())
    expected = [f"{ART_MARK}: art/star.svg: refused: 9.0 MB is more than any SVG art needs (at most 8 MB)"]
    for command in (("check", "g"), ("build", "g", "--out", str(tmp_path / "out"))):
        run = run_pnp(*command, cwd=tmp_path).assert_clean(1)
        assert problem_lines(run.stderr) == expected, run.output
    assert not (tmp_path / "out").exists()


def test_an_svg_of_too_many_elements_stops_being_read_at_the_limit(tmp_path):
    rects = "<rect/>" * 30_001         # 210 KB: small on disk, 30,001 shapes to draw
    game_with_art(tmp_path, "star.svg", f"{SVG_HEAD}{rects}</svg>".encode())
    run = run_pnp("check", "g", cwd=tmp_path).assert_clean(1)
    assert problem_lines(run.stderr) == [
        f"{ART_MARK}: art/star.svg: refused: more than 30,000 elements, more than any piece of art needs (line 1)"]


def test_use_copies_that_multiply_are_counted_before_anything_is_drawn(tmp_path):
    # nine levels of ten <use> each: a billion rects from a 1 KB file (svglib alone would stop at
    # 10,000 uses, silently dropping the rest; 200 uses of 1,000 rects took it 30 s)
    levels = "".join(f'<g id="l{level}">' + f'<use xlink:href="#l{level - 1}"/>' * 10 + "</g>"
                     for level in range(1, 10))
    svg = f'{SVG_HEAD}<defs><rect id="l0" width="1" height="1"/>{levels}</defs><use xlink:href="#l9"/></svg>'
    game_with_art(tmp_path, "star.svg", svg.encode())
    run = run_pnp("check", "g", cwd=tmp_path).assert_clean(1)
    assert problem_lines(run.stderr) == [
        f"{ART_MARK}: art/star.svg: refused: counting what each <use> and url(#…) repeats, it draws more "
        f"than 30,000 elements, more than any piece of art needs"]


SVG_CASES = [
    pytest.param(f"{SVG_HEAD}{'<g>' * 65}{'</g>' * 65}</svg>",
                 "refused: elements nested more than 64 deep (line 1)", id="nested-65"),
    pytest.param(f"{SVG_HEAD}{'<g>' * 300}{'</g>' * 300}</svg>",
                 "refused: elements nested more than 64 deep (line 1)", id="nested-300"),
    pytest.param('<svg xmlns="http://www.w3.org/2000/svg" width="1e300" height="10"><rect width="1" height="1"/></svg>',
                 "refused: the SVG's width '1e300' is not a size any art has (at most 100,000)", id="width-1e300"),
    pytest.param('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 1e999"/>',
                 "refused: the SVG's viewBox '0 0 10 1e999' is not a size any art has (at most 100,000)",
                 id="viewbox-infinite"),
    pytest.param('<svg xmlns="http://www.w3.org/2000/svg" width="nan" height="10"><rect width="1" height="1"/></svg>',
                 "refused: the SVG holds a number no page can draw (nan; at most 1e+09)", id="width-nan"),
    pytest.param(f'{SVG_HEAD}<path d="M0 0 L 1e30 5"/></svg>',
                 "refused: the SVG holds a number no page can draw (1e+30; at most 1e+09)", id="path-1e30"),
    pytest.param(f'{SVG_HEAD}<g transform="scale(1e300)"><rect width="1" height="1"/></g></svg>',
                 "refused: the SVG holds a number no page can draw (1e+300; at most 1e+09)", id="transform-1e300"),
    pytest.param(f'{SVG_HEAD}<path d="M0 0L{"1 2 " * 260_000}"/></svg>',
                 "refused: its shapes have 520,002 points to draw, more than any piece of art needs "
                 "(at most 500,000)", id="path-points"),
    pytest.param(f'{SVG_HEAD}<g id="a"><use xlink:href="#a"/></g></svg>',
                 "refused: the element at line 1 is shown inside itself by a <use> or url(#…)", id="use-cycle"),
    pytest.param(f"{SVG_HEAD}<g></svg>",
                 "cannot read SVG: Opening and ending tag mismatch: g line 1 and svg (line 1, column 136)",
                 id="malformed"),
    pytest.param("", "cannot read SVG: the file is empty", id="empty"),
]


@pytest.mark.parametrize("svg, message", SVG_CASES)
def test_absurd_svg_is_a_located_error_from_check_and_build(tmp_path, svg, message):
    folder = game_with_art(tmp_path, "star.svg", svg.encode())
    refused_by_check_and_build(folder, [f"{ART_MARK}: art/star.svg: {message}"])


def png_bytes(size=(64, 48)) -> bytes:
    buffer = io.BytesIO()
    Image.effect_noise(size, 40).convert("RGB").save(buffer, "PNG")
    return buffer.getvalue()


RASTER_CASES = [
    pytest.param("art.png", png_bytes()[:2000], "the image data ends early (truncated file)", id="truncated-png"),
    pytest.param("art.png", b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n",
                 "cannot read image: not a PNG or JPEG file", id="eps-named-png"),
    pytest.param("art.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 40, "cannot read image: not a PNG or JPEG file",
                 id="garbage-jpeg"),
]


@pytest.mark.parametrize("name, content, message", RASTER_CASES)
def test_a_damaged_image_is_found_by_check_not_while_drawing(tmp_path, name, content, message):
    folder = game_with_art(tmp_path, name, content)
    refused_by_check_and_build(folder, [f"{ART_MARK}: art/{name}: {message}"])


def test_a_whole_image_still_builds(tmp_path):
    game_with_art(tmp_path, "art.png", png_bytes())
    assert pnp("build", "g", "--out", str(tmp_path / "out"), "--paper", "a4").exit_code == 0
    assert (tmp_path / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf").stat().st_size > 1000


# --------------------------------------------------------------- 3. special files

def make_special(path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        try:
            os.mknod(path, 0o600 | __import__("stat").S_IFCHR, os.makedev(1, 3))   # like /dev/null
        except PermissionError:
            pytest.skip("no permission to make a device node here")


SPECIAL = [("fifo", "named pipe (FIFO)"), ("folder", "folder"), ("device", "device")]


@pytest.mark.parametrize("kind, words", SPECIAL)
def test_a_special_file_named_as_art_is_refused_without_opening_it(tmp_path, kind, words):
    folder = game_with_art(tmp_path, "star.svg", None)
    make_special(folder / "art" / "star.svg", kind)
    refused_by_check_and_build(folder, [f"{ART_MARK}: 'art/star.svg' is a {words}, not a regular file"])


@pytest.mark.parametrize("kind, words", SPECIAL)
def test_a_special_file_named_as_a_font_is_refused_without_opening_it(tmp_path, kind, words):
    folder = game_with_font(tmp_path)
    make_special(folder / "face.ttf", kind)
    refused_by_check_and_build(folder, [f"{FONT_MARK}: 'face.ttf' is a {words}, not a regular file"])


def test_a_link_to_a_fifo_does_not_block_check_or_build(tmp_path):
    """In its own process: a FIFO opened by mistake would block until the harness kills it."""
    folder = game_with_art(tmp_path, "star.svg", None)
    os.mkfifo(folder / "art" / "pipe")
    (folder / "art" / "star.svg").symlink_to("pipe")
    expected = [f"{ART_MARK}: 'art/star.svg' is a named pipe (FIFO), not a regular file"]
    for command in (("check", "g"), ("build", "g", "--out", str(tmp_path / "out"))):
        run = run_pnp(*command, cwd=tmp_path).assert_clean(1)
        assert problem_lines(run.stderr) == expected, run.output      # (a FIFO opened: killed as hung)


def test_a_font_linked_from_outside_the_game_folder_is_refused(tmp_path):
    folder = game_with_font(tmp_path)
    (tmp_path / "elsewhere.ttf").write_bytes(nunito_bytes())
    (folder / "face.ttf").symlink_to(tmp_path / "elsewhere.ttf")
    refused_by_check_and_build(folder, [f"{FONT_MARK}: 'face.ttf' is outside the game folder"])


# --------------------------------------------------------------- 4. damaged fonts

def test_a_truncated_font_is_a_located_error_at_load(tmp_path):
    folder = game_with_font(tmp_path)
    data = nunito_bytes()
    (folder / "face.ttf").write_bytes(data[: len(data) // 2])
    refused_by_check_and_build(folder, [
        f"{FONT_MARK}: cannot read font face.ttf: unexpected end of 'GPOS' table data: "
        f"expected 55600 bytes but got 43142 at offset 95324"])


@pytest.mark.parametrize("content, reason", [
    pytest.param(b"", "Not a TrueType or OpenType font (not enough data)", id="empty"),
    pytest.param(b"\0\1\0\0" + os.urandom(4) + b"garbage" * 100,
                 None, id="garbage-after-a-truetype-tag"),
    pytest.param(b"wOFF" + b"\0" * 40, None, id="woff-header-only"),
])
def test_a_garbage_font_is_a_located_error_at_load(tmp_path, content, reason):
    folder = game_with_font(tmp_path)
    (folder / "face.ttf").write_bytes(content)
    checked = pnp("check", "g")
    lines = problem_lines(checked.output)
    assert checked.exit_code == 1 and len(lines) == 1, checked.output
    assert lines[0].startswith(f"{FONT_MARK}: cannot read font face.ttf: ")
    if reason:
        assert lines[0] == f"{FONT_MARK}: cannot read font face.ttf: {reason}"
    refused_by_check_and_build(folder, lines)


def test_a_font_larger_than_any_face_is_refused_from_its_size(tmp_path):
    folder = game_with_font(tmp_path)
    with open(folder / "face.ttf", "wb") as handle:      # sparse: 40 MB on paper, nothing on disk
        handle.write(nunito_bytes())
        handle.truncate(40 * 2**20)
    run = run_pnp("check", "g", cwd=tmp_path).assert_clean(1)
    assert problem_lines(run.stderr) == [
        f"{FONT_MARK}: cannot read font face.ttf: refused: 40.0 MB is more than any font needs (at most 32 MB)"]
    assert run.peak_bytes < 200 * 2**20, run.peak_bytes / 2**20     # from its size: the 40 MB never read


def test_a_damaged_glyph_is_found_at_load_not_while_subsetting(tmp_path):
    """The table directory is whole but a glyph's outline is not: only reading every glyph finds it."""
    from fontTools.ttLib import TTFont
    font = TTFont(io.BytesIO(nunito_bytes()))
    font["glyf"].compile(font)                     # offsets of every glyph in its data
    font.save(buffer := io.BytesIO())
    data = bytearray(buffer.getvalue())
    reread = TTFont(io.BytesIO(bytes(data)))
    glyf = reread.reader.tables["glyf"]
    loca = reread["loca"]
    index = reread.getGlyphID("A")
    start = glyf.offset + loca[index]
    data[start:start + 2] = b"\x7f\xff"            # 32,767 contours in a glyph of a few dozen bytes
    folder = game_with_font(tmp_path)
    (folder / "face.ttf").write_bytes(bytes(data))
    checked = pnp("check", "g")
    assert problem_lines(checked.output) == [f"{FONT_MARK}: cannot read font face.ttf: damaged data (unpack requires "
                                             f"a buffer of 2 bytes)"], checked.output


def test_a_whole_game_font_still_builds(tmp_path):
    folder = game_with_font(tmp_path)
    (folder / "face.ttf").write_bytes(nunito_bytes())
    built = pnp("build", "g", "--out", str(tmp_path / "out"), "--paper", "a4")
    assert built.exit_code == 0, built.output
    pdf = (tmp_path / "out" / "g" / "standard" / "en" / "a4" / "cards.pdf").read_bytes()
    assert b"+face-400-" in pdf                  # the game's own face (its regular instance) is embedded


# --------------------------------------------------------------- 5. control characters in file names

def test_control_characters_of_a_missing_art_name_are_escaped(tmp_path):
    cards = BASE_FILES["cards.yaml"].replace("art: art/star.svg", 'art: "art/\\e[2J\\u202Estar.svg"')
    folder = make_game(tmp_path, {"cards.yaml": cards})
    refused_by_check_and_build(folder, [f"{ART_MARK}: file not found: art/\\x1b[2J\\u202estar.svg"])


def test_control_characters_of_a_special_art_file_name_are_escaped(tmp_path):
    cards = BASE_FILES["cards.yaml"].replace("art: art/star.svg", 'art: "art/\\e]0;owned\\a.svg"')
    folder = make_game(tmp_path, {"cards.yaml": cards})
    os.mkfifo(folder / "art" / "\x1b]0;owned\x07.svg")
    refused_by_check_and_build(folder, [f"{ART_MARK}: 'art/\\x1b]0;owned\\x07.svg' is a named pipe (FIFO), "
                                        f"not a regular file"])


def test_control_characters_of_a_damaged_art_file_name_are_escaped(tmp_path):
    cards = BASE_FILES["cards.yaml"].replace("art: art/star.svg", 'art: "art/\\e[31mred.png"')
    folder = make_game(tmp_path, {"cards.yaml": cards})
    (folder / "art" / "\x1b[31mred.png").write_bytes(png_bytes()[:2000])
    refused_by_check_and_build(folder, [
        f"{ART_MARK}: art/\\x1b[31mred.png: the image data ends early (truncated file)"])


def test_control_characters_of_a_font_file_name_are_escaped(tmp_path):
    game = BASE_FILES["game.yaml"].replace("body: [nunito, inter]", "body: [own, inter]")
    folder = make_game(tmp_path, {"game.yaml": game + 'font_files:\n  own: {regular: "\\e[2Jface.ttf"}\n'})
    (folder / "\x1b[2Jface.ttf").write_bytes(b"not a font")
    refused_by_check_and_build(folder, [f"{FONT_MARK}: cannot read font \\x1b[2Jface.ttf: "
                                        f"Not a TrueType or OpenType font (not enough data)"])
