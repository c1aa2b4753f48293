"""Build planning and orchestration: games × editions × languages × papers into output files.

Every target is laid out (and so checked) before anything is written: a build
with content errors writes nothing and leaves the previous outputs as they were.
"""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from generator.components.board import LaidOutBoard, layout_boards
from generator.components.kit import KitText, kit_text
from generator.components.piece import PieceCopy
from generator.components.pieces import LaidOutSet, layout_sets
from generator.components.sheets import LaidOutSheet, layout_sheets
from generator.components.context import LayoutContext
from generator.content.game import GameSource, load_game
from generator.errors import ContentError, Problems, UsageError
from generator.content.yaml_source import load_yaml
from generator.i18n.pseudo import PSEUDO, pseudo_catalog
from generator.incremental import inputs_digest, is_fresh, record, target_digest
from generator.imposition.booklet import impose_booklet
from generator.imposition.cover import blank_page, cover_page
from generator.imposition.grid import impose_gutterfold, impose_mixed
from generator.imposition.sheet import PAPER_SIZES, Document, Page
from generator.imposition.single import SHOP_PRESETS, centred_pages, face_page, impose_print_shop
from generator.imposition.tiles import TileSpec, impose_board
from generator.render.pdf import render_pdf
from generator.files import write_atomically
from generator.render.merge import append_pdf
from generator.render.png import write_pages_png
from generator.rulebook.flow import render_rules
from generator.rulebook.resolve import RuleDoc, resolve_rules
from generator.text.fonts import FontLibrary, game_families
from generator.text.layout import SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter, forget_text_runs

PRINT_SHOP_DPI = 300
BOOKLET_SHEETS = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}   # landscape, two rule pages a side


@dataclass(frozen=True)
class BuildOptions:
    editions: tuple[str, ...] | None = None
    languages: tuple[str, ...] | None = None
    papers: tuple[str, ...] = ("a4", "letter")
    out: Path = Path("output")
    duplex: str = "long-edge"
    gap: float = 0.0
    back_offset: tuple[float, float] = (0.0, 0.0)   # mm, from `pnp calibrate`
    allow_fallback: bool = False
    copies: int = 1                 # pages of each player sheet
    check_only: bool = False
    print_shop: bool = True
    print_shop_png: bool = True
    kit: bool = True                # kit.pdf: everything again in one file
    force: bool = False             # rebuild targets whose inputs have not changed
    jobs: int = 1                   # worker processes for writing targets (pnp build uses every core)
    shop: str = "generic"           # print-shop preset: generic, mpc, tgc, drivethrucards
    layout: str = "duplex"          # or 'gutterfold': fronts and backs side by side, folded
    color: str = "rgb"              # or 'cmyk': every colour separated, total ink limited
    ink_limit: float = 3.0          # 300 %


@dataclass
class Target:
    """One edition × language of a game, laid out and ready to impose."""

    source: GameSource
    edition: str
    lang: str
    sets: dict[str, list[LaidOutSet]]          # 'cards', 'tokens', 'pawns'
    boards: list[LaidOutBoard]
    sheets: list[LaidOutSheet]
    kit: KitText
    stack: tuple[str, ...]          # the game's body font stack
    setter: TextSetter              # the game's fonts (built-in families and its own)
    rules: RuleDoc | None = None

    @property
    def folder_parts(self) -> tuple[str, str, str]:
        return (self.source.id, self.edition, self.lang)

    def copies(self, kind: str) -> list[PieceCopy]:
        return [copy for laid_out in self.sets.get(kind, []) for copy in laid_out.copies]


@dataclass
class BuildReport:
    written: list[Path] = field(default_factory=list)
    up_to_date: list[str] = field(default_factory=list)     # targets skipped, unchanged
    pages: dict[Path, int] = field(default_factory=dict)     # pages of each PDF written
    targets: list[dict] = field(default_factory=list)        # per target: files, pages, bytes, seconds
    warnings: list = field(default_factory=list)
    seconds: float = 0.0
    # told the number of pages (PDF pages, PNG images) each time some are written; not in worker processes
    on_pages: Callable[[int], None] | None = field(default=None, repr=False, compare=False)


