"""Parts of the kit that share a sheet of card stock (issue 29): a part that fits in the room a
double-sided part leaves at the foot of its last sheet goes there, instead of on a sheet of its own —
a one-sided part (pawns) with its blank back, a double-sided one (tokens) with its backs page, whose
backs then join the host's backs page where they land on their fronts.

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
# (guest part, the double-sided part whose last sheet it may join), in the order they are tried: the
# pawns (one-sided) first, then the tokens (double-sided: their backs join the host's backs page)
GUESTS = (("pawns", "cards"), ("tokens", "cards"))


def share_sheets(sections: dict[str, list[Page]], keep: frozenset[str] = frozenset(),
                 duplex: str = "long-edge") -> dict[str, list[Page]]:
    """The kit's sections with each GUESTS part moved onto its host's last fronts page where it fits (and
    dropped from the sections): a one-sided part (one page), or a double-sided one (a fronts page and its
    backs page), whose backs then go on the host's backs page, mirrored as the sheet flips (`duplex`);
    `keep` names hosts whose pages must stay as they are."""
    shared = dict(sections)
    for guest, host in GUESTS:
        pages, hosts = shared.get(guest, []), shared.get(host, [])
        if not pages or not hosts or host in keep:
            continue
        fronts = [index for index, page in enumerate(hosts) if "fronts" in page.label]
        if not fronts:
            continue
        last = fronts[-1]
        if (pages[0].width, pages[0].height) != (hosts[last].width, hosts[last].height):
            continue            # (a landscape sheet for a cutting machine beside a portrait one)
        if len(pages) == 1 and "backs" not in pages[0].label:
            joined = _joined(hosts[last], pages[0])
            if joined is not None:
                shared[host] = [*hosts[:last], joined, *hosts[last + 1:]]
                del shared[guest]
        elif (len(pages) == 2 and "fronts" in pages[0].label and "backs" in pages[1].label
              and last + 1 < len(hosts) and "backs" in hosts[last + 1].label):
            joined = _joined(hosts[last], pages[0])
            if joined is not None:
                shift = joined.placements[len(hosts[last].placements)].y - pages[0].placements[0].y
                # a long-edge flip keeps a piece's height on the sheet, a short-edge one turns it over
                backs = _moved(hosts[last + 1], pages[1], shift if duplex != "short-edge" else -shift)
                shared[host] = [*hosts[:last], joined, backs, *hosts[last + 2:]]
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
    marks = tuple(replace(mark, y=mark.y + shift) for mark in guest.marks
                  if top <= getattr(mark, "y", top - 1) <= bottom)
    return replace(_moved(host, replace(guest, marks=()), shift), marks=host.marks + marks)


def _moved(host: Page, guest: Page, shift: float) -> Page:
    """The host page with the guest page's pieces (and marks) added, moved `shift` mm down the page."""
    placements = tuple(replace(placement, y=placement.y + shift,
                               clip=(placement.clip[0], placement.clip[1] + shift, *placement.clip[2:]))
                       for placement in guest.placements)
    marks = tuple(replace(mark, y=mark.y + shift) for mark in guest.marks if hasattr(mark, "y"))
    return replace(host, placements=host.placements + placements, marks=host.marks + marks)
