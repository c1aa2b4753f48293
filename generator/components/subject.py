"""What a face is drawn for (a card, a back, a board cell) and how box values are read from it.

Box values written '@name' come from the subject's fields; these helpers look
them up, say where they are written, and resolve colours and files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from generator.caches import cached
from generator.components.context import LayoutContext
from generator.errors import SourceMark
from generator.input_files import file_signature, locate, problem_message, quoted, shown

MISSING = object()


@dataclass(frozen=True)
class Subject:
    """What a face is drawn for: its fields, and where each field is written."""

    label: str                                   # 'deck gifts, card teddy' for messages
    fields: dict[str, Any]
    field_mark: Callable[..., SourceMark]        # (field name, *path inside it) → where it is written
    cell_types: dict[str, dict[str, Any]] = field(default_factory=dict)   # for `cells` boxes


def with_game_fields(ctx: LayoutContext, fields: dict[str, Any],
                     own_mark: Callable[..., SourceMark]) -> tuple[dict[str, Any], Callable[..., SourceMark]]:
    """An item's fields over the game's shared ones (game.yaml `fields`), and where each is written."""
    shared = ctx.source.game.fields
    if not shared:
        return fields, own_mark

    def field_mark(name: str, *inside: str | int) -> SourceMark:
        if name in shared and name not in fields:
            return ctx.source.game_document.mark(("fields", name, *inside))
        return own_mark(name, *inside)
    return {**shared, **fields}, field_mark


def value_of(reference: Any, subject: Subject) -> Any:
    if isinstance(reference, str) and reference.startswith("@"):
        return subject.fields.get(reference[1:], MISSING)
    return reference


def is_present(value: Any) -> bool:
    return value is not MISSING and value not in (None, "", False, 0)


def require(reference: Any, subject: Subject, ctx: LayoutContext, mark: SourceMark, box: str) -> Any:
    value = value_of(reference, subject)
    if value is MISSING:
        report_missing_field(reference, subject, ctx, mark, f"box '{box}'")
        return None
    return value


def report_missing_field(reference: str, subject: Subject, ctx: LayoutContext, mark: SourceMark,
                         used_by: str) -> None:
    """Say (once per subject and field) that a box reads '@name' from a subject that has no such field."""
    name = reference[1:]
    if ctx.once("field", subject.label, reference):
        has = ", ".join(sorted(subject.fields)) or "none"
        ctx.problems.add(mark, f"{subject.label}: has no field '{name}', used by {used_by} (its fields: {has})",
                         f"add `{name}:` to its fields, or `when: '{reference}'` to the box")


def reference_mark(reference: Any, subject: Subject, fallback: SourceMark) -> SourceMark:
    if isinstance(reference, str) and reference.startswith("@"):
        return subject.field_mark(reference[1:])
    return fallback


def box_colour(value: str | None, palette, subject: Subject, ctx: LayoutContext, mark: SourceMark):
    resolved = value_of(value, subject)
    if resolved is MISSING or resolved is None:
        return None
    return ctx.colour(str(resolved), palette, reference_mark(value, subject, mark))


def resolve_file(ctx: LayoutContext, relative: str, mark: SourceMark) -> Path | None:
    """The art file a game refers to, checked whole, or None after reporting why it cannot be used."""
    # absolute: cached by folder, and a relative 'g' names another folder once the process moves
    folder = ctx.source.folder.absolute()
    path, problem = _locate_file(folder, relative, ctx.art.suffixes, _lookup_signature(folder, relative))
    if problem is None:
        error = ctx.art.problem(path)
        if error is None:
            return path
        message, hint = f"{shown(relative)}: {error}", error.hint
    elif problem == "suffix":
        message, hint = f"{quoted(relative)} is not SVG, PNG or JPEG art", "convert it to one of those"
    else:
        message, hint = problem_message(problem, relative), {
            "missing": f"paths are relative to the game folder ({ctx.source.folder.name}/)",
            "outside": "keep art and fonts inside the game folder, e.g. art/...",
        }.get(problem, "replace it with a regular SVG, PNG or JPEG file")
    if ctx.once("file", relative):
        ctx.problems.add(mark, message, hint)
    return None


def _lookup_signature(folder: Path, relative: str) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What changes when the file a game names does: the name's own stat (a link put in its place)
    and its target's (the file added, edited, or a link now leading elsewhere)."""
    unresolved = folder / relative
    try:
        own = os.lstat(unresolved)
    except (OSError, ValueError):
        return (), ()
    return (own.st_ino, own.st_mode, own.st_mtime_ns), file_signature(unresolved)


@cached("components.located_files", maxsize=4096, reads_files=True)
def _locate_file(game_folder: Path, relative: str, suffixes: frozenset[str],
                 signature: tuple[tuple[object, ...], tuple[object, ...]]) -> tuple[Path, str | None]:
    """The file inside the game folder (links followed), and None, or why it cannot be used.
    `signature` is only the key: the lookup is made again when the file's stat changes."""
    path, problem = locate(game_folder, relative)
    if problem is None and path.suffix.lower() not in suffixes:
        return path, "suffix"
    return path, problem