def load_games(folders: list[Path], problems: Problems) -> list[GameSource]:
    sources = []
    for folder in folders:
        source = load_game(folder, problems)
        if source is not None:
            sources.append(source)
    return sources


def layout_targets(sources: list[GameSource], options: BuildOptions, problems: Problems,
                   library: FontLibrary, used: dict[str, set[str]] | None = None,
                   only: set[tuple[str, str, str]] | None = None) -> list[Target]:
    """Lay out every requested edition × language; problems collect along the way.

    `used` collects, per game, every translation key the layout looked up.
    """
    used = {} if used is None else used
    targets = []
    for source in sources:
        setter = TextSetter(game_font_library(source, problems, library))
        editions = _select(source.game.editions, options.editions, "edition", source)
        # the pseudo-locale is there when asked for by name, never by default
        offered = source.game.languages + ([PSEUDO] if options.languages else [])
        languages = _select(offered, options.languages, "language", source)
        if PSEUDO in languages:
            source.catalogs[PSEUDO] = pseudo_catalog(source.catalogs[source.source_language])
        for edition in editions:
            for lang in languages:
                if only is not None and (source.id, edition, lang) not in only:
                    continue
                ctx = LayoutContext(source, edition, lang, setter, problems, options.allow_fallback,
                                    used=used.setdefault(source.id, set()),
                                    overflow_warns=lang == PSEUDO and not options.check_only)
                sets = {kind: layout_sets(ctx, pieces) for kind, pieces in source.pieces.items()}
                boards = layout_boards(ctx)
                sheets = layout_sheets(ctx)
                targets.append(Target(source, edition, lang, sets, boards, sheets,
                                      kit_text(ctx, sets, boards, sheets, options.copies),
                                      ctx.font_stack(None, source.game_document.mark()), setter,
                                      resolve_rules(ctx, sets, boards)))
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


def build(folders: list[Path], options: BuildOptions, progress=None) -> BuildReport:
    """Check every target, then write the stale ones (in worker processes when options.jobs > 1).

    `progress(done, total, label)` is told as each target finishes.
    """
    with frozen_heap():
        return _build(folders, options, progress)


# Reading YAML and laying out make hundreds of thousands of small objects (nodes, marks,
# items, glyph runs) and almost no garbage, yet CPython's collector, triggered by
# allocation counts, walks every live object again and again while they pile up: that made
# loading a 10,000-card deck 2.7× slower and cost a seventh of a 1,000-card build. So the
# collector pauses during those stages, and what they leave is set aside (gc.freeze) for
# the rest of the build. Drawing and rendering PNGs run with the collector on: their
# garbage (canvases, bitmaps) is large.

@contextmanager
def frozen_heap():
    """Objects alive at entry, and those set aside by allocation_burst, are skipped by collections."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def allocation_burst():
    """No collections inside; at the end, one collection, and the survivors set aside."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        gc.collect()
        gc.freeze()


def _build(folders: list[Path], options: BuildOptions, progress) -> BuildReport:
    started = time.perf_counter()
    report = BuildReport()
    stale, digests = plan_targets(folders, options, report)
    problems = Problems()
    library = FontLibrary()
    with allocation_burst():
        sources = load_games([folder for folder in folders if folder in stale], problems)
    problems.raise_if_errors()
    wanted = {target for targets in stale.values() for target in targets}
    with allocation_burst():
        targets = layout_targets(sources, options, problems, library, only=wanted if not options.force else None)
    problems.raise_if_errors()   # nothing is written unless every target checks clean
    _forget_layout_inputs(sources)
    jobs = [(target.source.folder, target.folder_parts) for target in targets]
    if options.jobs > 1 and len(jobs) > 1:
        import concurrent.futures
        import multiprocessing
        context = multiprocessing.get_context("spawn")   # a clean interpreter: no inherited ReportLab state
        with concurrent.futures.ProcessPoolExecutor(min(options.jobs, len(jobs)), mp_context=context) as pool:
            futures = [pool.submit(_write_one, folder, key, options, digests.get(key)) for folder, key in jobs]
            for done, future in enumerate(concurrent.futures.as_completed(futures), start=1):
                _merge(report, future.result())
                if progress:
                    progress(done, len(jobs), report.targets[-1]["target"], sum(report.pages.values()))
    else:
        written = 0

        def pages_written(count: int) -> None:
            nonlocal written
            written += count
            if progress:
                progress(done - 1, len(targets), label, written)
        for done, target in enumerate(targets, start=1):
            label = "/".join(target.folder_parts)
            _merge(report, _write_laid_out(target, options, library, digests.get(target.folder_parts),
                                           pages_written))
            if progress:
                progress(done, len(targets), label, written)
    report.targets.sort(key=lambda row: row["target"])
    report.written.sort()
    report.warnings = problems.warnings
    report.seconds = time.perf_counter() - started
    return report


