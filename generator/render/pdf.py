"""Draw a Document of Pages onto a ReportLab canvas and write the PDF atomically.

Every distinct face and every art file becomes one Form XObject, drawn once and
placed wherever it is used (a back printed 36 times is stored once). Output is
deterministic (`invariant`) and starts with an embedded font, because ReportLab
otherwise adds an unembedded Helvetica that print shops reject.
"""

from __future__ import annotations

from types import MappingProxyType
import hashlib
import io
import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from itertools import chain, groupby
from pathlib import Path

from reportlab.lib.colors import CMYKColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, PATH_OPS, Canvas

from generator.components.piece import (ArtPlacement, Curve, Ellipse, Face, Group, Item, Line, Polygon, Rect, Shape,
                                        TextPlacement, Triangle, walk)
from generator.imposition.sheet import Document, Page
from generator.print_facts import INK_LIMIT
from generator.render.art import art_digest, art_size, cmyk_svg, load_svg, open_raster
from generator.render.colour import colour_object
from generator.render.separation import ProfileSeparation
from generator.render.reportlab_settings import pnp_settings
from generator.render.settings import ColourMode, DrawingSettings
from generator.render.text_out import TextLine, TextWriter
from generator.render.soft_mask import cmyk_image, draw_drawing, end_form
from generator.text.layout import run_width
from generator.units import PT_PER_MM, mm_to_pt

SYNTHETIC_SLANT = math.tan(math.radians(11))



