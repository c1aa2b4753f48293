"""The `pnp` command: parses options and calls the stages, nothing more.

The options' values are read into typed options in generator/cli_options.py, the games and folders a
command names are found in generator/cli_places.py, and what a command prints is generator/cli_output.py's.
Each command imports the stages it runs when it runs (`pnp --help` and a build with nothing to do never
load pydantic, ReportLab, svglib or pdfium); each such import says so. Defaults come from the flags, then
the project file (pnp.yaml, generator/project.py), then pnp's own.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator import cli_options
from generator.cli_options import (INK_LIMIT_PERCENT, build_options, check_language_code, content_option,
                                   print_options, project_option, with_common)
from generator.cli_output import Progress, report_problems, summary_json, summary_table
from generator.cli_places import (DEFAULT_CONTENT, locate, one_game, refuse_linked_folder, refuse_output_inside,
                                  resolve_games)
from generator.errors import ContentError, Problems, UsageError, printable
from generator.files import output_problem, remove_dead_staging, write_atomically
from generator.i18n.exchange_cli import export_command, import_command
from generator.options import OUTPUTS, BuildOptions, Color, CutFormat, Duplex, Layout, PdfX, Shop, choices
from generator.print_facts import INK_LIMIT_PERCENT_RANGE, PAPER_SIZES, Paper
from generator.report import BuildReport
from generator.serve.command import serve_command as run_server

if TYPE_CHECKING:        # (the content stage loads pydantic: imported by the commands that read a game)
    from generator.content.game import GameSource

INTERNAL_ERROR = 70        # EX_SOFTWARE


# The build stage, imported when a command runs it (a test may put another in its place).

def build(folders: list[Path], options: BuildOptions, progress: Progress | None = None) -> BuildReport:
    """generator.build.build."""
    from generator.build import build as build_games      # the build stage: never loaded by `pnp --help`
    return build_games(folders, options, progress)


def check(folders: list[Path], options: BuildOptions) -> Problems:
    """generator.build.check."""
    from generator.build import check as check_games      # the build stage: never loaded by `pnp --help`
    return check_games(folders, options)


def preview(folders: list[Path], options: BuildOptions, dpi: int) -> BuildReport:
    """generator.build.preview."""
    from generator.build import preview as preview_games  # the build stage: never loaded by `pnp --help`
    return preview_games(folders, options, dpi)


class PnpGroup(click.Group):
    """The commands, with a bug in pnp reported as one line and exit status 70, never a traceback
    (PNP_DEBUG=1 shows it). Ctrl-C (130) is the console entry's, generator/__main__.py."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except OSError as error:       # a folder that cannot be written, a file in the way, a full disk
            if os.environ.get("PNP_DEBUG"):
                raise
            path, message, hint = output_problem(error)
            where = f"{printable(str(path))}: " if path is not None else ""
            click.echo(f"{where}{message}\n    hint: {hint}", err=True)
            ctx.exit(1)
        except Exception as error:
            if os.environ.get("PNP_DEBUG"):
                raise
            click.echo(f"pnp: internal error: {type(error).__name__}: {printable(str(error))}\n"
                       "    hint: this is a bug in pnp, not in your game; please report it with the command "
                       "you ran (PNP_DEBUG=1 shows where it happened)", err=True)
            ctx.exit(INTERNAL_ERROR)


class DeferredCommand(click.Command):
    """A command kept in a module that loads a stage when imported (`pnp upgrade`: the content schema,
    pydantic): `pnp --help` lists it by its short help without importing it; the module is imported
    when the command is run or asked for its own help."""

    def __init__(self, name: str, target: str, short_help: str) -> None:
        super().__init__(name, short_help=short_help)
        self.target = target            # "module:attribute" of the click command

    def command(self) -> click.Command:
        module, _, attribute = self.target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command), self.target
        return command

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: object) -> click.Context:
        return self.command().make_context(info_name, args, parent=parent, **extra)


@click.group(cls=PnpGroup)
@click.version_option(package_name="pnp-generator")
def main() -> None:
    """Print-and-play asset generator: YAML game content to print-ready PDFs."""


main.add_command(DeferredCommand("upgrade", "generator.upgrade:upgrade_command",
                                 "Rewrite GAME from an older game format into this pnp's."))