def _write_one(folder: Path, key: tuple[str, str, str], options: BuildOptions, digest: str | None) -> BuildReport:
    """In a worker: lay out one target again (cheap) and write its files."""
    with frozen_heap():
        return _lay_out_and_write_one(folder, key, options, digest)


def _lay_out_and_write_one(folder: Path, key: tuple[str, str, str], options: BuildOptions,
                           digest: str | None) -> BuildReport:
    problems = Problems()
    library = FontLibrary()
    one = replace(options, editions=(key[1],), languages=(key[2],), force=False)
    with allocation_burst():
        sources = load_games([folder], problems)
        target, = layout_targets(sources, one, problems, library, only={key})
    _forget_layout_inputs(sources)
    return _write_laid_out(target, replace(options, jobs=1), library, digest)


def _forget_layout_inputs(sources: list[GameSource]) -> None:
    """What only layout needs, released before the files are drawn (see GameSource.forget_positions)."""
    for source in sources:
        source.forget_positions()
    forget_text_runs()
    gc.collect()


def _write_laid_out(target: Target, options: BuildOptions, library: FontLibrary, digest: str | None,
                    on_pages: Callable[[int], None] | None = None) -> BuildReport:
    started = time.perf_counter()
    report = BuildReport(on_pages=on_pages)
    write_target(target, options, library, report)
    if digest is not None:
        record(options.out.joinpath(*target.folder_parts), digest, report.written)
    report.targets.append({"target": "/".join(target.folder_parts), "files": len(report.written),
                           "pages": sum(report.pages.values()),
                           "bytes": sum(path.stat().st_size for path in report.written),
                           "seconds": round(time.perf_counter() - started, 2)})
    return report


def _merge(report: BuildReport, part: BuildReport) -> None:
    report.written.extend(part.written)
    report.pages.update(part.pages)
    report.targets.extend(part.targets)


def plan_targets(folders: list[Path], options: BuildOptions, report: BuildReport):
    """Which edition × language targets need building, by game folder; and each target's digest.

    Reads only game.yaml (for the editions and languages) and hashes files: an
    unchanged target costs no layout at all.
    """
    stale: dict[Path, set[tuple[str, str, str]]] = {}
    digests: dict[tuple[str, str, str], str] = {}
    for folder in folders:
        problems = Problems()
        document = load_yaml(folder / "game.yaml", problems)
        data = document.data if document is not None and isinstance(document.data, dict) else {}
        game_id, editions, languages = data.get("id"), data.get("editions"), data.get("languages")
        if problems.errors or not isinstance(game_id, str) or not isinstance(editions, dict) \
                or not isinstance(languages, list):
            stale[folder] = set()            # let the full load report what is wrong
            continue
        game_digest = inputs_digest(folder)
        wanted_languages = [lang for lang in options.languages or languages]
        for edition in options.editions or list(editions):
            for lang in wanted_languages:
                key = (game_id, str(edition), str(lang))
                digests[key] = target_digest(game_digest, key[1], key[2], options)
                if options.force or not is_fresh(options.out.joinpath(*key), digests[key]):
                    stale.setdefault(folder, set()).add(key)
                else:
                    report.up_to_date.append("/".join(key))
    return stale, digests


def check(folders: list[Path], options: BuildOptions) -> Problems:
    """Everything a build checks, without writing a file."""
    problems = Problems()
    library = FontLibrary()
    with frozen_heap():
        with allocation_burst():
            sources = load_games(folders, problems)
        if not problems.errors:
            with allocation_burst():
                layout_targets(sources, replace(options, check_only=True), problems, library)
    return problems


