"""Content problems in compiler form, collected rather than raised one at a time."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class SourceMark:
    """Where a value came from: a file and a 1-based line and column."""

    file: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        where = display_path(self.file)
        if self.line:
            return f"{where}:{self.line}:{self.column}"
        return where


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
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
        tail = f"\n    hint: {self.hint}" if self.hint else ""
        label = "" if self.severity == "error" else f"{self.severity}: "
        return f"{head}{label}{self.message}{tail}"


@dataclass
class Problems:
    """Collects every problem found in one run so the user sees them all at once."""

    items: list[Problem] = field(default_factory=list)

    def add(self, mark: SourceMark | None, message: str, hint: str = "") -> None:
        self._record(Problem(mark, message, hint))

    def warn(self, mark: SourceMark | None, message: str, hint: str = "") -> None:
        self._record(Problem(mark, message, hint, severity="warning"))

    def _record(self, problem: Problem) -> None:
        # Layout runs once per edition × language: a mistake in a template or in
        # cards.yaml is found by each run, but the user should read it once.
        if problem not in self.items:
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
