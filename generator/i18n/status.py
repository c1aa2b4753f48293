"""Translation status: per game and language, what is translated, missing and unused.

"Used" means looked up while laying out every edition of the game, so the
report knows exactly which keys the content needs. pnp's own words on a game's
pages (the kit's headings and steps, the words around the cover facts, the
rulebook's contents heading and footer) are counted apart: how many the game's
catalog says its own way, and, per language, the ones pnp has no words for and
the game's catalog does not say either, which would show in English.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.content.game import GameSource
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
        rows.append(LanguageStatus(
            source.id, lang, len(counted), len(translated), tuple(sorted(counted - translated)),
            tuple(sorted(set(entries) - used)),
            str(catalog.file if catalog else source.folder / "i18n" / f"{lang}.yaml"),
            len(engine_keys), len(own),
            tuple(key for key in lacking_keys(lang, engine_keys) if key not in own)))
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
            for title, keys in (("missing in", row.missing), ("unused in", row.unused),
                                (in_english, row.engine_in_english)):
                if keys:
                    lines.append(f"\n{row.game} {row.lang} — {title} {row.file}:")
                    lines.extend(f"  {key}" for key in keys)
    if details and any(row.engine_total for row in rows):
        lines.append("\npnp words: pnp's own words on the pages (kit, cover facts, rulebook contents and footer)"
                     " the game's catalog says its own way / all of them; 'en': some show in English. A game's"
                     " catalog overrides any of pnp's words under the same key.")
    return "\n".join(lines)
