"""Texts kept in a sheet's language columns (`name@bg`): joined to their catalogs, and where each lives.

Load stage, after the sets' sheets are read (sheet_entries.py). One source of truth per text:
a text lives in its cell, or in its language's catalog, and every command that reads or writes
texts asks here which. After `add_sheet_texts`, a catalog entry whose mark is a cell (`CellMark`)
lives in the sheet: the cell's text, or an empty cell waiting for one (which `pnp check` reports
at that cell, not at the key's column); any other entry lives in the catalog file. `text_places`
says where a new text for a key goes: its cells, its catalog, or (a text written in both, the same
in each: a warning at load) both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from generator.content.sheet_entries import SheetText
from generator.content.spreadsheet import CellMark
from generator.errors import Problems, SourceMark, display_path
from generator.i18n.catalog import Catalog, Entry

# as a catalog's text: a line break and a tab are the only control characters a printed text holds
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def add_sheet_texts(catalogs: dict[str, Catalog], texts: Iterable[SheetText], problems: Problems,
                    new_catalogs: dict[str, Path] | None = None) -> dict[str, set[str]]:
    """Each sheet text into its language's catalog; language → keys a sheet column holds.

    A key written in two places with two texts is an error at the cell; with the same text, a warning
    (a later edit would change one of them). An empty cell gives way to the catalog's text; the
    catalog's empty value (as `pnp i18n stub` writes it) to the cell, full or empty. `new_catalogs`:
    languages read in this run whose catalog file is missing (reported) → that file: their texts go into
    a catalog of the sheet's texts alone, so status, stub and export still see what the sheet says.
    """
    sheet_keys: dict[str, set[str]] = {}
    for text in texts:
        catalog = catalogs.get(text.lang)
        if catalog is None and new_catalogs and text.lang in new_catalogs:
            catalog = catalogs[text.lang] = Catalog(text.lang, new_catalogs[text.lang])
        if catalog is None:          # not read in this run (--lang), or an unreadable catalog (reported)
            continue
        sheet_keys.setdefault(text.lang, set()).add(text.key)
        control = _CONTROL.search(text.text)
        if control:
            problems.add(text.mark, f"the {text.lang} text of '{text.key}' holds the control character "
                         f"U+{ord(control.group()):04X}", "delete it: only a line break and a tab belong in a "
                         "printed text")
        written = catalog.entries.get(text.key)
        if written is None or (written.untranslated and (text.text or not isinstance(written.mark, CellMark))):
            catalog.entries[text.key] = Entry(text.text, None, text.mark)
        elif not text.text:
            continue
        elif written.plural is not None or written.text != text.text:
            problems.add(text.mark, f"the {text.lang} text of '{text.key}' is also written at {written.mark}",
                         "keep it in one place: clear this cell, or remove the key there "
                         f"({_shown(text.text)} here, {_shown(written.text or 'plural forms')} there)")
        elif not isinstance(written.mark, CellMark):
            problems.warn(text.mark, f"the {text.lang} text of '{text.key}' is written twice: in this cell and at "
                          f"{written.mark} (the same text)",
                          f"keep it in one place: clear this cell, or remove the key from "
                          f"{display_path(written.mark.file)}")
    return sheet_keys


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:39] + "…")


def lives_in_sheet(entry: Entry | None) -> bool:
    """Whether a (loaded) catalog entry is a sheet's cell: its text, or the empty cell waiting for it."""
    return entry is not None and isinstance(entry.mark, CellMark)


def cells_by_key(texts: Iterable[SheetText], lang: str) -> dict[str, list[SheetText]]:
    """The cells of `lang`'s columns by the key they give a text, in the sheets' order."""
    found: dict[str, list[SheetText]] = {}
    for text in texts:
        if text.lang == lang:
            found.setdefault(text.key, []).append(text)
    return found


def text_places(entry: Entry | None, cells: list[SheetText]) -> tuple[bool, list[SheetText]]:
    """Where a new text of a key goes: (into its catalog, into these cells).

    A key with no cell goes into the catalog; one whose text is a cell's, into every cell that holds
    its text (all of its cells while none does: they wait for it); one whose text is the catalog's
    goes there, and into a cell saying the same (both stay the same, so nothing is written twice
    differently).
    """
    if not cells:
        return True, []
    filled = [cell for cell in cells if cell.text]
    if lives_in_sheet(entry):
        return False, filled or cells
    if entry is None or entry.untranslated:
        return False, cells
    return True, filled


Values = dict[str, dict[str, str]]     # key → {form: text} ('other' alone for a plain text), as imported


def placed(values: Values, unchanged: set[str], catalog: Catalog | None, texts: Iterable[SheetText], lang: str,
           where: Callable[[str], SourceMark], problems: Problems) -> tuple[Values, dict[SheetText, str]]:
    """Imported texts by where they live: those for the catalog (unchanged ones too: its writer keeps their
    bytes), and each cell to write with its new text (changed keys only, cells not holding it yet). A key
    with plural forms whose text lives in a cell is an error at `where(key)`: a cell holds one text."""
    cells = cells_by_key(texts, lang)
    entries = catalog.entries if catalog is not None else {}
    into_catalog: Values = {}
    into_cells: dict[SheetText, str] = {}
    for key, forms in values.items():
        to_catalog, to_cells = text_places(entries.get(key), cells.get(key, []))
        if to_catalog:
            into_catalog[key] = forms
        if not to_cells or key in unchanged:
            continue
        if set(forms) != {"other"}:
            problems.add(where(key), f"unit '{key}' has plural forms, but its {lang} text lives in cell "
                                     f"{to_cells[0].mark.cell} of {display_path(to_cells[0].mark.file)}, which "
                                     "holds one text", f"move the key into the catalog, plural forms and all, and "
                                     f"clear column {to_cells[0].column}'s cell")
            continue
        into_cells.update((cell, forms["other"]) for cell in to_cells if cell.text != forms["other"].strip())
    return into_catalog, into_cells


def with_new_texts(texts: Iterable[SheetText], lang: str, new: dict[SheetText, str]) -> list[SheetText]:
    """The cells of `lang`'s columns as they read once `new` is written into them."""
    return [replace(text, text=new[text].strip()) if text in new else text for text in texts if text.lang == lang]
