"""Build orchestration: games × editions × languages × papers into output files.

plan (which targets are stale) → load and lay out every target (targets.py, where
content is checked) → draw each target's files (write.py) into a staging folder, in
worker processes when there are several → once every target is drawn, swap them all
into place (incremental.commit_targets). A build with content errors, or that fails or
is interrupted while drawing, replaces nothing: the previous outputs stay as they were.

Every build runs inside a build context (generator/context.py): its fonts, caches and files of
fitted texts, saved when it ends.

Only what planning needs is imported at the top: a build with nothing to do hashes files
and never loads the layout and drawing stages (pydantic, ReportLab, svglib, pdfium); they are
imported inside the functions that lay out and draw, each saying so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from generator.caches import active
from generator.content.yaml_source import load_yaml
from generator.context import BuildContext
from generator.errors import ContentError, Problems, SourceMark
from generator.files import Staging, fingerprint, output_problem, remove_dead_staging
from generator.heap import allocation_burst, frozen_heap
from generator.incremental import (commit_targets, inputs_digest, is_fresh, retire_targets, retired_targets,
                                   target_digest)
from generator.options import BuildOptions
from generator.report import BuildReport

if TYPE_CHECKING:      # (imported where they run: see the module's docstring)
    from generator.colour_check import ColourReport
    from generator.components.piece import Face
    from generator.content.game import GameSource
    from generator.targets import Target
    from generator.text.fonts import FontLibrary
    from generator.write import DrawFailure

# What the commands use; the stages themselves are imported from their own modules (generator.targets,
# generator.write), so that importing this one loads no layout or drawing stage.
__all__ = ["BuildContext", "BuildOptions", "BuildReport", "ContentError", "ProgressListener", "build", "check",
           "plan_targets", "preview"]

TargetKey = tuple[str, str, str]          # (game id, edition, language): a target's folder under the output


class ProgressListener(Protocol):
    """Told as targets are drawn: how many are done of how many, the latest one's name, pages so far."""

    def __call__(self, done: int, total: int, label: str, pages: int = ..., /) -> None: ...


def build(folders: list[Path], options: BuildOptions, progress: ProgressListener | None = None,
          context: BuildContext | None = None) -> BuildReport:
    """Check every target, then write the stale ones (in worker processes when options.jobs > 1).

    `progress(done, total, label, pages)` is told as each target finishes. `context`: a longer-lived
    context (pnp serve's) whose fonts, caches and files of fitted texts this build shares.
    """
    context = BuildContext(options) if context is None else context.with_options(options)
    with frozen_heap(), context:
        return _build(folders, context, progress)


def _build(folders: list[Path], context: BuildContext, progress: ProgressListener | None) -> BuildReport:
    options = context.options
    started = time.perf_counter()
    report = BuildReport()
    remove_dead_staging(options.out)      # first: a swap a killed build began is completed before it is judged
    stale, digests, retired = plan_targets(folders, options, report)
    if not stale:                 # nothing to do: nothing else is imported
        report.retired = retire_targets(options.out, retired)
        report.seconds = time.perf_counter() - started
        return report
    problems = Problems()
    with allocation_burst():      # importing the stages makes ~60,000 lasting objects: collections were ~9 ms
        # imported here, past planning: a build with nothing to do never loads the layout stages
        from generator.targets import clean_games, layout_targets
        library = context.library
        sources = clean_games([folder for folder in folders if folder in stale], problems, options.templates,
                              options.languages)
    wanted = {target for targets in stale.values() for target in targets}
    with allocation_burst():
        targets = layout_targets(sources, options, problems, library, only=wanted if not options.force else None,
                                 layout_files=context.layout_files)
    problems.raise_if_errors()   # nothing is written unless every target checks clean
    note_editions_without_print_shop(targets, options, problems)
    _forget_layout_inputs(sources)
    if targets:
        _write_staged(targets, context, digests, report, progress)
    else:
        remove_dead_staging(options.out)
    report.retired = retire_targets(options.out, retired)     # only once everything built is in place
    report.targets.sort(key=lambda row: row["target"])
    report.written.sort()
    report.warnings = problems.warnings
    report.seconds = time.perf_counter() - started
    return report


