"""Colour-vision safety: pieces that differ only by colour, and whether every eye can still tell them apart.

Two pieces of one set (two pawns, two decks' cards) or two spaces of one board's cells box are compared as
printed: their laid-out faces, every shape, text run and piece of art in place, with the colours set aside.
Where all of that is the same — the pieces *differ only by colour* — the colours that differ are seen as
normal vision and the three dichromacies see them (protanopia and deuteranopia by Machado, Oliveira and
Fernandes 2009 at full severity; tritanopia by Brettel, Viénot and Mollon 1997, as Machado's authors give
theirs only as an approximation; both through coloraide), and the pair is reported when, under one of those
views, no differing colour is at least TOO_CLOSE apart in CIEDE2000.

Why 10: ΔE00 ≈ 2.3 is the just-noticeable difference of two large patches side by side; game pieces are
small and are seen apart, on a table, and recognised ("which is mine?") rather than compared, which takes a
difference several times larger (Stone, Szafir and Setlur 2014: the noticeable step grows as marks shrink),
and two home printers print the same file ΔE00 3-5 apart. Ten keeps the pairs a dichromat confuses (Sorry!'s
red and green pawns: 6.8 under deuteranopia) and passes those a careful palette keeps apart (20 and more).

A pair is told apart by something else than colour — a name, a symbol, a shape — as soon as that something is
printed: such pieces no longer differ only by colour. A pair the designer defends all the same (a board
space's colour that only says whose side it lies on) is written in game.yaml's `told_apart`, with the reason,
and reported as accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from itertools import combinations
from pathlib import Path
from types import MappingProxyType

from generator.caches import cached
from generator.components.piece import ArtPlacement, Face, Group, Item, TextPlacement
from generator.content.colours import written_inks

TOO_CLOSE = 10.0           # ΔE00 (see above)
VIEWS = ("normal vision", "protanopia", "deuteranopia", "tritanopia")
_FILTERS = MappingProxyType({"protanopia": "protan", "deuteranopia": "deutan", "tritanopia": "tritan"})

# a colour written in SVG: an attribute or a style property, its value (hex, rgb(), a name)
_SVG_COLOUR = re.compile(r"""((?:fill|stroke|stop-color|flood-color|color)\s*[:=]\s*["']?)"""
                         r"""(#[0-9a-fA-F]{3,8}|rgba?\([^)]*\)|[a-zA-Z]+)""")
_NOT_A_COLOUR = frozenset({"none", "transparent", "currentcolor", "inherit"})


@dataclass(frozen=True)
class Look:
    """A face as printed with its colours set aside (`form`), and those colours in drawing order."""

    form: tuple
    colours: tuple[str, ...]


@dataclass(frozen=True)
class ColourOnlyPair:
    """Two pieces (or spaces) that differ only by colour, and how far apart the closest view sees them."""

    where: str                 # 'pawns' (a set), 'board sorry-board, track' (a board's cells box)
    first: str
    second: str
    view: str                  # the view that sees them closest
    difference: float          # ΔE00 under that view: the largest of the differing colours'
    colours: tuple[str, str]   # the two colours that differ most under that view
    more: int = 0              # further pairs of the same set or box with these colours, this view


def look(face: Face) -> Look:
    """The face's form and colours (see Look)."""
    colours: list[str] = []
    form = tuple(_form(item, colours) for item in face.items)
    return Look((face.width, face.height, face.shape, form), tuple(colours))


def items_look(items: tuple[Item, ...]) -> Look:
    colours: list[str] = []
    return Look(tuple(_form(item, colours) for item in items), tuple(colours))


def _form(item: Item, colours: list[str]) -> tuple:
    if isinstance(item, Group):
        return ("group", _round(item.x, item.y, item.w, item.h, item.width, item.height), item.rotation,
                tuple(_form(inner, colours) for inner in item.items))
    if isinstance(item, TextPlacement):
        runs = []
        for run in item.runs:
            colours.append(run.color)
            if run.halo:
                colours.append(run.halo[0])
            runs.append((_round(run.x, run.baseline, run.size), run.text, run.font, run.slant,
                         run.halo[1] if run.halo else None))
        return ("text", _round(item.x, item.y), tuple(runs), tuple(_form(icon, colours) for icon in item.icons))
    if isinstance(item, ArtPlacement):
        form, art_colours = _art(item.file)
        colours.extend(art_colours)
        return ("art", _round(item.x, item.y, item.w, item.h), form)
    values: list[object] = []
    for field in fields(item):
        value = getattr(item, field.name)
        if field.name in ("fill", "stroke"):
            if value is not None:
                colours.append(value)
            values.append(value is None)
        else:
            values.append(round(value, 2) if isinstance(value, float) else value)
    return (type(item).__name__, tuple(values))


def _round(*numbers: float) -> tuple[float, ...]:
    return tuple(round(number, 2) for number in numbers)


@cached("colour_vision.art", maxsize=512, reads_files=True)
def _art(file: Path) -> tuple[str, tuple[str, ...]]:
    """An art file's form and colours: an SVG's text with its colour values set aside (a recoloured copy of
    the same drawing has the same form), any other file's own bytes (its colours are not read)."""
    if file.suffix.lower() != ".svg":
        return (f"{file.name}:{file.stat().st_size}", ())
    text = file.read_text(encoding="utf-8", errors="replace")
    found: list[str] = []

    def set_aside(match: re.Match) -> str:
        value = match.group(2).strip()
        if value.lower() in _NOT_A_COLOUR or value.startswith("url("):
            return match.group(0)
        found.append(value)
        return match.group(1) + "·"
    return (_SVG_COLOUR.sub(set_aside, text), tuple(found))


def colour_only_pairs(where: str, pieces: list[tuple[str, Look]]) -> list[ColourOnlyPair]:
    """The pairs among `pieces` (name, look) that differ only by colour and come too close under a view."""
    by_form: dict[tuple, list[tuple[str, Look]]] = {}
    for name, seen in pieces:
        by_form.setdefault(seen.form, []).append((name, seen))
    found: list[ColourOnlyPair] = []
    for alike in by_form.values():
        distinct: dict[tuple[str, ...], str] = {}
        for name, seen in alike:
            distinct.setdefault(seen.colours, name)       # the same colours too: copies of one piece
        for (colours_a, name_a), (colours_b, name_b) in combinations(distinct.items(), 2):
            pair = _closest_view(colours_a, colours_b)
            if pair is not None:
                view, difference, colours = pair
                found.append(ColourOnlyPair(where, name_a, name_b, view, difference, colours))
    return _one_per_colours(found)


def _one_per_colours(pairs: list[ColourOnlyPair]) -> list[ColourOnlyPair]:
    """One pair for each two colours a view confuses (a board's thirty spaces in six region tints would
    otherwise be said a hundred times), with how many more share them."""
    kept: dict[tuple, ColourOnlyPair] = {}
    for pair in pairs:
        key = (pair.view, tuple(sorted(pair.colours)))
        first = kept.get(key)
        kept[key] = pair if first is None else replace(first, more=first.more + 1)
    return list(kept.values())


def _closest_view(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, float, tuple[str, str]] | None:
    """The view under which the differing colours are closest, if it sees them less than TOO_CLOSE apart."""
    differing = sorted({(a, b) for a, b in zip(first, second, strict=True) if a != b})
    worst: tuple[str, float, tuple[str, str]] | None = None
    for view in VIEWS:
        best = max(((difference(a, b, view), (a, b)) for a, b in differing), default=None)
        if best is None:
            return None
        if best[0] < TOO_CLOSE and (worst is None or best[0] < worst[1]):
            worst = (view, best[0], best[1])
    return worst


@cached("colour_vision.difference", maxsize=4096)
def difference(first: str, second: str, view: str) -> float:
    """ΔE00 between two colours ('#rrggbb' or 'cmyk(…)') as `view` sees them."""
    return seen_as(first, view).delta_e(seen_as(second, view), method="2000")


def seen_as(colour: str, view: str):
    """A coloraide Color as `view` (one of VIEWS) sees the printed colour."""
    from coloraide import Color       # (the preflight and pnp serve's simulations only)
    inks = written_inks(colour)
    if inks is not None:              # the naive inverse of the separation: enough to judge a difference
        c, m, y, k = (float(ink) / 100 for ink in inks)
        rgb = Color("srgb", [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)])
    else:
        try:
            rgb = Color(colour)
        except ValueError:
            rgb = Color("black")
    return _simulated(rgb, view)


