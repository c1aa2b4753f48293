"""The `pnp` command: parses options and calls the stages, nothing more."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import click

from generator.build import BuildOptions, build, check, preview
from generator.content.game import find_games
from generator.errors import ContentError, Problem, UsageError, printable
from generator.i18n.engine_text import CALIBRATION, calibration_instructions

PAPERS = ("a4", "letter")


def _split(value: str | None) -> tuple[str, ...] | None:
    if not value:
        return None
    return tuple(part.strip() for part in value.split(",") if part.strip())


def resolve_games(names: tuple[str, ...], content_root: Path) -> list[Path]:
    """Game names under content/, or paths to game folders; none means every game."""
    if not names:
        games = find_games(content_root)
        if not games:
            raise UsageError(f"no games found: {content_root}/*/game.yaml does not exist")
        return games
    folders = []
    for name in names:
        as_path = Path(name)
        if (as_path / "game.yaml").is_file():
            folders.append(as_path)
        elif (content_root / name / "game.yaml").is_file():
            folders.append(content_root / name)
        else:
            known = ", ".join(p.name for p in find_games(content_root)) or "none"
            raise UsageError(f"no game '{name}': not a folder with game.yaml, nor a game under "
                             f"{content_root}/ (games there: {known})")
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


def _options(edition, lang, paper, out, duplex="long-edge", allow_fallback=False, gap=0.0,
             copies=1, back_offset=None) -> BuildOptions:
    papers = _split(paper) or PAPERS
    if not (math.isfinite(gap) and 0 <= gap <= MAX_GAP):
        why = ": a negative gap would lay cards over each other" if gap < 0 else ""
        raise UsageError(f"--gap takes millimetres from 0 to {MAX_GAP:g} (got {gap:g}){why}")
    for item in papers:
        if item not in PAPERS:
            raise UsageError(f"unknown paper '{item}' (use a4, letter or a4,letter)")
    return BuildOptions(editions=_split(edition), languages=_split(lang), papers=papers,
                        out=Path(out), duplex=duplex, allow_fallback=allow_fallback, gap=gap, copies=copies,
                        back_offset=_offset(back_offset))


common = [
    click.argument("games", nargs=-1),
    click.option("--edition", help="Editions to build, comma-separated (default: all)."),
    click.option("--lang", help="Languages, comma-separated (default: all of the game's)."),
    click.option("--paper", help="a4, letter or a4,letter (default: both)."),
    click.option("--content", "content_root", default="content", show_default=True,
                 type=click.Path(file_okay=False), help="Folder holding the games."),
]


def with_common(function):
    for decorator in reversed(common):
        function = decorator(function)
    return function


class PnpGroup(click.Group):
    """The commands, with a bug in pnp reported as one line and exit status 70, never a traceback
    (PNP_DEBUG=1 shows it). Ctrl-C (130) is the console entry's, generator/__main__.py."""

    def invoke(self, ctx: click.Context):
        import os
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
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
@click.option("--out", default="output", show_default=True, type=click.Path(file_okay=False))
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge",
              show_default=True, help="How your printer flips the sheet for the back side.")
@click.option("--gap", default=0.0, show_default=True, type=float, help="Gap between cards in mm.")
@click.option("--allow-fallback", is_flag=True, help="Use the source language for missing translations.")
@click.option("--copies", default=1, show_default=True, type=click.IntRange(1, 500),
              help="Pages of each player sheet in sheets.pdf.")
@click.option("--back-offset", help="X,Y mm to move every back page (read from `pnp calibrate`).")
@click.option("--force", is_flag=True, help="Rebuild targets whose inputs have not changed.")
@click.option("--shop", type=click.Choice(["generic", "mpc", "tgc", "drivethrucards"]), default="generic",
              show_default=True, help="Print-shop preset: card size, bleed (PNG size) and page order.")
@click.option("--layout", type=click.Choice(["duplex", "gutterfold"]), default="duplex", show_default=True,
              help="gutterfold: fronts and backs side by side, to fold (for card stock a duplex printer refuses).")
@click.option("--color", type=click.Choice(["rgb", "cmyk"]), default="rgb", show_default=True,
              help="cmyk: every colour separated to CMYK (grey component to K), total ink limited.")
@click.option("--ink-limit", default=300, show_default=True, type=click.IntRange(100, 400),
              help="Total ink in percent for --color cmyk (US shops: 240).")