@main.command("build")
@with_common
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: the project's, else output/).")
@click.option("--only", help=f"Outputs to build, comma-separated from {', '.join(OUTPUTS)} (default: all).")
@click.option("--printer", help="A printer profile of pnp.yaml: its back offset, margin and duplex.")
@click.option("--duplex", type=click.Choice(choices(Duplex)),
              help="How your printer flips the sheet for the back side (default: long-edge).")
@click.option("--gap", type=float,
              help="Gap between cards and tokens in mm (default: 2 for full-bleed ones, 0 for the others).")
@click.option("--margin", type=float,
              help="Millimetres along the paper's edge your printer leaves blank (default 5): marks stay inside.")
@click.option("--allow-fallback", is_flag=True, help="Use the source language for missing translations.")
@click.option("--copies", default=1, show_default=True, type=click.IntRange(1, 500),
              help="Pages of each player sheet in sheets.pdf.")
@click.option("--back-offset", help="X,Y mm to move every back page (read from `pnp calibrate`).")
@click.option("--force", is_flag=True, help="Rebuild targets whose inputs have not changed.")
@click.option("--shop", type=click.Choice(choices(Shop)), default=Shop.GENERIC.value,
              show_default=True, help="Print-shop preset: card size, bleed (PNG size) and page order.")
@click.option("--layout", type=click.Choice(choices(Layout)), default=Layout.DUPLEX.value, show_default=True,
              help="gutterfold: fronts and backs side by side, to fold (for card stock a duplex printer refuses).")
@click.option("--color", type=click.Choice(choices(Color)), default=Color.RGB.value, show_default=True,
              help="cmyk: every colour separated to CMYK (grey component to K), total ink limited.")
@click.option("--ink-limit", type=click.IntRange(*INK_LIMIT_PERCENT_RANGE),
              help=f"Total ink in percent for --color cmyk or --pdfx (default {INK_LIMIT_PERCENT}; US shops: 240).")
@click.option("--pdfx", type=click.Choice(choices(PdfX)),
              help="Print-shop files as PDF/X-4 or PDF/X-1a:2003: CMYK through the --icc profile.")
@click.option("--icc", type=click.Path(dir_okay=False), help="The shop's CMYK ICC profile for --pdfx "
              "(default: pnp's own, the declared separation).")
@click.option("--cut", type=click.Choice(choices(CutFormat)), help="Cut files per home sheet (svg, dxf); silhouette, "
              "cricut: also their registration marks on the sheets, pieces kept out of the marks' border.")
@click.option("--jobs", default=0, type=click.IntRange(0, 64), help="Worker processes (default: every core).")
@click.option("-q", "--quiet", is_flag=True, help="Only errors.")
@click.option("--json", "as_json", is_flag=True, help="A machine-readable summary on standard output.")
def build_command(games, edition, lang, paper, content_root, project_file, out, only, printer, duplex, gap,
                  margin, allow_fallback, copies, back_offset, force, shop, layout, color, ink_limit, pdfx, icc, cut,
                  jobs, quiet, as_json) -> None:
    """Build GAMES (names under content/ or folders; default: all) into output/."""
    try:
        where = locate(content_root, out, project_file)
        profile = cli_options.printer(where, printer)
        if profile is not None:     # the flags given win over the profile
            duplex = duplex or profile.duplex
            back_offset = back_offset or (",".join(f"{v:g}" for v in profile.back_offset)
                                          if profile.back_offset else None)
        options = replace(build_options(edition, lang, paper, where, duplex, allow_fallback, gap, copies, back_offset),
                          force=force, jobs=jobs or os.cpu_count() or 1, shop=Shop(shop), layout=Layout(layout),
                          color=Color(color),
                          ink_limit=cli_options.ink_limit(ink_limit, color == "cmyk" or pdfx is not None),
                          only=cli_options.only(only))
        options = print_options(options, pdfx, icc, cut)
        if margin is None and profile is not None:      # the flag wins over the profile
            margin = profile.margin
        if margin is not None:
            options = replace(options, margin=cli_options.margin(margin))
        show = None if quiet or as_json else Progress()
        folders = resolve_games(games, where.roots)
        refuse_output_inside(options.out, folders)
        report = build(folders, options, progress=show)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    except ContentError as error:
        report_problems(error.problems.items)
        click.echo(f"build failed: {len(error.problems.errors)} error(s); nothing was written", err=True)
        sys.exit(1)
    report_problems(report.warnings)
    if as_json:
        click.echo(summary_json(report))
    elif not quiet:
        click.echo(summary_table(report))


