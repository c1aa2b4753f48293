"""The command line's shared options, and their values read into typed options (generator/options.py).

Every check of what was typed is here, with the message a user reads (a click usage error, exit 2): values
given empty or twice, numbers out of range, unknown names. Options several commands take are declared once
(`with_common`, `content_option`, `project_option`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import click

from generator.cli_places import Where
from generator.errors import UsageError, printable
from generator.options import MAX_MARGIN, OUTPUTS, BuildOptions, Duplex, with_print_options
from generator.print_facts import INK_LIMIT, PAPERS, Paper
from generator.project import Printer

PAPER_LIST = f"{', '.join(PAPERS)} or {','.join(PAPERS)}"      # 'a4, letter or a4,letter'
INK_LIMIT_PERCENT = round(INK_LIMIT * 100)
MAX_GAP = 20.0     # mm between cards: more and a sheet holds fewer cards than it could at no gain
MAX_BACK_OFFSET = 10.0      # mm: more is a misreading of the calibration sheet, not a printer

Command = TypeVar("Command", bound=Callable[..., object])

content_option = click.option("--content", "content_root", type=click.Path(file_okay=False),
                              help="Folder holding the games (default: the project's games, else content/).")
project_option = click.option("--project", "project_file", type=click.Path(dir_okay=False),
                              help="The project file (default: pnp.yaml here or in a folder above).")
# what build, check and preview take alike: the games and which of their targets
COMMON_OPTIONS = (
    click.argument("games", nargs=-1),
    click.option("--edition", help="Editions to build, comma-separated (default: all)."),
    click.option("--lang", help="Languages, comma-separated (default: all of the game's)."),
    click.option("--paper", help=f"{PAPER_LIST} (default: both)."),
    content_option,
    project_option,
)


def with_common(function: Command) -> Command:
    """The command with COMMON_OPTIONS, in their order."""
    for decorator in reversed(COMMON_OPTIONS):
        function = decorator(function)
    return function


def split(value: str | None, option: str = "") -> tuple[str, ...] | None:
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


def back_offset(value: str | None) -> tuple[float, float]:
    """--back-offset X,Y in millimetres (none: no offset)."""
    if not value:
        return (0.0, 0.0)
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise UsageError(f"--back-offset takes X,Y in millimetres, such as 1.5,-0.5 (got {value!r})") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise UsageError(f"--back-offset takes two finite numbers of millimetres, such as 1.5,-0.5 (got {value!r})")
    if max(abs(x), abs(y)) > MAX_BACK_OFFSET:
        raise UsageError("--back-offset above 10 mm: print `pnp calibrate` again and check the reading")
    return (x, y)


def only(value: str | None) -> frozenset[str] | None:
    """--only cards,png: which outputs a build makes (None: all)."""
    names = split(value, "--only")
    if names is None:
        return None
    unknown = [name for name in names if name not in OUTPUTS]
    if unknown:
        raise UsageError(f"--only: unknown output {', '.join(repr(name) for name in unknown)} "
                         f"(choose from {', '.join(OUTPUTS)})")
    return frozenset(names)


def ink_limit(percent: int | None, separates: bool) -> float:
    """--ink-limit as a fraction; refused where nothing is separated to CMYK, which it would not change."""
    if percent is not None and not separates:
        raise UsageError("--ink-limit limits the ink of CMYK colours: give it with --color cmyk (or --pdfx)")
    return (percent if percent is not None else INK_LIMIT_PERCENT) / 100


def margin(millimetres: float) -> float:
    """--margin, in millimetres from 0 to MAX_MARGIN."""
    if not (math.isfinite(millimetres) and 0 <= millimetres <= MAX_MARGIN):
        raise UsageError(f"--margin takes millimetres from 0 to {MAX_MARGIN:g} (got {millimetres:g})")
    return millimetres


def printer(where: Where, name: str | None) -> Printer | None:
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


def build_options(edition: str | None, lang: str | None, paper: str | None, where: Where,
                  duplex: str | None = Duplex.LONG_EDGE, allow_fallback: bool = False, gap: float | None = None,
                  copies: int = 1, offset: str | None = None) -> BuildOptions:
    """The targets and sheets a command is asked for: the flags, else the project's defaults, else all."""
    project = where.project
    papers = split(paper, "--paper") or (project.papers if project and project.papers else PAPERS)
    if gap is not None and not (math.isfinite(gap) and 0 <= gap <= MAX_GAP):
        why = ": a negative gap would lay cards over each other" if gap < 0 else ""
        raise UsageError(f"--gap takes millimetres from 0 to {MAX_GAP:g} (got {gap:g}){why}")
    for item in papers:
        if item not in PAPERS:
            raise UsageError(f"unknown paper '{item}' (use {PAPER_LIST})")
    return BuildOptions(editions=split(edition, "--edition") or (project.editions if project else None),
                        languages=split(lang, "--lang") or (project.languages if project else None),
                        papers=tuple(map(Paper, papers)), out=where.out, duplex=Duplex(duplex or Duplex.LONG_EDGE),
                        allow_fallback=allow_fallback, gap=gap, copies=copies, back_offset=back_offset(offset),
                        templates=where.templates)


