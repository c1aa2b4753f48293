"""`pnp i18n export` and `pnp i18n import`: a catalog out to XLIFF or PO and translations back in.

Export lays the game out in its source language with a recorder listening
(sizes.py), so each unit knows where its key is printed and how much room its
tightest box has; a picture of that box is written beside the file (screens.py).
Import reads a file a translation platform gives back, refuses what cannot be
right (unknown keys, placeholders that differ from the source, the wrong number
of plural forms, the source language itself, characters no font of the text's
box has), skips what is not ready (untranslated, fuzzy, translated from an older
source text), lays the game out in that language with the new texts (to report
every imported string that overflows its box) and only then writes them into
i18n/<lang>.yaml in place (catalog_writer.py).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from types import MappingProxyType

from generator.content.game import GameSource
from generator.content.sheet_entries import SheetText
from generator.content.sheet_texts import add_sheet_texts, placed, with_new_texts
from generator.content.sheet_writer import sheets_with_texts
from generator.content.schema import LANG_PATTERN
from generator.content.yaml_source import parse_yaml
from generator.errors import Problems, SourceMark, display_path, printable
from generator.files import outside_link, output_problem, write_atomically
from generator.i18n.catalog import Catalog, catalog_from_document, load_catalog, required_plural_forms
from generator.i18n.catalog_writer import WriteError, write_values
from generator.i18n.po import PoFile, read_po, write_po
from generator.i18n.sizes import record_usage
from generator.i18n.stub import catalog_in_place
from generator.i18n.translation_units import PLACEHOLDER, PrintedFace, build_units, cldr_order, font_family_name
from generator.i18n.xliff import ReadFile, ReadUnit, read_xliff, write_xliff
from generator.input_files import MAX_TEXT_BYTES, FileRefused, read_regular
from generator.text.face_names import printed_face
from generator.text.fonts import FontLibrary, font_to_add, game_families, script_of
from generator.text.setter import TextSetter

FORMATS = ("xliff", "xliff-weblate", "po")     # xliff-weblate: with Weblate's weblate-flags (not strict XLIFF)
SUFFIXES = MappingProxyType({"xliff": ".xlf", "xliff-weblate": ".xlf", "po": ".po"})
KEYS_LISTED = 10      # untranslated or fuzzy keys named in the summary; the rest are counted


@dataclass
class ExportResult:
    file: Path
    units: int
    translated: int
    limited: int          # units with a size limit
    screenshots: int
    folder: Path          # of the screenshots


@dataclass
class ImportResult:
    catalog: Path
    lang: str
    changed: int = 0                      # keys whose values were written
    unchanged: int = 0
    untranslated: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)       # translated from a source text since changed
    written: bool = False
    built: bool = True                    # the language is among game.yaml's languages
    sheets: dict[Path, list[str]] = field(default_factory=dict)   # CSV sheets written → their cells ('D3')
    checks_read: int = 0                  # PO units whose Weblate flags (size limit, font, placeholders) were read
    checks_in_comments: int = 0           # … of them only from the extracted comment (msgmerge, msgcat drop `#,`)


def target_catalog(source: GameSource, lang: str, problems: Problems) -> Catalog | None:
    """The language's catalog as loaded with the game, or read now (a language not built yet), with the
    texts its sheets' columns (`name@pl`) hold, as the game's load joins them (sheet_texts.py)."""
    if lang in source.catalogs:
        return source.catalogs[lang]
    file = source.folder / "i18n" / f"{lang}.yaml"
    catalog = load_catalog(source.folder, lang, problems) if file.exists() else None
    cells = [text for text in source.sheet_texts if text.lang == lang]
    if not cells or problems.errors:
        return catalog
    catalogs = {lang: catalog} if catalog is not None else {}
    add_sheet_texts(catalogs, cells, problems, {lang: file})
    return catalogs[lang]


def export_catalog(source: GameSource, lang: str, fmt: str, out: Path, problems: Problems,
                   screenshots: bool = True) -> ExportResult | None:
    """Write <game>.<lang>.xlf or .po into `out`, and (unless told not to) <game>.<lang>.screens/<key>.png."""
    # here: only an export draws its screenshots (pdfium and the PDF renderer)
    from generator.i18n.screens import box_screenshots, screenshot_names
    source_lang = source.source_language
    source_catalog = source.catalogs[source_lang]
    target = target_catalog(source, lang, problems)
    if problems.errors:
        return None
    library = FontLibrary()
    usages, targets, layout_problems = record_usage(source, source_lang, library)
    for problem in layout_problems.errors:     # sizes are still right where the layout went on
        problems.warn(problem.mark, f"{problem.message} (the export goes on; `pnp check {source.id}`)",
                      problem.hint)
    family_of = _family_finder(library, target or source_catalog)
    stem = f"{source.id}.{lang}"
    folder = out / f"{stem}.screens"
    file = out / f"{stem}{SUFFIXES[fmt]}"
    for path in (file, folder):
        if _link_leading_out(out, path, problems):
            return None
    names = screenshot_names(list(source_catalog.entries))
    pictures = box_screenshots(usages, names, targets, library.body_face.name) if screenshots else {}
    shots = {key: f"{folder.name}/{names[key]}" for key in pictures}
    units = build_units(source_catalog, target, lang, usages, family_of, shots,
                        _face_finder(library, target or source_catalog))
    original = f"{source.id}/i18n/{lang}.yaml"
    data = write_po(units, source.id, source_lang, lang) if fmt == "po" else \
        write_xliff(units, original, source_lang, lang, weblate=fmt == "xliff-weblate")
    try:
        if screenshots:
            _write_screenshots(folder, {names[key]: picture for key, picture in pictures.items()})
        write_atomically(file, data)
    except OSError as error:        # a read-only folder, a file where a folder goes, a full disk
        failed, message, hint = output_problem(error)
        if failed is not None and failed.name.startswith(".") and failed.name.endswith(".tmp"):
            failed = failed.parent      # write_atomically's temporary file: the folder it could not go in
        problems.add(SourceMark(failed or out), message, hint.replace("build with --out", "export with --out"))
        return None
    return ExportResult(file, len(units), sum(1 for unit in units if unit.target),
                        sum(1 for unit in units if unit.limit is not None), len(pictures), folder)


def _link_leading_out(out: Path, path: Path, problems: Problems) -> bool:
    """Whether `path` (the exchange file or its screenshots' folder) is a link leading out of `out`
    (reported): the export writes and removes pictures there, never through such a link."""
    if outside_link(path, out) is None:
        return False
    problems.add(SourceMark(path), f"is a link leading out of the output folder (to {path.resolve()}): pnp writes "
                                   "and removes nothing through it", "remove the link, or export with --out "
                                                                     "into another folder")
    return True


def _write_screenshots(folder: Path, pictures: dict[str, bytes]) -> None:
    """The pictures by file name; a key removed since the last export leaves no picture behind."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, picture in pictures.items():
        write_atomically(folder / name, picture)
    for old in folder.glob("*.png"):
        if old.name not in pictures:
            old.unlink()


def _best_family(library, catalog: Catalog):
    """A style's font stack → its first family with most of the language's letters (Georgian is set in
    Noto Sans Georgian, not in the stack's Nunito): what a size check must measure."""
    letters = {char for entry in catalog.entries.values()
               for text in (entry.plural or {"": entry.text or ""}).values() for char in text if char.isalpha()}

    def best(stack: tuple[str, ...]) -> str:
        known = [family for family in stack if family in library.families] or list(stack[:1])
        return max(known, key=lambda family: sum(1 for char in letters if ord(char) in library.cmap(family)))
    return best


def _family_finder(library, catalog: Catalog):
    """A style's font stack → the name of the family that sets the language's letters (_best_family)."""
    best_of = _best_family(library, catalog)

    def family_of(stack: tuple[str, ...]) -> str:
        best = best_of(stack)
        return font_family_name(library.families[best].upright) if best in library.families else best
    return family_of


def _face_finder(library, catalog: Catalog):
    """A style's stack, weight and italic → the exact face that prints the language's letters
    (text/face_names.py: 'Nunito Black', weight 900), for the platforms' width checks."""
    best_of = _best_family(library, catalog)

    def face_of(stack: tuple[str, ...], weight: str, italic: bool) -> PrintedFace:
        return printed_face(library, best_of(stack), weight, italic)
    return face_of


def read_exchange_file(file: Path, problems: Problems) -> ReadFile | None:
    """The target language and the units of an XLIFF or PO file (by its suffix, else its first bytes)."""
    try:           # a FIFO or device is refused from its stat, never opened; at most 16 MiB are read
        data = read_regular(file.resolve(), MAX_TEXT_BYTES, "translation file")
    except FileRefused as error:
        problems.add(SourceMark(file), str(error), "name an XLIFF or PO file written by `pnp i18n export`")
        return None
    except (OSError, RuntimeError) as error:
        problems.add(SourceMark(file), f"cannot read the file: {getattr(error, 'strerror', None) or error}",
                     "name an XLIFF or PO file")
        return None
    is_xliff = file.suffix.lower() in (".xlf", ".xliff") or (
        file.suffix.lower() != ".po" and data.lstrip()[:1] == b"<")
    count = len(re.findall(rb"<trans-unit\b" if is_xliff else rb"(?m)^msgid ", data))
    if count > MAX_UNITS:           # parsers take ~40 µs and ~1 kB a unit: refused before parsing
        problems.add(SourceMark(file), f"the file has {count:,} units: at most {MAX_UNITS:,} are read "
                                       "(a game has one per catalog key)",
                     "is this the file exported for this game?")
        return None
    try:
        return read_xliff(data) if is_xliff else read_po(data)
    except ValueError as error:
        line, column, message = str(error).split(":", 2)
        problems.add(SourceMark(file, int(line), int(column)), message,
                     "export a fresh file with `pnp i18n export` or fix the file where shown")
        return None


MAX_UNITS = 100_000            # a 10,000-card deck with its own name and text per card has 20,000 keys
MAX_UNIT_ERRORS = 50          # a file of another game names every key wrongly: the first ones say enough
MAX_TEXT_CHARS = 10_000       # a translation, as a spreadsheet cell (the longest shipped text is 819)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _plain_text(unit: ReadUnit, where: SourceMark, problems: Problems) -> bool:
    """A translation is text a page prints: not longer than any box or page holds, no control
    characters (a NUL or an ESC prints nothing and means something else to other tools)."""
    for text in unit.texts:
        if len(text) > MAX_TEXT_CHARS:
            problems.add(where, f"unit '{unit.key}' is {len(text):,} characters long: at most "
                                f"{MAX_TEXT_CHARS:,} are imported", "is this the text meant for the key?")
            return False
        found = _CONTROL.search(text)
        if found:
            problems.add(where, f"unit '{unit.key}' holds the control character U+{ord(found.group()):04X} "
                                f"at character {found.start() + 1}",
                         "remove it (line breaks and tabs are fine)")
            return False
    return True


def _language_code(lang: str) -> bool:
    return re.fullmatch(LANG_PATTERN, lang) is not None


def import_catalog(source: GameSource, file: Path, lang: str | None, problems: Problems) -> ImportResult | None:
    """Check the file's units against the source catalog and write them into i18n/<lang>.yaml.

    Any error (unknown key, placeholders, plural forms, a character no font prints, a malformed file,
    the source language, a catalog that is a link leading out of the game) writes nothing."""
    read = read_exchange_file(file, problems)
    if read is None:
        return None
    lang = _import_language(source, file, read, lang, problems)
    if lang is None:
        return None
    catalog_file = source.folder / "i18n" / f"{lang}.yaml"
    refused = catalog_in_place(source.folder, catalog_file)
    if refused is not None:
        problems.add(refused.mark, refused.message, refused.hint)
        return None
    target = target_catalog(source, lang, problems)
    if problems.errors:
        return None
    result = ImportResult(catalog_file, lang)
    if isinstance(read, PoFile):      # the limits re-read from whichever survived: flags, else the comment
        result.checks_read = len(read.checks)
        result.checks_in_comments = sum(1 for checks in read.checks.values() if checks.where == "comment")
    values, lines = _checked_values(source, read.units, lang, file, result, problems)
    if problems.errors:
        return None
    unchanged = _unchanged(values, target)
    # a text kept in a sheet's cell (`name@pl`) goes back into its cell, never into the catalog
    values, cells = placed(values, unchanged, target, source.sheet_texts, lang,
                           lambda key: SourceMark(file, lines[key], 1), problems)
    sheets = sheets_with_texts(cells, problems)
    if problems.errors:
        return None
    result.changed = sum(1 for key in values if key not in unchanged)
    result.unchanged = len(unchanged)
    result.sheets = {sheet: written for sheet, (_, written) in sheets.items()}
    original = catalog_file.read_text(encoding="utf-8") if catalog_file.exists() else ""
    source_catalog = source.catalogs[source.source_language]
    plural_keys = {key for key in values if source_catalog.entries[key].plural is not None}
    try:
        text = write_values(original, catalog_file, lang, values, source_catalog, plural_keys)
    except WriteError as error:
        problems.add(SourceMark(catalog_file), f"the translations could not be written: {error}",
                     "fix the catalog so that `pnp check` reads it, then import again")
        return None
    result.built = lang in source.game.languages
    changed = [key for key in values if key not in unchanged] + list(dict.fromkeys(cell.key for cell in cells))
    if changed and result.built:      # strings already in the catalog are `pnp check`'s
        _check_layout(source, lang, text, catalog_file, {key: lines[key] for key in changed}, file, problems, cells)
        if problems.errors:
            return None
    for sheet, (data, _) in sheets.items():
        try:
            write_atomically(sheet, data)
        except OSError as error:
            problems.add(SourceMark(sheet), f"cannot write the sheet: {error.strerror or error}",
                         "make the sheet writable (or free disk space) and import again")
            return None
    if text != original:
        try:
            write_atomically(catalog_file, text.encode("utf-8"))
        except OSError as error:
            problems.add(SourceMark(catalog_file), f"cannot write the catalog: {error.strerror or error}",
                         "make the game's i18n folder writable (or free disk space) and import again")
            return None
        result.written = True
    return result


def _import_language(source: GameSource, file: Path, read: ReadFile, lang: str | None,
                     problems: Problems) -> str | None:
    """The language to import into (--lang, else the file's), or None (reported): it must be a
    language code (it names the catalog written) and not the game's source language."""
    given = lang is not None
    lang = lang or read.language
    where = SourceMark(file) if given else SourceMark(file, read.language_line, 1)
    named = "--lang" if given else "the file's language"
    fix = "give --lang" if given else "fix the file's target-language (XLIFF) or Language header (PO), or give --lang"
    if not lang:
        problems.add(SourceMark(file), "the file does not say its language",
                     "give it with --lang, or export the file with `pnp i18n export --lang L`")
        return None
    if not _language_code(lang):      # the code names the catalog written: never a path (../../x)
        problems.add(where, f"{named} {printable(repr(lang))} is not a language code such as bg, en or pt-BR", fix)
        return None
    if lang == source.source_language:      # its texts would replace the ones every translation is made from
        problems.add(where, f"{named} '{lang}' is the game's source language: importing it would replace the "
                            f"source texts in {display_path(source.catalogs[lang].file)}",
                     f"import translations only (`pnp i18n export {source.id} --lang L` makes a file for "
                     f"language L); edit the source texts in the catalog itself")
        return None
    return lang


def _checked_values(source: GameSource, units: list[ReadUnit], lang: str, file: Path, result: ImportResult,
                    problems: Problems) -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    """The texts by form of every unit that can be imported, and each key's line in the file; the
    others reported (errors), or listed in `result` (untranslated, fuzzy, stale: warned)."""
    source_catalog = source.catalogs[source.source_language]
    forms = cldr_order(required_plural_forms(lang))
    values: dict[str, dict[str, str]] = {}
    lines: dict[str, int] = {}
    for unit in units:
        if len(problems.errors) >= MAX_UNIT_ERRORS:
            problems.add(SourceMark(file, unit.line, 1), f"more units with errors follow: the first "
                         f"{MAX_UNIT_ERRORS} are shown", "is this the file exported for this game?")
            break
        where = SourceMark(file, unit.line, 1)
        entry = source_catalog.entries.get(unit.key)
        if entry is None:
            problems.add(where, f"unit '{unit.key}' is not a key of the source catalog "
                                f"({display_path(source_catalog.file)})",
                         "the key was renamed or removed: export a fresh file with `pnp i18n export`")
            continue
        if unit.key in lines:
            problems.add(where, f"unit '{unit.key}' appears twice (first at line {lines[unit.key]})",
                         "keep one of them")
            continue
        lines[unit.key] = unit.line
        if unit.refused is not None:
            problems.add(SourceMark(file, unit.refused[0], 1), f"unit '{unit.key}' {unit.refused[1]}",
                         "remove it (keep its words, or the placeholder it stood for, as plain text), or "
                         "translate from a fresh `pnp i18n export`")
            continue
        if not unit.texts:
            result.untranslated.append(unit.key)
            continue
        if unit.fuzzy:
            result.fuzzy.append(unit.key)
            continue
        if _stale(unit, entry, where, problems):
            result.stale.append(unit.key)
            continue
        if not _plain_text(unit, where, problems):
            continue
        texts = _forms(unit, entry.plural is not None, forms, where, problems)
        if texts is None:
            continue
        if _placeholders_match(unit.key, texts, dict(entry.plural or {"other": entry.text or ""}), where, problems):
            values[unit.key] = texts
    return values, lines


def _stale(unit: ReadUnit, entry, where: SourceMark, problems: Problems) -> bool:
    """Whether the unit was translated from a source text the game no longer has (warned): its
    translation says what the old text said, so it is not imported as the current one."""
    if entry.plural is not None:
        other = entry.plural.get("other", "")
        expected = (entry.plural.get("one", other),) + (other,) * (len(unit.source) - 1)
    else:
        expected = (entry.text or "",)
    if unit.source == expected:
        return False
    found, now = next((old, new) for old, new in zip_longest(unit.source, expected, fillvalue="") if old != new)
    problems.warn(where, f"unit '{unit.key}' was translated from another source text: the file has "
                         f"{_shown(found)}, the source catalog now {_shown(now)}: not imported",
                  "translate it again from a fresh `pnp i18n export` (the source changed since this file "
                  "was exported)")
    return True


def _shown(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:59] + "…")


