"""Read YAML safely and remember where every value came from.

PyYAML keeps positions only on nodes, so the document is composed into nodes and
then turned into plain Python values by hand, recording a SourceMark for every
path. On the way, duplicate keys are rejected (PyYAML silently keeps the last)
and only true/false are booleans (YAML 1.1 would turn `no` into False). Numbers
are plain decimals: YAML 1.1 would read `12:30` as 750 and `0123` as 83.

Hostile files are bounded before the document is composed: nesting deeper than
MAX_DEPTH (libyaml's composer recurses and crashes the interpreter at ~100,000
levels) and more than MAX_VALUES values (10 MB of `[1,1,…]` took 5.6 GB as nodes)
are refused; and aliases may not expand a document past MAX_ALIAS_VALUES (a 1 KB
"billion laughs" file would otherwise expand to gigabytes).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from generator.input_files import FileRefused, read_text_file
from generator.errors import Problems, SourceMark, abridged

Path_ = tuple[str | int, ...]

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BOOL_TAG = "tag:yaml.org,2002:bool"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
MAX_DEPTH = 64                  # real content nests 8 deep
MAX_VALUES = 250_000            # values written in one file: a 10,000-card deck is ~70,000
MAX_ALIAS_VALUES = 100_000      # values produced by expanding *aliases, per file


class _StrictLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe loader whose only booleans are true and false, and whose numbers are decimal."""

    # PyYAML's table of implicit resolvers (first character → [(tag, pattern)]), a dict its
    # add_implicit_resolver extends below: the safe loader's, without its booleans and numbers
    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in (_BOOL_TAG, _INT_TAG, _FLOAT_TAG)]
        for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
    }

    def resolve(self, kind, value, implicit):
        """The tag of a value written without one: PyYAML's own rule (the first implicit resolver
        of the value's first character that matches, else str, seq or map), without its path
        resolvers, which this loader has none of. libyaml's composer asks once per value (~20,000
        times for a 1,000-card deck): PyYAML's general version cost ~3 ms more of a build."""
        if kind is _ScalarNode:
            if implicit[0]:
                for tag, pattern in _IMPLICIT.get(value[:1], ()):
                    if pattern.match(value):
                        return tag
            return _STR_TAG
        return _SEQ_TAG if kind is _SequenceNode else _MAP_TAG

    def descend_resolver(self, current_node, current_index):
        """Path resolvers only (none here): nothing to track as the composer goes down and up."""

    def ascend_resolver(self):
        """See descend_resolver."""


