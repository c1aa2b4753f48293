"""Sets of pieces (decks, tokens, pawns) of one edition and language, expanded into copies.

Each distinct face is laid out once and shared by all its copies.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from generator.components.ink_saver import report_ink_hungry_back
from generator.components.context import LayoutContext
from generator.components.deck_sizes import DeckSizes, one_size_per_deck
from generator.components.faces import draws_the_same_for_every_subject, layout_face
from generator.components.subject import Subject, with_game_fields
from generator.components.piece import Face, PieceCopy
from generator.components.standee import standee_face
from generator.content.game import PieceFile, piece_count
from generator.content.schema import PawnSet
from generator.content.templates import ResolvedTemplate
from generator.errors import SourceMark
from generator.print_facts import PAPER_NAMES, PAPER_SIZES, PAPERS, SheetRoom

# Pieces of one edition, all sets together: 10,000 poker cards are 1,112 sheets, and each
# copy gets its own print-shop PNGs. The per-card limit (schema MAX_COPIES) is the same.
MAX_PIECES = 10_000
_PIECES_SO_FAR = ("pieces", "so far")     # ctx.memo: pieces counted in the sets laid out before


@dataclass(frozen=True)
class LaidOutSet:
    id: str
    title: str                   # translation key naming the set in lists
    copies: tuple[PieceCopy, ...]
    ink_saver_back: Face | None
    butted: bool = False         # printed touching (a token set's `butted`)


def layout_sets(ctx: LayoutContext, pieces: PieceFile, rooms: tuple[SheetRoom, ...] | None = None,
                layout: str = "duplex", drawn: frozenset[tuple[str, str]] | None = None) -> list[LaidOutSet]:
    """Every set of a piece file laid out for the context's edition and language.

    Each set's pieces must fit a sheet of every paper in `rooms` (default: A4 and Letter inside the
    printer's margin; cards in `layout`: duplex or gutterfold); all sets of an edition together hold at
    most MAX_PIECES. `drawn`: the (set, piece) ids whose fronts the build draws (a rules-only build: the
    rulebook's figures and cover), the others sketched (ctx.sketch: no art read); None: every face.
    """
    source = ctx.source
    laid_out: list[LaidOutSet] = []
    for set_index, piece_set in enumerate(pieces.sets):
        front_template = ctx.templates.resolve(piece_set.template)
        back_template = ctx.templates.resolve(piece_set.back) if piece_set.back else None
        saver_template = ctx.templates.resolve(piece_set.ink_saver_back) if piece_set.ink_saver_back else None
        if front_template is None or (piece_set.back and back_template is None):
            continue
        ctx.used.add(piece_set.name)   # named in the YAML even where no template prints it

        def own_mark(name: str, *inside: str | int, _index=set_index):
            if name == "deck":
                return pieces.mark(_index, "name")
            return pieces.mark(_index, "fields", name, *inside)
        set_fields, set_mark = with_game_fields(ctx, {"deck": piece_set.name, **piece_set.fields}, own_mark)

        noun = "deck" if pieces.kind == "cards" else f"{pieces.kind[:-1]} set"
        prefix = f"{source.id}/{ctx.edition}/{ctx.lang}/{pieces.kind}/{piece_set.id}"
        # one size per text box across the set: settled when the set is laid out
        with one_size_per_deck(ctx) as sizes:
            back_subject = Subject(f"{noun} {piece_set.id}, back", set_fields, set_mark)
            backs = _DistinctBacks(f"{prefix}/back")
            # a back that reads nothing of its piece is one face: laid out for the first piece only
            same_back = back_template is not None and draws_the_same_for_every_subject(back_template, ctx)
            with _sketching(ctx, drawn is not None):
                saver = layout_face(saver_template, back_subject, ctx, f"{prefix}/back-ink-saver") \
                    if saver_template else None
            copies: list[PieceCopy] = []
            for index, piece in enumerate(piece_set.items):
                count = piece_count(piece_set, index, ctx.edition)
                if count == 0:
                    continue
                if not _within_piece_limit(ctx, count, pieces.mark(set_index, piece_set.ITEMS, index, "count")):
                    break

                # the loop's values bound now: the subject keeps this function past the loop
                def piece_mark(name: str, *inside: str | int, _set=set_index, _index=index, _fields=piece.fields,
                               _items=piece_set.ITEMS, _set_mark=set_mark):
                    if name in _fields:
                        return pieces.mark(_set, _items, _index, "fields", name, *inside)
                    return _set_mark(name, *inside)

                subject = Subject(f"{noun} {piece_set.id}, {piece_set.ITEMS[:-1]} {piece.id}",
                                  {**set_fields, "id": piece.id, **piece.fields}, piece_mark)
                sketch = drawn is not None and (piece_set.id, piece.id) not in drawn
                with _sketching(ctx, sketch):
                    front = layout_face(front_template, subject, ctx, f"{prefix}/{piece.id}")
                piece_back: Face | None
                with _sketching(ctx, drawn is not None):     # no figure shows a back (a pawn's: its front only)
                    if isinstance(piece_set, PawnSet):
                        piece_back = layout_face(back_template, subject, ctx, f"{prefix}/{piece.id}/back") \
                            if back_template else front
                        front, piece_back = standee_face(front, piece_back, piece_set.standee.base,
                                                         f"{prefix}/{piece.id}/standee"), None
                    elif back_template is not None:
                        # laid out with the piece's own fields (a marker's colour, a coin's value on both
                        # sides); pieces whose backs come out alike share one face, drawn once
                        piece_back = backs.only if same_back and backs.only is not None else \
                            backs.face(layout_face(back_template, subject, ctx, f"{prefix}/{piece.id}/back"))
                    else:
                        piece_back = None
                if not copies:      # pieces of a set share the front's template: one look is enough
                    what = f"{noun} {piece_set.id}: a {piece_set.ITEMS[:-1]}"
                    if isinstance(piece_set, PawnSet):
                        what = (f"{noun} {piece_set.id}: a pawn's standee "
                                f"(its {piece_set.standee.base:g} mm base twice)")
                    _check_fits(ctx, front_template, (front.width, front.height), what, rooms,
                                layout if pieces.kind == "cards" else "duplex")
                for _ in range(count):
                    copies.append(PieceCopy(piece_set.id, piece.id, len(copies) + 1, front, piece_back))
        if sizes.replacements:
            copies = [_final_copy(copy, sizes) for copy in copies]
        saver = sizes.final(saver)
        butted = bool(getattr(piece_set, "butted", False))
        shape = copies[0].front.shape if copies else "rect"
        if butted and shape != "rect":
            ctx.problems.add(pieces.mark(set_index, "butted"),
                             f"{noun} {piece_set.id}: butted tokens share their cut lines, and a "
                             f"{shape} token has none to share",
                             "remove `butted: true`, or give the set a rectangular template (shape: rect)")
            butted = False
        if pieces.kind == "cards" and copies:
            report_ink_hungry_back(ctx, piece_set.id, copies[0].back, saver, pieces.mark(set_index, "back"),
                                   pieces.mark(set_index, "ink_saver_back"))
        laid_out.append(LaidOutSet(piece_set.id, piece_set.title or piece_set.name, tuple(copies), saver, butted))
    return laid_out


@contextmanager
def _sketching(ctx: LayoutContext, sketch: bool) -> Iterator[None]:
    """Faces laid out inside are never drawn when `sketch` (LayoutContext.sketch)."""
    ctx.sketch = sketch
    try:
        yield
    finally:
        ctx.sketch = False


def _final_copy(copy: PieceCopy, sizes: DeckSizes) -> PieceCopy:
    """The copy with its faces' texts at the set's sizes (the same copy if none changed)."""
    front, back = sizes.final(copy.front), sizes.final(copy.back)
    assert front is not None, "DeckSizes.final answers a face for a face"
    return copy if front is copy.front and back is copy.back else replace(copy, front=front, back=back)


class _DistinctBacks:
    """Backs laid out per piece, folded onto one face per distinct look: the first look keeps the
    set's key (`<set>/back`), so a set whose back reads no piece field has exactly one back face."""

    def __init__(self, set_key: str):
        self.set_key = set_key
        self.by_items: dict[tuple, Face] = {}

    @property
    def only(self) -> Face | None:
        """The first back laid out (the set's one back, when its template reads no piece field)."""
        return next(iter(self.by_items.values()), None)

    def face(self, laid_out: Face) -> Face:
        found = self.by_items.get(laid_out.items)
        if found is None:
            key = self.set_key if not self.by_items else laid_out.key
            found = self.by_items[laid_out.items] = replace(laid_out, key=key)
        return found


def _within_piece_limit(ctx: LayoutContext, count: int, mark: SourceMark) -> bool:
    """Count `count` more pieces for the edition; False (reported) past MAX_PIECES."""
    total = ctx.memo.get(_PIECES_SO_FAR, 0) + count
    ctx.memo[_PIECES_SO_FAR] = total
    if total <= MAX_PIECES:
        return True
    if ctx.once("piece-limit"):
        ctx.problems.add(mark, f"with these {count:,} copies, edition '{ctx.edition}' would have {total:,} pieces "
                               f"or more: at most {MAX_PIECES:,} can be built",
                         "a real game has a few hundred; check the counts")
    return False


def _check_fits(ctx: LayoutContext, template: ResolvedTemplate, size: tuple[float, float], what: str,
                rooms: tuple[SheetRoom, ...] | None, layout: str) -> None:
    """A piece larger than a sheet's printable area would stop the build half-way: report it at the size."""
    rooms = rooms or tuple(SheetRoom(paper, PAPER_SIZES[paper]) for paper in PAPERS)
    misfits = [room for room in rooms if not room.fits(size, layout)]
    if not misfits or not ctx.once("fits", template.id, what, layout, tuple(misfits)):
        return
    areas = [room.area(layout) for room in misfits]
    room = (min(area[0] for area in areas), min(area[1] for area in areas))
    names = " or ".join(PAPER_NAMES.get(misfit.paper, misfit.paper) for misfit in misfits)
    where = "half a landscape sheet of" if layout == "gutterfold" else "a sheet of"
    axis = "width" if size[0] > room[0] else "height"
    mark = template.mark(("size", axis), template.mark(("size",)))
    inside = ("the cut machine's border" if any(misfit.turnable for misfit in misfits)
              else f"the printer's margins ({max(misfit.margin for misfit in misfits):g} mm)")
    ctx.problems.add(mark, f"{what} is {size[0]:g} × {size[1]:g} mm and does not fit on {where} {names} paper "
                           f"(at most {room[0]:.1f} × {room[1]:.1f} mm fits inside {inside}"
                           f"{' for --layout gutterfold' if layout == 'gutterfold' else ''})",
                     f"make template '{template.id}' smaller, or print double-sided (--layout duplex)"
                     if layout == "gutterfold" else
                     f"make template '{template.id}' smaller; a board (board.yaml) is tiled over several "
                     "pages instead")