@main.command("check")
@with_common
@click.option("--allow-fallback", is_flag=True, help="Treat missing translations as warnings.")
@click.option("--preflight", is_flag=True, help="Inspect the built PDFs in --out as a print shop would.")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: the project's, else output/).")
@click.option("--color", type=click.Choice(choices(Color)), default=Color.RGB.value, show_default=True,
              help="With --preflight: print-shop files must be CMYK within --ink-limit.")
@click.option("--ink-limit", type=click.IntRange(*INK_LIMIT_PERCENT_RANGE),
              help=f"Total ink in percent that --preflight checks with --color cmyk (default {INK_LIMIT_PERCENT}).")
@click.option("--shop", type=click.Choice(choices(Shop)),
              help="With --preflight: print-shop files must have this shop's bleed, safe zone and resolution "
                   "(default: any shop's of the catalogue).")
def check_command(games, edition, lang, paper, content_root, project_file, allow_fallback, preflight, out, color,
                  ink_limit, shop) -> None:
    """Check content, translations, glyph coverage and text fit; write nothing."""
    where = locate(content_root, out, project_file)
    if shop is not None and not preflight:
        raise click.UsageError("--shop is a --preflight option: pnp check --preflight --shop tgc")
    if preflight:
        # preflight reads PDFs with pdfium, and planning is the build stage's: loaded for --preflight only
        from generator.build import check_colour_vision, plan_targets
        from generator.preflight import format_preflight, ink_saver_ratios, preflight as inspect_files
        try:
            folders = resolve_games(games, where.roots)
            keys = sorted(plan_targets(folders, build_options(edition, lang, paper, where), BuildReport())[1])
            limit = cli_options.ink_limit(ink_limit, color == "cmyk")
        except UsageError as error:
            raise click.UsageError(str(error)) from None
        remove_dead_staging(where.out)        # a swap a killed build began is completed before it is judged
        reports = inspect_files(where.out, keys, limit if color == "cmyk" else None, shop)
        if not reports:
            raise click.UsageError(f"nothing built under {where.out}/ for these games: run `pnp build` first")
        click.echo(format_preflight(reports))
        for line in ink_saver_ratios(reports):
            click.echo(line)
        errors = sum(len(report.errors) for report in reports)
        colours = check_colour_vision(folders, build_options(edition, lang, paper, where))
        report_problems(colours.problems.items)
        for line in colours.accepted:
            click.echo(line)
        errors += len(colours.problems.errors)
        click.echo(f"{len(reports)} file(s), {errors} problem(s); colour vision: "
                   f"{len(colours.problems.warnings)} warning(s) of pieces only colour tells apart, "
                   f"{len(colours.accepted)} pair(s) accepted")
        sys.exit(1 if errors else 0)
    try:
        options = build_options(edition, lang, paper, where, allow_fallback=allow_fallback)
        problems = check(resolve_games(games, where.roots), options)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    report_problems(problems.items)
    if problems.errors:
        click.echo(f"{len(problems.errors)} error(s), {len(problems.warnings)} warning(s)", err=True)
        sys.exit(1)
    click.echo(f"ok ({len(problems.warnings)} warning(s))")


@main.group("i18n")
def i18n_group() -> None:
    """Translation workflow: status of every language, stubs for translators."""


def _usage(games: tuple[str, ...], content_root: str | None,
           project_file: str | None = None) -> tuple[list[GameSource], dict[str, set[str]], Problems]:
    """Lay out every edition and language of the games, recording the keys they use."""
    # the layout (pydantic, ReportLab): loaded by the i18n commands that lay the game out, not by `pnp --help`
    from generator.context import BuildContext
    from generator.targets import layout_targets, load_games
    problems = Problems()
    where = locate(content_root, None, project_file)
    used: dict[str, set[str]] = {}
    with BuildContext(BuildOptions(check_only=True)) as context:
        sources = load_games(resolve_games(games, where.roots), problems, where.templates)
        layout_targets(sources, context.options, problems, context.library, used, layout_files=context.layout_files)
    return sources, used, problems