_StrictLoader.add_implicit_resolver(
    _BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
# Without sexagesimal (12:30), octal (0123), binary, hex or underscores: those stay text. So does a run
# of more than 100 digits: no game's number has that many, and Python converts at most 4,300 of them.
_MAX_INT_DIGITS = 100
_StrictLoader.add_implicit_resolver(
    _INT_TAG, re.compile(r"^[-+]?(?:0|[1-9][0-9]{0,%d})$" % (_MAX_INT_DIGITS - 1)), list("-+0123456789")
)
_StrictLoader.add_implicit_resolver(
    _FLOAT_TAG,
    re.compile(r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?"
               r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."),
)
# first character → ((tag, pattern), ...); '' for the empty value: the table above, complete, frozen
_IMPLICIT = MappingProxyType({first: tuple(resolvers)
                              for first, resolvers in _StrictLoader.yaml_implicit_resolvers.items()})
assert None not in _IMPLICIT and not _StrictLoader.yaml_path_resolvers, "resolve() has no wildcard or path resolvers"
_ScalarNode, _SequenceNode = yaml.ScalarNode, yaml.SequenceNode
_MERGE_TAGS = ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value")     # the keys flatten_mapping rewrites
_STR_TAG, _SEQ_TAG, _MAP_TAG = (_StrictLoader.DEFAULT_SCALAR_TAG, _StrictLoader.DEFAULT_SEQUENCE_TAG,
                                _StrictLoader.DEFAULT_MAPPING_TAG)


class MarkTable(Mapping):
    """SourceMarks by path, kept as (line, column) until one is asked for.

    A 1,000-card deck has ~20,000 values and keys; a build reads a few dozen of their marks.
    """

    def __init__(self, file: Path):
        self.file = file
        self.positions: dict[Path_, tuple[int, int]] = {}

    def __getitem__(self, path: Path_) -> SourceMark:
        line, column = self.positions[path]
        return SourceMark(self.file, line, column)

    def __contains__(self, path: object) -> bool:
        return path in self.positions

    def __iter__(self):
        return iter(self.positions)

    def __len__(self) -> int:
        return len(self.positions)


@dataclass
class YamlDocument:
    """A YAML file's data and the source mark of each value, keyed by its path."""

    file: Path
    data: Any
    marks: MarkTable = field(init=False)

    def __post_init__(self):
        self.marks = MarkTable(self.file)

    def mark(self, path: Path_ = ()) -> SourceMark:
        """The mark of the value at path, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path and path not in self.marks:
            path = path[:-1]
        return self.marks.get(path, SourceMark(self.file, 1, 1))

    def key_mark(self, path: Path_) -> SourceMark:
        """The mark of a mapping key itself (where an unknown key is written)."""
        return self.marks.get(("<key>",) + tuple(path), self.mark(path))


def load_yaml(file: Path, problems: Problems, root: Path | None = None) -> YamlDocument | None:
    """Parse one YAML file, which must lie inside `root` (default: its own folder);
    on failure record located problems and return None."""
    try:
        text = read_text_file(file, root or file.parent)
    except FileRefused as error:
        problems.add(SourceMark(file, *(error.position or ())), str(error), error.hint)
        return None
    return parse_yaml(text, file, problems)


def parse_yaml(text: str, file: Path, problems: Problems) -> YamlDocument | None:
    try:
        return _parse(text, file, problems)
    except _OverLimit as error:
        problems.add(SourceMark(file, *error.position), error.message, error.hint)
        return None


def _parse(text: str, file: Path, problems: Problems) -> YamlDocument | None:
    try:
        if _may_be_too_large(text):
            _check_shape(text)
        loader = _StrictLoader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as error:     # a character YAML refuses: it carries a byte offset, no line
        problems.add(_character_mark(text, file, chr(error.character)),
                     f"YAML does not allow the character {_named(chr(error.character))} anywhere in a file",
                     "delete it (editors often show it as nothing or a box); in a double-quoted text an "
                     "escape such as \\x07 writes it")
        return None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = SourceMark(file, mark.line + 1, mark.column + 1) if mark else SourceMark(file)
        if "nesting depth" in (error.problem or ""):     # libyaml ≥ 0.2.5's own cap, met before ours
            raise _too_deep((where.line, where.column)) from None
        hint = ("indent with spaces only: YAML does not allow tabs there" if "tab" in (error.problem or "")
                else "check indentation, colons and quotes around this place")
        problems.add(where, f"YAML syntax: {error.problem or error.context}{_opened_at(error)}", hint)
        return None
    except yaml.YAMLError as error:
        problems.add(SourceMark(file), f"YAML error: {error}")
        return None
    document = YamlDocument(file, None)
    if node is None:
        document.data = {}
        return document
    try:
        document.data = _Converter(document, loader, problems).value(node, ())
    except yaml.MarkedYAMLError as error:   # a value no safe constructor builds ('=', '!!python/…')
        mark = error.problem_mark or error.context_mark
        where = SourceMark(file, mark.line + 1, mark.column + 1) if mark else SourceMark(file)
        problems.add(where, f"YAML value not allowed: {error.problem or error.context}",
                     "quote the value to make it text")
        return None
    return document


class _OverLimit(Exception):
    """A bound of this module met at a position: the whole file is refused with one message."""

    def __init__(self, position: tuple[int, int], message: str, hint: str):
        self.position, self.message, self.hint = position, message, hint


def _too_deep(position: tuple[int, int]) -> _OverLimit:
    return _OverLimit(position, f"lists and mappings nested more than {MAX_DEPTH} deep",
                      "no game file needs that many levels: check the brackets and indentation here")


def _too_many_values(position: tuple[int, int]) -> _OverLimit:
    return _OverLimit(position, f"more than {MAX_VALUES:,} values in one file",
                      "no game needs that many (a 10,000-card deck is about 70,000): "
                      "check that this is the file you meant")


def _too_many_alias_values(position: tuple[int, int]) -> _OverLimit:
    return _OverLimit(position, f"the aliases (*name) here expand to more than {MAX_ALIAS_VALUES:,} values",
                      "write the values out, or repeat them with `count:` instead of nested aliases")


_OPENING_EVENTS = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSING_EVENTS = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
_VALUE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, *_OPENING_EVENTS)


# What libyaml's composer survives: it recursed 10,000 levels deep here, and crashed at 100,000.
_SAFE_COMPOSER_DEPTH = 5_000


def _may_be_too_large(text: str) -> bool:
    """Whether the text could hold more than MAX_VALUES values or nest past what libyaml composes.

    A value takes at least two characters (`1,`), and a level of nesting a bracket or, in
    block style, at most two levels per column of indentation; text below both bounds is
    composed directly and its depth checked as it is converted (the event pass costs ~10 %
    of a big deck's parse).
    """
    if len(text) > 2 * MAX_VALUES:
        return True
    longest_line = max(map(len, text.splitlines()), default=0)
    return text.count("[") + text.count("{") + 2 * longest_line > _SAFE_COMPOSER_DEPTH


def _check_shape(text: str) -> None:
    """Walk the parser's events (libyaml keeps its own stack on the heap) before composing:
    depth and the number of values, so neither a deep nor a huge file ever becomes nodes."""
    parser = _BaseLoader(text)
    depth = values = 0
    try:
        while (event := parser.get_event()) is not None:
            if isinstance(event, _VALUE_EVENTS):
                values += 1
                if values > MAX_VALUES:
                    raise _too_many_values(_position(event))
                if isinstance(event, _OPENING_EVENTS):
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise _too_deep(_position(event))
            elif isinstance(event, _CLOSING_EVENTS):
                depth -= 1
            elif isinstance(event, yaml.StreamEndEvent):
                return
    finally:
        parser.dispose()


# An unclosed bracket or quote is found only where the parser gives up, often a
# line later: name where it was opened, which is where the fix goes.
_OPENED = MappingProxyType({"while parsing a flow sequence": "the list", "while parsing a flow mapping": "the mapping",
                            "while scanning a quoted scalar": "the quoted text"})


def _character_mark(text: str, file: Path, character: str) -> SourceMark:
    """Where the first `character` of the text is: the reader stops at the first character it
    refuses, so that is the one, wherever libyaml's offset (bytes, not characters) points."""
    index = text.find(character)
    if index < 0:
        return SourceMark(file)
    line_start = text.rfind("\n", 0, index) + 1
    return SourceMark(file, text.count("\n", 0, index) + 1, index - line_start + 1)


def _named(character: str) -> str:
    """A character as a message names it: U+0000 (as Python escapes it, '\\x00')."""
    return f"U+{ord(character):04X} ({character.encode('unicode_escape').decode('ascii')})"


def _opened_at(error: yaml.MarkedYAMLError) -> str:
    what = _OPENED.get(error.context or "")
    mark = error.context_mark
    if what is None or mark is None or not error.problem:
        return ""
    return f" (in {what} opened at line {mark.line + 1}, column {mark.column + 1})"


def _position(node: yaml.Node | yaml.Event) -> tuple[int, int]:
    """1-based line and column where the node (or event) starts."""
    mark = node.start_mark
    assert mark is not None, "the parser marks every node and event it makes"
    return mark.line + 1, mark.column + 1


def _mark_of(node: yaml.Node, file: Path) -> SourceMark:
    return SourceMark(file, *_position(node))


class _Converter:
    """Nodes to plain values, recording each value's position by its path.

    An alias is the same node object met again: what it expands to is counted, and a
    file whose aliases expand past MAX_ALIAS_VALUES is refused where that happens.
    """

    def __init__(self, document: YamlDocument, loader: Any, problems: Problems):
        self.document, self.loader, self.problems = document, loader, problems
        self.positions = document.marks.positions
        self.composed: set[int] = set()      # ids of collection nodes already converted once
        self.alias_depth = 0                  # > 0 while expanding an alias
        self.alias_values = 0
        self.alias_site = (1, 1)              # where the outermost alias being expanded is used

    def value(self, node: yaml.Node, path: Path_) -> Any:
        if node.__class__ is _ScalarNode:        # most values: what _scalar and _position do, inline
            if self.alias_depth:
                self._count(node)
            start = node.start_mark
            self.positions[path] = (start.line + 1, start.column + 1)
            read = _PLAIN_SCALARS.get(node.tag)
            if read is not None and (read is not int or len(node.value) <= _MAX_INT_DIGITS):
                return read(node.value)
            return _scalar(node, self.loader)       # an explicit !!int of any length too
        if not isinstance(node, yaml.CollectionNode):
            self._count(node)
            self.positions[path] = _position(node)
            return _scalar(node, self.loader)
        if len(path) >= MAX_DEPTH:
            raise _too_deep(_position(node))
        again = id(node) in self.composed
        self.composed.add(id(node))
        if again and not self.alias_depth:
            # an alias node carries its anchor's position; the collection holding it is where it is used
            self.alias_site = self.positions.get(path[:-1], _position(node))
        self.alias_depth += again
        try:
            self._count(node)
            self.positions[path] = _position(node)
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            return [self.value(item, path + (index,)) for index, item in enumerate(node.value)]
        finally:
            self.alias_depth -= again

    def _count(self, node: yaml.Node) -> None:
        if self.alias_depth:
            self.alias_values += 1
            if self.alias_values > MAX_ALIAS_VALUES:
                raise _too_many_alias_values(self.alias_site)

    def _mapping(self, node: yaml.MappingNode, path: Path_) -> dict[str, Any]:
        document, problems = self.document, self.problems
        if any(key_node.tag in _MERGE_TAGS for key_node, _ in node.value):
            self.loader.flatten_mapping(node)  # YAML merge keys (<<: *anchor), and '=' read as a key
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.__class__ is _ScalarNode and key_node.tag == _STR_TAG:
                key = key_node.value                           # most keys: a plain name
            elif not isinstance(key_node, yaml.ScalarNode):     # never expanded: it may be an alias bomb
                problems.add(_mark_of(key_node, document.file), "a key must be a name, got a list or mapping")
                continue
            else:
                key = _scalar(key_node, self.loader)
                if not isinstance(key, (str, int)):
                    problems.add(_mark_of(key_node, document.file), f"a key must be a name, got {key!r}")
                    continue
                key = str(key)
            if key in result:
                first = document.marks.get(("<key>",) + path + (key,))
                problems.add(_mark_of(key_node, document.file),
                             f"duplicate key '{key}'" + (f" (first at line {first.line})" if first else ""),
                             "remove or rename one of them; YAML would silently keep only the last")
                continue
            self.positions[("<key>",) + path + (key,)] = _position(key_node)
            result[key] = self.value(value_node, path + (key,))
        return result


# The common scalars are read straight from the node (a 1,000-card deck has ~10,000 of
# them); anything else (timestamps, '=' and '!!python' tags) goes through PyYAML's safe
# constructor, which refuses what it does not know.
_PLAIN_SCALARS: Mapping[str, Callable[[str], Any]] = MappingProxyType({
    "tag:yaml.org,2002:str": lambda value: value,
    _INT_TAG: int,
    _BOOL_TAG: lambda value: value.lower() == "true",
    "tag:yaml.org,2002:null": lambda value: None,
})


def _scalar(node: yaml.Node, loader: Any) -> Any:
    read = _PLAIN_SCALARS.get(node.tag) if isinstance(node, yaml.ScalarNode) else None
    try:
        if read is None:
            return loader.construct_object(node, deep=True)
        return read(node.value)
    except ValueError:                    # an explicit !!int of 5,000 digits: Python refuses to convert it
        raise _OverLimit(_position(node), f"{abridged(node.value)} cannot be read as the "
                                          f"{node.tag.rsplit(':', 1)[-1]} its tag says",
                         "write the number out with fewer digits, or quote it to make it text") from None
