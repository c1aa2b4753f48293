"""Write translated values into a catalog's YAML text, touching nothing else.

Only the values that change are rewritten, each in place (as a double-quoted
YAML string, the catalogs' own style), so comments, key order, quoting of the
other values and blank lines stay exactly as the translator or `pnp i18n stub`
left them: a catalog whose values are all unchanged keeps its very bytes. Keys
the file lacks are added first the way `pnp i18n stub` adds them (empty, source
text as a comment); a plural form a mapping lacks is added after its last form.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from types import MappingProxyType

import yaml

from generator.content.yaml_source import parse_yaml
from generator.errors import Problems
from generator.i18n.catalog import Catalog, catalog_from_document
from generator.i18n.stub import stub_catalog
from generator.i18n.translation_units import PLURAL_ORDER

# line breaks YAML folds inside a double-quoted string unless escaped
_YAML_ESCAPES = MappingProxyType({"\u0085": "\\N", "\u2028": "\\L", "\u2029": "\\P", "\ufeff": "\\uFEFF"})

# a node's anchor and tag, before its value: `&c !!str Карта`
_PROPERTIES = re.compile(r"(?:[&!]\S*\s+)*")

Values = dict[str, dict[str, str]]     # key → {form: text} ('other' alone for a plain text)


class WriteError(ValueError):
    """The catalog's text could not take the values (a bug, or a value of another shape)."""


def quoted(text: str) -> str:
    """The text as a double-quoted YAML scalar (JSON's escapes are YAML's)."""
    literal = json.dumps(text, ensure_ascii=False)
    for char, escape in _YAML_ESCAPES.items():
        literal = literal.replace(char, escape)
    return literal


def write_values(text: str, file: Path, lang: str, values: Values, source: Catalog,
                 plural_keys: set[str]) -> str:
    """The catalog text with `values` written in; every other byte kept."""
    nodes, aliases = _index(text, lang)
    keys_missing = [key for key in values if key not in nodes]
    if keys_missing:
        text, _ = _stubbed(file, text, lang, source, keys_missing)
        nodes, aliases = _index(text, lang)
    added = _add_forms(text, nodes, {key: values[key] for key in values if key in plural_keys})
    grew = bool(keys_missing) or added != text
    if added != text:
        text, (nodes, aliases) = added, _index(added, lang)
    edits: list[tuple[int, int, str]] = []        # (start, end, replacement) in the text
    edited: set[int] = set()                        # nodes whose text is replaced
    own: set[str] = set()                           # aliased keys given their own text
    for key, forms in values.items():
        node = nodes.get(key)
        if node is None:
            raise WriteError(f"'{key}' could not be added to the catalog")
        if key in plural_keys:
            if not isinstance(node, yaml.MappingNode):
                raise WriteError(f"'{key}' is a plural in the source but one text in the catalog")
            if key in aliases:
                raise WriteError(f"'{key}' is an alias ({text[slice(*aliases[key])]}) of another key's forms: "
                                 "write its forms out in the catalog")
            for name, value in node.value:
                if name.value in forms and _scalar_value(value) != forms[name.value]:
                    if not isinstance(value, yaml.ScalarNode):
                        raise WriteError(f"'{key}': its form '{name.value}' is not one text in the catalog")
                    edits.append(_replacement(text, value, forms[name.value]))
                    edited.add(id(value))
        else:
            if not isinstance(node, yaml.ScalarNode):
                raise WriteError(f"'{key}' is one text in the source but a mapping in the catalog")
            if _scalar_value(node) == forms["other"]:
                continue
            if key in aliases:              # `name: *c`: the alias itself becomes the text
                edits.append((*aliases[key], quoted(forms["other"])))
                own.add(key)
            else:
                edits.append(_replacement(text, node, forms["other"]))
                edited.add(id(node))
    # an alias of a value that changed keeps the value it read before, written out
    for key, (start, end) in aliases.items():
        node = nodes[key]
        if id(node) in edited and key not in own:
            if not isinstance(node, yaml.ScalarNode):
                raise WriteError(f"'{key}' is an alias of a mapping that changed: write it out in the catalog")
            edits.append((start, end, quoted(_scalar_value(node) or "")))
    for start, end, new in sorted(edits, key=lambda edit: -edit[0]):
        text = text[:start] + new + text[end:]
    if edits or grew:
        _verify(text, file, lang, values, plural_keys)
    return text


