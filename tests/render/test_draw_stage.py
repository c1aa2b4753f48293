"""render/pdf.py's drawing stage: its shortcuts write what ReportLab's own calls write, and its layer plan
groups equal items as a plain comparison of every item does."""

from __future__ import annotations

import io
import re
import zlib
from collections import Counter
from itertools import groupby
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas

from generator.components.piece import ArtPlacement, Face, Group, Line, Rect, TextPlacement, walk
from generator.imposition.sheet import Document, Page, Placement
from generator.render import pdf as pdf_module
from generator.render.pdf import PdfRenderer, clip_to_rect
from generator.render.text_out import SLANT
from generator.text.fonts import FontLibrary
from generator.text.layout import GlyphRun
from generator.units import mm_to_pt

ART = Path(__file__).resolve().parents[2] / "content" / "christmas-round" / "art" / "gifts" / "teddy.svg"


@pytest.mark.parametrize("fill_mode", [None, FILL_NON_ZERO])
def test_clip_to_rect_writes_what_a_clipping_path_writes(fill_mode):
    def page(ours: bool) -> bytes:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1, pageCompression=0)
        if fill_mode is not None:
            canvas._fillMode = fill_mode
        for x, y, w, h in [(0, 0, 178.58267716535434, 249.44881889763778), (20.69291338582677, 548.503937007874,
                           184.81889763779526, 256.53543307086613), (-8.5, 1e-7, 0.1 + 0.2, 1 / 3)]:
            canvas.saveState()
            if ours:
                clip_to_rect(canvas, x, y, w, h)
            else:
                path = canvas.beginPath()
                path.rect(x, y, w, h)
                canvas.clipPath(path, stroke=0, fill=0)
            canvas.translate(x, y)
            canvas.rect(0, 0, 10, 10, fill=1)
            canvas.restoreState()
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()
    ours = page(True)
    assert ours == page(False)
    assert (b" re W n" if fill_mode == FILL_NON_ZERO else b" re W* n") in ours


def _run(text: str, x: float, baseline: float, color: str = "#2b2220", font: str = "", size: float = 9.0,
         **kind) -> GlyphRun:
    return GlyphRun(x, baseline, text, font, size, color, **kind)


def _content(pdf: bytes) -> str:
    """Every stream of the file, inflated where compressed, as text."""
    streams = []
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:
            streams.append(zlib.decompress(match.group(1)))
        except zlib.error:
            streams.append(match.group(1))
    return b"\n".join(streams).decode("latin-1")


def test_halo_slanted_and_coloured_runs_render_as_shaped_glyphs_that_read_back():
    library = FontLibrary()
    body, bold = library.face("nunito").name, library.face("nunito", "bold").name
    runs = (_run("Ёлка (сани)", 1, 4, font=body), _run("и олень", 20, 4, font=body, color="#c62828"),
            _run("halo", 1, 9, font=bold, halo=("#ffffff", 0.4)), _run("after halo", 15, 9, font=bold, color="#c62828"),
            _run("halo again", 30, 9, font=bold, halo=("#ffffff", 0.4)),     # the canvas's font and colour set again
            _run("наклон", 1, 14, font=body, slant=True), _run("после", 15, 14, font=body),
            _run("cmyk(0, 100, 100, 0)", 1, 19, font=body, color="cmyk(0, 100, 100, 0)", size=7.5),
            _run("", 30, 19, font=body), _run("\\ends (", 1, 24, font=body, halo=("#000000", 0.2), slant=True),
            _run("конец", 20, 24, font=body))
    icon = ArtPlacement(ART, 40, 2, 4, 4)
    text = TextPlacement(3, 3, runs, icons=(icon,))
    group = Group(5, 40, 30, 20, 30, 20, 90, (Rect(0, 0, 30, 20, fill="#1e88e5"), TextPlacement(1, 1, runs[:4])))
    faces = [Face(f"card {index}", 63, 88, 3, (Rect(-3, -3, 69, 94, fill="#fff8ec"), text, group)[:2 + index % 2])
             for index in range(3)]
    placements = tuple(Placement(face, 10 + 65 * index, 10, (7, 7, 69, 94)) for index, face in enumerate(faces))
    page = Page(210, 297, placements, marks=(Line(5, 5, 0, 3, stroke="#000000"),))
    for mode in ("rgb", "cmyk"):
        ours = PdfRenderer(body, mode).draw(Document([page, page]))
        assert PdfRenderer(body, mode).draw(Document([page, page])) == ours     # byte-identical run to run
        document = pdfium.PdfDocument(ours)
        read = document[0].get_textpage().get_text_range()
        document.close()
        for run in runs:
            assert run.text in read
        content = _content(ours)
        # each run at its box's corner plus its own offset, in points from the face's bottom-left
        for run in (run for run in runs if run.text):     # (an empty run writes nothing)
            shear = fp_str(SLANT) if run.slant else "0"
            assert f"1 0 {shear} 1 {fp_str(mm_to_pt(3 + run.x), mm_to_pt(88 - 3 - run.baseline))} Tm" in content
        # each halo's outlines in a state of its own (its stroke width), stroked (mode 1) under the letters
        assert content.count(f"{fp_str(2 * mm_to_pt(0.4))} w") >= 2
        assert re.search(r"\nq\n[^Q]*? w\n[^Q]*?BT 1 Tr [^Q]*? ET\s*Q", content)
        if mode == "rgb":     # the colour set where it changes, between text objects
            assert re.search(r"ET\s\.776471 \.156863 \.156863 rg\sBT", content)