def _write_staged(targets: list[Target], context: BuildContext, digests: dict[TargetKey, str],
                  report: BuildReport, progress: ProgressListener | None) -> None:
    """Draw every target into the staging folder; only if all of them succeed, swap them into place."""
    options = context.options
    staging = Staging(options.out)
    failures = Problems()
    try:
        with staging:
            _draw_targets(targets, context, staging, report, progress, failures)
            failures.raise_if_errors()
            commit_targets(staging, report.produced, digests, options.coverage())
    except OSError as error:
        path, message, hint = output_problem(error, staging)
        failures.add(SourceMark(path or options.out), message, hint)
        raise ContentError(failures) from None
    report.written = [staging.final(path) for path in report.written]
    report.pages = {staging.final(path): pages for path, pages in report.pages.items()}


def _draw_targets(targets: list[Target], context: BuildContext, staging: Staging, report: BuildReport,
                  progress: ProgressListener | None, failures: Problems) -> None:
    """Each target's files in the staging folder. A target that cannot be drawn is a problem in
    `failures` (the others are still drawn, so all are reported); a write error ends it all."""
    from generator.write import DrawFailure     # the drawing stages: only once there is something to draw
    out, options = context.options.out, replace(context.options, out=staging.folder)
    if options.jobs > 1 and len(targets) > 1:
        _draw_in_workers(targets, options, out, report, progress, failures)
        return
    written = 0

    def pages_written(count: int) -> None:
        nonlocal written
        written += count
        if progress:
            progress(done - 1, len(targets), label, written)
    for done, target in enumerate(targets, start=1):
        label = "/".join(target.folder_parts)
        try:
            _merge(report, _write_laid_out(target, options, context.library, pages_written))
        except DrawFailure as failure:
            _add_failure(failures, failure, out)
        if progress:
            progress(done, len(targets), label, written)


def _draw_in_workers(targets: list[Target], options: BuildOptions, out: Path, report: BuildReport,
                     progress: ProgressListener | None, failures: Problems) -> None:
    """One target a task, in worker processes that die with this one (and are stopped on Ctrl-C)."""
    import concurrent.futures      # (a build of one target, or with --jobs 1, starts no process)
    from generator.workers import stop_workers, worker_pool
    from generator.write import DrawFailure     # the drawing stages: only once there is something to draw
    jobs = [(target.source.folder, target.folder_parts) for target in targets]
    with worker_pool(min(options.jobs, len(jobs))) as pool:
        futures = [pool.submit(_write_one, folder, key, options) for folder, key in jobs]
        try:
            for done, future in enumerate(concurrent.futures.as_completed(futures), start=1):
                try:
                    _merge(report, future.result())
                except DrawFailure as failure:
                    _add_failure(failures, failure, out)
                if progress and report.targets:
                    progress(done, len(jobs), report.targets[-1]["target"], sum(report.pages.values()))
        except BaseException:
            stop_workers(pool)       # they only ever write into the staging folder, removed next
            raise


def _add_failure(failures: Problems, failure: DrawFailure, out: Path) -> None:
    """A target that raised while drawing, named by its output folder."""
    failures.add(SourceMark(out.joinpath(*failure.target)), f"could not draw {failure.file}: {failure.reason}",
                 "nothing was replaced in any target of this build; this is a value pnp should have refused "
                 "or a bug in pnp: please report it with the game")


def _write_one(folder: Path, key: TargetKey, options: BuildOptions) -> BuildReport:
    """In a worker: lay out one target again (cheap) and write its files, in a context of its own.
    Its caches are the worker process's (those in force outside any build), kept from one task to
    the next as the process draws several targets."""
    with frozen_heap(), BuildContext(options, caches=active()) as context:
        return _lay_out_and_write_one(folder, key, context)


def _lay_out_and_write_one(folder: Path, key: TargetKey, context: BuildContext) -> BuildReport:
    problems = Problems()
    options = context.options
    one = replace(options, editions=(key[1],), languages=(key[2],), force=False)
    with allocation_burst():      # the stages' imports too (see _build)
        from generator.targets import layout_targets, load_games      # (a worker lays out: see _build)
        sources = load_games([folder], problems, options.templates, one.languages)
        target, = layout_targets(sources, one, problems, context.library, only={key},
                                 layout_files=context.layout_files)
    _forget_layout_inputs(sources)
    return _write_laid_out(target, replace(options, jobs=1), context.library)


