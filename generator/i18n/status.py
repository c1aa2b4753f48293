"""Translation status: per game and language, what is translated, missing and unused.

"Used" means looked up while laying out every edition of the game, so the
report knows exactly which keys the content needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.content.game import GameSource


@dataclass(frozen=True)
class LanguageStatus:
    game: str
    lang: str
    total: int
    translated: int
    missing: tuple[str, ...]
    unused: tuple[str, ...]
    file: str


def language_status(source: GameSource, used: set[str]) -> list[LanguageStatus]:
    rows = []
    for lang in source.game.languages:
        catalog = source.catalogs.get(lang)
        entries = catalog.entries if catalog else {}
        translated = {key for key in used if key in entries and not entries[key].untranslated}
        rows.append(LanguageStatus(
            source.id, lang, len(used), len(translated), tuple(sorted(used - translated)),
            tuple(sorted(set(entries) - used)),
            str(catalog.file if catalog else source.folder / "i18n" / f"{lang}.yaml")))
    return rows


def format_status(rows: list[LanguageStatus], details: bool = True) -> str:
    lines = [f"{'game':<20} {'lang':<6} {'translated':>12} {'missing':>8} {'unused':>7}"]
    for row in rows:
        lines.append(f"{row.game:<20} {row.lang:<6} {f'{row.translated}/{row.total}':>12} "
                     f"{len(row.missing):>8} {len(row.unused):>7}")
    if details:
        for row in rows:
            for title, keys in (("missing", row.missing), ("unused", row.unused)):
                if keys:
                    lines.append(f"\n{row.game} {row.lang} — {title} in {row.file}:")
                    lines.extend(f"  {key}" for key in keys)
    return "\n".join(lines)