def _unchanged(values: dict[str, dict[str, str]], target: Catalog | None) -> set[str]:
    """The keys whose every form the catalog already holds as imported."""
    current = target.entries if target is not None else {}
    unchanged = set()
    for key, texts in values.items():
        entry = current.get(key)
        old = (entry.plural if entry is not None and entry.plural is not None
               else {"other": entry.text} if entry is not None else None)
        if old is not None and all(old.get(form) == text for form, text in texts.items()):
            unchanged.add(key)
    return unchanged


def _forms(unit: ReadUnit, plural: bool, forms: tuple[str, ...], where: SourceMark,
           problems: Problems) -> dict[str, str] | None:
    """The unit's texts by form, or None (reported) when their number is not the language's."""
    if not plural:
        if unit.plural or len(unit.texts) != 1:
            problems.add(where, f"unit '{unit.key}' has {len(unit.texts)} plural forms, but the key is one text",
                         "export a fresh file: the key is no longer a plural")
            return None
        return {"other": unit.texts[0]}
    if len(unit.texts) != len(forms):
        problems.add(where, f"unit '{unit.key}' has {len(unit.texts)} plural form(s); the language uses "
                            f"{len(forms)} ({', '.join(forms)})",
                     "give every form, in this order (the file's Plural-Forms header)")
        return None
    empty = [form for form, text in zip(forms, unit.texts, strict=True) if not text]
    if empty:
        problems.add(where, f"unit '{unit.key}': the plural form(s) {', '.join(empty)} are empty",
                     "translate every form, or leave the whole unit untranslated")
        return None
    return dict(zip(forms, unit.texts, strict=True))


