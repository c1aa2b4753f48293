"""The `pnp` command: parses options and calls the stages, nothing more.

Each command imports the stages it runs when it runs (`pnp --help` and a build with nothing
to do never load pydantic, ReportLab, svglib or pdfium). Defaults come from the flags, then
the project file (pnp.yaml, generator/project.py), then pnp's own.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import click

from generator.errors import ContentError, Problem, UsageError, printable
from generator.i18n.engine_text import engine_languages
from generator.options import (MAX_MARGIN, OUTPUTS, BuildOptions, Color, CutFormat, Duplex, Layout, PdfX, Shop, choices,
                                with_print_options)
from generator.print_facts import INK_LIMIT, INK_LIMIT_PERCENT_RANGE, PAPERS, Paper
from generator.project import Project

PAPER_LIST = f"{', '.join(PAPERS)} or {','.join(PAPERS)}"      # 'a4, letter or a4,letter'
INK_LIMIT_PERCENT = round(INK_LIMIT * 100)
DEFAULT_CONTENT = "content"
DEFAULT_OUT = "output"


def build(folders, options, progress=None):
    """generator.build.build, imported when a build runs."""
    from generator.build import build as build_games
    return build_games(folders, options, progress)


def check(folders, options):
    """generator.build.check, imported when a check runs."""
    from generator.build import check as check_games
    return check_games(folders, options)


def preview(folders, options, dpi):
    """generator.build.preview, imported when previews are drawn."""
    from generator.build import preview as preview_games
    return preview_games(folders, options, dpi)


def find_games(content_root: Path) -> list[Path]:
    """The game folders (with a game.yaml) directly under a folder."""
    return sorted(p.parent for p in content_root.glob("*/game.yaml"))


@dataclass(frozen=True)
class Where:
    """Where a command looks: the game roots (folders of game folders), the output, the project."""

    roots: tuple[Path, ...]
    out: Path
    project: Project | None = None

    @property
    def templates(self) -> Path | None:
        return self.project.templates if self.project else None


def locate(content_root: str | None, out: str | None, project_file: str | None) -> Where:
    """The flags first, then the project file (found from here upwards, or --project), then
    content/ and output/ in the current folder. Problems in pnp.yaml exit 1, located."""
    from generator.project import find_project, load_project
    file = Path(project_file) if project_file else find_project(Path.cwd())
    project = None
    if file is not None:
        from generator.errors import Problems
        problems = Problems()
        project = load_project(file, problems)
        if problems.errors:
            _report(problems.items)
            click.echo(f"{len(problems.errors)} error(s) in the project file {file}", err=True)
            sys.exit(1)
    if content_root is not None:
        roots: tuple[Path, ...] = (Path(content_root),)
    elif project is not None:
        roots = project.games
    else:
        roots = (Path(DEFAULT_CONTENT),)
    output = Path(out) if out is not None else (project.output if project and project.output
                                               else (project.root / DEFAULT_OUT if project else Path(DEFAULT_OUT)))
    return Where(roots, output, project)


def _split(value: str | None, option: str = "") -> tuple[str, ...] | None:
    """A comma-separated option's values (None: the option was not given). Given empty, or with a value
    twice, it is refused: `--only ''` from an empty shell variable must not build everything, and
    `--lang en,en` would build the same target twice."""
    if value is None:
        return None
    parts = tuple(part.strip() for part in value.split(",") if part.strip())
    if not parts:
        raise UsageError(f"{option or 'the option'} was given no value: name at least one, or leave the option out")
    _refuse_repeats(parts, option)
    return parts


def _refuse_repeats(values: tuple[str, ...], what: str) -> None:
    repeated = sorted({value for value in values if values.count(value) > 1})
    if repeated:
        raise UsageError(f"{what} names {', '.join(repr(value) for value in repeated)} more than once: "
                         "name each once")


def resolve_games(names: tuple[str, ...], content_root: Path | tuple[Path, ...]) -> list[Path]:
    """Game names under the game roots (content/, or a project's `games:`), or paths to game
    folders; none means every game. A root may itself be a game folder."""
    roots = (content_root,) if isinstance(content_root, Path) else tuple(content_root)

    def games_in(root: Path) -> list[Path]:
        return [root] if (root / "game.yaml").is_file() else find_games(root)
    if not names:
        games = [game for root in roots for game in games_in(root)]
        if not games:
            raise UsageError(f"no games found: no {' nor '.join(f'{root}/*/game.yaml' for root in roots)}; "
                             "name a game folder, or create one with `pnp new GAME`")
        return games
    folders = []
    for name in names:
        as_path = Path(name)
        found = [as_path] if (as_path / "game.yaml").is_file() else \
            [game for root in roots for game in games_in(root) if game.name == name]
        if not found:
            known = ", ".join(game.name for root in roots for game in games_in(root)) or "none"
            raise UsageError(f"no game '{name}': not a folder with game.yaml, nor a game under "
                             f"{', '.join(f'{root}/' for root in roots)} (games there: {known})")
        folders.append(found[0])
    resolved = [folder.resolve() for folder in folders]
    twice = [name for name, folder in zip(names, resolved) if resolved.count(folder) > 1]
    if twice:                          # by name and by path alike: `pnp build sorry content/sorry`
        raise UsageError(f"the command names the game {printable(str(folders[names.index(twice[0])]))} more than "
                         f"once ({', '.join(repr(printable(name)) for name in twice)}): name each once")
    return folders


def _report(problems: list[Problem]) -> None:
    for problem in problems:
        click.echo(str(problem), err=True)


MAX_GAP = 20.0     # mm between cards: more and a sheet holds fewer cards than it could at no gain


def _offset(value: str | None) -> tuple[float, float]:
    if not value:
        return (0.0, 0.0)
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise UsageError(f"--back-offset takes X,Y in millimetres, such as 1.5,-0.5 (got {value!r})") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise UsageError(f"--back-offset takes two finite numbers of millimetres, such as 1.5,-0.5 (got {value!r})")
    if max(abs(x), abs(y)) > 10:
        raise UsageError("--back-offset above 10 mm: print `pnp calibrate` again and check the reading")
    return (x, y)


def _only(value: str | None) -> frozenset[str] | None:
    """--only cards,png: which outputs a build makes (None: all)."""
    names = _split(value, "--only")
    if names is None:
        return None
    unknown = [name for name in names if name not in OUTPUTS]
    if unknown:
        raise UsageError(f"--only: unknown output {', '.join(repr(name) for name in unknown)} "
                         f"(choose from {', '.join(OUTPUTS)})")
    return frozenset(names)


def _refuse_output_inside(out: Path, folders: list[Path]) -> None:
    """An output folder inside a game would be read as part of the game: every build would see new input
    (never up to date), and the game's folder would grow by a build each time."""
    output = out.resolve()
    for folder in folders:
        game = folder.resolve()
        if output == game or game in output.parents:
            raise UsageError(f"the output folder {printable(str(out))} is inside the game folder "
                             f"{printable(str(folder))}: pnp would read its own output as the game's input; "
                             f"build into a folder outside the game (--out, or run pnp from the folder above: "
                             f"`cd .. && pnp build {printable(game.name)}`)")


def _refuse_linked_folder(folder: Path, root: Path) -> None:
    """A folder pnp writes into by default (a game's schemas/) that is a link leading out of `root`:
    writing there would change files outside the game. Exit 1, with what to do."""
    from generator.files import outside_link
    linked = outside_link(folder, root)
    if linked is not None:
        click.echo(f"{printable(str(linked))}: is a link leading out of {printable(str(root))} (to "
                   f"{printable(os.path.realpath(linked))}): pnp does not write through it\n"
                   "    hint: remove the link (pnp makes the folder), or name the folder you mean with --out",
                   err=True)
        sys.exit(1)


def _ink_limit(percent: int | None, separates: bool) -> float:
    """--ink-limit as a fraction; refused where nothing is separated to CMYK, which it would not change."""
    if percent is not None and not separates:
        raise UsageError("--ink-limit limits the ink of CMYK colours: give it with --color cmyk (or --pdfx)")
    return (percent if percent is not None else INK_LIMIT_PERCENT) / 100


def _printer(where: Where, name: str | None):
    """The printer profile asked for with --printer, or the project's default; None without either."""
    project = where.project
    chosen = name or (project.printer if project else None)
    if chosen is None:
        return None
    profiles = project.printers if project else {}
    if chosen not in profiles:
        where_from = f"in {project.file}" if project else "(no pnp.yaml found: profiles live in a project file)"
        raise UsageError(f"--printer: no profile '{chosen}' {where_from}; profiles: "
                         f"{', '.join(sorted(profiles)) or 'none'}")
    return profiles[chosen]


def _options(edition, lang, paper, out, duplex=Duplex.LONG_EDGE, allow_fallback=False, gap=None,
             copies=1, back_offset=None, where: Where | None = None) -> BuildOptions:
    project = where.project if where else None
    papers = _split(paper, "--paper") or (project.papers if project and project.papers else PAPERS)
    if gap is not None and not (math.isfinite(gap) and 0 <= gap <= MAX_GAP):
        why = ": a negative gap would lay cards over each other" if gap < 0 else ""
        raise UsageError(f"--gap takes millimetres from 0 to {MAX_GAP:g} (got {gap:g}){why}")
    for item in papers:
        if item not in PAPERS:
            raise UsageError(f"unknown paper '{item}' (use {PAPER_LIST})")
    return BuildOptions(editions=_split(edition, "--edition") or (project.editions if project else None),
                        languages=_split(lang, "--lang") or (project.languages if project else None),
                        papers=tuple(map(Paper, papers)), out=Path(out) if out is not None else where.out,
                        duplex=Duplex(duplex or Duplex.LONG_EDGE),
                        allow_fallback=allow_fallback, gap=gap, copies=copies, back_offset=_offset(back_offset),
                        templates=where.templates if where else None)


common = [
    click.argument("games", nargs=-1),
    click.option("--edition", help="Editions to build, comma-separated (default: all)."),
    click.option("--lang", help="Languages, comma-separated (default: all of the game's)."),
    click.option("--paper", help=f"{PAPER_LIST} (default: both)."),
    click.option("--content", "content_root", type=click.Path(file_okay=False),
                 help="Folder holding the games (default: the project's games, else content/)."),
    click.option("--project", "project_file", type=click.Path(dir_okay=False),
                 help="The project file (default: pnp.yaml here or in a folder above)."),
]


def with_common(function):
    for decorator in reversed(common):
        function = decorator(function)
    return function


class PnpGroup(click.Group):
    """The commands, with a bug in pnp reported as one line and exit status 70, never a traceback
    (PNP_DEBUG=1 shows it). Ctrl-C (130) is the console entry's, generator/__main__.py."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except OSError as error:       # a folder that cannot be written, a file in the way, a full disk
            if os.environ.get("PNP_DEBUG"):
                raise
            from generator.files import output_problem
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


INTERNAL_ERROR = 70        # EX_SOFTWARE


@click.group(cls=PnpGroup)
@click.version_option(package_name="pnp-generator")
def main() -> None:
    """Print-and-play asset generator: YAML game content to print-ready PDFs."""


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
        profile = _printer(where, printer)
        if profile is not None:     # the flags given win over the profile
            duplex = duplex or profile.duplex
            back_offset = back_offset or (",".join(f"{v:g}" for v in profile.back_offset)
                                          if profile.back_offset else None)
        options = replace(_options(edition, lang, paper, None, duplex, allow_fallback, gap, copies, back_offset,
                                   where),
                          force=force, jobs=jobs or os.cpu_count() or 1, shop=Shop(shop), layout=Layout(layout),
                          color=Color(color), ink_limit=_ink_limit(ink_limit, color == "cmyk" or pdfx is not None),
                          only=_only(only))
        try:
            options = with_print_options(options, pdfx, icc, cut)
        except ValueError as error:
            raise UsageError(str(error)) from None
        if margin is None and profile is not None:      # the flag wins over the profile
            margin = profile.margin
        if margin is not None:
            if not (math.isfinite(margin) and 0 <= margin <= MAX_MARGIN):
                raise UsageError(f"--margin takes millimetres from 0 to {MAX_MARGIN:g} (got {margin:g})")
            options = replace(options, margin=margin)
        show = None if quiet or as_json else Progress()
        folders = resolve_games(games, where.roots)
        _refuse_output_inside(options.out, folders)
        report = build(folders, options, progress=show)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    except ContentError as error:
        _report(error.problems.items)
        click.echo(f"build failed: {len(error.problems.errors)} error(s); nothing was written", err=True)
        sys.exit(1)
    _report(report.warnings)
    if as_json:
        import json
        click.echo(json.dumps({"seconds": round(report.seconds, 2), "targets": report.targets,
                               "up_to_date": report.up_to_date, "retired": report.retired,
                               "warnings": [str(warning) for warning in report.warnings],
                               "files": [str(path) for path in report.written]}, ensure_ascii=False, indent=1))
    elif not quiet:
        click.echo(summary_table(report))


class Progress:
    """A progress bar on standard error, shown once a build has taken more than a second."""

    def __init__(self):
        import time
        self.started, self.clock = time.perf_counter(), time.perf_counter
        self.shown = 0.0

    def __call__(self, done: int, total: int, label: str, pages: int = 0) -> None:
        """Told as files are written (pages so far) and as targets finish."""
        now = self.clock()
        if now - self.started < 1.0 or not sys.stderr.isatty():
            return
        if done < total and now - self.shown < 0.1:    # a 10,000-card deck reports pages by the thousand
            return
        self.shown = now
        filled = round(24 * done / total)
        line = f"[{'#' * filled}{'.' * (24 - filled)}] {done}/{total} targets, {pages} pages  {label}"
        click.echo(f"\r{line:<100.100}", err=True, nl=done == total)


def summary_table(report) -> str:
    lines = []
    if report.targets:
        lines.append(f"{'target':<36} {'files':>6} {'pages':>6} {'MB':>7} {'s':>6}")
        for row in report.targets:
            lines.append(f"{row['target']:<36} {row['files']:>6} {row['pages']:>6} "
                         f"{row['bytes'] / 1e6:>7.1f} {row['seconds']:>6.1f}")
    fresh = f"; {len(report.up_to_date)} target(s) up to date" if report.up_to_date else ""
    lines.append(f"wrote {len(report.written)} files in {report.seconds:.1f} s{fresh}")
    for target in report.retired:
        lines.append(f"removed the output of {target}: its edition or language is no longer in game.yaml")
    return "\n".join(lines)


@main.command("check")
@with_common
@click.option("--allow-fallback", is_flag=True, help="Treat missing translations as warnings.")
@click.option("--preflight", is_flag=True, help="Inspect the built PDFs in --out as a print shop would.")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: the project's, else output/).")
@click.option("--color", type=click.Choice(choices(Color)), default=Color.RGB.value, show_default=True,
              help="With --preflight: print-shop files must be CMYK within --ink-limit.")
@click.option("--ink-limit", type=click.IntRange(*INK_LIMIT_PERCENT_RANGE),
              help=f"Total ink in percent that --preflight checks with --color cmyk (default {INK_LIMIT_PERCENT}).")
def check_command(games, edition, lang, paper, content_root, project_file, allow_fallback, preflight, out, color,
                  ink_limit) -> None:
    """Check content, translations, glyph coverage and text fit; write nothing."""
    where = locate(content_root, out, project_file)
    if preflight:
        from generator.preflight import format_preflight, ink_saver_ratios, preflight as inspect_files
        from generator.build import plan_targets, BuildReport
        from generator.files import remove_dead_staging
        try:
            folders = resolve_games(games, where.roots)
            keys = sorted(plan_targets(folders, _options(edition, lang, paper, None, where=where), BuildReport())[1])
            limit = _ink_limit(ink_limit, color == "cmyk")
        except UsageError as error:
            raise click.UsageError(str(error)) from None
        remove_dead_staging(where.out)        # a swap a killed build began is completed before it is judged
        reports = inspect_files(where.out, keys, limit if color == "cmyk" else None)
        if not reports:
            raise click.UsageError(f"nothing built under {where.out}/ for these games: run `pnp build` first")
        click.echo(format_preflight(reports))
        for line in ink_saver_ratios(reports):
            click.echo(line)
        errors = sum(len(report.errors) for report in reports)
        click.echo(f"{len(reports)} file(s), {errors} problem(s)")
        sys.exit(1 if errors else 0)
    try:
        options = _options(edition, lang, paper, None, allow_fallback=allow_fallback, where=where)
        problems = check(resolve_games(games, where.roots), options)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    _report(problems.items)
    if problems.errors:
        click.echo(f"{len(problems.errors)} error(s), {len(problems.warnings)} warning(s)", err=True)
        sys.exit(1)
    click.echo(f"ok ({len(problems.warnings)} warning(s))")


@main.group("i18n")
def i18n_group() -> None:
    """Translation workflow: status of every language, stubs for translators."""


def _usage(games, content_root, project_file=None):
    """Lay out every edition and language of the games, recording the keys they use."""
    from generator.errors import Problems
    from generator.targets import layout_targets, load_games
    from generator.text.fonts import FontLibrary
    problems = Problems()
    where = locate(content_root, None, project_file)
    sources = load_games(resolve_games(games, where.roots), problems, where.templates)
    used: dict[str, set[str]] = {}
    layout_targets(sources, BuildOptions(check_only=True), problems, FontLibrary(), used)
    return sources, used, problems


content_option = click.option("--content", "content_root", type=click.Path(file_okay=False),
                              help="Folder holding the games (default: the project's games, else content/).")
project_option = click.option("--project", "project_file", type=click.Path(dir_okay=False),
                              help="The project file (default: pnp.yaml here or in a folder above).")


@i18n_group.command("status")
@click.argument("games", nargs=-1)
@content_option
@project_option
@click.option("--brief", is_flag=True, help="Only the table, not the keys.")
def i18n_status(games, content_root, project_file, brief) -> None:
    """Keys translated / total, missing and unused keys, per game and language."""
    from generator.i18n.status import format_status, language_status
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
    from generator.i18n.stub import stub_catalog
    from generator.files import write_atomically
    _check_language_code(lang)
    try:
        sources, used, _ = _usage((game,), content_root, project_file)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    if not sources:
        raise click.UsageError(f"game '{game}' cannot be read: run `pnp check {game}`")
    source = sources[0]
    source_catalog = source.catalogs[source.source_language]
    keys = [key for key in source_catalog.entries if key in used[source.id] or lang not in source.catalogs]
    keys = [key for key in source_catalog.entries if key in set(keys)]
    keys = [key for key in keys if key not in source.sheet_keys.get(lang, ())]   # a sheet's name@LANG column has them
    file = source.folder / "i18n" / f"{lang}.yaml"
    try:
        text, added = stub_catalog(file, lang, source_catalog, keys, source.id)
    except ValueError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    write_atomically(file, text.encode("utf-8"))
    from generator.content.json_schema import annotate, schema_folder_of
    annotate(file, schema_folder_of(source.folder))
    click.echo(f"{file}: {len(added)} key(s) added")
    if lang not in source.game.languages:
        click.echo(f"add '{lang}' to languages in {source.folder / 'game.yaml'} to build it")


def _one_game(game: str, content_root, project_file):
    """The project's places and the folder of the one game a command names (a usage error if none)."""
    where = locate(content_root, None, project_file)
    try:
        return where, resolve_games((game,), where.roots)[0]
    except UsageError as error:
        raise click.UsageError(str(error)) from None


@i18n_group.command("export")
@click.argument("game")
@click.option("--lang", required=True, help="Language of the catalog to export (the target language).")
@click.option("--format", "fmt", type=click.Choice(["xliff", "po"]), default="xliff", show_default=True,
              help="XLIFF 1.2 (.xlf) or gettext PO (.po).")
@click.option("--out", type=click.Path(file_okay=False),
              help="Folder for <game>.<lang>.xlf|po and its screenshots (default: <output>/<game>/i18n).")
@content_option
@project_option
def i18n_export(game, lang, fmt, out, content_root, project_file) -> None:
    """Write GAME's keys for translators: context, size limits, plural forms, a screenshot per key."""
    from generator.i18n.exchange_cli import export_command
    _check_language_code(lang)
    where, folder = _one_game(game, content_root, project_file)
    export_command(folder, lang, fmt, Path(out) if out else where.out / folder.name / "i18n", where.templates)


@i18n_group.command("import")
@click.argument("game")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--lang", help="The file's language, when the file does not say it.")
@content_option
@project_option
def i18n_import(game, file, lang, content_root, project_file) -> None:
    """Write an XLIFF or PO file's translations into GAME's i18n/<lang>.yaml, in place."""
    from generator.i18n.exchange_cli import import_command
    if lang:
        _check_language_code(lang)
    where, folder = _one_game(game, content_root, project_file)
    import_command(folder, Path(file), lang, where.templates)


def _check_language_code(lang: str) -> None:
    """A language code names a catalog file: `--lang ../../x` must never become a path."""
    import re
    from generator.content.schema import LANG_PATTERN
    from generator.i18n.pseudo import PSEUDO
    if lang != PSEUDO and not re.fullmatch(LANG_PATTERN, lang):
        raise click.BadParameter(f"{printable(repr(lang))} is not a language code such as bg, en or pt-BR",
                                 param_hint="--lang")


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
    from generator.data_export import export_set
    where, folder = _one_game(game, content_root, project_file)
    try:
        problems, written = export_set(folder, deck, Path(target), where.templates)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    _report(problems.items)
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
    from generator.export_tts import write_tts
    where, folder = _one_game(game, content_root, project_file)
    try:
        destination = Path(out) if out else where.out / folder.name / "tts"
        _refuse_output_inside(destination, [folder])
        written = write_tts(folder, destination, edition, lang, where.templates)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    except ContentError as error:
        _report(error.problems.items)
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
    from generator.content.json_schema import annotate as annotate_file, write_schemas
    where = locate(content_root, None, project_file)
    root = where.project.root if where.project else Path.cwd()
    try:
        if games:
            groups = [(Path(out) if out else folder / "schemas", [folder]) for folder in resolve_games(games, where.roots)]
        else:
            folders = [root for root in where.roots if root.is_dir()]
            groups = [(Path(out) if out else root / "schemas", folders)]
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    if out is None:
        for folder, roots in groups:
            _refuse_linked_folder(folder, folder.parent)
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
    from generator.scaffold import scaffold
    _check_language_code(lang)
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
@click.option("--lang", default="en", show_default=True, type=click.Choice(engine_languages()),
              help="Language of the instructions printed on the sheet.")
def calibrate_command(paper, duplex, out, lang) -> None:
    """Write a two-sided test sheet to find your printer's back offset."""
    from generator.i18n.engine_text import calibration_instructions
    from generator.write import caption_maker
    from generator.imposition.calibration import calibration_pages
    from generator.imposition.sheet import Document
    from generator.print_facts import PAPER_SIZES
    from generator.render.pdf import render_pdf
    from generator.files import write_atomically
    from generator.text.fonts import FontLibrary
    library = FontLibrary()
    instructions = calibration_instructions(lang, duplex)
    pages = calibration_pages(PAPER_SIZES[paper], duplex, caption_maker(library, lang), instructions)
    path = Path(out) / f"calibration-{paper}-{duplex}{'' if lang == 'en' else '-' + lang}.pdf"
    write_atomically(path, render_pdf(Document(pages, title="pnp back-offset calibration"),
                                      library.face("nunito").name))
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
    from generator.serve.command import serve_command as run_server
    if lang:
        _check_language_code(lang)
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
        options = _options(edition, lang, paper, None, where=where)
        folders = resolve_games(games, where.roots)
        _refuse_output_inside(options.out, folders)
        report = preview(folders, options, dpi)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    except ContentError as error:
        _report(error.problems.items)
        sys.exit(1)
    images = sum(1 for path in report.written if path.suffix == ".png")
    click.echo(f"wrote {images} preview image(s) to {options.out}/ in {report.seconds:.1f} s")
