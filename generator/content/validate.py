"""Run a schema over located YAML data and turn pydantic's errors into located problems."""

from __future__ import annotations

import difflib
from collections import Counter
from types import MappingProxyType
from typing import Any, Sequence, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from generator.content.schema import BOX_KINDS, LANG_PATTERN, BoxBase, UnknownBoxKind, box_keys, box_tag
from generator.content.yaml_source import YamlDocument
from generator.errors import ECHOED_ITEMS, Problems, SourceMark, abridged
from generator.units import OutOfRange

Model = TypeVar("Model", bound=BaseModel)

# pydantic puts union members and tags in the error path; they are not YAML keys.
_NOT_KEYS = frozenset({"int", "str", "float", "bool", "list", "dict", "function-after", "function-before",
                       "constrained-int", "function-plain", "literal", "none", "is-instance"})


def _is_branch(part: Any) -> bool:
    return isinstance(part, str) and (part in _NOT_KEYS or "[" in part)


def yaml_path(loc: Sequence[Any]) -> tuple[str | int, ...]:
    """Drop pydantic's union-branch names so a location becomes a path in the YAML data."""
    return tuple(part for part in loc if not _is_branch(part))


def _one_branch_per_union(errors: list[ErrorDetails]) -> list[ErrorDetails]:
    """Keep the errors of one union member: a value that fits none gets one error per member.

    `count: three` would otherwise also say 'Input should be a valid dictionary'.
    The member kept is the one the value was meant for: the first whose error lies
    inside the value (`count: {deluxe: 0}` is a mapping with a bad number), else the first.
    """
    chosen: dict[tuple[Any, ...], Any] = {}
    deep: set[tuple[Any, ...]] = set()
    for error in errors:
        loc = tuple(error["loc"])
        at = _first_branch(loc)
        if at is None:
            continue
        union, member = loc[:at], loc[at]
        if union not in chosen or (len(loc) > at + 1 and union not in deep):
            chosen[union] = member
        if len(loc) > at + 1:
            deep.add(union)
    kept = []
    for error in errors:
        loc = tuple(error["loc"])
        at = _first_branch(loc)
        if at is None or chosen[loc[:at]] == loc[at]:
            kept.append(error)
    return kept


def _first_branch(loc: tuple[Any, ...]) -> int | None:
    """Where the first union with several candidate members is in an error's path (a box's kind tag
    picks one member, so it is none)."""
    return next((i for i, part in enumerate(loc) if _is_branch(part) and part not in _BOX_TAGS), None)


def describe(loc: Sequence[Any]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


_BOX_TAGS = MappingProxyType({box_tag(kind): kind for kind in BOX_KINDS})


def _box_kind_in(loc: Sequence[Any]) -> str | None:
    """The kind of the box an error lies in (pydantic names the union member in its path), or None."""
    return next((_BOX_TAGS[part] for part in reversed(loc) if part in _BOX_TAGS), None)


def _unknown_box_key(box_kind: str, key: Any) -> tuple[str, str]:
    """A key the box's kind does not take: name that kind's own keys, and the kinds that do take it."""
    own = [name for name in box_keys(box_kind) if name not in BoxBase.model_fields]
    takers = sorted(kind for kind, model in BOX_KINDS.items() if key in model.model_fields)
    elsewhere = f"; `{key}` belongs to {' and '.join(f'{kind} boxes' for kind in takers)}" if takers else ""
    close = difflib.get_close_matches(str(key), box_keys(box_kind), n=1) if not takers else []
    return (f"unknown key for a {box_kind} box",
            (f"did you mean `{close[0]}`? " if close else "")
            + f"a {box_kind} box takes {', '.join(own) or 'no keys of its own'} (and every box: "
            f"{', '.join(BoxBase.model_fields)}){elsewhere}")


def _message(error: ErrorDetails) -> tuple[str, str]:
    kind = error["type"]
    value = error.get("input")
    if kind == "extra_forbidden":
        box_kind = _box_kind_in(error["loc"])
        if box_kind is not None:
            return _unknown_box_key(box_kind, error["loc"][-1])
        return "unknown key", "check the spelling; `pnp schema` lists the keys this file accepts"
    if kind == "union_tag_not_found":       # a box that is not a mapping (its kind is checked first)
        return f"expected a mapping of keys (key: value), got {abridged(value)}", ""
    if any(part in ("when", "unless") for part in error["loc"]):    # one message for every union branch
        return (f"a condition is '@field' or {{'@field': value}} (or a list of values), got {abridged(value)}",
                "such as when: '@emblem' or when: {'@kind': [city, lake]}")
    if kind == "missing":
        return "required key is missing", "add it"
    if kind in ("greater_than", "int_type", "int_parsing", "int_from_float") and "count" in str(error["loc"]):
        return f"expected a positive whole number, got {abridged(value)}", "write a count such as 3"
    if kind == "less_than_equal" and "count" in str(error["loc"]):
        return (f"{abridged(value)} copies is more than the {error['ctx']['le']:,} a card may have",
                "split the card, or check for a typo")
    if kind == "greater_than":
        return f"expected a number greater than {error['ctx']['gt']}, got {abridged(value)}", ""
    if kind == "string_pattern_mismatch" and error["ctx"]["pattern"] == LANG_PATTERN:
        return f"{abridged(value)} is not a language code", "use a code such as en, bg or pt-BR"
    if kind == "string_pattern_mismatch":
        return (f"{abridged(value)} is not a valid identifier",
                "use lower-case letters, digits, '-' and '_', starting with a letter or digit")
    if kind in ("model_type", "dict_type"):
        return f"expected a mapping of keys (key: value), got {abridged(value)}", ""
    if kind == "too_long":            # editions, languages: each one a target built in full
        limits = error["ctx"]     # counted here: pydantic-core ≥ 2.50 stops a mapping early (actual_length None)
        given = len(value) if isinstance(value, (dict, list, tuple)) else limits.get("actual_length") or 0
        return (f"{given:,} given, at most {limits['max_length']:,} allowed",
                f"no game needs more than {limits['max_length']:,}: split the game into several game folders, "
                "or check for a typo")
    if kind in ("float_parsing", "float_type"):
        return f"expected a number, got {abridged(value)}", "write a number such as 1.5"
    if kind == "list_type":
        return f"expected a list such as [a, b], got {abridged(value)}", ""
    if kind == "string_type":
        return f"expected text, got {abridged(value)}", "put it in quotes if YAML reads it as something else"
    if kind == "literal_error":
        return f"got {abridged(value)}, expected {error['ctx']['expected']}", ""
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, UnknownBoxKind) and cause.kind is None:
        return "required key is missing", cause.hint
    if isinstance(cause, OutOfRange):                  # a number outside its range: say the range and why
        return str(cause), cause.hint
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    return f"{message} (got {abridged(value)})" if kind.endswith("_type") else message, ""