class FacePainter:
    """Draws faces' items (shapes, art, text, groups) onto a canvas, each art file once as a form."""

    def __init__(self, canvas: Canvas, settings: DrawingSettings | str, colour_mode: str = "rgb",
                 ink_limit: float = INK_LIMIT, separation: ProfileSeparation | None = None, opaque: bool = False):
        self.canvas = canvas
        self.forms: set[str] = set()
        self.art_defined: set[Path] = set()     # art files whose form is defined (named by content: see _art_form_name)
        self.settings = drawing_settings(settings, colour_mode, ink_limit, separation, opaque)
        self.text_writer = TextWriter(canvas)
        self._unread = 0                        # inside how many groups whose words are not read (Group.read)

    # the settings' parts by their old names (the rulebook and the flattener read them)
    @property
    def initial_font(self) -> str:
        return self.settings.initial_font

    @property
    def colour_mode(self) -> str:
        return self.settings.colour_mode

    @property
    def ink_limit(self) -> float:
        return self.settings.ink_limit

    @property
    def separation(self) -> ProfileSeparation | None:
        """PDF/X: colours separated through the output profile (None: pnp's own separation)."""
        return self.settings.separation

    @property
    def opaque(self) -> bool:
        """PDF/X-1a: no transparency at all."""
        return self.settings.opaque

    def colour(self, value: str):
        return colour_object(value, self.colour_mode, self.ink_limit, self.separation)

    def draw_face(self, face: Face, x: float, y: float, scale: float = 1.0) -> None:
        """The face's trim area, clipped, with its bottom-left corner at (x, y) points."""
        for item in walk(face.items):
            if isinstance(item, ArtPlacement):
                self._define_art(item.file)
        canvas = self.canvas
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        clip_to_rect(canvas, 0, 0, mm_to_pt(face.width), mm_to_pt(face.height))
        self._items(face.items, face.height)
        canvas.restoreState()

    # ------------------------------------------------------------------ forms
    def _define_face(self, face: Face, name: str) -> None:
        """The face as the form `name` (see _form_name), once."""
        if name in self.forms:
            return
        self._define_art_of(face)
        self._form_of(name, face, face.items)
        self.forms.add(name)

    def _form_of(self, name: str, face: Face, items: tuple[Item, ...]) -> None:
        """A Form XObject of items drawn in the face's coordinates, its box the face's bleed."""
        b = face.bleed
        self.canvas.beginForm(name, lowerx=mm_to_pt(-b), lowery=mm_to_pt(-b),
                              upperx=mm_to_pt(face.width + b), uppery=mm_to_pt(face.height + b))
        self._items(items, face.height)
        self.canvas.endForm()

    def _define_art_of(self, face: Face) -> None:
        """Forms cannot be defined inside a page or another form: define a face's art first."""
        self._define_art_in(face.items)

    def _define_art_in(self, items: tuple[Item, ...]) -> None:
        # the art in `walk` order, without its generators: a deck's every card passes here
        for item in items:
            if isinstance(item, ArtPlacement):
                self._define_art(item.file)
            elif isinstance(item, TextPlacement):
                for icon in item.icons:
                    self._define_art(icon.file)
            elif isinstance(item, Group):
                self._define_art_in(item.items)

    def _define_art(self, file: Path) -> None:
        if file in self.art_defined:
            return
        name = _art_form_name(file)
        if name in self.forms:
            self.art_defined.add(file)
            return
        with pnp_settings():      # an image's stream is made as it is drawn (a rulebook's too)
            self._define_art_form(file, name)
        self.forms.add(name)
        self.art_defined.add(file)

    def _define_art_form(self, file: Path, name: str) -> None:
        canvas = self.canvas
        if file.suffix.lower() == ".svg":
            drawing = load_svg(file) if self.colour_mode == "rgb" else \
                cmyk_svg(file, self.ink_limit, self.separation, self.opaque)
            canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
            # renderPDF selects its default font (Helvetica, never embedded) and an RGB black on entry
            with _svg_defaults(self.initial_font):
                draw_drawing(drawing, canvas)      # renderPDF's drawing, its opacity groups composited
        else:
            width, height = art_size(file)       # checked whole (every pixel) while laying out
            canvas.beginForm(name, 0, 0, width, height)
            if self.colour_mode == "cmyk":
                with open_raster(file) as image:   # a regular file only, PNG or JPEG by content
                    # alpha as a soft mask; PDF/X-1a (opaque) allows none: its art comes flattened
                    canvas.drawImage(cmyk_image(image, self.ink_limit, self.separation, keep_alpha=not self.opaque),
                                     0, 0, width, height, mask="auto")
            else:
                canvas.drawImage(str(file), 0, 0, width, height, mask="auto")
        end_form(canvas)     # its resources whole: ReportLab leaves an SVG's opacities and gradients out of a form

    # ------------------------------------------------------------------ items
    def _items(self, items: tuple[Item, ...], height: float) -> None:
        for item in items:
            getattr(self, _DRAW[type(item)])(item, height)

    def _group(self, group: Group, height: float) -> None:
        canvas = self.canvas
        canvas.saveState()
        canvas.translate(mm_to_pt(group.x + group.w / 2), mm_to_pt(height - group.y - group.h / 2))
        canvas.rotate(-group.rotation)          # ReportLab turns counter-clockwise
        turned = group.rotation % 180 == 90
        along, across = (group.h, group.w) if turned else (group.w, group.h)
        canvas.scale(along / group.width, across / group.height)
        canvas.translate(-mm_to_pt(group.width) / 2, -mm_to_pt(group.height) / 2)
        # a group never spills its bleed into its neighbours
        clip_to_rect(canvas, 0, 0, mm_to_pt(group.width), mm_to_pt(group.height))
        self._unread += not group.read
        self._items(group.items, group.height)
        self._unread -= not group.read
        canvas.restoreState()

    def _shape(self, shape: Shape, height: float) -> None:
        """A shape's paint set up, then its outline drawn by its kind's function (SHAPE_OUTLINES)."""
        canvas = self.canvas
        if shape.fill is None and shape.stroke is None:
            return
        canvas.saveState()
        if shape.fill:
            canvas.setFillColor(self.colour(shape.fill))
        if shape.stroke:
            canvas.setStrokeColor(self.colour(shape.stroke))
            canvas.setLineWidth(mm_to_pt(shape.stroke_width))
        if shape.dash:
            canvas.setDash([mm_to_pt(d) for d in shape.dash])
        frame = (mm_to_pt(shape.x), mm_to_pt(height - shape.y), mm_to_pt(shape.w), mm_to_pt(shape.h))
        SHAPE_OUTLINES[type(shape)](canvas, shape, frame, height, (int(bool(shape.stroke)), int(bool(shape.fill))))
        canvas.restoreState()

    def _art(self, art: ArtPlacement, height: float) -> None:
        canvas = self.canvas
        name = _art_form_name(art.file)
        self._define_art(art.file)
        art_w, art_h = art_size(art.file)
        canvas.saveState()
        canvas.translate(mm_to_pt(art.x), mm_to_pt(height - art.y - art.h))
        canvas.scale(mm_to_pt(art.w) / art_w, mm_to_pt(art.h) / art_h)
        canvas.doForm(name)
        canvas.restoreState()

    def _text(self, text: TextPlacement, height: float) -> None:
        # No saveState here: a text item sets the font and colour it uses, and every other
        # item sets (or saves) the state it draws with. A deck draws thousands of these, so
        # the runs go into one text object per colour (BT … ET, render/text_out.py): one
        # origin and string of glyphs per run, the font only where it changes; a halo's
        # outlines first, in a saved state of their own.
        lines: list[TextLine] = []
        colour_of, colour = None, None
        left, top = text.x, height - text.y
        halos: list[tuple[tuple[str, float], TextLine]] = []
        for run in text.runs:
            if run.color != colour_of:
                colour_of, colour = run.color, self.colour(run.color)
            # points as mm_to_pt gives them (the same product), written out: a deck has 10,000s of runs
            entry = ((left + run.x) * PT_PER_MM, (top - run.baseline) * PT_PER_MM, run.text, run.font,
                     run.size, colour, run.features, run.rtl, run.slant)
            if run.halo:
                halos.append((run.halo, entry))
            lines.append(entry)
        if self._unread:           # a miniature's words: drawn, read as nothing (text_out.py `unread`)
            with self.text_writer.unread():
                if halos:
                    self._halos(halos, unread=True)
                self.text_writer.draw(lines, unread=True)
            for icon in text.icons:
                self._art(icon, height)
            return
        spaces = [_icon_space(icon, text, height) for icon in text.icons] if text.runs else []
        if text.readings:
            lines, halos, spaces = self._read_lines(text, lines, halos, spaces)
        if halos:
            self._halos(halos)
        self.text_writer.draw(lines)
        if spaces:
            self.text_writer.hidden_spaces(spaces)
        for icon in text.icons:
            self._art(icon, height)

    def _read_lines(self, text: TextPlacement, lines: list[TextLine], halos: list[tuple[tuple[str, float], TextLine]],
                    spaces: list[tuple[float, float, float, str, float, bool]]):
        """The lines of a text holding right-to-left text (TextPlacement.readings), each drawn inside the
        marks its logical text is read from (text_out.py `read_line`); what the text's other lines draw
        is returned. A line is its runs on the baseline (`lines` holds them in the runs' order)."""
        writer = self.text_writer
        y_of = {run.baseline: entry[1] for entry, run in zip(lines, text.runs, strict=True)}
        for baseline, logical in text.readings:
            y = y_of.get(baseline)
            if y is None:
                continue
            on_line = [entry for entry in lines if entry[1] == y]
            ends = [(text.x + run.x + run_width(run)) * PT_PER_MM for run in text.runs if run.baseline == baseline]
            lines = [entry for entry in lines if entry[1] != y]
            halos_on_line = [halo for halo in halos if halo[1][1] == y]
            halos = [halo for halo in halos if halo[1][1] != y]
            spaces_on_line = [space for space in spaces if space[1] == y]
            spaces = [space for space in spaces if space[1] != y]
            left = min([entry[0] for entry in on_line] + [space[0] for space in spaces_on_line])
            right = max(ends + [space[0] + space[2] for space in spaces_on_line])
            # poppler places a /Span's text from its first glyph's origin to its last glyph's end: the
            # line's invisible glyph first (at its left), its runs last, left to right
            # (no icon's hidden space: inside the line's marks neither reader needs it)
            writer.read_line(logical, left, y, right - left, on_line[0][3], on_line[0][4])
            if halos_on_line:
                self._halos(halos_on_line, unread=True)
            writer.draw(sorted(on_line, key=lambda entry: entry[0]), unread=True)
            writer.end_read_line()
        return lines, halos, spaces

    def _halos(self, halos: list[tuple[tuple[str, float], TextLine]], unread: bool = False) -> None:
        """The runs' letters stroked with round joins (text render mode 1), under the filled letters."""
        canvas = self.canvas
        for (colour, width), entry in halos:
            canvas.saveState()
            canvas.setStrokeColor(self.colour(colour))
            canvas.setLineWidth(2 * mm_to_pt(width))
            canvas.setLineJoin(1)
            canvas.setLineCap(1)
            self.text_writer.draw([entry], stroke=True, unread=unread)
            canvas.restoreState()