def write_target(target: Target, options: BuildOptions, library: FontLibrary, report: BuildReport) -> None:
    """Every file of the output contract that the target's content calls for."""
    body = (library.face("nunito").name, options.color, options.ink_limit)
    base = options.out.joinpath(*target.folder_parts)
    caption = caption_maker(library, target.lang)
    title = f"{target.source.id} {target.edition} {target.lang}"
    for paper in options.papers:
        sections = home_sections(target, options, paper, caption)
        for name, pages in sections.items():
            _write(base / paper / f"{name}.pdf", Document(pages, title=f"{title} {name}"), body, report)
        booklet = None
        if target.rules is not None:
            rules = render_rules(target.rules, paper, target.setter, target.stack, options.color, options.ink_limit)
            _write_bytes(base / paper / "rules.pdf", rules, report)
            booklet = impose_booklet(rules, BOOKLET_SHEETS[paper])
            _write_bytes(base / paper / "rules-booklet.pdf", booklet, report)
        if options.kit:
            kit = render_pdf(Document(kit_pages(target, sections, PAPER_SIZES[paper], caption),
                                      title=f"{title} kit"), *body)
            _write_bytes(base / paper / "kit.pdf", append_pdf(kit, booklet) if booklet else kit, report)
    if options.print_shop:
        write_print_shop(target, base / "print-shop", body, options, report)


def home_sections(target: Target, options: BuildOptions, paper: str, caption) -> dict[str, list[Page]]:
    """The home-print files of one paper size, by file name, in print order."""
    size = PAPER_SIZES[paper]
    sections: dict[str, list[Page]] = {}
    cards = target.copies("cards")
    if cards:
        grid = dict(gap=options.gap, duplex=options.duplex, back_offset=options.back_offset)
        savers = {laid_out.id: laid_out.ink_saver_back for laid_out in target.sets["cards"]}
        variants = {"cards": cards}
        if target.source.game.editions[target.edition].ink_saver and any(savers.values()):
            variants["cards-ink-saver"] = [replace(copy, back=savers.get(copy.deck) or copy.back) for copy in cards]
        for name, variant in variants.items():
            if options.layout == "gutterfold":
                sections[name] = impose_gutterfold(variant, size, caption=caption)
            else:
                sections[name] = impose_mixed(variant, size, caption, "cards", **grid)
    if target.copies("tokens"):
        sections["tokens"] = impose_mixed(target.copies("tokens"), size, caption, "tokens", duplex=options.duplex,
                                          back_offset=options.back_offset)
    if target.copies("pawns"):
        sections["pawns"] = impose_mixed(target.copies("pawns"), size, caption, "pawns")
    if target.sheets:
        sections["sheets"] = [page for sheet in target.sheets
                              for page in centred_pages(sheet.face, size, options.copies, sheet.id)]
    if target.boards:
        sections["board"] = [page for board in target.boards
                             for page in impose_board(board.face, TileSpec(size), caption, board.id)]
    return sections


def kit_pages(target: Target, sections: dict[str, list[Page]], paper, caption) -> list[Page]:
    """Everything in print order for one double-sided print run: single-sided parts get blank backs."""
    pages = [cover_page(paper, target.kit, target.setter, target.stack, target.lang, caption), blank_page(paper)]
    for name in ("cards", "tokens", "pawns", "sheets", "board"):
        section = sections.get(name, [])
        double_sided = any("backs" in page.label for page in section)   # fronts, then their backs pages
        for page in section:
            pages.append(page)
            if not double_sided:
                pages.append(blank_page(paper))
    return pages


def write_print_shop(target: Target, folder: Path, body: tuple, options: BuildOptions, report: BuildReport) -> None:
    """One face per page with bleed: cards (and their PNGs), tokens, boards."""
    cards = target.copies("cards")
    if cards:
        shop = Document(impose_print_shop(cards, SHOP_PRESETS[options.shop]), title="cards print shop",
                        no_print_scaling=False)
        shop_pdf = _write(folder / "cards.pdf", shop, body, report)
        if options.print_shop_png:
            _write_pngs(shop_pdf, shop, cards, folder / "png", report, options.jobs)
    if target.copies("tokens"):
        shop = Document(impose_print_shop(target.copies("tokens")), title="tokens print shop", no_print_scaling=False)
        _write(folder / "tokens.pdf", shop, body, report)
    if target.boards:
        pages = [face_page(board.face, board.id) for board in target.boards]
        _write(folder / "board.pdf", Document(pages, title="board print shop", no_print_scaling=False), body, report)