def validate(model: type[Model], data: Any, document: YamlDocument, problems: Problems,
             documents: Sequence[YamlDocument] = ()) -> Model | None:
    """Validate data; record every error at its source mark; return the model or None.

    `documents` are further files the data was merged from (template parents): an
    error is reported in the first of document, *documents that wrote that path.
    """
    try:
        return model.model_validate(data)
    except ValidationError as failure:
        _report(_one_branch_per_union(failure.errors()), [document, *documents], problems)
        return None


def _report(errors: list[ErrorDetails], documents: Sequence[YamlDocument], problems: Problems) -> None:
    """Each error at its source mark; the bad items of one long list as the first few and a count
    (100,000 bad items of a dash pattern were 100,000 lines)."""
    paths = [_error_path(error) for error in errors]
    in_list = Counter(_list_of(path, error) for path, error in zip(paths, errors, strict=True))
    said: Counter = Counter()
    seen: set[tuple[SourceMark, str]] = set()
    for path, error in zip(paths, errors, strict=True):
        message, hint = _message(error)
        group = _list_of(path, error)
        if group is not None and in_list[group] > 2 * ECHOED_ITEMS:
            said[group] += 1
            if said[group] == in_list[group]:
                problems.add(_locate(group[0], False, documents),
                             f"{describe(group[0])}: {in_list[group] - ECHOED_ITEMS:,} more entries like these", hint)
            if said[group] > ECHOED_ITEMS:
                continue
        mark = _locate(path, error["type"] == "extra_forbidden", documents)
        text = f"{describe(path)}: {message}"
        if (mark, text) not in seen:  # a union reports one bad value once per branch
            seen.add((mark, text))
            problems.add(mark, text, hint)


def _error_path(error: ErrorDetails) -> tuple[str | int, ...]:
    path = yaml_path(error["loc"])
    if isinstance((error.get("ctx") or {}).get("error"), UnknownBoxKind):
        path += ("kind",)          # said at the box's kind (at the box when it has none)
    return path


def _list_of(path: tuple[str | int, ...], error: ErrorDetails) -> tuple | None:
    """(the list's path, the error's kind) for an error in an item of a list, else None."""
    return (path[:-1], error["type"]) if path and isinstance(path[-1], int) else None


def _locate(path: tuple[str | int, ...], is_key: bool, documents: Sequence[YamlDocument]) -> SourceMark:
    for document in documents:
        if path in document.marks:
            return document.key_mark(path) if is_key else document.marks[path]
    # the deepest ancestor any document knows
    for depth in range(len(path), -1, -1):
        for document in documents:
            if path[:depth] in document.marks:
                return document.marks[path[:depth]]
    return SourceMark(documents[0].file, 1, 1)
