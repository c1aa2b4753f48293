"""One language's catalog: nested YAML keys flattened to dotted keys, with plurals.

A file `i18n/bg.yaml` holds a single root key `bg:` (so translation platforms
import it as Rails-style YAML). A mapping whose keys are all CLDR plural
categories is one plural entry, chosen by a count with babel's CLDR rules.
Placeholders are written `{name}`; `{{` and `}}` are literal braces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from generator.caches import cached
from generator.content.yaml_source import YamlDocument, load_yaml
from generator.errors import Problems, SourceMark

PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class Entry:
    """A translated value: one text, or texts per plural category."""

    text: str | None
    plural: Mapping[str, str] | None
    mark: SourceMark

    @property
    def untranslated(self) -> bool:
        """An empty value, as `pnp i18n stub` writes for a translator to fill in."""
        if self.plural is not None:
            return not any(self.plural.values())
        return not self.text


@dataclass
class Catalog:
    """One language's texts by dotted key, in the file's order."""

    lang: str
    file: Path
    entries: dict[str, Entry] = field(default_factory=dict)

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def plural_category(self, count: int | float) -> str:
        return _plural_rule(self.lang)(count)


def load_catalog(folder: Path, lang: str, problems: Problems) -> Catalog | None:
    """Read i18n/<lang>.yaml of a game folder."""
    file = folder / "i18n" / f"{lang}.yaml"
    if not file.exists() and not file.is_symlink():
        problems.add(SourceMark(file), f"no catalog for language '{lang}'",
                     f"create i18n/{lang}.yaml with the root key '{lang}:' or remove '{lang}' from languages")
        return None
    document = load_yaml(file, problems, root=folder)
    if document is None:
        return None
    return catalog_from_document(document, lang, problems)


def catalog_from_document(document: YamlDocument, lang: str, problems: Problems, *,
                          check_plural_forms: bool = True) -> Catalog:
    """The catalog a document holds; its problems go to `problems`.

    `check_plural_forms=False` skips asking whether each plural has every CLDR form of the language,
    for pnp's own catalogs, which tests/i18n/test_engine_catalogs.py checks: the question loads the
    language's CLDR data (~5-10 ms a language, of every build that reads the kit's words)."""
    catalog = Catalog(lang, document.file)
    data = document.data
    if not isinstance(data, dict) or set(data) != {lang}:
        # say what was found there: `eng:` or `bg:` copied from another catalog is the usual slip
        stray = [key for key in data if key != lang] if isinstance(data, dict) else []
        found = ", ".join(f"'{key}:'" for key in stray) if stray else (repr(data) if data else "nothing")
        where = document.key_mark((stray[0],)) if stray else document.mark()
        problems.add(where, f"a catalog must have exactly one root key, '{lang}:', found {found}",
                     f"put every key under '{lang}:' at the top of the file")
        return catalog
    if not isinstance(data[lang], dict):
        problems.add(document.mark((lang,)), f"'{lang}:' must hold the catalog's keys, got {data[lang]!r}",
                     f"indent the keys under '{lang}:'")
        return catalog
    _flatten(data[lang], (lang,), "", document, catalog, problems, check_plural_forms)
    return catalog


def _flatten(node: object, path: tuple, prefix: str, document: YamlDocument,
             catalog: Catalog, problems: Problems, check_plural_forms: bool = True) -> None:
    """Every text under `node` as an entry keyed by its dotted path, marked where it is written.

    A text's mark is made from the document's position table directly (a game of 1,000 cards has
    2,000 texts, and a mark looked up by `document.mark` walks its path first); a mapping's own mark
    is only made when a problem is reported at it.
    """
    positions, file, entries = document.marks.positions, document.file, catalog.entries
    # depth first, in the file's order, with a list for a stack: a nested function calling itself
    # would be a reference cycle holding the whole document (with its position table) alive, as
    # loading runs with the collector paused and sets aside what it made
    pending: list[tuple[object, tuple, str]] = [(node, path, prefix)]
    while pending:
        node, path, prefix = pending.pop()
        if isinstance(node, dict) and node and node.keys() <= PLURAL_CATEGORIES:
            mark = document.mark(path)
            missing = sorted(required_plural_forms(catalog.lang) - set(node)) if check_plural_forms else ()
            if missing:
                problems.add(mark, f"{prefix}: plural forms missing for '{catalog.lang}': {', '.join(missing)}",
                             f"'{catalog.lang}' uses the CLDR forms "
                             f"{', '.join(sorted(required_plural_forms(catalog.lang)))}")
            entries[prefix] = Entry(None, {category: str(text) for category, text in node.items()}, mark)
        elif isinstance(node, dict):
            pending.extend((value, path + (key,), f"{prefix}.{key}" if prefix else key)
                           for key, value in reversed(node.items()))
        elif isinstance(node, (str, int, float)) and not isinstance(node, bool):
            position = positions.get(path)
            mark = SourceMark(file, *position) if position is not None else document.mark(path)
            entries[prefix] = Entry(str(node), None, mark)
            control = _CONTROL.search(node) if isinstance(node, str) else None
            if control:
                problems.add(mark, f"{prefix}: the text holds the control character "
                             f"U+{ord(control.group()):04X} ({control.group().encode('unicode_escape').decode()})",
                             "delete it (in a double-quoted text, the escape that writes it: \\0, \\x…, "
                             "\\u…); only a line break and a tab belong in a printed text")
        elif node is None and prefix:      # `key:` with nothing after it: present, not translated yet
            entries[prefix] = Entry("", None, document.mark(path))
        else:
            problems.add(document.mark(path), f"{prefix}: expected text, got {node!r}", "write the text in quotes")


# C0 and C1 control characters but tab and line feed: YAML's reader refuses them raw, but a double-quoted
# escape writes them, and no font prints one (a NUL went into the PDF's text as it was)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

def _one_or_other(count: int | float) -> str:
    """The plural rule of a language CLDR does not know: English's."""
    return "one" if count == 1 else "other"


@cached("i18n.plural_rule", maxsize=64)       # a build reads a few languages
def _plural_rule(lang: str) -> Callable[[int | float], str]:
    from babel import Locale, UnknownLocaleError      # here: babel's CLDR data only for a catalog with plurals
    try:
        rule: Callable[[int | float], str] = Locale.parse(lang.replace("-", "_")).plural_form
    except (UnknownLocaleError, ValueError):
        return _one_or_other
    return rule


class MissingArgument(KeyError):
    """A placeholder in the text has no value."""


def interpolate(text: str, args: Mapping[str, object]) -> str:
    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        name = match.group(1)
        if name not in args:
            raise MissingArgument(name)
        return str(args[name])
    return _PLACEHOLDER.sub(replace, text)


def required_plural_forms(lang: str) -> set[str]:
    """The CLDR categories a language uses (ru: one, few, many, other)."""
    from babel import Locale, UnknownLocaleError      # here: babel's CLDR data only for a catalog with plurals
    try:
        locale = Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return {"one", "other"}
    return set(locale.plural_form.tags) | {"other"}