def _write(path: Path, document: Document, render: tuple[str, str, float], report: BuildReport) -> bytes:
    """render: the initial font, the colour mode and the ink limit."""
    return _write_bytes(path, render_pdf(document, *render), report, pages=len(document.pages))


def _write_bytes(path: Path, data: bytes, report: BuildReport, pages: int | None = None) -> bytes:
    """Write atomically and account for it; `pages` when known, else a PDF is counted (rules, kit)."""
    write_atomically(path, data)
    report.written.append(path)
    if path.suffix == ".pdf":
        report.pages[path] = pages if pages is not None else _page_count(data)
        if report.on_pages:
            report.on_pages(report.pages[path])
    return data


def _page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def _write_pngs(pdf: bytes, document: Document, copies, folder: Path, report: BuildReport, jobs: int) -> None:
    """Each distinct face rendered once at 300 dpi with bleed, written for every copy."""
    first_page: dict[str, int] = {}
    for index, page in enumerate(document.pages):
        first_page.setdefault(page.placements[0].face.key, index)
    page = document.pages[0]
    size = (round(page.width / 25.4 * PRINT_SHOP_DPI), round(page.height / 25.4 * PRINT_SHOP_DPI))
    paths: dict[int, list[Path]] = {}    # each distinct face's page → the files of every copy showing it
    for copy in copies:
        for side, face in (("front", copy.front), ("back", copy.back)):
            paths.setdefault(first_page[face.key], []).append(folder / copy.deck / f"{copy.number:03d}-{side}.png")
    write_pages_png(pdf, paths, PRINT_SHOP_DPI, size, jobs, report.on_pages)
    report.written.extend(path for files in paths.values() for path in files)


def caption_maker(library: FontLibrary, lang: str):
    setter = TextSetter(library)

    def caption(text: str, size: float, width: float = 200.0):
        """Engine text (scale bar, tile labels, calibration instructions) wrapped to `width` mm."""
        style = SetStyle(("nunito", "inter", "noto-sans-georgian"), size, size, lang=lang, color="#000000")
        return fit_text(parse_rich_text(text), width, 40, style, setter).runs
    return caption


__all__ = ["BuildOptions", "build", "check", "ContentError"]


def preview(folders: list[Path], options: BuildOptions, dpi: float = 100) -> BuildReport:
    """PNGs of every distinct face and contact sheets, under output/<game>/<edition>/<lang>/preview/."""
    from generator.render.preview import render_previews
    started = time.perf_counter()
    problems = Problems()
    library = FontLibrary()
    sources = load_games(folders, problems)
    problems.raise_if_errors()
    targets = layout_targets(sources, options, problems, library)
    problems.raise_if_errors()
    report = BuildReport()
    for target in targets:
        groups: dict[str, list] = {}
        for kind, laid_out_sets in target.sets.items():
            everything = groups.setdefault(kind, [])
            for laid_out in laid_out_sets:
                fronts, backs, seen = [], [], set()
                for copy in laid_out.copies:
                    for face, stem, into in ((copy.front, f"{kind}/{laid_out.id}/{copy.card}-front", fronts),
                                             (copy.back, f"{kind}/{laid_out.id}/{copy.card}-back", backs)):
                        if face is not None and face.key not in seen:
                            seen.add(face.key)
                            into.append((stem, face))
                faces = fronts + backs          # the fronts, then each distinct back once
                groups[f"{kind}-{laid_out.id}"] = faces
                everything.extend(faces)
        for name, items in (("boards", target.boards), ("sheets", target.sheets)):
            groups[name] = [(f"{name}/{item.id}", item.face) for item in items]
        folder = options.out.joinpath(*target.folder_parts, "preview")
        render_previews(groups, folder, dpi, library.face("nunito").name, report.written)
    report.seconds = time.perf_counter() - started
    return report
