"""`pnp i18n stub`: write or complete a language's catalog with every key it lacks.

New keys get an empty value (untranslated, as Weblate and Crowdin read it)
and the source text beside them as a comment. The file is edited as text, so
existing translations, comments and order stay exactly as the translator left
them; missing keys are inserted at the end of the block they belong to.

The keys are the game's that its pages use (`stub_keys`) and, for a language pnp
has no words of its own for (Esperanto, Welsh), the engine's words those pages
would otherwise show in English (the kit's, the covers' facts, the rulebook's):
marked like the others, with pnp's English text beside them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from generator.content.yaml_source import parse_yaml
from generator.errors import Problem, Problems, SourceMark
from generator.i18n.catalog import Catalog, required_plural_forms
from generator.i18n.engine_text import SOURCE_LANGUAGE, engine_catalog, lacking_keys, overridden, shown_engine_keys
from generator.i18n.translation_units import PLURAL_ORDER
from generator.input_files import FileRefused, locate, problem_message, read_text_file

if TYPE_CHECKING:      # the content stage's model, handed down by the command
    from generator.content.game import GameSource

INDENT = 2


def stub_keys(source: GameSource, used: set[str], lang: str) -> list[str]:
    """The keys a stub of `lang` is given, in order: the source catalog's keys the game's pages use (all of
    them for a language it has no catalog of yet), less those a sheet's name@LANG column says; then the
    engine's words its pages show that pnp has none of in `lang` (`engine_stub_keys`)."""
    source_catalog = source.catalogs[source.source_language]
    sheet = source.sheet_keys.get(lang, ())
    keys = [key for key in source_catalog.entries
            if (key in used or lang not in source.catalogs) and key not in sheet]
    return keys + engine_stub_keys(source, lang, keys)


def engine_stub_keys(source: GameSource, lang: str, game_keys: Iterable[str] = ()) -> list[str]:
    """The engine's keys whose words the game's pages would print in English in `lang` (none for a
    language pnp has a catalog of), less those the game says its own way: in its catalog of `lang`, or
    among `game_keys` (a source catalog's own kit.title, its rules.cover.players for game.players)."""
    shown = shown_engine_keys(source.game, source.rules.rulebook if source.rules is not None else None)
    catalog = source.catalogs.get(lang)
    said = set(game_keys) | set(catalog.entries if catalog is not None else ())
    return [key for key in lacking_keys(lang, shown) if not overridden(key, said)]


def _tree(keys: list[str]) -> dict:
    tree: dict = {}
    for key in keys:
        node = tree
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = key
    return tree


def _comment(text: str) -> str:
    return text.replace("\n", "\\n")


def _lines(tree: dict, depth: int, sources: tuple[Catalog, ...], lang: str) -> list[str]:
    """The stub's lines of `tree`; each key's source text from the first of `sources` that has it (the
    game's source catalog, then pnp's English words)."""
    pad = " " * (INDENT * depth)
    lines = []
    for name, value in tree.items():
        if isinstance(value, dict):
            lines.append(f"{pad}{name}:")
            lines.extend(_lines(value, depth + 1, sources, lang))
            continue
        source = next(catalog for catalog in sources if value in catalog.entries)
        entry = source.entries[value]
        if entry.plural is not None:
            lines.append(f"{pad}{name}:")
            other = entry.plural.get("other", "")
            for form in sorted(required_plural_forms(lang), key=PLURAL_ORDER.index):
                said = _comment(entry.plural.get(form, other))
                lines.append(f'{pad}{" " * INDENT}{form}: ""  # {source.lang}: {said}')
        else:
            lines.append(f'{pad}{name}: ""  # {source.lang}: {_comment(entry.text or "")}')
    return lines


