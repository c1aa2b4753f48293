"""Words the engine itself prints (not a game's): the kit's headings and printing steps, the words around
a game's facts on covers, the rulebook's contents heading and footer, the calibration sheet's instructions.

They are catalogs like a game's, shipped inside the package (generator/i18n/engine/<lang>.yaml, the same
format: one root key, nested keys, CLDR plural forms), read on first use, one language at a time. A game's
own catalog overrides any of them under the same key (components/kit.py and rulebook/resolve.py ask the
game's first); a language the engine has no catalog for gets the English words, and `pnp i18n status` lists
them as words the game could translate (i18n/status.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from types import MappingProxyType

from generator.caches import cached
from generator.content.yaml_source import load_yaml      # the catalogs' own reader
from generator.errors import Problems
from generator.i18n.catalog import Catalog, catalog_from_document, interpolate
from generator.i18n.engine_catalogs import ENGINE_CATALOGS, engine_languages

SOURCE_LANGUAGE = "en"       # every key is here; the other catalogs have the same keys (tests check it)

# The kit's printing steps, one key each, picked and filled from what a build made (imposition/instructions.py).
# Placeholders: {pages} a list of page ranges of kit.pdf, {x} and {y} millimetres.
KIT_STEP_PLACEHOLDERS = ("pages", "x", "y")
KIT_STEP_PREFIX = "kit.step."
# Keys a game reads (and may override in its own catalog); calibration.* belongs to `pnp calibrate` alone.
GAME_PREFIXES = ("kit.", "game.", "rules.")
# the rulebook's own words: the contents page's heading and the footer's "Rules" (between title and edition)
RULEBOOK_KEYS = ("rules.toc", "rules.title")
# codes a game may write for a language whose catalog pnp ships under another name (matched case-blind):
# the script a region writes (Taiwan, Hong Kong and Macao: Traditional Chinese), the older or the other
# written standard's code (Norwegian no and nn read Bokmål; iw, in: Hebrew's and Indonesian's former codes)
ALIASES = MappingProxyType({"zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant", "zh-cn": "zh",
                            "zh-sg": "zh", "zh-hans": "zh", "no": "nb", "nn": "nb", "iw": "he", "in": "id"})

_LAST_NUMBER = re.compile(r"(\d+)\D*$")
# a game.yaml fact written like a translation key ('game.age') is the game's own words, not the engine's
KEY_LIKE = re.compile(r"[A-Za-z_][\w-]*(\.[\w-]+)+")
# catalog keys that replace an engine key before the key itself does: the rulebook cover's players words
OVERRIDES = MappingProxyType({"game.players": ("rules.cover.players",)})


class EngineCatalogError(RuntimeError):
    """A catalog shipped with pnp does not read: a bug in pnp, not in a game."""


# a build asks for a few languages; pnp ships about forty catalogs (emptied with the other files read)
@cached("i18n.engine_catalog", maxsize=32, reads_files=True)
def engine_catalog(lang: str) -> Catalog:
    """The engine's catalog nearest to `lang` ('pt-BR' → its own, 'pt-AO' → pt, 'zh-TW' → zh-Hant, then
    English), read once per build context."""
    name = engine_language(lang) or SOURCE_LANGUAGE
    file = ENGINE_CATALOGS / f"{name}.yaml"
    if not file.is_file():
        raise EngineCatalogError(f"pnp's English catalog is missing: {ENGINE_CATALOGS / 'en.yaml'}")
    return _read(file, name)


def engine_language(lang: str) -> str | None:
    """The name of the catalog pnp speaks `lang` with: the code itself, its alias, its language without
    the region ('de-AT' → de), case-blind ('pt-br' → pt-BR); None where pnp has no words of its own."""
    shipped = {name.casefold(): name for name in engine_languages()}
    code = lang.casefold()
    base = code.split("-")[0]
    for candidate in (code, ALIASES.get(code, "").casefold(), base, ALIASES.get(base, "").casefold()):
        if candidate in shipped:
            return shipped[candidate]
    return None


def lacking_keys(lang: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `keys` pnp has no words for in `lang`: a game in it prints them in English unless its own
    catalog says them (every key, in a language pnp has no catalog for)."""
    if engine_language(lang) is None:
        return keys
    entries = engine_catalog(lang).entries
    return tuple(key for key in keys if key not in entries or entries[key].untranslated)


