"""Parts of the kit that share a sheet of card stock (issue 29): a one-sided part that fits in the room a
double-sided part leaves at the foot of its last sheet goes there, instead of on a sheet of its own and
its blank back.

The pawns (fold-over standees, printed on one side) of a small game take a sheet and a blank back for
4 figures, while the cards' last sheet holds 3 cards and leaves 187 mm empty: the pawn block moves
under those cards, its crop marks with it. The cards' backs page is unchanged — the pawns' place on it
is blank, as a one-sided piece's back is — so every back still lands on its front. Only kit.pdf shares
(the part files stay as they are: a user printing pawns.pdf alone gets them alone), and not where
cards-ink-saver.pdf is offered instead of the kit's card pages: it would not carry the pawns.
"""

from __future__ import annotations

from dataclasses import replace

from generator.imposition.sheet import Page
from generator.print_facts import PRINTABLE_MARGIN

MARK_ROOM = 8.0       # mm around a part's pieces that their crop marks take (they start 2.5 mm out, 5 mm long)
GUESTS = (("pawns", "cards"),)        # (one-sided part, the double-sided part whose last sheet it may join)


def share_sheets(sections: dict[str, list[Page]], keep: frozenset[str] = frozenset()) -> dict[str, list[Page]]:
    """The kit's sections with each GUESTS part moved onto its host's last fronts page where it fits (and
    dropped from the sections); `keep` names hosts whose pages must stay as they are."""
    shared = dict(sections)
    for guest, host in GUESTS:
        pages, hosts = shared.get(guest, []), shared.get(host, [])
        if len(pages) != 1 or not hosts or host in keep:
            continue
        fronts = [index for index, page in enumerate(hosts) if "fronts" in page.label]
        if not fronts:
            continue
        joined = _joined(hosts[fronts[-1]], pages[0])
        if joined is not None:
            shared[host] = [*hosts[:fronts[-1]], joined, *hosts[fronts[-1] + 1:]]
            del shared[guest]
    return shared


def _joined(host: Page, guest: Page) -> Page | None:
    """The host page with the guest page's pieces and their marks under its own, or None where they do not
    fit above the printable margin (the guest's scale bar is left behind: its part starts on no page)."""
    if not host.placements or not guest.placements:
        return None
    top = min(placement.y for placement in guest.placements) - MARK_ROOM
    bottom = max(placement.y + placement.face.height for placement in guest.placements) + MARK_ROOM
    taken = max(placement.y + placement.face.height for placement in host.placements) + MARK_ROOM
    if taken + (bottom - top) > host.height - PRINTABLE_MARGIN:
        return None
    shift = taken - top
    placements = tuple(replace(placement, y=placement.y + shift,
                               clip=(placement.clip[0], placement.clip[1] + shift, *placement.clip[2:]))
                       for placement in guest.placements)
    marks = tuple(replace(mark, y=mark.y + shift) for mark in guest.marks
                  if top <= getattr(mark, "y", top - 1) <= bottom)
    return replace(host, placements=host.placements + placements, marks=host.marks + marks)
