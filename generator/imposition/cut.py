"""Cut files for cutting machines: every piece of a home sheet as one closed path, 1:1 in page millimetres.

From the fronts pages that imposition laid out (the placements are the pieces, where
they are cut): cards get rounded corners (3 mm), round tokens (template `shape: round`)
a circle, every other piece (tokens, standee strips) its trim rectangle. SVG for
Cricut Design Space and cutters that read SVG, DXF (ezdxf, imported lazily) for
Silhouette Studio's basic edition, which reads no SVG.

Print-and-cut machines find the sheet by registration marks printed on it and cut
nothing in the zone those marks take: `CutMachine` says where the marks are, how far
in from the paper's edge the pieces must stay, where nothing may be printed (the marks
and the clearance round them, which the grid moves a sheet's pieces out of), and draws
the marks. Silhouette Studio's
type-1 marks can be printed by anyone (their geometry is published in Studio's settings);
Cricut Design Space prints its own marks around what it prints itself and reads no
others, so for Cricut the sheets carry none and every piece is also written as a PNG
whose transparent outline is its cut line (`cricut_images`), what Design Space imports
as a print-then-cut image.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, replace
from typing import Sequence

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from generator.components.piece import Ellipse, Item, Rect
from generator.imposition.sheet import Document, Page, Placement
from generator.print_facts import PRINTABLE_MARGIN, SheetRoom
from generator.render.pdf import render_pdf
from generator.render.settings import DrawingSettings
from generator.text.fonts import FontLibrary

CARD_CORNER = 3.0           # mm: the corner radius cutting machines give playing cards
INCH = 25.4


@dataclass(frozen=True)
class CutPath:
    """One piece's cut line in page mm (y downwards): a rectangle with `radius` corners, or a circle."""

    kind: str                  # 'rect' or 'circle'
    x: float                   # the piece's trim: top-left corner, width, height
    y: float
    w: float
    h: float
    radius: float = 0.0        # rect corners

    @property
    def closed_svg_path(self) -> str:
        """The SVG path data: starts with M, ends with Z (closed)."""
        x, y, w, h, r = self.x, self.y, self.w, self.h, self.radius
        if self.kind == "circle":
            cx, cy, rr = x + w / 2, y + h / 2, w / 2
            return (f"M{_n(cx - rr)},{_n(cy)} A{_n(rr)},{_n(rr)} 0 1,0 {_n(cx + rr)},{_n(cy)} "
                    f"A{_n(rr)},{_n(rr)} 0 1,0 {_n(cx - rr)},{_n(cy)} Z")
        if r <= 0:
            return f"M{_n(x)},{_n(y)} H{_n(x + w)} V{_n(y + h)} H{_n(x)} Z"
        return (f"M{_n(x + r)},{_n(y)} H{_n(x + w - r)} A{_n(r)},{_n(r)} 0 0,1 {_n(x + w)},{_n(y + r)} "
                f"V{_n(y + h - r)} A{_n(r)},{_n(r)} 0 0,1 {_n(x + w - r)},{_n(y + h)} "
                f"H{_n(x + r)} A{_n(r)},{_n(r)} 0 0,1 {_n(x)},{_n(y + h - r)} "
                f"V{_n(y + r)} A{_n(r)},{_n(r)} 0 0,1 {_n(x + r)},{_n(y)} Z")