def _reference_numbers(faces: list[Face]) -> dict[int, int]:
    """Each item's number by comparing it with every item numbered before it."""
    seen: list = []
    numbers: dict[int, int] = {}
    for face in faces:
        for item in face.items:
            if id(item) not in numbers:
                numbers[id(item)] = next((index for index, other in enumerate(seen) if other == item), len(seen))
                if numbers[id(item)] == len(seen):
                    seen.append(item)
    return numbers


def _reference_layers(faces: list[Face]) -> dict:
    """The layer plan as first written (numbers by value, runs by itertools.groupby on the face's pairs)."""
    numbers = _reference_numbers(faces)
    signatures = {face.key: [numbers[id(item)] for item in face.items] for face in faces}
    uses = Counter(number for signature in signatures.values() for number in signature)
    run_uses: Counter = Counter()
    planned = {}
    for face in faces:
        runs = []
        for recurring, run in groupby(zip(face.items, signatures[face.key], strict=False),
                                      key=lambda pair: uses[pair[1]] > 1):
            items, run_numbers = zip(*run, strict=False)
            key = (face.width, face.height, face.bleed, run_numbers) if recurring else None
            run_uses[key] += 1
            runs.append((items, key))
        planned[face.key] = runs
    return {key: [(items, run if run is not None and run_uses[run] > 1 else None) for items, run in runs]
            for key, runs in planned.items()}


def _partition(numbers: dict[int, int]) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for ident, number in numbers.items():
        groups.setdefault(number, set()).add(ident)
    return {frozenset(group) for group in groups.values()}


def test_layer_plan_groups_equal_items_as_comparing_every_item_does():
    def text(*lines: str, x: float = 5.0, color: str = "#000000") -> TextPlacement:
        return TextPlacement(x, 5.0, tuple(_run(line, 0.0, 4.0 * (index + 1), color, "f") for index, line in
                                           enumerate(lines)))
    frame = Rect(0, 0, 63, 88, fill="#ffffff")                 # one object on every card (a memoised box)
    faces = []
    for index in range(6):
        own = ("title", f"card {index}")
        faces.append(Face(f"card {index}", 63, 88, 3, (
            frame, Rect(3, 3, 57, 82, stroke="#000000"),        # equal on every card, a new object each time
            text(*own),                                          # the card's own: a sketch no other text has
            text("rules", "same on every card", "."),            # equal texts, new objects: numbered by value
            text("rules", f"differs in the middle {index % 2}", "."),   # the same sketch, two different texts
            text("rules", "same on every card", ".", color="#ff0000"),  # the same sketch, another colour
            text(x=7.0),                                         # no runs at all
            ArtPlacement(ART, 1, 1, 5, 5))
            + ((text("rules", "same on every card", "."),) if index == 5 else ())
            + ((text("pair", f"one of two {index}", "."),) if index < 2 else ())))     # a sketch two texts share
    faces.append(Face("\0page 0", 210, 297, 0, tuple(Line(x, 0, 0, 3, stroke="#000000") for x in range(4))))
    faces.append(Face("\0page 1", 210, 297, 0, tuple(Line(x, 0, 0, 3, stroke="#000000") for x in range(4))))
    numbers = pdf_module._item_numbers(faces)
    assert _partition(numbers) == _partition(_reference_numbers(faces))
    assert len({numbers[id(face.items[4])] for face in faces[:6]}) == 2        # the same sketch told apart
    assert len({numbers[id(face.items[2])] for face in faces[:6]}) == 6        # the cards' own texts
    renderer = PdfRenderer(FontLibrary().face("nunito").name)
    renderer._plan_layers(faces)
    assert renderer.layers == _reference_layers(faces)
    assert any(key is not None for runs in renderer.layers.values() for _, key in runs)   # some runs are forms


def test_the_art_of_a_face_is_defined_in_walk_order(monkeypatch):
    arts = [ART.parent / name for name in ("teddy.svg", "ball.svg", "bell.svg", "star.svg")]
    arts = [art for art in arts if art.exists()] or [ART]
    placements = [ArtPlacement(art, 1, 1, 5, 5) for art in arts]
    text = TextPlacement(0, 0, (), icons=tuple(placements[::-1]))
    face = Face("f", 63, 88, 0, (placements[-1], Group(0, 0, 10, 10, 10, 10, 0, (text, placements[0])), *placements))
    renderer = PdfRenderer(FontLibrary().face("nunito").name)
    defined: list[Path] = []
    monkeypatch.setattr(PdfRenderer, "_define_art", lambda self, file: defined.append(file))
    renderer._define_art_of(face)
    assert defined == [item.file for item in walk(face.items) if isinstance(item, ArtPlacement)]


def test_full_sheets_share_their_crop_marks_and_the_plan_numbers_them_alike():
    # imposition makes a sheet's crop marks once for every sheet of that grid (the same objects), each
    # caller getting its own list; equal marks made apart still plan as the same items
    from generator.imposition.grid import GridSpec, crop_marks, grid_geometry
    from generator.print_facts import PAPER_SIZES
    spec = GridSpec(PAPER_SIZES["a4"], (63.0, 88.0))
    geometry = grid_geometry(spec)
    first, second = crop_marks(spec, geometry), crop_marks(spec, geometry)
    assert first == second and all(a is b for a, b in zip(first, second, strict=False)) and first is not second
    first.append(Line(0, 0, 1, 1))
    assert len(crop_marks(spec, geometry)) == len(second)
    made_apart = [Line(mark.x, mark.y, mark.w, mark.h, stroke=mark.stroke, stroke_width=mark.stroke_width)
                  for mark in second]
    faces = [Face("\0page 0", 210, 297, 0, tuple(second)), Face("\0page 1", 210, 297, 0, tuple(made_apart))]
    numbers = pdf_module._item_numbers(faces)
    assert [numbers[id(mark)] for mark in second] == [numbers[id(mark)] for mark in made_apart]