def _read(file: Path, lang: str) -> Catalog:
    problems = Problems()
    document = load_yaml(file, problems)
    # their plural forms are checked by tests/i18n/test_engine_catalogs.py, not by every build
    catalog = (catalog_from_document(document, lang, problems, check_plural_forms=False)
               if document is not None else None)
    if catalog is None or problems.errors:
        raise EngineCatalogError(f"{file}: " + "; ".join(problem.message for problem in problems.errors))
    return catalog


def engine_keys(prefixes: tuple[str, ...] = GAME_PREFIXES) -> tuple[str, ...]:
    """The engine's keys that start with one of `prefixes`, in the English catalog's order."""
    return tuple(key for key in engine_catalog(SOURCE_LANGUAGE).entries if key.startswith(prefixes))


def kit_step_keys() -> tuple[str, ...]:
    """The kit's printing steps (kit.step.*), each a key a game may override."""
    return engine_keys((KIT_STEP_PREFIX,))


def engine_word(lang: str, key: str, args: dict | None = None, count: int | float | None = None) -> str:
    """The engine's words for `key` in a language, placeholders filled from `args`; a plural entry takes the
    form of `count`. Raises KeyError for a key the engine does not have."""
    catalog = engine_catalog(lang)
    entry = catalog.entries.get(key) or engine_catalog(SOURCE_LANGUAGE).entries[key]
    text = entry.text
    if entry.plural is not None:
        category = catalog.plural_category(count) if count is not None else "other"
        text = entry.plural.get(category, entry.plural["other"])
    return interpolate(text or "", args or {})


def shown_engine_keys(game, rulebook=None) -> tuple[str, ...]:
    """The engine's keys whose words a game's pages show unless its catalog has them: the kit's headings and
    printing steps, the words around the facts game.yaml gives (players, age, playing time as text), and
    with a rulebook (rules.yaml's `rulebook`) its footer's word and, unless a leaflet, its contents heading."""
    shown = [key for key in engine_keys(("kit.",))]
    if any(edition.players for edition in game.editions.values()):
        shown.append("game.players")
    shown += [f"game.{name}" for name in ("age", "play_time")
              if getattr(game, name) and not KEY_LIKE.fullmatch(getattr(game, name))]
    if rulebook is not None:
        shown += [key for key in RULEBOOK_KEYS if key != "rules.toc" or not rulebook.leaflet]
    return tuple(shown)


def override_keys(key: str) -> tuple[str, ...]:
    """The keys of a game's catalog that say an engine key its own way, the first found winning."""
    return OVERRIDES.get(key, ()) + (key,)


def overridden(key: str, catalog_keys) -> bool:
    """Whether a game's catalog (its keys) says an engine key its own way."""
    return any(name in catalog_keys for name in override_keys(key))


def kit_word(lang: str, key: str) -> str:
    """The engine's word for a kit key in a language (English where it has none; '' for the keys it leaves
    to a game: kit.print_steps, kit.also_needed, kit.warning). Placeholders stay as written."""
    if key not in engine_catalog(SOURCE_LANGUAGE).entries:
        return ""
    entry = engine_catalog(lang).entries.get(key) or engine_catalog(SOURCE_LANGUAGE).entries[key]
    return entry.text or ""


def kit_steps(lang: str) -> dict[str, str]:
    """Every printing step's words in a language, placeholders as written ({pages}, {x}, {y})."""
    return {key: kit_word(lang, key) for key in kit_step_keys()}


def fact_word(lang: str, key: str, args: dict) -> str:
    """The engine's words around a cover fact (game.players, game.age, game.play_time) in a language, filled
    in; the players' words take the plural form of the count's last number ('2–4' in Russian: 'игрока')."""
    return engine_word(lang, key, args, fact_count(args))


def fact_count(args: dict) -> int | None:
    """The count a cover fact's plural form follows: the last number of the players ('2–6' → 6; CLDR's
    ranges take the form of their end), None for the other facts."""
    match = _LAST_NUMBER.search(str(args.get("players", "")))
    return int(match.group(1)) if match else None


def calibration_instructions(lang: str, duplex: str) -> str:
    """What the calibration sheet tells the user to do, for a flip on the long or the short edge."""
    edge = engine_word(lang, f"calibration.edge.{duplex}")
    return engine_word(lang, "calibration.instructions", {"edge": edge, "option": "--back-offset"})