def _n(value: float) -> str:
    """A coordinate with 3 decimals (a micrometre), no trailing zeros: stable bytes."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def cut_paths(page: Page, kind: str) -> list[CutPath]:
    """The cut line of every piece on a fronts page (`kind`: cards, tokens or pawns)."""
    paths = []
    for placement in page.placements:
        face = placement.face
        sx, sy = placement.scale
        w, h = face.width * sx, face.height * sy
        if face.shape == "round":
            paths.append(CutPath("circle", placement.x, placement.y, min(w, h), min(w, h)))
        else:
            radius = min(CARD_CORNER, w / 2, h / 2) if kind == "cards" else 0.0
            paths.append(CutPath("rect", placement.x, placement.y, w, h, radius))
    return paths


def round_cut_lines(page: Page) -> Page:
    """A fronts page with a thin circle on the trim of every round piece: the line to cut along
    (the square cell's crop marks stay, for a straight first cut)."""
    circles: list[Item] = [Ellipse(p.x, p.y, p.face.width, p.face.height, stroke="#000000",
                                 stroke_width=0.15)
                           for p in page.placements if p.face.shape == "round"]
    return replace(page, marks=page.marks + tuple(circles)) if circles else page


# ------------------------------------------------------------------ machines

Box = tuple[float, float, float, float]      # x0, y0, x1, y1 in page mm, y downwards


@dataclass(frozen=True)
class CutMachine:
    """A print-and-cut machine's registration marks and the border it keeps free of pieces."""

    name: str
    reserved: float                          # mm from every paper edge that pieces keep clear of
    margin: float = PRINTABLE_MARGIN         # mm the printer leaves blank along the edges (--margin)

    def marks(self, paper: tuple[float, float]) -> list[Item]:
        """The registration marks on a fronts sheet (black, as the machines' optical sensors read them)."""
        width, height = paper
        if self.name == "silhouette":
            return _silhouette_marks(width, height)
        return []           # Cricut: Design Space prints its own marks, around what it prints

    def mark_boxes(self, paper: tuple[float, float]) -> list[Box]:
        """Each registration mark's extent: what the sensor looks at (an L's arms span a square)."""
        return _silhouette_boxes(*paper) if self.name == "silhouette" else []

    def keep_out(self, paper: tuple[float, float]) -> tuple[Box, ...]:
        """Where nothing of a fronts sheet may be printed: every mark with REGISTRATION_CLEARANCE round it, and
        the paper outside the printer's margin (the grid moves a sheet's pieces out of the first, never into
        the second: imposition/grid.py, GridSpec.keep_out)."""
        width, height = paper
        c, m = REGISTRATION_CLEARANCE, self.margin
        marks = [(x0 - c, y0 - c, x1 + c, y1 + c) for x0, y0, x1, y1 in self.mark_boxes(paper)]
        if not marks:
            return ()
        edges = [(0.0, 0.0, width, m), (0.0, height - m, width, height), (0.0, 0.0, m, height),
                 (width - m, 0.0, width, height)]
        return tuple(marks + edges)


# Silhouette Studio's registration marks (type 1: CAMEO, Portrait, Curio): a filled 5 mm square at the
# top-left, L-shaped corners at the top-right and bottom-left, 0.3 mm lines, 10 mm in from the edges — the
# least inset Studio accepts (alan-cha/silhouette-card-maker, "Borderless templates": "Silhouette Studio limits
# the minimum inset of registration marks to 10mm"); square and line as the inkscape-silhouette project draws
# Studio's marks (render_silhouette_regmarks.py: REG_SQUARE_MM = 5, 0.3 mm lines, "the thicker you get, the
# less accurate registration will be").
# The L's arms are 5 mm, the shortest length Studio takes (Silhouette Card Maker's default length; an
# inkscape-silhouette user's marks "as big as smallest possible in SS, like 5 mm", its issue 303). Studio's own
# 20 mm arms claim 20 × 20 mm corners, and on A4's landscape poker sheet (the sheet most games print) the cards'
# bleed lies 10.5 × 14 mm inside them: an L 2 mm clear of it has arms of 5.5 mm at most. Silhouette Card Maker
# shortens its arms to each layout; here the length is one for every sheet, as Studio must be told the length it
# reads (one setting for the user, not one per file), and an L then takes the square's 5 × 5 mm. Nothing printed
# comes within REGISTRATION_CLEARANCE of a mark: ink beside a mark is what the sensor misreads (Silhouette Card
# Maker's troubleshooting covers the cards nearest an L with a sticky note; inkscape-silhouette keeps
# REG_KEEPOUT_MM = 2 round its marks).
SILHOUETTE_INSET = 10.0
SILHOUETTE_SQUARE = 5.0
SILHOUETTE_ARM = 5.0
SILHOUETTE_LINE = 0.3
REGISTRATION_CLEARANCE = 2.0
# Cricut Design Space prints a print-then-cut job itself, its sensor marks around it, at most 6.75 × 9.25 in
# on A4 and Letter: pnp's sheets keep their pieces inside that area (a sheet's cut SVG then fits it too).
CRICUT_AREA = (6.75 * INCH, 9.25 * INCH)
CRICUT_DPI = 300            # Design Space prints uploaded images at their own size: 300 dpi is print quality


def sheet_room(paper: str, size: tuple[float, float], margin: float, cut: str | None) -> SheetRoom:
    """Where pieces go on this paper: inside the printer's margin, or inside the machine's border on a
    sheet that may turn landscape (layout checks pieces against it; the home sheets are imposed in it)."""
    machine = cut_machine(cut, size, margin) if cut else None
    if machine is None:
        return SheetRoom(paper, size, margin)
    return SheetRoom(paper, size, max(margin, machine.reserved), turnable=True)


def cut_machine(name: str, paper: tuple[float, float], margin: float = PRINTABLE_MARGIN) -> CutMachine | None:
    """The machine `--cut` names (None for plain svg/dxf files, which change nothing on the sheet), on a
    printer that leaves `margin` mm blank."""
    if name == "silhouette":
        # the marks' inset and width and 1 mm: 16 mm, not the 17 of a mark and its clearance, which would cost
        # A4's landscape poker sheet a row; where a sheet's pieces do come that close to a corner's mark, the
        # grid moves them (keep_out)
        return CutMachine(name, SILHOUETTE_INSET + SILHOUETTE_SQUARE + 1.0, margin)
    if name == "cricut":
        width, height = paper
        area_w, area_h = CRICUT_AREA
        return CutMachine(name, max((width - area_w) / 2, (height - area_h) / 2), margin)
    return None


def _filled(x: float, y: float, w: float, h: float) -> Rect:
    return Rect(x, y, w, h, fill="#000000")


def _silhouette_boxes(width: float, height: float) -> list[Box]:
    """The square, the top-right L and the bottom-left L, each as the box it spans."""
    inset, square, arm = SILHOUETTE_INSET, SILHOUETTE_SQUARE, SILHOUETTE_ARM
    return [(inset, inset, inset + square, inset + square),
            (width - inset - arm, inset, width - inset, inset + arm),
            (inset, height - inset - arm, inset + arm, height - inset)]


def _silhouette_marks(width: float, height: float) -> list[Item]:
    (sx0, sy0, sx1, sy1), (tx0, ty0, tx1, ty1), (bx0, by0, bx1, by1) = _silhouette_boxes(width, height)
    line = SILHOUETTE_LINE
    return [_filled(sx0, sy0, sx1 - sx0, sy1 - sy0),
            _filled(tx0, ty0, tx1 - tx0, line), _filled(tx1 - line, ty0, line, ty1 - ty0),      # top-right ┐
            _filled(bx0, by1 - line, bx1 - bx0, line), _filled(bx0, by0, line, by1 - by0)]      # bottom-left └


def with_registration(pages: Sequence[Page], machine: CutMachine | None) -> list[Page]:
    """Fronts pages with the machine's marks (backs are not cut from: they get none)."""
    if machine is None:
        return list(pages)
    return [replace(page, marks=page.marks + tuple(machine.marks((page.width, page.height))))
            if "fronts" in page.label.split() else page for page in pages]


# ------------------------------------------------------------------ files

def cut_svg(page: Page, paths: Sequence[CutPath], title: str) -> bytes:
    """An SVG of the page at 1:1 (width and height in mm, viewBox in mm): one closed path per piece."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(page.width)}mm" height="{_n(page.height)}mm" '
             f'viewBox="0 0 {_n(page.width)} {_n(page.height)}">',
             f"<title>{_escape(title)}</title>",
             '<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">']
    for number, path in enumerate(paths, start=1):
        lines.append(f'<path id="piece-{number}" d="{path.closed_svg_path}"/>')
    lines += ["</g>", "</svg>", ""]
    return "\n".join(lines).encode("utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


DXF_EXTRA = 'pip install "pnp-generator[dxf]"'


class DxfWriterMissing(Exception):
    """--cut dxf (or silhouette) asked of an install without ezdxf; the message says how to add it."""


def dxf_writer_missing(cut: str | None) -> str | None:
    """Why `--cut` cannot be written here (DXF needs ezdxf, an optional extra), or None when it can."""
    if cut not in ("dxf", "silhouette"):
        return None
    try:
        # (only a DXF build needs it: 25 MB the other builds never load)
        import ezdxf  # noqa: F401
    except ImportError:
        return (f"--cut {cut} writes DXF cut files with ezdxf, which is not installed: {DXF_EXTRA} "
                "(or build with --cut svg)")
    return None


def _dxf(page: Page, paths: Sequence[CutPath]) -> bytes:
    import ezdxf     # (a DXF build only: see dxf_writer_missing)
    from ezdxf import units     # (as above)

    document = ezdxf.new("R2010")
    document.units = units.MM
    document.layers.add("CUT", color=1)
    space = document.modelspace()
    # the sheet's extent, in the header (ezdxf writes it from the model space's layout) rather than as an outline:
    # a cutter's software cuts every line a DXF holds, whatever its layer, and would cut the paper's edge. The
    # limits are the sheet; so are the extents (every piece lies on it): readers that place or zoom the drawing
    # by its extents then keep the pieces where they lie on the paper
    space.reset_limits((0.0, 0.0), (page.width, page.height))
    space.reset_extents((0.0, 0.0, 0.0), (page.width, page.height, 0.0))
    # (ezdxf copies the layout's extents into the header only when their corner is not the origin, as ours is)
    document.header["$EXTMIN"] = (0.0, 0.0, 0.0)
    document.header["$EXTMAX"] = (page.width, page.height, 0.0)
    for path in paths:
        top = page.height - path.y             # DXF's y runs up
        if path.kind == "circle":
            space.add_circle((path.x + path.w / 2, top - path.h / 2), path.w / 2, dxfattribs={"layer": "CUT"})
            continue
        space.add_lwpolyline(_rounded_rect(path.x, top - path.h, path.w, path.h, path.radius),
                             format="xyb", close=True, dxfattribs={"layer": "CUT"})
    stream = io.StringIO()
    document.write(stream)
    return _classes_sorted(stream.getvalue()).encode("utf-8")


def _classes_sorted(text: str) -> str:
    """The DXF with its CLASS records in a fixed order: ezdxf writes them in an order that varies with the
    process's string hashing, and a build must give the same bytes every time."""
    start = text.find("  2\nCLASSES\n")
    end = text.find("  0\nENDSEC\n", start)
    if start < 0 or end < 0:
        return text
    head = start + len("  2\nCLASSES\n")
    records = text[head:end].split("  0\nCLASS\n")
    return text[:head] + "".join("  0\nCLASS\n" + record for record in sorted(r for r in records if r)) + text[end:]


def cut_dxf(page: Page, paths: Sequence[CutPath]) -> bytes:
    """A DXF (R2010, millimetres) of the page: a closed LWPOLYLINE (rounded corners as bulges) or a CIRCLE
    per piece on layer CUT, y upwards from the page's bottom-left as DXF has it; its header's limits and
    extents are the sheet."""
    missing = dxf_writer_missing("dxf")
    if missing is not None:
        raise DxfWriterMissing(missing)
    import ezdxf     # (a DXF build only: an optional extra)
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True     # fixed dates, GUIDs, marker: the same bytes every build
    try:
        return _dxf(page, paths)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed


BULGE_QUARTER = 0.41421356237309503     # tan(90° / 4): a bulge that turns a quarter circle


def _rounded_rect(x: float, y: float, w: float, h: float, r: float) -> list[tuple[float, float, float]]:
    """Corners of a rectangle (bottom-left x, y) counter-clockwise; with r > 0 each corner is two vertices
    joined by a quarter-circle bulge."""
    if r <= 0:
        return [(x, y, 0), (x + w, y, 0), (x + w, y + h, 0), (x, y + h, 0)]
    b = BULGE_QUARTER
    return [(x + r, y, 0), (x + w - r, y, b), (x + w, y + r, 0), (x + w, y + h - r, b),
            (x + w - r, y + h, 0), (x + r, y + h, b), (x, y + h - r, 0), (x, y + r, b)]


def cricut_images(pages: Sequence[Page], kind: str) -> dict[str, bytes]:
    """Design Space's print-then-cut input: every distinct piece of the fronts sheets as a PNG of its trim at
    CRICUT_DPI, transparent outside its cut line (3 mm rounded corners for cards, a circle for round pieces),
    so Design Space cuts along that outline (it adds its own bleed). Named by order and copies:
    'cards-003-x2.png' is the third piece, printed twice."""
    pieces: dict[str, tuple] = {}
    copies: Counter = Counter()
    for page in pages:
        if "fronts" not in page.label.split():
            continue
        for placement, path in zip(page.placements, cut_paths(page, kind), strict=True):
            pieces.setdefault(placement.face.key, (placement.face, path))
            copies[placement.face.key] += 1
    files = {}
    for number, (key, (face, path)) in enumerate(pieces.items(), start=1):
        files[f"{kind}-{number:03d}-x{copies[key]}.png"] = _piece_png(face, path)
    return files


def _piece_png(face, path: CutPath) -> bytes:
    """The face's trim rendered at CRICUT_DPI, its alpha the cut outline (drawn 4× and reduced: a smooth edge)."""

    page = Page(face.width, face.height, (Placement(face, 0.0, 0.0, (0.0, 0.0, face.width, face.height)),))
    document = pdfium.PdfDocument(render_pdf(Document([page], title="cricut"),
                                             DrawingSettings(FontLibrary().body_face.name)))
    try:
        image = document[0].render(scale=CRICUT_DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()
    big = Image.new("L", (image.width * 4, image.height * 4), 0)
    draw, px = ImageDraw.Draw(big), 4 * image.width / face.width
    box = (0, 0, big.width - 1, big.height - 1)
    if path.kind == "circle":
        draw.ellipse(box, fill=255)
    else:
        draw.rounded_rectangle(box, radius=path.radius * px, fill=255)
    image.putalpha(big.resize(image.size, Image.Resampling.LANCZOS))
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, dpi=(CRICUT_DPI, CRICUT_DPI))
    return buffer.getvalue()


def cut_files(pages: Sequence[Page], kind: str, cut: str, title: str) -> dict[str, bytes]:
    """Every fronts sheet's cut files by name ('cards-1.svg', 'cards-1.dxf'): svg and cricut write SVG,
    dxf DXF, silhouette both (Silhouette Studio's basic edition reads DXF, its others SVG); cricut also
    each piece's PNG (`cricut_images`)."""
    suffixes = {"svg": ("svg",), "cricut": ("svg",), "dxf": ("dxf",), "silhouette": ("svg", "dxf")}[cut]
    files: dict[str, bytes] = {}
    fronts = [page for page in pages if "fronts" in page.label.split()]
    for number, page in enumerate(fronts, start=1):
        paths = cut_paths(page, kind)
        if "svg" in suffixes:
            files[f"{kind}-{number}.svg"] = cut_svg(page, paths, f"{title} {kind} sheet {number}")
        if "dxf" in suffixes:
            files[f"{kind}-{number}.dxf"] = cut_dxf(page, paths)
    if cut == "cricut":
        files.update(cricut_images(pages, kind))
    return files
