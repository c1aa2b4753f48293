"""Edits of a designer's YAML as text: what `pnp upgrade` changes, and nothing else of the file.

A file is composed (PyYAML nodes, which know where each key and value is written), the
edits are made on the text between those positions, and the edited text is composed again
and compared with what the edits meant: every other key, value, comment, quote, blank line
and line ending stays as the designer wrote it. An edit that would not read back as meant
(a plain value that YAML would read otherwise once it holds a brace) is written quoted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml

BOM = "\ufeff"


class Unreadable(Exception):
    """A file pnp upgrade cannot read or parse: said at its file:line:col."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Change:
    """One change as it is reported: where (line of the original), what was written, what is now."""

    file: Path
    line: int
    old: str
    new: str
    why: str = ""


@dataclass(frozen=True)
class _Edit:
    """Text [start, end) of the original becomes `text`; `node` is the value it stands for (checked)."""

    start: int
    end: int
    text: str
    meaning: tuple          # ("value", node, new value) | ("remove", mapping node, key node) | ("insert", 0)


@dataclass
class YamlText:
    """One YAML file: its text (without a byte-order mark), its nodes, and the edits planned on it."""

    path: Path
    text: str
    root: yaml.Node | None
    newline: str
    bom: bool = False
    edits: list[_Edit] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path, shown: str) -> "YamlText":
        """The file read and composed; Unreadable, located, when it cannot be."""
        try:
            data = path.read_bytes()
        except OSError as error:
            raise Unreadable(shown, f"cannot read it ({error.strerror or error})") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[:error.start].count(b"\n") + 1
            raise Unreadable(f"{shown}:{line}", "not UTF-8 text: save it as UTF-8") from None
        bom = text.startswith(BOM)
        text = text.removeprefix(BOM)
        try:
            root = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            where = f"{shown}:{mark.line + 1}:{mark.column + 1}" if mark is not None else shown
            raise Unreadable(where, f"not valid YAML: {error.problem or error.context}") from None
        except yaml.YAMLError as error:
            raise Unreadable(shown, f"not valid YAML: {error}") from None
        newline = "\r\n" if "\r\n" in text else "\n"
        return cls(path, text, root, newline, bom)

    def line_of(self, index: int) -> int:
        return self.text.count("\n", 0, index) + 1

    def source(self, node: yaml.Node) -> str:
        return self.text[node.start_mark.index:node.end_mark.index]

    # ------------------------------------------------------------ the edits

    def set_scalar(self, node: yaml.ScalarNode, value: str, why: str, *, in_flow: bool,
                   source_text: str | None = None, parts: list[tuple[int, str, str]] | None = None) -> None:
        """The scalar `node` reads `value` from now on; `source_text` is how to write it where its
        style allows (else it is written double-quoted). `parts`: the changes inside it to report,
        as (offset in its source, old, new), instead of the whole value."""
        if any(edit.start == node.start_mark.index for edit in self.edits):
            return                     # an alias (*name) met again: its anchor's value is edited once
        old = self.source(node)
        kept = source_text is not None and _keeps_style(node, source_text, value, in_flow)
        written = source_text if kept and source_text is not None else _double_quoted(value)
        self.edits.append(_Edit(node.start_mark.index, node.end_mark.index, written, ("value", node, value)))
        if parts is None:
            self.changes.append(Change(self.path, node.start_mark.line + 1, old, written, why))
            return
        for offset, part_old, part_new in parts:
            self.changes.append(Change(self.path, self.line_of(node.start_mark.index + offset), part_old, part_new,
                                       why))
        if not kept:
            self.changes.append(Change(self.path, node.start_mark.line + 1, old, written,
                                       "quoted: YAML reads a plain value holding { otherwise"))

    def remove_pair(self, mapping: yaml.MappingNode, key: yaml.Node, value: yaml.Node, why: str) -> bool:
        """Remove `key: value` from the mapping (its line in a block mapping, with its comment; the
        item and its comma in a flow one). False when it is written in a way this cannot take out."""
        text = self.text
        start, end = key.start_mark.index, value.end_mark.index
        if mapping.flow_style:
            after = end
            while after < len(text) and text[after] in " \t":
                after += 1
            if after < len(text) and text[after] == ",":
                end = after + 1
                while end < len(text) and text[end] in " \t":
                    end += 1
            else:                      # the last item: take the comma before it
                before = start
                while before > 0 and text[before - 1] in " \t\r\n":
                    before -= 1
                if before == 0 or text[before - 1] != ",":
                    return False       # the only item: `{fill: red}` would be left as `{}`; say it instead
                start = before - 1
        else:
            line_start = text.rfind("\n", 0, start) + 1
            if text[line_start:start].strip():
                return False           # not alone on its line (`- fill: red`)
            start = line_start
            # a block collection's end is where the next key starts: back to its last written
            # character, then on to the end of that line (its comment goes with it)
            while end > start and text[end - 1] in " \t\r\n":
                end -= 1
            line_end = text.find("\n", end)
            end = len(text) if line_end < 0 else line_end + 1
        old = text[key.start_mark.index:value.end_mark.index]
        self.edits.append(_Edit(start, end, "", ("remove", mapping, key)))
        self.changes.append(Change(self.path, key.start_mark.line + 1, old, "(removed)", why))
        return True

    def insert_top(self, lines: list[str], whys: list[str]) -> None:
        """Top-level `key: value` lines, before the first key of the file's (block) mapping (each
        reported with its reason)."""
        assert isinstance(self.root, yaml.MappingNode) and not self.root.flow_style
        first = self.root.value[0][0] if self.root.value else None
        index = self.text.rfind("\n", 0, first.start_mark.index) + 1 if first is not None else len(self.text)
        prefix = "" if index == 0 or self.text[index - 1] == "\n" else self.newline
        written = prefix + "".join(line + self.newline for line in lines)
        self.edits.append(_Edit(index, index, written, ("insert", lines)))
        line = self.line_of(index) if first is not None else self.line_of(len(self.text))
        for offset, (text, why) in enumerate(zip(lines, whys, strict=True)):
            self.changes.append(Change(self.path, line + offset, "(none)", text, why))

    def removed(self, node: yaml.Node) -> bool:
        """Whether the node lies in a pair already taken out."""
        return any(edit.meaning[0] == "remove" and edit.start <= node.start_mark.index < edit.end
                   for edit in self.edits)

    # ------------------------------------------------------------ writing

    def edited(self) -> str:
        """The text with every edit made (last first, so earlier positions hold)."""
        text = self.text
        for edit in sorted(self.edits, key=lambda edit: edit.start, reverse=True):
            text = text[:edit.start] + edit.text + text[edit.end:]
        return text

    def edited_bytes(self, shown: str) -> bytes:
        """The edited file, checked: it composes again, and reads as the old one with just the edits
        made (an edit gone wrong would change a designer's game silently)."""
        text = self.edited()
        try:
            root = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as error:
            raise Unreadable(shown, f"the upgraded text would not read back ({error}): nothing written; "
                                    "please report this as a bug of pnp upgrade") from None
        if _shape(root, {}) != _shape(self.root, self._meanings()):
            raise Unreadable(shown, "the upgraded text would not read back as meant: nothing written; "
                                    "please report this as a bug of pnp upgrade")
        return ((BOM if self.bom else "") + text).encode("utf-8")

    def _meanings(self) -> dict:
        meanings: dict = {}
        for edit in self.edits:
            kind = edit.meaning[0]
            if kind == "value":
                meanings[id(edit.meaning[1])] = ("value", edit.meaning[2])
            elif kind == "remove":
                meanings.setdefault(("removed", id(edit.meaning[1])), set()).add(id(edit.meaning[2]))
            else:
                meanings["insert"], meanings["top"] = edit.meaning[1], self.root
        return meanings


