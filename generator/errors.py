"""Content problems in compiler form, collected rather than raised one at a time."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

# C0 and C1 controls, DEL, the line and paragraph separators (U+2028, U+2029), the invisible
# format characters (zero-width spaces and joiners, bidirectional marks and overrides, the BOM)
# and lone surrogates: catalog text and file names are user data, and a raw ESC or U+202E in a
# message would rewrite the user's terminal line, a U+2028 break it where no line ends.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028-\u202e"
                          "\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]")

ECHOED_ITEMS = 3       # a list in a message: its first few items, then how many more
ECHOED_CHARS = 80      # a text in a message: its first characters, then how many more


def printable(text: str) -> str:
    """Text safe to print on a terminal: every control character written as an escape."""
    return _UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


# A run this long without a space is a value a message echoes (a 5,000-digit key, a pasted blob), not words:
# it is cut where a message is printed, so no message site has to remember to abridge what it echoes.
_LONG_RUN = re.compile(r"\S{%d,}" % (4 * ECHOED_CHARS))


def _runs_cut(text: str) -> str:
    return _LONG_RUN.sub(lambda match: match.group()[:ECHOED_CHARS] + _more_characters(match.group()), text)


def _more_characters(text: str) -> str:
    """What follows the start of a text cut to ECHOED_CHARS: '… (4,922 more characters)'."""
    return f"… ({len(text) - ECHOED_CHARS:,} more characters)"


def abridged(value: object) -> str:
    """A value as a message echoes it (its repr), a long list or text cut to its start and how much
    more there is: a 100,000-value mistake is one readable line, not 300 KB of terminal."""
    if isinstance(value, str):
        if len(value) <= ECHOED_CHARS:
            return repr(value)
        return repr(value[:ECHOED_CHARS]) + _more_characters(value)
    if isinstance(value, dict):
        pairs = [f"{abridged(key)}: {abridged(item)}" for key, item in list(value.items())[:ECHOED_ITEMS]]
        return "{" + and_more(pairs, len(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + and_more([abridged(item) for item in value[:ECHOED_ITEMS]], len(value)) + "]"
    return repr(value)


def and_more(shown: list[str], total: int) -> str:
    """The items shown, joined, and how many of `total` are not: '1, 2, 3, … and 99,997 more'."""
    more = total - len(shown)
    return ", ".join(shown) + (f", … and {more:,} more" if more else "")


@dataclass(frozen=True)
class SourceMark:
    """Where a value came from: a file and a 1-based line and column."""

    file: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        where = printable(display_path(self.file))
        if self.line:
            return f"{where}:{self.line}:{self.column}"
        return where


def display_path(path: Path) -> str:
    """The path as the user wrote it, relative to where they stand when it is below there.

    Never resolved: a link is named as the link the user sees, not as where it leads.
    """
    try:
        return str(path.absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Problem:
    """One located message for the user, with a hint saying what to do."""

    mark: SourceMark | None
    message: str
    hint: str = ""
    severity: str = "error"

    def __str__(self) -> str:
        head = f"{self.mark}: " if self.mark else ""
        tail = f"\n    hint: {printable(_runs_cut(self.hint))}" if self.hint else ""
        label = "" if self.severity == "error" else f"{self.severity}: "
        return f"{head}{label}{printable(_runs_cut(self.message))}{tail}"


@dataclass
class Problems:
    """Collects every problem found in one run so the user sees them all at once."""

    items: list[Problem] = field(default_factory=list)
    _seen: set[Problem] = field(default_factory=set, repr=False, compare=False)

    def add(self, mark: SourceMark | None, message: str, hint: str = "") -> None:
        self._record(Problem(mark, message, hint))

    def warn(self, mark: SourceMark | None, message: str, hint: str = "") -> None:
        self._record(Problem(mark, message, hint, severity="warning"))

    def _record(self, problem: Problem) -> None:
        # Layout runs once per edition × language: a mistake in a template or in
        # cards.yaml is found by each run, but the user should read it once.
        # a set beside the list: 6,000 cards' problems took minutes with a list's `in`
        if problem not in self._seen:
            self._seen.add(problem)
            self.items.append(problem)

    def extend(self, other: "Problems") -> None:
        for problem in other.items:
            self._record(problem)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "warning"]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise ContentError(self)


class ContentError(Exception):
    """Raised at a stage boundary when the content has errors; carries all of them."""

    def __init__(self, problems: Problems):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems.errors))


class UsageError(Exception):
    """The command line asked for something that does not exist (exit status 2)."""