def catalog_in_place(folder: Path, file: Path) -> Problem | None:
    """Why a catalog of the game in `folder` may not be read or written where `file` is, or None (it is a
    regular file inside the game, or not there yet): a link leading out of the game folder (its target is
    neither copied into the game nor overwritten), a FIFO (reading it would wait for ever), a folder."""
    relative = file.relative_to(folder).as_posix()
    path, problem = locate(folder, relative)
    if problem is None or problem == "missing":
        return None
    if problem == "outside":
        return Problem(SourceMark(file), f"is a link leading outside the game folder (to {path}): pnp reads "
                                         "and writes no catalog through it",
                       f"replace the link with the catalog file itself (cp --remove-destination {path} {file})")
    return Problem(SourceMark(file), problem_message(problem, relative),
                   "replace it with the catalog file (YAML), or remove it")


def stub_catalog(file: Path, lang: str, source: Catalog, keys: list[str], title: str) -> tuple[str, list[str]]:
    """The new text of the catalog file and the keys added (in source order); ValueError (a located
    message) for a catalog that cannot be read or written in place. A key the game's `source` catalog
    lacks is one of pnp's own (engine_stub_keys): its English words go beside it."""
    problems = Problems()
    sources = (source,) if all(key in source.entries for key in keys) else (source, engine_catalog(SOURCE_LANGUAGE))
    refused = catalog_in_place(file.parent.parent, file)
    if refused is not None:
        raise ValueError(str(refused))
    text = _catalog_text(file)
    document = parse_yaml(text, file, problems) if text.strip() else None
    if problems.errors:
        raise ValueError("\n".join(str(p) for p in problems.errors))
    data = (document.data or {}).get(lang, {}) if document and isinstance(document.data, dict) else {}
    missing = [key for key in keys if not _has(data, key.split("."))]
    if document is None or lang not in (document.data or {}):
        header = [f"# {title} — {lang}. Empty values are not translated yet; the source text is beside them.",
                  f"{lang}:"]
        body = _lines(_tree(missing), 1, sources, lang)
        before = text.rstrip("\n") + "\n" if text.strip() else ""
        return before + "\n".join(header + body) + "\n", missing
    lines = text.split("\n")
    # group the missing keys under the deepest mapping the file already has
    groups: dict[tuple[str, ...], list[str]] = {}
    for key in missing:
        parts = key.split(".")
        depth = 0
        node = data
        while depth < len(parts) - 1 and isinstance(node.get(parts[depth]), dict):
            node = node[parts[depth]]
            depth += 1
        groups.setdefault(tuple(parts[:depth]), []).append(key)
    insertions = []
    for prefix, group in groups.items():
        anchor_line = document.key_mark((lang,) + prefix).line if prefix else document.key_mark((lang,)).line
        anchor_indent = INDENT * len(prefix)
        end = _block_end(lines, anchor_line - 1, anchor_indent)
        relative = _tree([".".join(key.split(".")[len(prefix):]) for key in group])
        _retarget(relative, prefix)
        insertions.append((end, _lines(relative, len(prefix) + 1, sources, lang)))
    for end, new_lines in sorted(insertions, key=lambda pair: -pair[0]):
        lines[end:end] = new_lines
    return "\n".join(lines), missing


def _catalog_text(file: Path) -> str:
    """The catalog's text as any game file is read (bounded, never blocking), '' if there is none yet."""
    if not file.exists():
        return ""
    try:
        return read_text_file(file, file.parent.parent)
    except FileRefused as error:
        raise ValueError(str(Problem(SourceMark(file), str(error), error.hint))) from None


def _retarget(tree: dict, prefix: tuple[str, ...]) -> None:
    """Leaves of a relative tree point back at their full keys."""
    for name, value in tree.items():
        if isinstance(value, dict):
            _retarget(value, prefix)
        else:
            tree[name] = ".".join(prefix + (value,))


def _has(data: dict, parts: list[str]) -> bool:
    node = data
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """The line index just after the block that opens at `start` (its children are indented deeper)."""
    end = start + 1
    last = start + 1
    while end < len(lines):
        line = lines[end]
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            if len(line) - len(line.lstrip(" ")) <= indent:
                break
            last = end + 1
        end += 1
    return last