def _forget_layout_inputs(sources: list[GameSource]) -> None:
    """What only layout needs, released before the files are drawn (see GameSource.forget_positions)."""
    from generator.text.setter import forget_text_runs      # (loaded by the layout that came first)
    for source in sources:
        source.forget_positions()
    forget_text_runs()


def target_options(target: Target, options: BuildOptions) -> BuildOptions:
    """The build's options as one target takes them: an edition with `print_shop: false` makes no
    print-shop files (nor their PNGs), whatever the build asked for."""
    if not target.source.game.editions[target.edition].print_shop:
        return replace(options, print_shop=False)
    return options


def note_editions_without_print_shop(targets: list[Target], options: BuildOptions, problems: Problems) -> None:
    """A build that explicitly asked for print-shop files (`--only print-shop|png`, a `--shop` preset) is told,
    once per edition, which editions offer none: a note, not an error, so a multi-edition build goes on."""
    asked = options.shop != "generic" or (options.only is not None and bool({"print-shop", "png"} & options.only))
    if not asked or not options.print_shop:
        return
    for target in targets:
        if not target.source.game.editions[target.edition].print_shop:
            mark = target.source.game_document.mark(("editions", target.edition, "print_shop"))
            problems.warn(mark, f"edition '{target.edition}' of '{target.source.id}' offers no print-shop files "
                                f"(print_shop: false): none are built for it",
                          "build an edition with print-shop files (--edition), or set print_shop: true")


def _write_laid_out(target: Target, options: BuildOptions, library: FontLibrary,
                    on_pages: Callable[[int], None] | None = None) -> BuildReport:
    """Write one target's files under options.out, with each file's size and sha256 for its stamp."""
    from generator.write import write_target     # the drawing stages: only once there is something to draw
    started = time.perf_counter()
    options = target_options(target, options)
    report = BuildReport(on_pages=on_pages)
    write_target(target, options, library, report)
    folder = options.out.joinpath(*target.folder_parts)
    produced = {path.relative_to(folder).as_posix(): fingerprint(path) for path in report.written}
    report.produced[target.folder_parts] = produced
    report.targets.append({"target": "/".join(target.folder_parts), "files": len(report.written),
                           "pages": sum(report.pages.values()),
                           "bytes": sum(size for size, _ in produced.values()),
                           "seconds": round(time.perf_counter() - started, 2)})
    return report


def _merge(report: BuildReport, part: BuildReport) -> None:
    report.written.extend(part.written)
    report.pages.update(part.pages)
    report.targets.extend(part.targets)
    report.produced.update(part.produced)


def plan_targets(folders: list[Path], options: BuildOptions, report: BuildReport) \
        -> tuple[dict[Path, set[TargetKey]], dict[TargetKey, str], list[TargetKey]]:
    """Which edition × language targets need building, by game folder; each target's digest; and, for a
    build of whole games, the targets built before that the games no longer have (retired once the build
    succeeds).

    Reads only game.yaml (for the editions and languages) and hashes files: an
    unchanged target costs no layout at all.
    """
    stale: dict[Path, set[TargetKey]] = {}
    digests: dict[TargetKey, str] = {}
    retired: list[TargetKey] = []
    for folder in folders:
        problems = Problems()
        document = load_yaml(folder / "game.yaml", problems)
        data = document.data if document is not None and isinstance(document.data, dict) else {}
        game_id, editions, languages = data.get("id"), data.get("editions"), data.get("languages")
        if problems.errors or not isinstance(game_id, str) or not isinstance(editions, dict) \
                or not isinstance(languages, list) or not editions or not languages:
            stale[folder] = set()            # let the full load report what is wrong (no target is no build)
            continue
        game_digest = inputs_digest(folder, options.templates)
        if options.editions is None and options.languages is None:    # a build of the whole game
            retired += retired_targets(options.out, game_id, editions, languages)
        wanted_languages = [lang for lang in options.languages or languages]
        coverage = options.coverage()
        for edition in options.editions or list(editions):
            for lang in wanted_languages:
                key = (game_id, str(edition), str(lang))
                language_digest = game_digest.of_language(key[2], str(languages[0]))    # checked non-empty above
                digests[key] = target_digest(language_digest, key[1], key[2], options)
                if options.force or not is_fresh(options.out.joinpath(*key), digests[key], coverage):
                    stale.setdefault(folder, set()).add(key)
                else:
                    report.up_to_date.append("/".join(key))
    return stale, digests, retired