class PdfRenderer(FacePainter):
    """One PDF being drawn from a Document of pages; faces used more than once become forms."""

    def __init__(self, settings: DrawingSettings | str, colour_mode: str = "rgb", ink_limit: float = INK_LIMIT,
                 separation: ProfileSeparation | None = None, opaque: bool = False):
        self.buffer = io.BytesIO()
        settings = drawing_settings(settings, colour_mode, ink_limit, separation, opaque)
        # (its text's font subsets are named by content as they are written: render/glyph_fonts.py)
        super().__init__(Canvas(self.buffer, invariant=1, initialFontName=settings.initial_font,
                                initialFontSize=9, pageCompression=1), settings)
        self.shared: dict[str, str] = {}   # the key of each face placed more than once → its form's name
        self.layers: dict[str, list[tuple[tuple[Item, ...], tuple | None]]] = {}   # see _plan_layers
        self.layer_forms: dict[tuple, str] = {}

    # ------------------------------------------------------------------ pages
    def draw(self, document: Document) -> bytes:
        with pnp_settings():          # ReportLab reads its settings while drawing and saving
            return self._draw(document)

    def _draw(self, document: Document) -> bytes:
        canvas = self.canvas
        if document.title:
            canvas.setTitle(document.title)
        canvas.setCreator("pnp")
        # ReportLab's placeholders ("anonymous", "unspecified") are not what a file of pnp's should say: a
        # print shop's preflight reads them as the document's author and subject
        canvas.setAuthor("")
        canvas.setSubject("")
        if document.no_print_scaling:
            canvas.setViewerPreference("PrintScaling", "None")
        uses = Counter(placement.face.key for page in document.pages for placement in page.placements)
        self.shared = {key: _form_name(key) for key, count in uses.items() if count > 1}
        once = {placement.face.key: placement.face for page in document.pages for placement in page.placements
                if placement.face.key not in self.shared}
        # a page's marks (crop marks, scale bar, captions) drawn like a face of the page's size:
        # the marks every sheet of a deck shares are stored once
        marks = [Face(f"\0page {index}", page.width, page.height, 0.0, page.marks)
                 for index, page in enumerate(document.pages)]
        self._plan_layers(list(once.values()) + marks)
        for page, page_marks in zip(document.pages, marks, strict=True):
            self._page(page, page_marks)
        canvas.save()
        return self.buffer.getvalue()

    def _page(self, page: Page, marks: Face) -> None:
        canvas = self.canvas
        canvas.setPageSize((mm_to_pt(page.width), mm_to_pt(page.height)))
        for placement in page.placements:
            form = self.shared.get(placement.face.key)
            if form is not None:
                self._define_face(placement.face, form)
            else:
                self._define_art_of(placement.face)
                self._define_layers(placement.face)
        self._define_layers(marks)
        if page.trim_box:
            canvas.setTrimBox(self._box(page, page.trim_box))
        if page.bleed_box:
            canvas.setBleedBox(self._box(page, page.bleed_box))
        for placement in page.placements:
            face = placement.face
            canvas.saveState()
            cx, cy, cw, ch = placement.clip
            clip_to_rect(canvas, mm_to_pt(cx), mm_to_pt(page.height - cy - ch), mm_to_pt(cw), mm_to_pt(ch))
            sx, sy = placement.scale
            canvas.translate(mm_to_pt(placement.x), mm_to_pt(page.height - placement.y - face.height * sy))
            if (sx, sy) != (1.0, 1.0):
                canvas.scale(sx, sy)
            form = self.shared.get(face.key)
            if form is not None:
                canvas.doForm(form)
            else:
                self._layers(face)
            canvas.restoreState()
        self._layers(marks)
        canvas.showPage()

    # ----------------------------------------------------------------- layers
    def _plan_layers(self, faces: list[Face]) -> None:
        """Split faces drawn once into runs of items: runs that recur on other faces become forms.

        The cards of a deck differ in a title or a picture but share a frame, a background,
        a rules text: stored once, a 1,000-card deck draws each card's own items only.
        """
        numbers = _item_numbers(faces)
        signatures = [[numbers[id(item)] for item in face.items] for face in faces]
        uses = Counter(chain.from_iterable(signatures))
        # A face's outline: its size and its items' numbers, those on no other face as -1. The cards
        # of a deck mostly share one: each outline is cut into runs once, for all its faces.
        outlines = [(face.width, face.height, face.bleed, tuple([number if uses[number] > 1 else -1
                                                                for number in signature]))
                    for face, signature in zip(faces, signatures, strict=True)]
        faces_of = Counter(outlines)
        run_uses: Counter = Counter()
        cuts: dict[tuple, list[tuple[int, int, tuple | None]]] = {}
        for outline, count in faces_of.items():
            width, height, bleed, numbered = outline
            runs, start = [], 0
            for recurring, run in groupby([number >= 0 for number in numbered]):
                end = start + len(list(run))
                key = (width, height, bleed, numbered[start:end]) if recurring else None
                run_uses[key] += count
                runs.append((start, end, key))
                start = end
            cuts[outline] = runs
        planned = {outline: [(start, end, key if key is not None and run_uses[key] > 1 else None)
                             for start, end, key in runs] for outline, runs in cuts.items()}
        self.layers = {face.key: [(face.items[start:end], key) for start, end, key in planned[outline]]
                       for face, outline in zip(faces, outlines, strict=True)}

    def _define_layers(self, face: Face) -> None:
        for items, key in self.layers[face.key]:
            if key is not None and key not in self.layer_forms:
                self.layer_forms[key] = f"L{len(self.layer_forms) + 1}"
                self._form_of(self.layer_forms[key], face, items)

    def _layers(self, face: Face) -> None:
        for items, key in self.layers[face.key]:
            if key is None:
                self._items(items, face.height)
            else:
                self.canvas.doForm(self.layer_forms[key])

    @staticmethod
    def _box(page: Page, box):
        x, y, w, h = box
        return (mm_to_pt(x), mm_to_pt(page.height - y - h), mm_to_pt(x + w), mm_to_pt(page.height - y))



