"""The catalog keys each face of `pnp serve` prints, for a translator: its texts, where each is written in the
shown language's catalog, and which overflow their box.

The rebuild lays the game out with a recorder listening (components/context.py `recording`, as `pnp i18n
export` does): each text a box sets is told with its key, its template, the subject it was set for (the card,
the deck's back, the board and its cells) and whether it fits. A face is then matched to its subject by the
label layout gives it: 'deck gifts, card teddy' for a card's front, and everything below a board's label
('board board, track cell 5') for the board. Read-only: the page shows them, the translator edits the catalog.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from generator.components.context import LayoutContext, SetText
from generator.content.game import GameSource
from generator.errors import SourceMark

# as pieces.py labels a set's subjects
NOUNS = MappingProxyType({"cards": "deck", "tokens": "token set", "pawns": "pawn set"})


@dataclass(frozen=True)
class KeyOnFace:
    """One key a face prints."""

    key: str
    text: str           # its text in the shown language (the source language's where it has none)
    where: str          # its line in the catalog: 'i18n/ru.yaml:12'
    overflows: bool     # set too large for its box even at its smallest size


@dataclass
class FaceKeyRecorder:
    """A TextRecorder (components/context.py) keeping, per (subject, template), the keys set and whether each fits."""

    sets: dict[tuple[str, str], dict[str, bool]] = field(default_factory=dict)

    def looked_up(self, ctx: LayoutContext, key: str, mark: SourceMark) -> None:
        pass            # (a key looked up for a text no box sets — a kit's word — is no face's)

    def text_set(self, ctx: LayoutContext, key: str, setting: SetText) -> None:
        fits = self.sets.setdefault((setting.subject, setting.template), {})
        fits[key] = fits.get(key, True) and bool(setting.layout.fits)

    def keys(self, subject: str, template: str | None, source: GameSource, lang: str) -> list[KeyOnFace]:
        """The keys set for `subject` (and every subject below it: a board's cells, a map's nodes), in the order
        they were set; with `template`, only those set in that template (a deck's back, laid out per card)."""
        found: dict[str, bool] = {}
        for (label, used_template), fits in self.sets.items():
            if (label == subject or label.startswith(subject + ",")) and template in (None, used_template):
                for key, fit in fits.items():
                    found[key] = found.get(key, True) and fit
        return [_on_face(key, not fit, source, lang) for key, fit in found.items()]


def _on_face(key: str, overflows: bool, source: GameSource, lang: str) -> KeyOnFace:
    catalog = source.catalogs.get(lang)
    entry = catalog.entries.get(key) if catalog is not None else None
    if entry is None or entry.untranslated:
        fallback = source.catalogs.get(source.source_language)
        entry = fallback.entries.get(key) if fallback is not None else entry
    if entry is None:
        return KeyOnFace(key, "", "", overflows)
    text = entry.text if entry.text is not None else " / ".join(f"{category}: {value}" for category, value
                                                                 in (entry.plural or {}).items())
    try:
        shown = entry.mark.file.relative_to(source.folder).as_posix()
    except ValueError:
        shown = entry.mark.file.name
    return KeyOnFace(key, text, f"{shown}:{entry.mark.line}" if entry.mark.line else shown, overflows)