def _keeps_style(node: yaml.ScalarNode, written: str, value: str, in_flow: bool) -> bool:
    """Whether `written`, put where the scalar is, reads as `value`: quoted and block scalars always
    do (their text is the value's, with `{` and `:` as they are); a plain one when, on one line, it
    reads back so in its context (a brace starts a mapping, and inside one a comma ends the value)."""
    if node.style in ("'", '"', "|", ">"):
        return True
    if "\n" in written:
        return False
    try:
        read = yaml.safe_load(("{k: %s}" if in_flow else "k: %s") % written)
    except yaml.YAMLError:
        return False
    return isinstance(read, dict) and read.get("k") == value and isinstance(read.get("k"), str)


def _double_quoted(value: str) -> str:
    """A YAML double-quoted scalar of `value` (JSON's escapes are YAML's; letters beyond ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


def _shape(node: yaml.Node | None, meanings: dict) -> object:
    """What a node tree reads as, for comparing two texts: values and order, not styles. With
    `meanings`, the tree as the edits mean it (values replaced, pairs removed, lines inserted)."""
    if node is None:
        return None
    if isinstance(node, yaml.ScalarNode):
        meant = meanings.get(id(node))
        return meant[1] if meant is not None else node.value
    if isinstance(node, yaml.SequenceNode):
        return [_shape(item, meanings) for item in node.value]
    assert isinstance(node, yaml.MappingNode)
    removed = meanings.get(("removed", id(node)), set())
    pairs = [(_shape(key, meanings), _shape(value, meanings)) for key, value in node.value if id(key) not in removed]
    if node is meanings.get("top"):       # the lines inserted atop, as `key: value  # comment`
        inserted = [line.split("#", 1)[0].split(":", 1) for line in meanings["insert"]]
        pairs = [(key.strip(), value.strip()) for key, value in inserted] + pairs
    return pairs


def mapping_items(node: yaml.Node | None) -> list[tuple[yaml.Node, yaml.Node]]:
    """A mapping node's (key, value) pairs; none for anything else."""
    return list(node.value) if isinstance(node, yaml.MappingNode) else []


def scalar_value(node: yaml.Node | None) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def child(node: yaml.Node | None, key: str) -> yaml.Node | None:
    """The value under `key` of a mapping node (the last one written, as YAML reads it)."""
    found = None
    for key_node, value in mapping_items(node):
        if scalar_value(key_node) == key:
            found = value
    return found