def _simulated(colour, view: str):
    """A coloraide sRGB Color as `view` sees it: the model the check and pnp serve's pictures both use."""
    if view == "normal vision":
        return colour
    method = "brettel" if view == "tritanopia" else "machado"
    return colour.filter(_FILTERS[view], 1.0, method=method, in_place=False).convert("srgb").fit()


def simulated_png(png: bytes, view: str) -> bytes:
    """A PNG (a face's preview) as `view` sees it: every pixel through the view's colour table."""
    import io

    from PIL import Image
    image = Image.open(io.BytesIO(png))
    alpha = image.getchannel("A") if image.mode in ("RGBA", "LA") else None
    seen = image.convert("RGB").filter(_view_table(view))
    if alpha is not None:
        seen.putalpha(alpha)
    out = io.BytesIO()
    seen.save(out, "PNG")
    return out.getvalue()


@cached("colour_vision.table", maxsize=len(VIEWS))
def _view_table(view: str):
    """The view as a 17³ colour lookup table (Pillow interpolates between its points), computed by coloraide
    from the same model as the check's colour differences."""
    from coloraide import Color
    from PIL.ImageFilter import Color3DLUT

    def seen(red: float, green: float, blue: float) -> tuple[float, float, float]:
        colour = _simulated(Color("srgb", [red, green, blue]), view)
        return colour[0], colour[1], colour[2]
    return Color3DLUT.generate(17, seen)


def simulated_hex(colour: str, view: str) -> str:
    """The colour as `view` sees it, written '#rrggbb' (pnp serve's simulated faces)."""
    return seen_as(colour, view).convert("srgb").to_string(hex=True, fit=True)


def cells_looks(face: Face) -> Iterator[tuple[str, list[tuple[str, Look]]]]:
    """A board's spaces by cells box: each top-level cell of the face (its frame one of the face's spaces)
    with its look, as (box name, [(space name, look)])."""
    frames: dict[tuple[float, ...], str] = {}
    for name, x, y, w, h in face.spaces:
        if "/" not in name:
            frames.setdefault(_round(x, y, w, h), name)       # 'track.5' before 'track.start'
    boxes: dict[str, list[tuple[str, Look]]] = {}
    for item in face.items:
        space = frames.get(_round(item.x, item.y, item.w, item.h)) if isinstance(item, Group) else None
        if isinstance(item, Group) and space is not None:
            boxes.setdefault(space.rsplit(".", 1)[0], []).append((space, items_look(item.items)))
    yield from boxes.items()