def _placeholders_match(key: str, texts: dict[str, str], source: dict[str, str], where: SourceMark,
                        problems: Problems) -> bool:
    """A plain text keeps exactly the source's placeholders; each plural form keeps every one but
    {count} (a form for one may say the number in words) and brings in none of its own."""
    expected = Counter(PLACEHOLDER.findall(source.get("other", "")))
    allowed = set().union(*(PLACEHOLDER.findall(text) for text in source.values()))
    for form, text in texts.items():
        got = Counter(PLACEHOLDER.findall(text))
        if len(texts) == 1:
            missing, extra = expected - got, got - expected
        else:
            missing = Counter({token: 1 for token in expected if token != "{count}" and token not in got})
            extra = Counter({token: 1 for token in got if token not in allowed})
        if missing or extra:
            what = [f"missing {' '.join(sorted(missing.elements()))}" if missing else "",
                    f"not in the source {' '.join(sorted(extra.elements()))}" if extra else ""]
            label = f" (form '{form}')" if len(texts) > 1 else ""
            problems.add(where, f"unit '{key}'{label}: placeholders differ from the source: "
                                + ", ".join(part for part in what if part),
                         f"keep {' '.join(sorted(allowed)) or 'no placeholder'} exactly as written in the source "
                         "({name} is filled in by the game, {icon:name} is a picture)")
            return False
    return True