@i18n_group.command("status")
@click.argument("games", nargs=-1)
@content_option
@project_option
@click.option("--brief", is_flag=True, help="Only the table, not the keys.")
def i18n_status(games, content_root, project_file, brief) -> None:
    """Keys translated / total, missing and unused keys, per game and language."""
    from generator.i18n.status import format_status, language_status     # (with the layout it reports on)
    try:
        sources, used, _ = _usage(games, content_root, project_file)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    rows = [row for source in sources for row in language_status(source, used.get(source.id, set()))]
    click.echo("\n".join(printable(line) for line in format_status(rows, details=not brief).splitlines()))
    if any(row.missing for row in rows):
        sys.exit(1)


@i18n_group.command("stub")
@click.argument("game")
@click.option("--lang", required=True, help="Language code of the catalog to write or complete.")
@content_option
@project_option
def i18n_stub(game, lang, content_root, project_file) -> None:
    """Write or complete i18n/LANG.yaml with every key it lacks (empty, source text as a comment)."""
    from generator.i18n.stub import stub_catalog, stub_keys        # (with the layout it reports on)
    check_language_code(lang)
    try:
        sources, used, _ = _usage((game,), content_root, project_file)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    if not sources:
        raise click.UsageError(f"game '{game}' cannot be read: run `pnp check {game}`")
    source = sources[0]
    keys = stub_keys(source, used[source.id], lang)
    file = source.folder / "i18n" / f"{lang}.yaml"
    try:
        text, added = stub_catalog(file, lang, source.catalogs[source.source_language], keys, source.id)
    except ValueError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    write_atomically(file, text.encode("utf-8"))
    from generator.content.json_schema import annotate, schema_folder_of     # pydantic's schemas: only here
    annotate(file, schema_folder_of(source.folder))
    engine = [key for key in added if key not in source.catalogs[source.source_language].entries]
    click.echo(f"{file}: {len(added)} key(s) added" + (f", {len(engine)} of them pnp's own words, which it has "
                                                         f"none of in {lang}" if engine else ""))
    from generator.i18n.status import language_status      # (the texts a sheet holds: their empty cells)
    for row in language_status(source, used[source.id]):
        for sheet in dict.fromkeys(sheet for sheet, _, _ in row.in_cells) if row.lang == lang else ():
            cells = [f"{cell} ({key})" for where, key, cell in row.in_cells if where == sheet]
            click.echo(f"{sheet}: {len(cells)} text(s) to write in their empty cells, not the catalog: "
                       + ", ".join(cells))
    if lang not in source.game.languages:
        click.echo(f"add '{lang}' to languages in {source.folder / 'game.yaml'} to build it")


@i18n_group.command("export")
@click.argument("game")
@click.option("--lang", required=True, help="Language of the catalog to export (the target language).")
@click.option("--format", "fmt", type=click.Choice(["xliff", "xliff-weblate", "po"]), default="xliff",
              show_default=True, help="XLIFF 1.2, valid against the strict schema (.xlf); the same with "
              "Weblate's weblate-flags (line counts, placeholders; not strict) (.xlf); or gettext PO (.po).")
@click.option("--out", type=click.Path(file_okay=False),
              help="Folder for <game>.<lang>.xlf|po and its screenshots (default: <output>/<game>/i18n).")
@content_option
@project_option
def i18n_export(game, lang, fmt, out, content_root, project_file) -> None:
    """Write GAME's keys for translators: context, size limits, plural forms, a screenshot per key."""
    check_language_code(lang)
    where, folder = one_game(game, content_root, project_file)
    export_command(folder, lang, fmt, Path(out) if out else where.out / folder.name / "i18n", where.templates)


@i18n_group.command("import")
@click.argument("game")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--lang", help="The file's language, when the file does not say it.")
@content_option
@project_option
def i18n_import(game, file, lang, content_root, project_file) -> None:
    """Write an XLIFF or PO file's translations into GAME's i18n/<lang>.yaml, in place."""
    if lang:
        check_language_code(lang)
    where, folder = one_game(game, content_root, project_file)
    import_command(folder, Path(file), lang, where.templates)


