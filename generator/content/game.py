"""Load a game folder: game.yaml, cards.yaml, the language catalogs and its templates."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.content.schema import CardsFile, Deck, Game
from generator.content.templates import TemplateLibrary
from generator.content.validate import validate
from generator.content.yaml_source import YamlDocument, load_yaml
from generator.errors import Problems, SourceMark
from generator.i18n.catalog import Catalog, load_catalog


@dataclass
class GameSource:
    """Everything read from one game folder, validated; documents keep source marks."""

    folder: Path
    game: Game
    game_document: YamlDocument
    cards: CardsFile | None = None
    cards_document: YamlDocument | None = None
    catalogs: dict[str, Catalog] = field(default_factory=dict)
    templates: TemplateLibrary | None = None

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def source_language(self) -> str:
        return self.game.languages[0]

    def deck_mark(self, deck_index: int, *path: str | int) -> SourceMark:
        assert self.cards_document is not None
        return self.cards_document.mark(("decks", deck_index) + path)


def find_games(content_root: Path) -> list[Path]:
    return sorted(p.parent for p in content_root.glob("*/game.yaml"))


def load_game(folder: Path, problems: Problems) -> GameSource | None:
    """Read and validate a game folder; every problem goes to `problems`."""
    game_document = load_yaml(folder / "game.yaml", problems)
    if game_document is None:
        return None
    game = validate(Game, game_document.data, game_document, problems)
    if game is None:
        return None
    source = GameSource(folder, game, game_document)
    source.templates = TemplateLibrary(folder, problems)
    for lang in game.languages:
        catalog = load_catalog(folder, lang, problems)
        if catalog is not None:
            source.catalogs[lang] = catalog
    cards_file = folder / "cards.yaml"
    if cards_file.exists():
        document = load_yaml(cards_file, problems)
        if document is not None:
            source.cards_document = document
            source.cards = validate(CardsFile, document.data, document, problems)
            if source.cards is not None:
                _check_decks(source, problems)
    return source


def _check_decks(source: GameSource, problems: Problems) -> None:
    """What the schema cannot see: unique ids, known editions and templates."""
    assert source.cards is not None and source.cards_document is not None and source.templates is not None
    editions = set(source.game.editions)
    deck_ids: dict[str, int] = {}
    for deck_index, deck in enumerate(source.cards.decks):
        if deck.id in deck_ids:
            problems.add(source.deck_mark(deck_index, "id"), f"duplicate deck id '{deck.id}'",
                         f"deck ids must be unique; the first is deck {deck_ids[deck.id] + 1}")
        deck_ids.setdefault(deck.id, deck_index)
        for slot in ("template", "back", "ink_saver_back"):
            template_id = getattr(deck, slot)
            if template_id is None:
                continue
            if template_id not in source.templates.files:
                problems.add(source.deck_mark(deck_index, slot), f"unknown template '{template_id}'",
                             f"known templates: {', '.join(sorted(source.templates.files))}")
            else:
                source.templates.resolve(template_id)
        card_ids: set[str] = set()
        for card_index, card in enumerate(deck.cards):
            if card.id in card_ids:
                problems.add(source.deck_mark(deck_index, "cards", card_index, "id"),
                             f"duplicate card id '{card.id}' in deck '{deck.id}'", "card ids must be unique in a deck")
            card_ids.add(card.id)
            # point at the edition name itself: `count: {deluxe: 2}` marks `deluxe`, not the card
            card_path = ("decks", deck_index, "cards", card_index)
            named = [(name, source.cards_document.key_mark(card_path + ("count", name)))
                     for name in (card.count if isinstance(card.count, dict) else {})]
            named += [(name, source.deck_mark(deck_index, "cards", card_index, "editions", index))
                      for index, name in enumerate(card.editions or [])]
            for name, where in named:
                if name not in editions:
                    problems.add(where, f"unknown edition '{name}' in card '{card.id}'",
                                 f"editions in game.yaml: {', '.join(sorted(editions))}")


def card_count(deck: Deck, card_index: int, edition: str) -> int:
    """Copies of a card in an edition (0 when the edition leaves it out)."""
    card = deck.cards[card_index]
    if card.editions is not None and edition not in card.editions:
        return 0
    if isinstance(card.count, dict):
        return card.count.get(edition, 0)
    return card.count
