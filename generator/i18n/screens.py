"""A picture per catalog key of the box it is printed in, for translation platforms' screenshots.

Each picture is a crop of the face (card, token, board, sheet) as the build draws
it in the source language: the face is rendered by the same renderer as the real
files (one trim-size page, pypdfium2), the box found on it through the groups
it sits in (a board's space turned to its side of the table is turned upright
again), and the box's room outlined in red. The files are named after the key
(`<key>.png`), so platforms that attach screenshots by name can take them.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from generator.components.piece import Face, Group, Item, TextPlacement
from generator.i18n.key_usage import KeyUsage
from generator.targets import Target

DPI = 200                 # a 53 mm card box is 417 px wide: every letter readable
MARGIN = 1.5              # mm shown around the box
OUTLINE = "#e0203a"       # the box's room
HALO = "#ffffff"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class _Found:
    face: Face
    rect: tuple[float, float, float, float]    # the box's room on the face, mm (x, y, w, h)
    rotation: int                              # clockwise degrees the box is turned on the face


def screenshot_names(keys: list[str]) -> dict[str, str]:
    """A file name per key, safe on every system and distinct ('rules.a/b' → 'rules.a_b.png')."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for key in keys:
        stem = _UNSAFE.sub("_", key).strip(".") or "key"
        name, number = f"{stem}.png", 1
        while name.lower() in taken:
            number += 1
            name = f"{stem}-{number}.png"
        taken.add(name.lower())
        names[key] = name
    return names


def box_screenshots(usages: dict[str, KeyUsage], names: dict[str, str], targets: list[Target],
                    initial_font: str) -> dict[str, bytes]:
    """PNG bytes per key set in a text box (its tightest box, on the first face showing it)."""
    wanted: dict[tuple, list[tuple[str, float, float]]] = {}
    by_identity: dict[int, tuple] = {}
    for key, usage in usages.items():
        use = usage.tightest
        if key not in names or use is None or use.placement is None:
            continue
        signature = _signature(use.placement)
        wanted.setdefault(signature, []).append((key, use.room.width, use.room.height))
        by_identity[id(use.placement)] = signature
    found: dict[str, _Found] = {}
    for face in _faces(targets):
        for placement, matrix, rotation in _placements(face.items, _IDENTITY, 0):
            signature = by_identity.get(id(placement)) or _signature(placement)
            for key, width, height in wanted.get(signature, ()):
                # the first face showing it, upright if any is (a standee's front half, not its back)
                if key not in found or (found[key].rotation and not rotation % 360):
                    found[key] = _Found(face, _rect(matrix, placement.x, placement.y, width, height), rotation % 360)
    return _render(found, initial_font)


def _faces(targets: list[Target]):
    """Every face of the targets, each once, in build order."""
    seen: set[int] = set()
    for target in targets:
        faces: list[Face | None] = []
        for laid_out_sets in target.sets.values():
            for laid_out in laid_out_sets:
                for copy in laid_out.copies:
                    faces.extend((copy.front, copy.back))
                faces.append(laid_out.ink_saver_back)
        faces.extend(board.face for board in target.boards)
        faces.extend(sheet.face for sheet in target.sheets)
        for face in faces:
            if face is not None and id(face) not in seen:
                seen.add(id(face))
                yield face


def _signature(placement: TextPlacement) -> tuple:
    """A placement's place and words: the same box on a face whose deck set it again at another size
    keeps its place and its words (its lines and hyphens may differ)."""
    words = re.sub(r"[\s\-\u00ad]", "", "".join(run.text for run in placement.runs))
    return (round(placement.x, 3), round(placement.y, 3), words)


# 2 × 3 affine matrices (a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f, millimetres, y down
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _multiply(outer: tuple, inner: tuple) -> tuple:
    a, b, c, d, e, f = outer
    A, B, C, D, E, F = inner
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def _group_matrix(group: Group) -> tuple:
    """The group's own coordinates onto its parent's, as the renderer draws it (render/pdf.py _group):
    scaled to its frame, turned clockwise about its centre."""
    turned = group.rotation % 180 == 90
    along, across = (group.h, group.w) if turned else (group.w, group.h)
    sx, sy = along / group.width, across / group.height
    cos, sin = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[group.rotation % 360]
    centre = (1.0, 0.0, 0.0, 1.0, group.x + group.w / 2, group.y + group.h / 2)
    rotate = (cos, sin, -sin, cos, 0.0, 0.0)
    scale = (sx, 0.0, 0.0, sy, 0.0, 0.0)
    to_middle = (1.0, 0.0, 0.0, 1.0, -group.width / 2, -group.height / 2)
    return _multiply(centre, _multiply(rotate, _multiply(scale, to_middle)))


def _placements(items: tuple[Item, ...], matrix: tuple, rotation: int):
    for item in items:
        if isinstance(item, TextPlacement):
            yield item, matrix, rotation
        elif isinstance(item, Group):
            yield from _placements(item.items, _multiply(matrix, _group_matrix(item)), rotation + item.rotation)


def _rect(matrix: tuple, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    a, b, c, d, e, f = matrix
    corners = [(a * px + c * py + e, b * px + d * py + f)
               for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _render(found: dict[str, _Found], initial_font: str) -> dict[str, bytes]:
    """Render each face needed once and crop every key's box out of it."""
    # here: only an export's screenshots need pdfium and the PDF renderer (`pnp i18n import` lays out too)
    import pypdfium2 as pdfium
    from PIL import ImageDraw

    from generator.render.pdf import render_pdf
    from generator.render.settings import DrawingSettings
    from generator.render.preview import face_pages
    faces: dict[int, Face] = {}
    for item in found.values():
        faces.setdefault(id(item.face), item.face)
    order = list(faces)
    if not order:
        return {}
    document = pdfium.PdfDocument(render_pdf(face_pages([(str(i), faces[i]) for i in order]),
                                                   DrawingSettings(initial_font)))
    images = {}
    try:
        for index, face_id in enumerate(order):
            page = document[index]
            bitmap = page.render(scale=DPI / 72)
            images[face_id] = bitmap.to_pil().convert("RGB")
            bitmap.close()
            page.close()
    finally:
        document.close()
    pictures = {}
    for key, item in found.items():
        image = images[id(item.face)]
        px = image.width / item.face.width            # pixels per mm (the page is the trim)
        x, y, w, h = item.rect
        left, top = max(0, int((x - MARGIN) * px)), max(0, int((y - MARGIN) * px))
        right = min(image.width, int((x + w + MARGIN) * px + 1))
        bottom = min(image.height, int((y + h + MARGIN) * px + 1))
        crop = image.crop((left, top, right, bottom))
        line = max(1, round(px * 0.15))
        box = (round(x * px) - left, round(y * px) - top, round((x + w) * px) - left - 1, round((y + h) * px) - top - 1)
        draw = ImageDraw.Draw(crop)     # red inside a white line: seen on light and dark faces alike
        draw.rectangle((box[0] - line, box[1] - line, box[2] + line, box[3] + line), outline=HALO, width=line)
        draw.rectangle(box, outline=OUTLINE, width=line)
        if item.rotation:
            crop = crop.rotate(item.rotation, expand=True)     # counter-clockwise: upright again
        buffer = io.BytesIO()
        crop.save(buffer, format="PNG", dpi=(DPI, DPI))
        pictures[key] = buffer.getvalue()
    return pictures