def print_options(options: BuildOptions, pdfx: str | None, icc: str | None, cut: str | None) -> BuildOptions:
    """--pdfx, --icc and --cut checked (options.with_print_options), and the --icc profile read: a file that
    is no CMYK output profile is refused now, before anything is built; its digest rebuilds the targets
    when the profile is edited (incremental.py)."""
    try:
        options = with_print_options(options, pdfx, icc, cut)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if cut in ("dxf", "silhouette"):
        # the cut-file stage (ReportLab and pdfium) loaded only when a DXF is asked for: ezdxf is an extra
        from generator.imposition.cut import dxf_writer_missing
        missing = dxf_writer_missing(cut)
        if missing is not None:      # said before anything is built, not as a target that failed to draw;
            raise click.ClickException(missing)      # exit 1: the command is right, this install lacks the extra
    if options.pdfx is None:
        return options
    # the render stage (Pillow's colour management) is loaded only when PDF/X is asked for
    from generator.render.pdfx import output_separation
    from generator.render.separation import ProfileError
    try:
        digest = output_separation(Path(icc) if icc is not None else None).digest
    except ProfileError as error:
        raise UsageError(f"--icc {icc}: {error}") from None
    return replace(options, icc_digest=digest)


def check_language_code(lang: str) -> None:
    """A language code names a catalog file: `--lang ../../x` must never become a path."""
    # the content schema loads pydantic: imported when a command that takes a language runs (it loads
    # the game next), never by `pnp --help` or a build
    from generator.content.schema import LANG_PATTERN
    from generator.i18n.pseudo import PSEUDO
    if lang != PSEUDO and not re.fullmatch(LANG_PATTERN, lang):
        raise click.BadParameter(f"{printable(repr(lang))} is not a language code such as bg, en or pt-BR",
                                 param_hint="--lang")


def calibration_language(context: click.Context, param: click.Parameter, value: str) -> str:
    """`pnp calibrate --lang`: the catalog pnp speaks a code with, found as a build finds it ('pt-br' →
    pt-BR, 'zh-TW' → zh-Hant, 'no' → nb, 'iw' → he, 'de-AT' → de); a usage error naming pnp's own
    languages for a code it has no words for (a build prints those in English; a sheet has no game to)."""
    # the catalogs' reader: imported when calibrate runs, never by `pnp --help` (it reads no catalog here)
    from generator.i18n.engine_catalogs import engine_languages
    from generator.i18n.engine_text import engine_language
    name = engine_language(value)
    if name is None:
        raise click.BadParameter(
            f"pnp has no words of its own for {printable(repr(value))}: choose one of "
            f"{', '.join(map(repr, engine_languages()))}, or a regional or older code of one "
            "(pt-br, zh-TW, de-AT, no, iw)", ctx=context, param=param)
    return name