@click.option("--jobs", default=0, type=click.IntRange(0, 64), help="Worker processes (default: every core).")
@click.option("-q", "--quiet", is_flag=True, help="Only errors.")
@click.option("--json", "as_json", is_flag=True, help="A machine-readable summary on standard output.")
def build_command(games, edition, lang, paper, content_root, out, duplex, gap, allow_fallback, copies,
                  back_offset, force, shop, layout, color, ink_limit, jobs, quiet, as_json) -> None:
    """Build GAMES (names under content/ or folders; default: all) into output/."""
    import os
    try:
        options = replace(_options(edition, lang, paper, out, duplex, allow_fallback, gap, copies, back_offset),
                          force=force, jobs=jobs or os.cpu_count() or 1, shop=shop, layout=layout, color=color,
                          ink_limit=ink_limit / 100)
        show = None if quiet or as_json else Progress()
        report = build(resolve_games(games, Path(content_root)), options, progress=show)
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
                               "up_to_date": report.up_to_date,
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
    return "\n".join(lines)


@main.command("check")
@with_common
@click.option("--allow-fallback", is_flag=True, help="Treat missing translations as warnings.")
@click.option("--preflight", is_flag=True, help="Inspect the built PDFs in --out as a print shop would.")
@click.option("--out", default="output", show_default=True, type=click.Path(file_okay=False))
@click.option("--color", type=click.Choice(["rgb", "cmyk"]), default="rgb", show_default=True,
              help="With --preflight: print-shop files must be CMYK within --ink-limit.")
@click.option("--ink-limit", default=300, show_default=True, type=click.IntRange(100, 400))
def check_command(games, edition, lang, paper, content_root, allow_fallback, preflight, out, color,
                  ink_limit) -> None:
    """Check content, translations, glyph coverage and text fit; write nothing."""
    if preflight:
        from generator.preflight import format_preflight, ink_saver_ratios, preflight as inspect_files
        folders = resolve_games(games, Path(content_root))
        from generator.build import plan_targets, BuildReport
        keys = sorted(plan_targets(folders, _options(edition, lang, paper, out), BuildReport())[1])
        reports = inspect_files(Path(out), keys, ink_limit / 100 if color == "cmyk" else None)
        if not reports:
            raise click.UsageError(f"nothing built under {out}/ for these games: run `pnp build` first")
        click.echo(format_preflight(reports))
        for line in ink_saver_ratios(reports):
            click.echo(line)
        errors = sum(len(report.errors) for report in reports)
        click.echo(f"{len(reports)} file(s), {errors} problem(s)")
        sys.exit(1 if errors else 0)
    try:
        options = _options(edition, lang, paper, "output", allow_fallback=allow_fallback)
        problems = check(resolve_games(games, Path(content_root)), options)
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


def _usage(games, content_root):
    """Lay out every edition and language of the games, recording the keys they use."""
    from generator.build import load_games, layout_targets
    from generator.errors import Problems
    from generator.text.fonts import FontLibrary
    problems = Problems()
    sources = load_games(resolve_games(games, Path(content_root)), problems)
    used: dict[str, set[str]] = {}
    layout_targets(sources, BuildOptions(check_only=True), problems, FontLibrary(), used)
    return sources, used, problems


@i18n_group.command("status")
@click.argument("games", nargs=-1)
@click.option("--content", "content_root", default="content", show_default=True, type=click.Path(file_okay=False))
@click.option("--brief", is_flag=True, help="Only the table, not the keys.")
def i18n_status(games, content_root, brief) -> None:
    """Keys translated / total, missing and unused keys, per game and language."""
    from generator.i18n.status import format_status, language_status
    try:
        sources, used, _ = _usage(games, content_root)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    rows = [row for source in sources for row in language_status(source, used.get(source.id, set()))]
    click.echo("\n".join(printable(line) for line in format_status(rows, details=not brief).splitlines()))
    if any(row.missing for row in rows):
        sys.exit(1)