def _check_layout(source: GameSource, lang: str, text: str, catalog_file: Path, lines: dict[str, int],
                  file: Path, problems: Problems, cells: dict[SheetText, str] | None = None) -> None:
    """Lay the game out in the language with the new catalog, as `pnp check` does, before it is written:
    a character that no font of a box printing the text has (U+2028, a control or format character) is
    an error at the unit's line in FILE, by the layout's own rule (TextSetter.uncovered); a text that
    does not fit its box is a warning there. `cells`: the sheets' cells given new texts."""
    read = Problems()
    document = parse_yaml(text, catalog_file, read)
    if document is None:
        return
    catalogs = dict(source.catalogs)
    catalog = catalog_from_document(document, lang, read)
    add_sheet_texts({lang: catalog}, with_new_texts(source.sheet_texts, lang, cells or {}), read)
    written_to = {cell.key: str(cell.mark) for cell in cells or {}}
    source.catalogs[lang] = catalog
    library = FontLibrary()
    try:
        usages, _, _ = record_usage(source, lang, library)
    finally:
        source.catalogs.clear()
        source.catalogs.update(catalogs)
    # the game's own fonts too, as the layout had them (a character only they have is no problem)
    setter = TextSetter(FontLibrary(game_families(source.folder, source.game.font_files, lambda where, message: None))
                        if source.game.font_files else library)
    # one error per script (at its first unit's line), as `pnp check` says it once per language and script
    by_script: dict[str, list[tuple[str, int, list[str], tuple[str, ...], str, str]]] = {}
    for key, line in lines.items():
        usage, entry = usages.get(key), catalog.entries.get(key)
        texts = (entry.plural or {"other": entry.text or ""}).values() if entry is not None else ()
        for use in (usage.boxes.values() if usage else ()):
            stack = use.room.style.stack
            missing = list(dict.fromkeys(char for text in texts for char in text
                                         if char in setter.uncovered(text, stack)))
            if missing:
                scripts = dict.fromkeys(script_of(char) for char in missing)
                for script in scripts:
                    by_script.setdefault(script, []).append((key, line, [char for char in missing
                                                                         if script_of(char) == script],
                                                             stack, use.room.box, use.room.template))
                break
    for script, units in by_script.items():
        key, line, missing, stack, box, template = units[0]
        more = "" if len(units) == 1 else (
            f"; so do {len(units) - 1} more unit{'s' if len(units) > 2 else ''} "
            f"(lines {', '.join(str(unit[1]) for unit in units[1:6])}{' …' if len(units) > 6 else ''})")
        chars = frozenset(char for unit in units for char in unit[2])
        problems.add(SourceMark(file, line, 1),
                     f"unit '{key}' holds {', '.join(f'U+{ord(char):04X}' for char in missing)}, which no "
                     f"font of box '{box}' of template '{template}' has ({', '.join(stack)}): `pnp check` would "
                     f"refuse it{more}",
                     "remove it (a line break inside a text is \\n), or add a font that has it to the stack in "
                     "game.yaml fonts" if script in ("Common", "Inherited") else
                     font_to_add(setter.library, script, chars, stack))
    for key, line in lines.items():
        usage = usages.get(key)
        for use in (usage.boxes.values() if usage else ()):
            if use.fits:
                continue
            problems.warn(SourceMark(file, line, 1),
                          f"unit '{key}' does not fit box '{use.room.box}' of template '{use.room.template}' "
                          f"({use.subjects[0]}{' …' if len(use.subjects) > 1 else ''}): {use.overflow:.1f} mm too "
                          f"long at {use.room.style.min_size:g} pt (written to "
                          f"{written_to.get(key, display_path(catalog_file))})",
                          f"shorten it to {use.room.lines} line(s) of {use.room.width_pt} pt; `pnp check "
                          f"{source.id} --lang {lang}` fails until it fits")