def _replacement(text: str, node: yaml.ScalarNode, new: str) -> tuple[int, int, str]:
    """The edit that writes `new` in place of the scalar `node`, keeping its anchor or tag
    (`&c Карта` → `&c "new"`) and a block scalar's closing line break."""
    start, end = node.start_mark.index, node.end_mark.index
    span = text[start:end]
    written = _PROPERTIES.match(span)        # always a match: it may be empty
    properties = written.group() if written else ""
    tail = ""
    if node.style in ("|", ">"):       # a block scalar's span runs to the next line: keep the break
        tail = span[len(span.rstrip("\n")):] or "\n"
    return start, end, properties + quoted(new) + tail


def _index(text: str, lang: str) -> tuple[dict[str, yaml.Node], dict[str, tuple[int, int]]]:
    """Every key under the root `lang:` (dotted) → its value node, with positions in the text; and
    the keys whose value is an alias (`name: *c`) → the alias's span (the node is the anchor's)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    root = yaml.compose(text, Loader=loader) if text.strip() else None
    found: dict[str, yaml.Node] = {}
    aliases: dict[str, tuple[int, int]] = {}
    if not isinstance(root, yaml.MappingNode):
        return found, aliases
    # the parser marks every event it makes: the test only tells the type checker so
    alias_spans = [(event.start_mark.index, event.end_mark.index)
                   for event in yaml.parse(text, Loader=loader)
                   if isinstance(event, yaml.AliasEvent) and event.start_mark and event.end_mark]
    top = next((value for name, value in root.value if name.value == lang), None)
    seen: set[int] = set()

    def walk(node: yaml.Node, prefix: str) -> None:
        if not isinstance(node, yaml.MappingNode):
            return
        for name, value in node.value:
            key = f"{prefix}.{name.value}" if prefix else str(name.value)
            found[key] = value
            if id(value) in seen:       # met before in document order: this occurrence is an alias
                after = name.end_mark.index
                aliases[key] = next(span for span in alias_spans if span[0] >= after)
                continue
            seen.add(id(value))
            walk(value, key)
    if top is not None:
        walk(top, "")
    return found, aliases


def _stubbed(file: Path, text: str, lang: str, source: Catalog, keys: list[str]) -> tuple[str, list[str]]:
    """stub_catalog reads the file itself: give it the text we hold through a temporary copy."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / file.name
        copy.write_text(text, encoding="utf-8")
        return stub_catalog(copy, lang, source, keys, file.parent.parent.name)


def _scalar_value(node: yaml.Node) -> str | None:
    if not isinstance(node, yaml.ScalarNode):
        return None
    if node.style is None and node.value in ("", "~", "null", "Null", "NULL"):
        return ""
    return node.value


def _add_forms(text: str, nodes: dict[str, yaml.Node], plurals: Values) -> str:
    """Add `form: ""` lines for forms a plural mapping lacks, after its last form (bottom-up, so
    earlier positions stay valid)."""
    insertions = []
    for key, forms in plurals.items():
        node = nodes.get(key)
        if not isinstance(node, yaml.MappingNode) or not node.value:
            continue
        have = {name.value for name, _ in node.value}
        missing = [form for form in PLURAL_ORDER if form in forms and form not in have]
        if missing:
            indent = " " * node.value[0][0].start_mark.column
            last = max(value.end_mark.line if value.end_mark.column else value.end_mark.line - 1
                       for _, value in node.value)
            insertions.append((last + 1, [f'{indent}{form}: ""' for form in missing]))
    if not insertions:
        return text
    lines = text.split("\n")
    for at, new_lines in sorted(insertions, key=lambda insertion: -insertion[0]):
        lines[at:at] = new_lines
    return "\n".join(lines)


def _verify(text: str, file: Path, lang: str, values: Values, plural_keys: set[str]) -> None:
    """Read the new text back as a catalog: every value written must read as written."""
    problems = Problems()
    document = parse_yaml(text, file, problems)
    catalog = catalog_from_document(document, lang, problems) if document is not None else None
    if catalog is None or problems.errors:
        raise WriteError("; ".join(str(problem) for problem in problems.errors) or "the catalog did not read back")
    for key, forms in values.items():
        entry = catalog.entries.get(key)
        got = (entry.plural if key in plural_keys else {"other": entry.text}) if entry is not None else None
        if got is None or any(got.get(form) != text_ for form, text_ in forms.items()):
            raise WriteError(f"'{key}' did not read back as written")
