"""Write a laid-out target's files: impose its pages, draw them and save every file of the output contract.

Home files per paper (cards, tokens, pawns, sheets, board, rules and booklet, kit),
then the print-shop files and PNGs. The files go wherever `options.out` says: the build
points it at its staging folder and moves them into place once every target is drawn.
An error while drawing a file becomes a `DrawFailure` naming the target and the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.context import drawing_settings
from generator.files import write_atomically
from generator.imposition.grid import GridSpec, default_gap, grid_geometry, impose_gutterfold, impose_mixed
from generator.imposition.sheet import Document, Page
from generator.options import OUTPUT_OF_STEM, BuildOptions
from generator.print_facts import PAPER_SIZES, RULEBOOK_PAGE_SIZES, landscape
from generator.render.pdf import render_pdf
from generator.render.settings import DrawingSettings
from generator.report import BuildReport
from generator.targets import Target
from generator.text.fonts import DEFAULT_STACK, FontLibrary, for_language
from generator.text.layout import GlyphRun, SetStyle, fit_text
from generator.text.rich import parse_rich_text
from generator.text.setter import TextSetter

# The stages only some builds need (rulebook, booklet and pdfium, cut files, boards, the print
# shop, PNGs, the kit's cover) are imported where they are used: a cards-only build never loads them.
if TYPE_CHECKING:
    from generator.components.piece import Face, PieceCopy
    from generator.imposition.cut import CutMachine
    from generator.imposition.shop_order import OrderEntry
    from generator.imposition.tiles import TileLayout

PRINT_SHOP_DPI = 300

# Engine text (scale bars, tile labels, the kit's instructions) set at a size, `width` mm wide
Caption = Callable[..., tuple[GlyphRun, ...]]


class DrawFailure(Exception):
    """Drawing one file of a target raised: (the target's folder parts, the file under it, why).

    Plain arguments, so it crosses from a worker process intact."""

    def __init__(self, target: tuple[str, ...], file: str, reason: str):
        super().__init__(target, file, reason)
        self.target, self.file, self.reason = target, file, reason


@contextmanager
def drawing(target: Target, base: Path, path: Path) -> Iterator[None]:
    """Any error but a write error (OSError, reported as such) while making `path` is a DrawFailure."""
    try:
        yield
    except OSError:
        raise
    except Exception as error:
        name = path.relative_to(base).as_posix() + ("/" if path.suffix == "" else "")
        raise DrawFailure(target.folder_parts, name, str(error) or type(error).__name__) from error


def write_target(target: Target, options: BuildOptions, library: FontLibrary, report: BuildReport) -> None:
    """Every file of the output contract that the target's content calls for."""
    body = drawing_settings(options, library)
    base = options.out.joinpath(*target.folder_parts)
    caption = caption_maker(library, target.lang)
    title = f"{target.source.id} {target.edition} {target.lang}"
    for paper in options.papers:
        with drawing(target, base, base / paper):
            sections = home_sections(target, options, paper, caption)
        for name, pages in sections.items():
            if options.wants(OUTPUT_OF_STEM[name]):
                with drawing(target, base, base / paper / f"{name}.pdf"):
                    _write(base / paper / f"{name}.pdf", Document(pages, title=f"{title} {name}"), body, report)
                if options.cut and name in CUT_SECTIONS:
                    from generator.imposition.cut import cut_files      # (--cut builds only)
                    with drawing(target, base, base / paper / "cut"):
                        for file, data in cut_files(pages, name, options.cut, title).items():
                            _write_bytes(base / paper / "cut" / file, data, report)
        wants_kit = options.kit and options.wants("kit")
        booklet = None
        if target.rules is not None and (options.wants("rules") or options.wants("booklet") or wants_kit):
            # the rulebook stage and pdfium: only for a game with rules
            from generator.imposition.booklet import impose_booklet
            from generator.rulebook.flow import book_direction, render_rules
            with drawing(target, base, base / paper / "rules.pdf"):
                # its fonts name their subsets by content as they are written (render/glyph_fonts.py)
                rules = render_rules(target.rules, paper, target.setter, target.stack, body.colour_mode,
                                     body.ink_limit)
                if options.wants("rules"):
                    _write_bytes(base / paper / "rules.pdf", rules.data, report)
            if options.wants("booklet") or wants_kit:         # an --only rules build imposes none
                with drawing(target, base, base / paper / "rules-booklet.pdf"):
                    # two rulebook pages a side; a right-to-left book bound at the right
                    booklet = impose_booklet(rules.data, landscape(paper), book_direction(target.rules.lang) == "rtl",
                                             rules.back_cover)
                    if options.wants("booklet"):
                        _write_bytes(base / paper / "rules-booklet.pdf", booklet, report)
        if wants_kit:
            with drawing(target, base, base / paper / "kit.pdf"):
                board = (target.boards[0].face, target.tilings[target.boards[0].id, paper]) if target.boards else None
                kit = render_pdf(Document(kit_pages(target, sections, PAPER_SIZES[paper], caption, options,
                                                    _page_count(booklet) if booklet else 0, board),
                                          title=f"{title} kit"), body)
                if booklet:
                    from generator.render.merge import append_pdf      # (a kit with a booklet only)
                    kit = append_pdf(kit, booklet)
                _write_bytes(base / paper / "kit.pdf", kit, report)
    if options.print_shop and (options.wants("print-shop") or options.wants("png")):
        write_print_shop(target, base, body, options, report)


# home files whose fronts sheets get cut files with --cut (the ink-saver file's fronts are the cards')
CUT_SECTIONS = ("cards", "tokens", "pawns")


def home_sections(target: Target, options: BuildOptions, paper: str, caption: Caption) -> dict[str, list[Page]]:
    """The home-print files of one paper size, by file name, in print order: those the build makes
    (all of them for the kit, which holds them again)."""
    size = PAPER_SIZES[paper]
    sections: dict[str, list[Page]] = {}
    wanted = options.wants if not (options.kit and options.wants("kit")) else (lambda output: True)
    # a print-and-cut machine's registration marks take the sheet's border: the pieces stay inside it
    machine = None
    if options.cut:
        from generator.imposition.cut import cut_machine      # (--cut builds only)
        machine = cut_machine(options.cut, size, options.margin)
    margin = options.margin
    if machine:                           # the room layout checked the pieces in (targets._sheet_rooms)
        from generator.imposition.cut import sheet_room      # (--cut builds only)
        margin = sheet_room(paper, size, options.margin, options.cut).margin
    bar = target.kit.scale_bar          # the scale bars' label: the language's words, or the game's
    grid_options: dict[str, Any] = dict(gap=options.gap, duplex=options.duplex, back_offset=options.back_offset,
                                        margin=margin)
    # the rulebook's player aid goes with the cards (one-sided: no back of its own)
    cards = target.copies("cards") + list(target.player_aids) if wanted("cards") or wanted("ink-saver") else []
    if cards:
        savers = {laid_out.id: laid_out.ink_saver_back for laid_out in target.sets["cards"]}
        variants = {"cards": cards}
        if target.prints_ink_saver_backs:
            variants["cards-ink-saver"] = [replace(copy, back=savers.get(copy.deck) or copy.back) for copy in cards]
        for name, variant in variants.items():
            if not wanted(OUTPUT_OF_STEM[name]):
                continue
            if options.layout == "gutterfold":
                sections[name] = impose_gutterfold(variant, size, caption=caption, min_margin=options.margin,
                                                   bar_label=bar)
            else:
                sheet, sheet_options = cut_sheet(variant, size, machine, grid_options)
                sections[name] = impose_mixed(variant, sheet, caption, "cards", bar_label=bar, **sheet_options)
    if target.copies("tokens") and wanted("tokens"):
        sheet, sheet_options = cut_sheet(target.copies("tokens"), size, machine, grid_options)
        butted = frozenset(laid_out.id for laid_out in target.sets.get("tokens", []) if laid_out.butted)
        sections["tokens"] = impose_mixed(target.copies("tokens"), sheet, caption, "tokens", bar_label=bar,
                                          butted=butted, **sheet_options)
    if target.copies("pawns") and wanted("pawns"):
        from generator.imposition.standees import standee_block      # (games with pawns only)
        sheet, pawn_options = cut_sheet(target.copies("pawns"), size, machine, dict(margin=margin))
        # a colour's pawns on one row, the block centred (imposition/standees.py)
        pawn_options.update(standee_block(target.copies("pawns"), sheet, pawn_options["margin"]))
        sections["pawns"] = impose_mixed(target.copies("pawns"), sheet, caption, "pawns", bar_label=bar,
                                         **pawn_options)
    if "tokens" in sections:            # a round token's cut line is a circle
        from generator.imposition.cut import round_cut_lines      # (games with tokens only)
        sections["tokens"] = [round_cut_lines(page) for page in sections["tokens"]]
    if machine:
        from generator.imposition.cut import with_registration      # (--cut builds only)
        for name in CUT_SECTIONS + ("cards-ink-saver",):
            if name in sections:
                sections[name] = with_registration(sections[name], machine)
    if target.sheets and wanted("sheets"):
        from generator.imposition.single import centred_pages      # (games with player sheets only)
        sections["sheets"] = [page for sheet in target.sheets
                              for page in centred_pages(sheet.face, size, options.copies, sheet.id)]
    if target.boards and wanted("board"):
        from generator.imposition.tiles import impose_board, tile_spec      # (games with boards only)
        sections["board"] = [page for board in target.boards
                             for page in impose_board(board.face, tile_spec(size, options.margin),
                                                      target.tilings[board.id, paper], caption, board.id,
                                                      bar, target.kit.lines)]
    return sections


def cut_sheet(copies: Sequence[PieceCopy], paper: tuple[float, float], machine: CutMachine | None,
              grid_options: dict[str, Any]) -> tuple[tuple[float, float], dict[str, Any]]:
    """The sheet (paper and grid options) a run of pieces is imposed on: for a print-and-cut machine, portrait
    or landscape, whichever holds more of the first size inside the marks' border (A4: 8 poker cards
    landscape, 4 portrait). A landscape sheet flips on its long edge top to bottom: the backs mirror rows."""
    if machine is None or not copies:
        return paper, grid_options
    front = copies[0].front
    gap = grid_options.get("gap")
    gap = default_gap(copies) if gap is None else gap

    def held(sheet: tuple[float, float]) -> int:
        try:
            geometry = grid_geometry(GridSpec(sheet, (front.width, front.height), gap=gap,
                                              margin=grid_options["margin"]))
        except ValueError:           # not one piece fits this way round
            return 0
        return geometry.columns * geometry.rows
    landscape = (max(paper), min(paper))
    if held(landscape) <= held(paper):          # nothing printed where the marks are (GridSpec.keep_out)
        return paper, dict(grid_options, keep_out=machine.keep_out(paper))
    flipped = {"long-edge": "short-edge", "short-edge": "long-edge"}
    options = dict(grid_options, keep_out=machine.keep_out(landscape))
    if "duplex" in options:
        options["duplex"] = flipped[options["duplex"]]
    return landscape, options


def kit_pages(target: Target, sections: dict[str, list[Page]], paper: tuple[float, float], caption: Caption,
              options: BuildOptions | None = None, booklet_pages: int = 0,
              board: tuple[Face, TileLayout] | None = None) -> list[Page]:
    """Everything in print order for one double-sided print run, its first page telling how to print it."""
    from generator.imposition.cover import kit_pages as kit_pages_of     # (a build with a kit only)
    from generator.imposition.instructions import PrintFacts
    options = BuildOptions() if options is None else options
    # the files written beside the kit that it names
    facts = PrintFacts(options.duplex, options.layout, options.back_offset,
                       ink_saver="cards-ink-saver" in sections and options.wants(OUTPUT_OF_STEM["cards-ink-saver"]),
                       print_shop=options.print_shop and options.wants("print-shop"))
    return kit_pages_of(paper, target.kit, sections, target.setter, target.stack, target.lang, caption, facts,
                        booklet_pages, board)


def write_print_shop(target: Target, base: Path, settings: DrawingSettings, options: BuildOptions,
                     report: BuildReport) -> None:
    """One face per page with bleed, under `base`/print-shop: cards (and their PNGs), tokens, boards;
    PDF/X files with --pdfx."""
    # (print-shop builds only)
    from generator.imposition.shop_order import OrderEntry, order_text
    from generator.imposition.shops import SHOP_PRESETS
    from generator.imposition.single import impose_print_shop, preset_page
    folder = base / "print-shop"
    preset = SHOP_PRESETS[options.shop]
    body: DrawingSettings | PdfxRender = settings
    if options.pdfx:
        body = PdfxRender(settings.initial_font, options, options.pdfx, " ".join(target.folder_parts))
    cards = target.copies("cards")
    if cards:
        with drawing(target, base, folder / "cards.pdf"):
            shop = Document(impose_print_shop(cards, preset), title="cards print shop",
                            no_print_scaling=False)
            if options.wants("print-shop"):
                shop_pdf = _write(folder / "cards.pdf", shop, body, report)
            else:                   # --only png: the PNGs are drawn from the same pages
                shop_pdf = _pdf(shop, body)
        if options.print_shop_png and options.wants("png"):
            with drawing(target, base, folder / "png"):
                _write_pngs(shop_pdf, shop, cards, folder / "png", report, options.jobs)
    pngs = options.print_shop_png and options.wants("png")
    tokens = target.copies("tokens")
    if tokens:              # chits are uploaded as images, as cards are
        with drawing(target, base, folder / "tokens.pdf"):
            shop = Document(impose_print_shop(tokens, preset, "tokens"),
                            title="tokens print shop", no_print_scaling=False)
            if options.wants("print-shop"):
                tokens_pdf = _write(folder / "tokens.pdf", shop, body, report)
            else:
                tokens_pdf = _pdf(shop, body)
        if pngs:
            with drawing(target, base, folder / "png"):
                # (a folder of their own: a token set may share its id with a deck)
                _write_pngs(tokens_pdf, shop, tokens, folder / "png" / "tokens", report, options.jobs)
    if not options.wants("print-shop"):
        return
    png_folder = folder / "png" if pngs else None
    entries = _order_entries(target, "cards", "cards.pdf", png_folder) + \
        _order_entries(target, "tokens", "tokens.pdf", png_folder)
    if target.rules is not None:
        from generator.rulebook.flow import render_rules      # (the rulebook stage: a game with rules only)
        with drawing(target, base, folder / "rules.pdf"):
            rules = render_rules(target.rules, preset.rulebook, target.setter, target.stack, settings.colour_mode,
                                 settings.ink_limit, bleed=preset.bleed)
            _write_bytes(folder / "rules.pdf", rules.data, report)
        page = RULEBOOK_PAGE_SIZES[preset.rulebook]
        entries.append(OrderEntry("rules.pdf", "the rulebook", "booklet", page, 1, report.pages[folder / "rules.pdf"],
                                  note="its pages in reading order, the cover first"))
    # fold-over standees are cut along their outline with no bleed to cut into (components/standee.py): no
    # print-shop file of them; ORDER.txt says so, and names the shop's nearest standee
    entries += _order_entries(target, "pawns", "", None)
    if target.boards:
        with drawing(target, base, folder / "board.pdf"):
            # (each at its own size, with at least the shop's bleed: no shop's board product is a game's size)
            pages = [preset_page(board.face, preset, board.id, "board") for board in target.boards]
            _write(folder / "board.pdf", Document(pages, title="board print shop", no_print_scaling=False), body,
                   report)
        entries += [OrderEntry("board.pdf", f"board '{board.id}'", "board", (board.face.width, board.face.height),
                               1, 1) for board in target.boards]
    order = order_text(preset, " ".join(target.folder_parts), entries)
    _write_bytes(folder / "ORDER.txt", order.encode("utf-8"), report)


def _standee_side(target: Target, set_id: str) -> tuple[float, float] | None:
    """The size of one side of a pawn set's standees: its template's."""
    pieces, templates = target.source.pieces.get("pawns"), target.source.templates
    found = pieces.find(set_id) if pieces is not None else None
    template = templates.resolve(found[1].template) if found is not None and templates is not None else None
    if template is None or template.model.size is None:
        return None
    return template.model.size.width, template.model.size.height


def _order_entries(target: Target, kind: str, file: str, png: Path | None) -> list[OrderEntry]:
    """ORDER.txt's lines for a kind's sets: one a set, its pieces and pages in the file (front and back each a
    page, a one-sided piece its front alone)."""
    from generator.imposition.shop_order import OrderEntry      # (print-shop builds only)
    from generator.imposition.shops import catalogue_kind
    entries = []
    for laid_out in target.sets.get(kind, []):
        if not laid_out.copies:
            continue
        first = laid_out.copies[0].front
        shop_kind = catalogue_kind(kind, first.shape)
        sides = 1 if laid_out.copies[0].back is None else 2
        noun = {"cards": "deck", "tokens": "token set", "pawns": "standee set"}[kind]
        size, note = (first.width, first.height), ""
        if kind == "pawns":        # the home file's strip; a shop's standee is one side of it
            size, note = _standee_side(target, laid_out.id) or size, f"fold-over strips of {first.width:g} × " \
                f"{first.height:g} mm with no bleed: not in this folder, they print at home (pawns.pdf)"
        entries.append(OrderEntry(file, f"{noun} '{laid_out.id}'", shop_kind, size, len(laid_out.copies),
                                  sides * len(laid_out.copies),
                                  "" if png is None else f"png/tokens/{laid_out.id}" if kind == "tokens"
                                  else f"png/{laid_out.id}",
                                  note))
    return entries


def _write(path: Path, document: Document, render: DrawingSettings | PdfxRender, report: BuildReport) -> bytes:
    """render: the drawing settings of plain PDFs, or a PdfxRender."""
    return _write_bytes(path, _pdf(document, render), report, pages=len(document.pages))


def _pdf(document: Document, render: DrawingSettings | PdfxRender) -> bytes:
    """The document drawn as a plain PDF, or as PDF/X by a PdfxRender."""
    return render.pdf(document) if isinstance(render, PdfxRender) else render_pdf(document, render)


class PdfxRender:
    """Print-shop files as PDF/X (render/pdfx.py): CMYK through the output profile, no transparency for X-1a."""

    def __init__(self, initial_font: str, options: BuildOptions, pdfx: str, title: str):
        from generator.render.pdfx import STANDARDS, output_separation     # (PDF/X builds only)
        self.initial_font, self.ink_limit, self.title = initial_font, options.ink_limit, title
        self.standard = STANDARDS[pdfx]
        self.separation = output_separation(options.icc)

    def pdf(self, document: Document) -> bytes:
        from generator.render.pdfx import draw_pdfx      # (PDF/X builds only)
        return draw_pdfx(document, self.initial_font, self.ink_limit, self.separation, self.standard,
                         f"{self.title} {document.title}")


def _write_bytes(path: Path, data: bytes, report: BuildReport, pages: int | None = None) -> bytes:
    """Write (atomically: the staging folder is no excuse for a torn file) and account for it; `pages`
    when known, else a PDF is counted (rules, kit)."""
    write_atomically(path, data)
    report.written.append(path)
    if path.suffix == ".pdf":
        report.pages[path] = pages if pages is not None else _page_count(data)
        if report.on_pages:
            report.on_pages(report.pages[path])
    return data


def _page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium      # (pdfium: only a build that writes a rulebook or kit counts pages)
    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def _write_pngs(pdf: bytes, document: Document, copies: Sequence[PieceCopy], folder: Path, report: BuildReport,
                jobs: int) -> None:
    """Each distinct face rendered once at 300 dpi with bleed, written for every copy."""
    from generator.render.png import write_pages_png     # (a build with print-shop PNGs only)
    first_page: dict[str, int] = {}
    for index, page in enumerate(document.pages):
        first_page.setdefault(page.placements[0].face.key, index)
    paths: dict[int, list[Path]] = {}    # each distinct face's page → the files of every copy showing it
    for copy in copies:
        for side, face in (("front", copy.front), ("back", copy.back)):
            if face is not None:        # a one-sided piece has its front's page alone (impose_print_shop)
                paths.setdefault(first_page[face.key], []).append(folder / copy.deck / f"{copy.number:03d}-{side}.png")
    # every page at its own size: a deck of mini cards keeps its size beside the poker cards
    sizes = {index: (round(document.pages[index].width / 25.4 * PRINT_SHOP_DPI),
                     round(document.pages[index].height / 25.4 * PRINT_SHOP_DPI)) for index in paths}
    write_pages_png(pdf, paths, PRINT_SHOP_DPI, sizes, jobs, report.on_pages)
    report.written.extend(path for files in paths.values() for path in files)


def caption_maker(library: FontLibrary, lang: str) -> Caption:
    """Engine text in the default stack, in the target's language."""
    setter = TextSetter(library)

    def caption(text: str, size: float, width: float = 200.0) -> tuple[GlyphRun, ...]:
        """Engine text (scale bar, tile labels, calibration instructions) wrapped to `width` mm."""
        style = SetStyle(for_language(DEFAULT_STACK, lang), size, size, lang=lang, color="#000000")
        return fit_text(parse_rich_text(text), width, 40, style, setter).runs
    return caption
