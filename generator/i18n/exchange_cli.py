"""The `pnp i18n export` and `pnp i18n import` commands: load the game, run the stage, print, exit.

Registered in generator/cli.py. The stages they run are imported when one of them runs, so `pnp --help`
never loads translate-toolkit, polib or the layout.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from generator.cli_output import report_problems
from generator.errors import Problems, display_path, printable

if TYPE_CHECKING:       # (loaded by _load, when a command runs)
    from generator.content.game import GameSource

SHOWN = 10    # keys named per list in the summary


def _load(folder: Path, templates: Path | None, problems: Problems) -> GameSource:
    from generator.targets import load_games      # the content stage (pydantic): only when a command runs
    # only the source catalog: the target's may not exist yet (a language listed before its first import)
    sources = load_games([folder], problems, templates, languages=())
    if problems.errors or not sources:
        _fail(problems, f"the game cannot be read: fix it (`pnp check {folder.name}`) and run again")
    return sources[0]


def _fail(problems: Problems, summary: str) -> NoReturn:
    report_problems(problems.items)
    click.echo(summary, err=True)
    sys.exit(1)


def export_command(folder: Path, lang: str, fmt: str, out: Path, templates: Path | None) -> None:
    """`pnp i18n export GAME --lang L --format xliff|xliff-weblate|po [--out DIR]`."""
    from generator.i18n.exchange import export_catalog     # the layout and translate-toolkit: only here
    problems = Problems()
    source = _load(folder, templates, problems)
    result = export_catalog(source, lang, fmt, out, problems)
    if result is None:
        _fail(problems, f"{len(problems.errors)} error(s): nothing exported")
    report_problems(problems.items)
    click.echo(printable(
        f"{display_path(result.file)}: {result.units} units ({result.translated} translated, "
        f"{result.units - result.translated} to translate), {result.limited} with a size limit; "
        f"{result.screenshots} screenshot(s) in {display_path(result.folder)}/"))


def import_command(folder: Path, file: Path, lang: str | None, templates: Path | None) -> None:
    """`pnp i18n import GAME FILE [--lang L]`."""
    from generator.i18n.exchange import import_catalog     # translate-toolkit and polib: only here
    problems = Problems()
    source = _load(folder, templates, problems)
    result = import_catalog(source, file, lang, problems)
    if result is None:
        _fail(problems, f"{len(problems.errors)} error(s) in {display_path(file)}: nothing imported, "
                        "the catalog is as it was")
    report_problems(problems.items)
    lines = [f"{display_path(result.catalog)}: {result.changed} translation(s) written, "
             f"{result.unchanged} unchanged" + ("" if result.written else " (the file is as it was)")]
    lines.extend(f"{display_path(sheet)}: {len(cells)} translation(s) written into its cells "
                 f"{', '.join(cells[:SHOWN])}{f' and {len(cells) - SHOWN} more' if len(cells) > SHOWN else ''}"
                 for sheet, cells in result.sheets.items())
    for title, keys in (("untranslated (not imported)", result.untranslated),
                        ("fuzzy, waiting for review (not imported)", result.fuzzy),
                        ("translated from an older source text (not imported)", result.stale)):
        if keys:
            shown = ", ".join(keys[:SHOWN]) + (f" and {len(keys) - SHOWN} more" if len(keys) > SHOWN else "")
            lines.append(f"  {len(keys)} {title}: {shown}")
    if result.checks_in_comments:
        lines.append(f"  {result.checks_in_comments} of {result.checks_read} units' size limits and placeholder "
                     "checks read from their extracted comments (`#. weblate-flags:`): their `#,` flags were "
                     "dropped (msgmerge and msgcat drop them), nothing is lost; `pnp i18n export "
                     f"{source.id} --lang {result.lang} --format po` writes the flags again for the platform")
    if not result.built:
        lines.append(f"  {result.lang} is not among the game's languages: add it to `languages:` in "
                     f"{display_path(folder / 'game.yaml')} to build and check it")
    overflows = len(problems.warnings) - len(result.stale)      # each stale unit is warned once above
    if overflows > 0:
        lines.append(f"  {overflows} warning(s) above: `pnp check {source.id} --lang {result.lang}` fails "
                     "until they are fixed")
    click.echo("\n".join(printable(line) for line in lines))