def _item_numbers(faces: list[Face]) -> dict[int, int]:
    """A number for each item of the faces, by the item's id: equal items share a number.

    An item is numbered by its value, hashed whole (and compared with the items of the same hash), and a
    text's hash takes every field of every run. A text is first told by a sketch of a few of its values
    that equal texts share: a text whose sketch no other text has equals no other item and is numbered
    without its hash (a deck's cards' own titles and bodies).
    """
    objects = {id(item): item for face in faces for item in face.items}    # the same object once (a memoised box)
    sketches = {ident: _sketch(item) for ident, item in objects.items() if type(item) is TextPlacement}
    sketched = Counter(sketches.values())
    numbers: dict = {}
    found: dict[int, int] = {}
    for ident, item in objects.items():
        sketch = sketches.get(ident)
        if sketch is not None and sketched[sketch] == 1:
            found[ident] = numbers[sketch] = len(numbers)       # a sketch is a tuple: never equal to an item
        else:
            found[ident] = numbers.setdefault(item, len(numbers))
    return found


def _sketch(text: TextPlacement) -> tuple:
    """Values equal texts share, cheap to hash: the box, the number of runs, the first and last run's text."""
    runs = text.runs
    return (text.x, text.y, len(runs), runs[0].text if runs else None, runs[-1].text if runs else None)


