"""Translation status: per game and language, what is translated, missing and unused.

"Used" means looked up while laying out every edition of the game, so the
report knows exactly which keys the content needs. pnp's own words on a game's
pages (the kit's headings and steps, the words around the cover facts, the
rulebook's contents heading and footer) are counted apart: how many the game's
catalog says its own way, and, per language, the ones pnp has no words for and
the game's catalog does not say either, which would show in English. A missing
text whose place is a sheet's cell (`name@bg`, empty) is listed under its sheet,
with the cell to fill in: it goes there, not into the catalog.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.content.game import GameSource
from generator.content.sheet_texts import lives_in_sheet
from generator.content.spreadsheet import CellMark
from generator.errors import SourceMark, display_path
from generator.i18n.engine_text import lacking_keys, overridden, shown_engine_keys


@dataclass(frozen=True)
class LanguageStatus:
    game: str
    lang: str
    total: int
    translated: int
    missing: tuple[str, ...]
    unused: tuple[str, ...]
    file: str
    engine_total: int = 0                   # pnp's own keys whose words the game's pages show
    engine_overridden: int = 0              # ... that the game's catalog says its own way
    engine_in_english: tuple[str, ...] = ()  # ... left to pnp, which has no words for them in this language
    # the missing keys whose text goes into an empty cell of a sheet: (sheet, key, cell), by sheet and row
    in_cells: tuple[tuple[str, str, str], ...] = ()


def language_status(source: GameSource, used: set[str]) -> list[LanguageStatus]:
    rows = []
    engine_keys = shown_engine_keys(source.game, source.rules.rulebook if source.rules is not None else None)
    for lang in source.game.languages:
        catalog = source.catalogs.get(lang)
        entries = catalog.entries if catalog else {}
        # an engine key another catalog says its own way is not missing here: pnp says it (a stub's empty one is)
        counted = {key for key in used if key not in engine_keys or key in entries}
        translated = {key for key in counted if key in entries and not entries[key].untranslated}
        own = [key for key in engine_keys if overridden(key, translated)]
        missing = counted - translated
        cells = sorted((_cell(entries[key].mark), key) for key in missing if lives_in_sheet(entries.get(key)))
        rows.append(LanguageStatus(
            source.id, lang, len(counted), len(translated), tuple(sorted(missing)),
            tuple(sorted(set(entries) - used)),
            str(catalog.file if catalog else source.folder / "i18n" / f"{lang}.yaml"),
            len(engine_keys), len(own),
            tuple(key for key in lacking_keys(lang, engine_keys) if key not in own),
            tuple((sheet, key, cell) for (sheet, _, _, cell), key in cells)))
    return rows


def format_status(rows: list[LanguageStatus], details: bool = True) -> str:
    lines = [f"{'game':<20} {'lang':<6} {'translated':>12} {'missing':>8} {'unused':>7} {'pnp words':>10}"]
    for row in rows:
        engine = f"{row.engine_overridden}/{row.engine_total}" + (" en" if row.engine_in_english else "")
        lines.append(f"{row.game:<20} {row.lang:<6} {f'{row.translated}/{row.total}':>12} "
                     f"{len(row.missing):>8} {len(row.unused):>7} {engine:>10}")
    if details:
        for row in rows:
            in_english = (f"pnp's words shown in English (pnp has none in '{row.lang}'): say them under the same "
                          "keys in")
            in_cells = {key for _, key, _ in row.in_cells}
            for title, keys in (("missing in", tuple(key for key in row.missing if key not in in_cells)),
                                ("unused in", row.unused), (in_english, row.engine_in_english)):
                if keys:
                    lines.append(f"\n{row.game} {row.lang} — {title} {row.file}:")
                    lines.extend(f"  {key}" for key in keys)
            for sheet in dict.fromkeys(sheet for sheet, _, _ in row.in_cells):
                lines.append(f"\n{row.game} {row.lang} — missing in {sheet}, the empty cells to fill in:")
                lines.extend(f"  {cell:<6} {key}" for where, key, cell in row.in_cells if where == sheet)
    if details and any(row.engine_total for row in rows):
        lines.append("\npnp words: pnp's own words on the pages (kit, cover facts, rulebook contents and footer)"
                     " the game's catalog says its own way / all of them; 'en': some show in English. A game's"
                     " catalog overrides any of pnp's words under the same key.")
    return "\n".join(lines)


def _cell(mark: SourceMark) -> tuple[str, int, int, str]:
    """A cell's sheet as messages name it (its file, a workbook's sheet in brackets), row, column and
    name ('D3'): sorted, by sheet, row and column."""
    assert isinstance(mark, CellMark)      # lives_in_sheet: the entry's mark is its cell
    return (display_path(mark.file) + (f"[{mark.sheet}]" if mark.sheet else ""), mark.line, mark.column,
            mark.cell)