@i18n_group.command("stub")
@click.argument("game")
@click.option("--lang", required=True, help="Language code of the catalog to write or complete.")
@click.option("--content", "content_root", default="content", show_default=True, type=click.Path(file_okay=False))
def i18n_stub(game, lang, content_root) -> None:
    """Write or complete i18n/LANG.yaml with every key it lacks (empty, source text as a comment)."""
    from generator.i18n.stub import stub_catalog
    from generator.files import write_atomically
    _check_language_code(lang)
    try:
        sources, used, _ = _usage((game,), content_root)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    if not sources:
        raise click.UsageError(f"game '{game}' cannot be read: run `pnp check {game}`")
    source = sources[0]
    source_catalog = source.catalogs[source.source_language]
    keys = [key for key in source_catalog.entries if key in used[source.id] or lang not in source.catalogs]
    keys = [key for key in source_catalog.entries if key in set(keys)]
    file = source.folder / "i18n" / f"{lang}.yaml"
    try:
        text, added = stub_catalog(file, lang, source_catalog, keys, source.id)
    except ValueError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    write_atomically(file, text.encode("utf-8"))
    from generator.content.json_schema import annotate
    annotate(file, Path(content_root).parent / "schemas")
    click.echo(f"{file}: {len(added)} key(s) added")
    if lang not in source.game.languages:
        click.echo(f"add '{lang}' to languages in {source.folder / 'game.yaml'} to build it")


def _check_language_code(lang: str) -> None:
    """A language code names a catalog file: `--lang ../../x` must never become a path."""
    import re
    from generator.content.schema import LANG_PATTERN
    from generator.i18n.pseudo import PSEUDO
    if lang != PSEUDO and not re.fullmatch(LANG_PATTERN, lang):
        raise click.BadParameter(f"{printable(repr(lang))} is not a language code such as bg, en or pt-BR",
                                 param_hint="--lang")


@main.command("schema")
@click.option("--out", default="schemas", show_default=True, type=click.Path(file_okay=False),
              help="Folder for the JSON Schema files.")
@click.option("--content", "content_root", default="content", show_default=True, type=click.Path(file_okay=False))
@click.option("--annotate/--no-annotate", default=True, show_default=True,
              help="Point every content and template file at its schema (first line).")
def schema_command(out, content_root, annotate) -> None:
    """Write JSON Schemas of every content file type, for editor completion and validation."""
    from generator.content.json_schema import annotate as annotate_file, schema_text, schemas
    from generator.files import write_atomically
    folder = Path(out)
    for name, schema in schemas().items():
        write_atomically(folder / f"{name}.schema.json", schema_text(schema).encode("utf-8"))
    click.echo(f"wrote {len(schemas())} schemas to {folder}/")
    if annotate:
        roots = [Path(content_root), Path(content_root).parent / "templates"]
        changed = sum(annotate_file(file, folder) for root in roots if root.is_dir()
                      for file in sorted(root.rglob("*.yaml")))
        click.echo(f"{changed} file(s) now name their schema on their first line")


@main.command("new")
@click.argument("game")
@click.option("--lang", default="en", show_default=True, help="The source language of the new game.")
@click.option("--title", help="The game's title (default: from its id).")
@click.option("--content", "content_root", default="content", show_default=True, type=click.Path(file_okay=False))
def new_command(game, lang, title, content_root) -> None:
    """Start a new game folder under content/ that builds at once."""
    from generator.scaffold import scaffold
    _check_language_code(lang)
    try:
        folder = scaffold(Path(content_root), game, lang, title)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    click.echo(f"created {folder}/ — try `pnp build {game}`, then edit its YAML")


@main.command("calibrate")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge", show_default=True)
@click.option("--out", default="output", show_default=True, type=click.Path(file_okay=False))
@click.option("--lang", default="en", show_default=True, type=click.Choice(sorted(CALIBRATION)),
              help="Language of the instructions printed on the sheet.")
def calibrate_command(paper, duplex, out, lang) -> None:
    """Write a two-sided test sheet to find your printer's back offset."""
    from generator.build import caption_maker
    from generator.imposition.calibration import calibration_pages
    from generator.imposition.sheet import PAPER_SIZES, Document
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


@main.command("preview")
@with_common
@click.option("--out", default="output", show_default=True, type=click.Path(file_okay=False))
@click.option("--dpi", default=100, show_default=True, type=click.IntRange(20, 600))
def preview_command(games, edition, lang, paper, content_root, out, dpi) -> None:
    """PNGs of every face and a contact sheet per deck and per component, under <out>/…/preview/."""
    try:
        options = _options(edition, lang, paper, out)
        report = preview(resolve_games(games, Path(content_root)), options, dpi)
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    except ContentError as error:
        _report(error.problems.items)
        sys.exit(1)
    click.echo(f"wrote {len(report.written)} previews to {out}/ in {report.seconds:.1f} s")