def clip_to_rect(canvas: Canvas, x: float, y: float, w: float, h: float) -> None:
    """Clip to a rectangle (points): what `path = canvas.beginPath(); path.rect(x, y, w, h);
    canvas.clipPath(path, stroke=0, fill=0)` writes, without its path object (every placed piece is clipped)."""
    mode = canvas._fillMode
    canvas._code.append(f"n {fp_str(x, y, w, h)} re {'W*' if mode == FILL_EVEN_ODD else 'W'} {PATH_OPS[0, 0, mode]}")


# Each shape kind's outline, drawn on a canvas whose paint is set: (canvas, shape, frame, face height, paint),
# frame = (x, top, w, h) in points with y upwards, paint = (stroke, fill) as 0 or 1.
Frame = tuple[float, float, float, float]
Paint = tuple[int, int]


def _rect(canvas: Canvas, shape: Rect, frame: Frame, height: float, paint: Paint) -> None:
    x, top, w, h = frame
    stroke, fill = paint
    if shape.radius > 0:
        canvas.roundRect(x, top - h, w, h, mm_to_pt(shape.radius), stroke=stroke, fill=fill)
    else:
        canvas.rect(x, top - h, w, h, stroke=stroke, fill=fill)


def _ellipse(canvas: Canvas, shape: Ellipse, frame: Frame, height: float, paint: Paint) -> None:
    x, top, w, h = frame
    canvas.ellipse(x, top - h, x + w, top, stroke=paint[0], fill=paint[1])


