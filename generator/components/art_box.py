"""Art boxes: an art file fitted into the box (contain, cover, stretch), or copies of it in a row."""

from __future__ import annotations

from generator.components.box_call import BoxCall, DrawTemplate
from generator.components.piece import ArtPlacement, Item
from generator.components.subject import resolve_file
from generator.content.schema import MAX_REPEAT


def layout_art(call: BoxCall, draw: DrawTemplate) -> list[Item]:
    """The art (its file from the box or the subject's field), once or `repeat` times in a row."""
    box, ctx, subject = call.box, call.ctx, call.subject
    value = call.require(box.art)
    if value is None:
        return []
    where = call.where(box.art)
    path = resolve_file(ctx, str(value), where)
    if path is None:
        return []
    error = ctx.art.problem(path)         # resolve_file checked it; a file changed since is said here
    if error is not None:
        if ctx.once("art", path):
            ctx.problems.add(where, f"{value}: {error}", "re-export the file as plain SVG or PNG")
        return []
    art_size = ctx.art.size(path)
    copies = _copies(call)
    if copies is None or copies == 0:
        return []
    x, y, w, h = call.frame
    # equal square-ish cells, the row centred in the box
    cell = min(h * art_size[0] / art_size[1], (w - box.gap * (copies - 1)) / copies)
    if cell <= 0:
        if ctx.once("repeat-room", subject.label, call.name):
            what = f"{copies} copies of the art with a {box.gap:g} mm gap do not" if copies > 1 else "the art does not"
            ctx.problems.add(call.where(box.repeat) if box.repeat is not None else call.mark,
                             f"{subject.label}: {what} fit in box '{call.name}' ({w:g} × {h:g} mm)",
                             "give the box more room" + (", repeat the art fewer times or make the gap smaller"
                                                         if copies > 1 else ""))
        return []
    start = x + (w - (copies * cell + box.gap * (copies - 1))) / 2
    return [ArtPlacement(path, *fitted(box.fit, art_size, (start + index * (cell + box.gap), y, cell, h)))
            for index in range(copies)]


def _copies(call: BoxCall) -> int | None:
    """How many copies the box draws (1 without `repeat`); None when `repeat` is unusable (reported)."""
    box, subject = call.box, call.subject
    if box.repeat is None:
        return 1
    repeat = call.require(box.repeat)
    if not isinstance(repeat, int) or isinstance(repeat, bool) or not 0 <= repeat <= MAX_REPEAT:
        if repeat is not None and call.once("repeat", subject.label, call.name):
            call.ctx.problems.add(call.where(box.repeat),
                                  f"{subject.label}: repeat must be a whole number from 0 to {MAX_REPEAT:,}, "
                                  f"got {f'{repeat:,}' if isinstance(repeat, int) else repr(repeat)}",
                                  "the number of copies of the art drawn in a row")
        return None
    return repeat


def fitted(mode: str, art_size: tuple[float, float], frame) -> tuple[float, float, float, float]:
    """Where art of `art_size` (width, height) lies in the frame: inside it (contain), covering it, or
    stretched to it."""
    x, y, w, h = frame
    if mode == "stretch":
        return x, y, w, h
    art_w, art_h = art_size
    scale = (min if mode == "contain" else max)(w / art_w, h / art_h)
    fw, fh = art_w * scale, art_h * scale
    return x + (w - fw) / 2, y + (h - fh) / 2, fw, fh
