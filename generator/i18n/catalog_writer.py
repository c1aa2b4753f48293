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
from pathlib import Path

import yaml

from generator.errors import Problems
from generator.i18n.catalog import Catalog, catalog_from_document
from generator.i18n.stub import stub_catalog
from generator.i18n.translation_units import PLURAL_ORDER

# line breaks YAML folds inside a double-quoted string unless escaped
_YAML_ESCAPES = {"\u0085": "\\N", "\u2028": "\\L", "\u2029": "\\P", "\ufeff": "\\uFEFF"}

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
    nodes = _index(text, lang)
    keys_missing = [key for key in values if key not in nodes]
    if keys_missing:
        text, _ = _stubbed(file, text, lang, source, keys_missing)
        nodes = _index(text, lang)
    added = _add_forms(text, nodes, {key: values[key] for key in values if key in plural_keys})
    grew = bool(keys_missing) or added != text
    if added != text:
        text, nodes = added, _index(added, lang)
    edits = []
    for key, forms in values.items():
        node = nodes.get(key)
        if node is None:
            raise WriteError(f"'{key}' could not be added to the catalog")
        if key in plural_keys:
            if not isinstance(node, yaml.MappingNode):
                raise WriteError(f"'{key}' is a plural in the source but one text in the catalog")
            for name, value in node.value:
                if name.value in forms:
                    edits.append((value, forms[name.value]))
        else:
            if not isinstance(node, yaml.ScalarNode):
                raise WriteError(f"'{key}' is one text in the source but a mapping in the catalog")
            edits.append((node, forms["other"]))
    changed = False
    for node, new in sorted(edits, key=lambda edit: -edit[0].start_mark.index):
        if _scalar_value(node) == new:
            continue
        start, end = node.start_mark.index, node.end_mark.index
        tail = ""
        if node.style in ("|", ">"):       # a block scalar's span runs to the next line: keep the break
            span = text[start:end]
            tail = span[len(span.rstrip("\n")):] or "\n"
        text = text[:start] + quoted(new) + tail + text[end:]
        changed = True
    if changed or grew:
        _verify(text, file, lang, values, plural_keys)
    return text


def _index(text: str, lang: str) -> dict[str, yaml.Node]:
    """Every key under the root `lang:` (dotted) → its value node, with positions in the text."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    root = yaml.compose(text, Loader=loader) if text.strip() else None
    found: dict[str, yaml.Node] = {}
    if not isinstance(root, yaml.MappingNode):
        return found
    top = next((value for name, value in root.value if name.value == lang), None)

    def walk(node: yaml.Node, prefix: str) -> None:
        if not isinstance(node, yaml.MappingNode):
            return
        for name, value in node.value:
            key = f"{prefix}.{name.value}" if prefix else str(name.value)
            found[key] = value
            walk(value, key)
    if top is not None:
        walk(top, "")
    return found


def _stubbed(file: Path, text: str, lang: str, source: Catalog, keys: list[str]) -> tuple[str, list[str]]:
    """stub_catalog reads the file itself: give it the text we hold through a temporary copy."""
    import tempfile
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
    from generator.content.yaml_source import parse_yaml
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
