"""What the commands print: problems as located lines, a build's summary table or JSON, its progress bar.

Shared by generator/cli.py and the commands kept beside their stage (generator/i18n/exchange_cli.py);
it imports nothing of the engine, so any command may print with it before loading a stage.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable

import click

from generator.errors import Problem
from generator.report import BuildReport


def report_problems(problems: Iterable[Problem]) -> None:
    """Each problem on standard error, as `file:line:col: message` (and its hint)."""
    for problem in problems:
        click.echo(str(problem), err=True)


class Progress:
    """A progress bar on standard error, shown once a build has taken more than a second."""

    def __init__(self) -> None:
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


def summary_table(report: BuildReport) -> str:
    """What `pnp build` prints when done: a row per target written, the files, the targets up to date."""
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


def summary_json(report: BuildReport) -> str:
    """`pnp build --json`: the same summary for a program to read."""
    return json.dumps({"seconds": round(report.seconds, 2), "targets": report.targets,
                       "up_to_date": report.up_to_date, "retired": report.retired,
                       "warnings": [str(warning) for warning in report.warnings],
                       "files": [str(path) for path in report.written]}, ensure_ascii=False, indent=1)
