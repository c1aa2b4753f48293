"""Build planning and orchestration: games × editions × languages × papers into output files.

Every target is laid out (and so checked) before anything is written: a build
with content errors writes nothing and leaves the previous outputs as they were.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from generator.components.cards import LaidOutDeck, layout_decks
from generator.components.context import LayoutContext
from generator.content.game import GameSource, load_game
from generator.errors import ContentError, Problems, UsageError
from generator.imposition.grid import GridSpec, impose_cards
from generator.imposition.sheet import PAPER_SIZES, Document
from generator.imposition.single import impose_print_shop
from generator.render.pdf import render_pdf, write_atomically
from generator.render.png import pages_png
from generator.text.fonts import FontLibrary, game_families
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

PRINT_SHOP_DPI = 300


@dataclass(frozen=True)
class BuildOptions:
    editions: tuple[str, ...] | None = None
    languages: tuple[str, ...] | None = None
    papers: tuple[str, ...] = ("a4", "letter")
    out: Path = Path("output")
    duplex: str = "long-edge"
    gap: float = 0.0
    allow_fallback: bool = False
    print_shop: bool = True
    print_shop_png: bool = True


@dataclass
class Target:
    """One edition × language of a game, laid out and ready to impose."""

    source: GameSource
    edition: str
    lang: str
    decks: list[LaidOutDeck]

    @property
    def folder_parts(self) -> tuple[str, str, str]:
        return (self.source.id, self.edition, self.lang)


@dataclass
class BuildReport:
    written: list[Path] = field(default_factory=list)
    warnings: list = field(default_factory=list)
    seconds: float = 0.0


def load_games(folders: list[Path], problems: Problems) -> list[GameSource]:
    sources = []
    for folder in folders:
        source = load_game(folder, problems)
        if source is not None:
            sources.append(source)
    return sources


def layout_targets(sources: list[GameSource], options: BuildOptions, problems: Problems,
                   library: FontLibrary) -> list[Target]:
    """Lay out every requested edition × language; problems collect along the way."""
    targets = []
    for source in sources:
        setter = TextSetter(game_font_library(source, problems, library))
        editions = _select(source.game.editions, options.editions, "edition", source)
        languages = _select(source.game.languages, options.languages, "language", source)
        for edition in editions:
            for lang in languages:
                ctx = LayoutContext(source, edition, lang, setter, problems, options.allow_fallback)
                targets.append(Target(source, edition, lang, layout_decks(ctx)))
    return targets


def game_font_library(source: GameSource, problems: Problems, base: FontLibrary) -> FontLibrary:
    """The built-in families plus the game's own font files."""
    if not source.game.font_files:
        return base

    def report(path, message):
        problems.add(source.game_document.mark(path), message, "fix the path in game.yaml font_files")
    return FontLibrary(game_families(source.folder, source.game.font_files, report))


def _select(available, wanted: tuple[str, ...] | None, what: str, source: GameSource) -> list[str]:
    if wanted is None:
        return list(available)
    chosen = [item for item in wanted if item in available]
    if not chosen:
        raise UsageError(f"game '{source.id}' has no {what} {', '.join(wanted)} "
                         f"(it has {', '.join(available)})")
    return chosen


def build(folders: list[Path], options: BuildOptions) -> BuildReport:
    started = time.perf_counter()
    problems = Problems()
    library = FontLibrary()
    sources = load_games(folders, problems)
    problems.raise_if_errors()
    targets = layout_targets(sources, options, problems, library)
    problems.raise_if_errors()
    report = BuildReport()
    for target in targets:
        write_target(target, options, library, report)
    report.warnings = problems.warnings
    report.seconds = time.perf_counter() - started
    return report


def check(folders: list[Path], options: BuildOptions) -> Problems:
    """Everything a build checks, without writing a file."""
    problems = Problems()
    library = FontLibrary()
    sources = load_games(folders, problems)
    if not problems.errors:
        layout_targets(sources, options, problems, library)
    return problems


def write_target(target: Target, options: BuildOptions, library: FontLibrary, report: BuildReport) -> None:
    body = library.face("nunito").name
    base = options.out.joinpath(*target.folder_parts)
    copies = [copy for deck in target.decks for copy in deck.copies]
    if not copies:
        return
    caption = _caption_maker(library, target.lang)
    title = f"{target.source.id} {target.edition} {target.lang}"
    savers = {deck.id: deck.ink_saver_back for deck in target.decks}
    offers_saver = target.source.game.editions[target.edition].ink_saver and any(savers.values())
    for paper in options.papers:
        card = (copies[0].front.width, copies[0].front.height)
        spec = GridSpec(PAPER_SIZES[paper], card, gap=options.gap, duplex=options.duplex)
        pages = impose_cards(copies, spec, caption=caption)
        _write(base / paper / "cards.pdf", Document(pages, title=f"{title} cards"), body, report)
        if offers_saver:
            saver_pages = impose_cards(copies, spec, back_of=lambda c: savers.get(c.deck) or c.back,
                                       caption=caption)
            _write(base / paper / "cards-ink-saver.pdf", Document(saver_pages, title=f"{title} cards"), body, report)
    if not options.print_shop:
        return
    shop = Document(impose_print_shop(copies), title=f"{title} print shop", no_print_scaling=False)
    shop_pdf = _write(base / "print-shop" / "cards.pdf", shop, body, report)
    if options.print_shop_png:
        _write_pngs(shop_pdf, shop, copies, base / "print-shop" / "png", report)


def _write(path: Path, document: Document, initial_font: str, report: BuildReport) -> bytes:
    data = render_pdf(document, initial_font)
    write_atomically(path, data)
    report.written.append(path)
    return data


def _write_pngs(pdf: bytes, document: Document, copies, folder: Path, report: BuildReport) -> None:
    """Each distinct face rendered once at 300 dpi with bleed, written for every copy."""
    first_page: dict[str, int] = {}
    for index, page in enumerate(document.pages):
        first_page.setdefault(page.placements[0].face.key, index)
    page = document.pages[0]
    size = (round(page.width / 25.4 * PRINT_SHOP_DPI), round(page.height / 25.4 * PRINT_SHOP_DPI))
    images = pages_png(pdf, sorted(set(first_page.values())), PRINT_SHOP_DPI, size)
    for copy in copies:
        for side, face in (("front", copy.front), ("back", copy.back)):
            path = folder / copy.deck / f"{copy.number:03d}-{side}.png"
            write_atomically(path, images[first_page[face.key]])
            report.written.append(path)


def _caption_maker(library: FontLibrary, lang: str):
    setter = TextSetter(library)

    def caption(text: str, size: float):
        style = SetStyle(("nunito", "inter"), size, size, lang=lang, color="#000000")
        return fit_text(parse_rich_text(text), 200, 20, style, setter).runs
    return caption


__all__ = ["BuildOptions", "build", "check", "ContentError"]