@main.group("data")
def data_group() -> None:
    """Component data as spreadsheets (decks read them with `cards_from:`)."""


@data_group.command("export")
@click.argument("game")
@click.argument("deck")
@click.option("--to", "target", required=True, type=click.Path(dir_okay=False), help="FILE.xlsx or FILE.csv to write.")
@content_option
@project_option
def data_export(game, deck, target, content_root, project_file) -> None:
    """Write a deck (or token set, pawn set: tokens/ID) as a sheet: one row per card, one column per field."""
    from generator.data_export import export_set      # the layout and openpyxl: only when a sheet is written
    where, folder = one_game(game, content_root, project_file)
    try:
        problems, written = export_set(folder, deck, Path(target), where.templates)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    report_problems(problems.items)
    if problems.errors:
        click.echo(f"{len(problems.errors)} error(s): nothing written", err=True)
        sys.exit(1)
    click.echo(written)


@main.group("export")
def export_group() -> None:
    """A game for other tools: Tabletop Simulator (and Tabletop Playground, which reads its saves)."""


@export_group.command("tts")
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False), help="Folder to write (default: <output>/<game>/tts).")
@click.option("--edition", help="The edition (default: the game's first).")
@click.option("--lang", help="The language (default: the game's source language).")
@content_option
@project_option
def export_tts(game, out, edition, lang, content_root, project_file) -> None:
    """Deck sheets (≤ 10 × 7 cards, ≤ 4096 px), one back per deck, token and board images, and a saved object."""
    from generator.export_tts import write_tts         # the layout and drawing stages: only for an export
    where, folder = one_game(game, content_root, project_file)
    try:
        destination = Path(out) if out else where.out / folder.name / "tts"
        refuse_output_inside(destination, [folder])
        written = write_tts(folder, destination, edition, lang, where.templates)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    except ContentError as error:
        report_problems(error.problems.items)
        click.echo(f"export failed: {len(error.problems.errors)} error(s); nothing was written", err=True)
        sys.exit(1)
    click.echo(written)


@main.command("schema")
@click.argument("games", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False),
              help="Folder for the JSON Schema files (default: schemas/ beside the games, see below).")
@content_option
@project_option
@click.option("--annotate/--no-annotate", default=True, show_default=True,
              help="Point every content and template file at its schema (first line).")
def schema_command(games, out, content_root, project_file, annotate) -> None:
    """Write JSON Schemas of every content file type, for editor completion and validation.

    With GAMES, each game gets its own schemas/ (so its schema lines work wherever the folder
    is kept); without, the project's (or the current folder's) schemas/ serves every game."""
    from generator.content.json_schema import annotate as annotate_file, write_schemas   # pydantic's schemas
    where = locate(content_root, None, project_file)
    root = where.project.root if where.project else Path.cwd()
    try:
        if games:
            groups = [(Path(out) if out else folder / "schemas", [folder])
                      for folder in resolve_games(games, where.roots)]
        else:
            folders = [root for root in where.roots if root.is_dir()]
            groups = [(Path(out) if out else root / "schemas", folders)]
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    if out is None:
        for folder, _ in groups:
            refuse_linked_folder(folder, folder.parent)
    changed = 0
    for folder, roots in groups:
        count = write_schemas(folder)
        click.echo(f"wrote {count} schemas to {folder}/")
        if annotate:
            if not games and where.templates is not None:
                roots = [*roots, where.templates]
            elif not games and (root / "templates").is_dir():
                roots = [*roots, root / "templates"]
            files = [file for item in roots for file in sorted(item.rglob("*.yaml")) if folder not in file.parents]
            changed += sum(annotate_file(file, folder) for file in files)
    if annotate:
        click.echo(f"{changed} file(s) now name their schema on their first line")


