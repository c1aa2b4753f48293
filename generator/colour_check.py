"""`pnp check --preflight`'s colour-vision check over laid-out games (the model: colour_vision.py).

Each edition's sets (cards, tokens, pawns: their distinct fronts) and each board's spaces are compared;
a pair that differs only by colour and that one view sees too close is a warning at the piece (or the
board) where it is written, naming the pieces, the template, the view and the ΔE00; a pair game.yaml's
`told_apart` defends is said as accepted, with its reason. Colours do not change with the language: one
language of each edition is laid out (the first the options leave).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.colour_vision import TOO_CLOSE, ColourOnlyPair, cells_looks, colour_only_pairs, look
from generator.content.game import GameSource
from generator.errors import Problems, SourceMark
from generator.targets import Target

PIECE_KINDS = ("cards", "tokens", "pawns")


@dataclass
class ColourReport:
    """What the check found: warnings in `problems`, accepted pairs as lines."""

    problems: Problems = field(default_factory=Problems)
    accepted: list[str] = field(default_factory=list)
    compared: int = 0          # sets and cells boxes looked at


def check_colours(targets: list[Target]) -> ColourReport:
    report = ColourReport()
    seen: set[tuple[str, str]] = set()
    for target in targets:
        if (target.source.id, target.edition) in seen:      # one language of each edition
            continue
        seen.add((target.source.id, target.edition))
        _check_target(target, report)
    return report


def _check_target(target: Target, report: ColourReport) -> None:
    source = target.source
    defended = {(entry.set, entry.board): entry.because for entry in source.game.told_apart}
    names = {value.lower(): name for name, value in reversed(source.game.palette.items())}
    _unknown_defences(source, target, report)
    for kind in PIECE_KINDS:
        for laid_out in target.sets.get(kind, []):
            fronts = {copy.card: copy.front for copy in laid_out.copies}
            report.compared += 1
            pairs = colour_only_pairs(f"{_singular(kind)} set '{laid_out.id}'",
                                      [(card, look(front)) for card, front in fronts.items()])
            template = _set_template(source, kind, laid_out.id)
            for pair in pairs:
                because = defended.get((laid_out.id, None))
                mark = _piece_mark(source, kind, laid_out.id, pair.first)
                _say(report, pair, mark, f"template '{template}'", because, names)
    for board in target.boards:
        template = _board_template(source, board.id)
        for box, spaces in cells_looks(board.face):
            report.compared += 1
            for pair in colour_only_pairs(f"board '{board.id}', cells box '{box}'", spaces):
                because = defended.get((None, board.id))
                _say(report, pair, _board_mark(source, board.id), f"template '{template}'", because, names)


def _say(report: ColourReport, pair: ColourOnlyPair, mark: SourceMark, template: str, because: str | None,
         names: dict[str, str]) -> None:
    more = f" (and {pair.more} more pair(s) in these colours)" if pair.more else ""
    seen = (f"{pair.where}: '{pair.first}' and '{pair.second}'{more} differ only by colour ({template}), and "
            f"{pair.view} sees {_named(pair.colours[0], names)} and {_named(pair.colours[1], names)} "
            f"ΔE00 {pair.difference:.1f} apart "
            f"(less than {TOO_CLOSE:g})")
    if because is not None:
        report.accepted.append(f"{mark}: accepted: {seen}; told apart: {because}")
        return
    report.problems.warn(mark, seen,
                         "print something besides the colour that tells them apart (a name, a symbol, a shape), "
                         "or move the colours apart; game.yaml's told_apart: [{set: ..., because: ...}] "
                         "defends a pair players tell apart otherwise")


def _named(colour: str, names: dict[str, str]) -> str:
    """'#f07d16 (orange)': the colour and its palette name, where game.yaml's palette has it."""
    name = names.get(colour.lower())
    return f"{colour} ({name})" if name else colour


def _unknown_defences(source: GameSource, target: Target, report: ColourReport) -> None:
    sets = {laid_out.id for kind in PIECE_KINDS for laid_out in target.sets.get(kind, [])}
    boards = {board.id for board in target.boards}
    for index, entry in enumerate(source.game.told_apart):
        if (entry.set is not None and entry.set not in sets) or (entry.board is not None and entry.board not in boards):
            named = f"set '{entry.set}'" if entry.set is not None else f"board '{entry.board}'"
            known = f"sets: {', '.join(sorted(sets)) or 'none'}; boards: {', '.join(sorted(boards)) or 'none'}"
            report.problems.warn(source.game_document.mark(("told_apart", index)),
                                 f"told_apart names {named}, which this edition does not have", known)


def _singular(kind: str) -> str:
    return {"cards": "card", "tokens": "token", "pawns": "pawn"}[kind]


def _set_template(source: GameSource, kind: str, set_id: str) -> str:
    found = source.pieces[kind].find(set_id) if kind in source.pieces else None
    return found[1].template if found else "?"


def _piece_mark(source: GameSource, kind: str, set_id: str, piece_id: str) -> SourceMark:
    piece_file = source.pieces[kind]
    found = piece_file.find(set_id)
    if found is None:
        return source.game_document.mark()
    set_index, piece_set = found
    for index, piece in enumerate(piece_set.items):
        if piece.id == piece_id:
            return piece_file.mark(set_index, piece_set.ITEMS, index)
    return piece_file.mark(set_index)


def _board_template(source: GameSource, board_id: str) -> str:
    for board in source.boards.boards if source.boards else ():
        if board.id == board_id:
            return board.template
    return "?"


def _board_mark(source: GameSource, board_id: str) -> SourceMark:
    if source.boards is None or source.boards_document is None:
        return source.game_document.mark()
    for index, board in enumerate(source.boards.boards):
        if board.id == board_id:
            return source.boards_document.mark(("boards", index))
    return source.boards_document.mark()
