"""`pnp new GAME`: a small working game folder to start from — it builds at once."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from types import MappingProxyType

import yaml

from generator.content.json_schema import annotate, write_schemas
from generator.content.schema import FORMAT
from generator.errors import printable
from generator.text.fonts import DEFAULT_STACK

ART = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'
       '<polygon points="50,6 62,38 96,38 68,58 79,92 50,71 21,92 32,58 4,38 38,38" fill="#f2b705" '
       'stroke="#3a2a2a" stroke-width="3" stroke-linejoin="round"/></svg>\n')

FILES = MappingProxyType({
    "game.yaml": """\
    # The game: its id, title, languages (the first is the source), editions, fonts and colours.
    format: {format}      # the game format these files are written in (pnp upgrade brings older games here)
    id: {id}
    title: game.title
    languages: [{lang}]
    editions:
      standard: {{name: game.edition, players: "2–4", ink_saver: true}}   # ink_saver: cards-ink-saver.pdf too
    fonts:
      body: [{body_fonts}]
    palette:
      main: "#1f5e3a"
    """,
    "cards.yaml": """\
    # Decks: each card's count and its fields; the template shows the fields.
    decks:
      - id: cards
        name: deck.cards
        template: {id}-card
        back: {id}-back
        ink_saver_back: {id}-back-ink      # light backs for home printers
        fields: {{color: main}}
        cards:
          - {{id: first, count: 3, fields: {{name: cards.first.name, rule: cards.first.rule, art: art/star.svg}}}}
          - {{id: second, count: 2, fields: {{name: cards.second.name, rule: cards.second.rule, art: art/star.svg}}}}
    """,
    "templates/{id}-card.yaml": """\
    # A card front: the shared framed poker card with a title, a picture and a rule.
    extends: poker-card-framed
    boxes:
      title: {{kind: text, text: "@name", x: 5, y: 14, width: 53, height: 10, style: title}}
      picture: {{kind: art, art: "@art", x: 16.5, y: 26, width: 30, height: 30}}
      rule: {{kind: text, text: "@rule", x: 6, y: 58, width: 51, height: 24, style: body}}
    """,
    "templates/{id}-back.yaml": """\
    # The back: the deck colour to the bleed edge and the deck's name.
    extends: poker-card
    styles:
      name: {{font: body, size: 14pt, min_size: 8pt, weight: black, color: paper, align: center, valign: middle}}
    boxes:
      ground: {{kind: rect, area: bleed, fill: main}}
      name: {{kind: text, text: "@deck", x: 6, y: 38, width: 51, height: 12, style: name}}
    """,
    "templates/{id}-back-ink.yaml": """\
    # The ink-saver back: the back on white, the deck's name in its colour inside a thin frame.
    extends: {id}-back
    styles:
      name: {{font: body, size: 14pt, min_size: 8pt, weight: black, color: main, align: center, valign: middle}}
    boxes:
      ground: {{kind: rect, area: bleed, fill: paper}}
      frame: {{kind: rect, area: safe, stroke: main, stroke_width: 0.6, radius: 3}}
    """,
    "i18n/{lang}.yaml": """\
    # Every word of the game, in one language.
    {lang}:
      game:
        title: {title}
        edition: "Standard edition"
      deck:
        cards: "Card"
      cards:
        first:
          name: "First card"
          rule: "Write what this card does. **Bold** and *italic* work."
        second:
          name: "Second card"
          rule: "Change the counts in cards.yaml, the look in templates/."
    """,
})


def scaffold(content_root: Path, game_id: str, lang: str = "en", title: str | None = None,
             schemas: Path | None = None) -> Path:
    """Create `content_root`/`game_id` (any folder will do) with the schemas its files name:
    written into `schemas` (a project's schemas/) or, by default, the game's own schemas/, so
    the editor finds them wherever the folder is kept. Its templates extend the shared ones
    shipped with pnp."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", game_id):
        raise ValueError(f"'{printable(game_id)}' is not a game id: use lower-case letters, digits, '-' and '_'")
    folder = content_root / game_id
    if folder.exists():
        raise ValueError(f"{printable(str(folder))} already exists")
    values = {"id": game_id, "lang": lang, "title": _catalog_text(title or game_id.replace("-", " ").title()),
              "body_fonts": ", ".join(DEFAULT_STACK), "format": FORMAT}
    for name, text in FILES.items():
        path = folder / name.format(**values)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_dedent(text).format(**values), encoding="utf-8")
    (folder / "art").mkdir(exist_ok=True)
    (folder / "art" / "star.svg").write_text(ART, encoding="utf-8")
    schemas = schemas or folder / "schemas"
    write_schemas(schemas)
    for path in folder.rglob("*.yaml"):
        annotate(path, schemas)
    return folder


def _catalog_text(title: str) -> str:
    """The title as the catalog writes it: braces doubled (a catalog's '{name}' is a placeholder)
    and the whole a YAML double-quoted text, so quotes and backslashes stay as typed. A control
    character is refused: it made a game whose catalog `pnp check` refused."""
    if printable(title) != title:
        raise ValueError(f"the title '{printable(title)}' holds a control character: a title is one line "
                         "of printable text; type it again without it")
    text = title.replace("{", "{{").replace("}", "}}")
    return yaml.safe_dump(text, default_style='"', allow_unicode=True, width=2**31).rstrip("\n")


def _dedent(text: str) -> str:
    return textwrap.dedent(text)