@main.command("new")
@click.argument("game")
@click.option("--lang", default="en", show_default=True, help="The source language of the new game.")
@click.option("--title", help="The game's title (default: from its id).")
@content_option
@project_option
def new_command(game, lang, title, content_root, project_file) -> None:
    """Start a new game folder that builds at once: GAME is a name (created under the project's
    games, or content/ when there is one, else here) or a path."""
    from generator.scaffold import scaffold     # Pillow (its starter art): only when a game is made
    check_language_code(lang)
    where = locate(content_root, None, project_file)
    as_path = Path(game)
    if len(as_path.parts) > 1 or as_path.is_absolute():
        parent, name = as_path.parent, as_path.name
    elif content_root is not None or where.project is not None:
        parent, name = where.roots[0], game
    else:
        parent, name = (Path(DEFAULT_CONTENT) if Path(DEFAULT_CONTENT).is_dir() else Path(".")), game
    schemas = where.project.root / "schemas" if where.project else None
    try:
        folder = scaffold(parent, name, lang, title, schemas)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    click.echo(f"created {folder}/ — try `pnp build {folder if parent != Path(DEFAULT_CONTENT) else name}`, "
               "then edit its YAML")


@main.command("calibrate")
@click.option("--paper", type=click.Choice(choices(Paper)), default=Paper.A4.value, show_default=True)
@click.option("--duplex", type=click.Choice(choices(Duplex)), default=Duplex.LONG_EDGE.value, show_default=True)
@click.option("--out", default="output", show_default=True, type=click.Path(file_okay=False))
@click.option("--lang", default="en", show_default=True, metavar="LANG", callback=cli_options.calibration_language,
              help="Language of the sheet's words: any code a build reads pnp's words for (pt-BR, zh-TW, "
                   "de-AT …); an unknown one lists them.")
def calibrate_command(paper, duplex, out, lang) -> None:
    """Write a two-sided test sheet to find your printer's back offset."""
    # the imposition and drawing stages (ReportLab): only when a calibration sheet is drawn
    from generator.context import BuildContext
    from generator.i18n.engine_text import calibration_instructions, engine_word
    from generator.imposition.calibration import calibration_pages
    from generator.imposition.sheet import Document
    from generator.render.pdf import render_pdf
    from generator.write import caption_maker
    path = Path(out) / f"calibration-{paper}-{duplex}{'' if lang == 'en' else '-' + lang}.pdf"
    with BuildContext(BuildOptions(out=Path(out))) as context:
        instructions = calibration_instructions(lang, duplex)
        pages = calibration_pages(PAPER_SIZES[paper], duplex, caption_maker(context.library, lang), instructions,
                                  engine_word(lang, "kit.scale_bar"))
        write_atomically(path, render_pdf(Document(pages, title="pnp back-offset calibration"), context.drawing))
    click.echo(f"wrote {path}")


@main.command("serve")
@click.argument("game", required=False)
@click.option("--edition", help="Edition shown first (default: the game's first).")
@click.option("--lang", help="Language shown first (default: the game's source language).")
@click.option("--paper", type=click.Choice(choices(Paper)), default=Paper.A4.value, show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port on 127.0.0.1 (0: any free one).")
@content_option
@project_option
def serve_command(game, edition, lang, paper, port, content_root, project_file) -> None:
    """A live preview in the browser: every face, the home files' pages and the errors, rebuilt on every save."""
    if lang:
        check_language_code(lang)
    where = locate(content_root, None, project_file)
    try:
        folders = resolve_games((game,) if game else (), where.roots)
        run_server(folders, edition, lang, paper, port, where.templates)
    except UsageError as error:
        raise click.UsageError(str(error)) from None


@main.command("preview")
@with_common
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: the project's, else output/).")
@click.option("--dpi", default=100, show_default=True, type=click.IntRange(20, 600))
def preview_command(games, edition, lang, paper, content_root, project_file, out, dpi) -> None:
    """PNGs of every face and a contact sheet per deck and per component, under <out>/…/preview/."""
    try:
        where = locate(content_root, out, project_file)
        options = build_options(edition, lang, paper, where)
        folders = resolve_games(games, where.roots)
        refuse_output_inside(options.out, folders)
        report = preview(folders, options, dpi)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    except ContentError as error:
        report_problems(error.problems.items)
        sys.exit(1)
    images = sum(1 for path in report.written if path.suffix == ".png")
    click.echo(f"wrote {images} preview image(s) to {options.out}/ in {report.seconds:.1f} s")