def check(folders: list[Path], options: BuildOptions) -> Problems:
    """Everything a build checks, without writing a file."""
    problems = Problems()
    options = replace(options, check_only=True)
    with frozen_heap(), BuildContext(options) as context:
        with allocation_burst():      # the stages' imports too (see _build)
            from generator.targets import clean_games, layout_targets     # (the layout stages: see _build)
            library = context.library
            sources = clean_games(folders, problems, options.templates, options.languages)
        with allocation_burst():
            layout_targets(sources, options, problems, library, layout_files=context.layout_files)
    return problems


def check_colour_vision(folders: list[Path], options: BuildOptions) -> ColourReport:
    """`pnp check --preflight`'s colour-vision check: each edition laid out in one language (colours do
    not change with it), as `check` lays it out; the game's own errors, if any, are the report's."""
    from generator.colour_check import ColourReport, check_colours      # (the layout stages: see _build)
    from generator.targets import clean_games, layout_targets
    problems = Problems()
    options = replace(options, check_only=True)
    with frozen_heap(), BuildContext(options) as context:
        sources = clean_games(folders, problems, options.templates, options.languages)
        if problems.errors:
            return ColourReport(problems)
        first = set()
        for source in sources:
            languages = [lang for lang in source.game.languages if not options.languages or lang in options.languages]
            first |= {(source.id, edition, languages[0]) for edition in source.game.editions if languages}
        targets = layout_targets(sources, options, problems, context.library, only=first,
                                 layout_files=context.layout_files)
        if problems.errors:
            return ColourReport(problems)
        return check_colours(targets)


def preview(folders: list[Path], options: BuildOptions, dpi: float = 100) -> BuildReport:
    """PNGs of every distinct face and contact sheets, under output/<game>/<edition>/<lang>/preview/."""
    with BuildContext(options) as context:
        return _preview(folders, context, dpi)


def _preview(folders: list[Path], context: BuildContext, dpi: float) -> BuildReport:
    # the layout and drawing stages, imported only by the command that draws
    from generator.render.preview import render_previews, unique_stems
    from generator.targets import clean_games, layout_targets
    options = context.options
    started = time.perf_counter()
    problems = Problems()
    library = context.library
    sources = clean_games(folders, problems, options.templates, options.languages)
    targets = layout_targets(sources, options, problems, library, layout_files=context.layout_files)
    problems.raise_if_errors()
    report = BuildReport()
    for target in targets:
        groups: dict[str, list[tuple[str, Face]]] = {}
        stems: set[str] = set()
        for kind, laid_out_sets in target.sets.items():
            everything = groups.setdefault(kind, [])
            for laid_out in laid_out_sets:
                fronts: list[tuple[str, Face]] = []
                backs: list[tuple[str, Face]] = []
                seen: set[str] = set()
                for copy in laid_out.copies:
                    for face, stem, into in ((copy.front, f"{kind}/{laid_out.id}/{copy.card}-front", fronts),
                                             (copy.back, f"{kind}/{laid_out.id}/{copy.card}-back", backs)):
                        if face is not None and face.key not in seen:
                            seen.add(face.key)
                            into.append((stem, face))
                faces = unique_stems(fronts + backs, stems)    # the fronts, then each distinct back once
                groups[f"{kind}-{laid_out.id}"] = faces
                everything.extend(faces)
        for name, items in (("boards", target.boards), ("sheets", target.sheets)):
            groups[name] = [(f"{name}/{item.id}", item.face) for item in items]
        folder = options.out.joinpath(*target.folder_parts, "preview")
        render_previews(groups, folder, dpi, context.drawing.initial_font, report.written, options.out)
    report.seconds = time.perf_counter() - started
    return report