def _line(canvas: Canvas, shape: Line, frame: Frame, height: float, paint: Paint) -> None:
    x, top, w, h = frame
    canvas.line(x, top, x + w, top - h)


def _curve(canvas: Canvas, shape: Curve, frame: Frame, height: float, paint: Paint) -> None:
    # a quadratic curve through the control point, written as the equivalent cubic
    x, top, w, h = frame
    qx, qy = mm_to_pt(shape.control[0]), mm_to_pt(height - shape.control[1])
    ex, ey = x + w, top - h
    path = canvas.beginPath()
    path.moveTo(x, top)
    path.curveTo(x + 2 / 3 * (qx - x), top + 2 / 3 * (qy - top),
                 ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey)
    canvas.drawPath(path, stroke=1, fill=0)


def _triangle(canvas: Canvas, shape: Triangle, frame: Frame, height: float, paint: Paint) -> None:
    x, top, w, h = frame     # filling its box, pointing as named
    corners = {"right": [(x, top), (x + w, top - h / 2), (x, top - h)],
               "left": [(x + w, top), (x, top - h / 2), (x + w, top - h)],
               "up": [(x, top - h), (x + w / 2, top), (x + w, top - h)],
               "down": [(x, top), (x + w / 2, top - h), (x + w, top)]}[shape.point]
    _closed_path(canvas, corners, paint)


def _polygon(canvas: Canvas, shape: Polygon, frame: Frame, height: float, paint: Paint) -> None:
    _closed_path(canvas, [(mm_to_pt(px), mm_to_pt(height - py)) for px, py in shape.points], paint)


def _closed_path(canvas: Canvas, corners, paint: Paint) -> None:
    path = canvas.beginPath()
    path.moveTo(*corners[0])
    for corner in corners[1:]:
        path.lineTo(*corner)
    path.close()
    canvas.drawPath(path, stroke=paint[0], fill=paint[1])


SHAPE_OUTLINES: Mapping[type[Shape], Callable[..., None]] = MappingProxyType({
    Rect: _rect, Ellipse: _ellipse, Line: _line, Curve: _curve, Triangle: _triangle, Polygon: _polygon})

# The painter's method drawing each item, by the item's type (a method name, so a painter's subclass may
# draw a type its own way): a shape kind is a class of components/piece.py and one line above.
_DRAW: Mapping[type, str] = MappingProxyType({**{kind: "_shape" for kind in SHAPE_OUTLINES},
                                              ArtPlacement: "_art", TextPlacement: "_text", Group: "_group"})


def _form_name(key: str) -> str:
    return "F" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def _art_form_name(file: Path) -> str:
    # by content, not path: the same input gives the same bytes in any checkout (and an edit is seen)
    return "A" + art_digest(file)[:16]


def render_pdf(document: Document, settings: DrawingSettings | str, colour_mode: str = "rgb",
               ink_limit: float = INK_LIMIT, separation: ProfileSeparation | None = None,
               opaque: bool = False) -> bytes:
    """The document's PDF drawn with `settings` (render/settings.py), every font subset under its own tag.

    The loose form `render_pdf(document, initial_font, colour_mode, ink_limit, separation, opaque)` is
    the same settings spelled out, kept while callers move to DrawingSettings."""
    return PdfRenderer(settings, colour_mode, ink_limit, separation, opaque).draw(document)


def drawing_settings(settings: DrawingSettings | str, colour_mode: str = "rgb", ink_limit: float = INK_LIMIT,
                     separation: ProfileSeparation | None = None, opaque: bool = False) -> DrawingSettings:
    """`settings` itself, or (the loose form callers still use) the settings of an initial font and the rest."""
    if isinstance(settings, DrawingSettings):
        return settings
    mode: ColourMode = "cmyk" if colour_mode == "cmyk" else "rgb"
    if colour_mode != mode:
        raise ValueError(f"a colour mode is 'rgb' or 'cmyk', not {colour_mode!r}")
    return DrawingSettings(settings, mode, ink_limit, separation, opaque)


@contextmanager
def _svg_defaults(initial_font: str) -> Iterator[None]:
    """renderPDF's defaults (ReportLab's module table) as pnp draws an SVG: its font, black as CMYK
    black; ReportLab's own restored after."""
    from reportlab.graphics.shapes import STATE_DEFAULTS     # (with renderPDF, on the first SVG drawn: see soft_mask)
    # the values as stored (its reading calls a stored callable: ReportLab's font name follows rl_config)
    saved = {key: dict.__getitem__(STATE_DEFAULTS, key) for key in ("fontName", "fillColor", "strokeColor")}
    STATE_DEFAULTS["fontName"] = initial_font
    STATE_DEFAULTS["fillColor"] = STATE_DEFAULTS["strokeColor"] = CMYKColor(0, 0, 0, 1)
    try:
        yield
    finally:
        STATE_DEFAULTS.update(saved)


def _icon_space(icon: ArtPlacement, text: TextPlacement,
                height: float) -> tuple[float, float, float, str, float, bool]:
    """The hidden space under an inline icon (text_out.py `hidden_spaces`): on the baseline of the run
    nearest the icon's bottom, as wide as the icon, in that run's face and size; whether the text has
    right-to-left runs."""
    bottom = icon.y + icon.h
    run = min(text.runs, key=lambda run: abs(text.y + run.baseline - bottom))
    return (icon.x * PT_PER_MM, (height - text.y - run.baseline) * PT_PER_MM, icon.w * PT_PER_MM, run.font, run.size,
            any(other.rtl for other in text.runs))
