"""Build orchestration: games × editions × languages × papers into output files.

plan (which targets are stale) → load and lay out every target (targets.py, where
content is checked) → write each target's files (write.py), in worker processes when
there are several. A build with content errors writes nothing and leaves the previous
outputs as they were.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

from generator.content.game import GameSource
from generator.content.yaml_source import load_yaml
from generator.errors import ContentError, Problems
from generator.heap import allocation_burst, frozen_heap
from generator.incremental import inputs_digest, is_fresh, record, target_digest
from generator.options import BuildOptions
from generator.targets import Target, layout_targets, load_games
from generator.text.fonts import FontLibrary
from generator.text.setter import forget_text_runs
from generator.write import BuildReport, caption_maker, write_target

__all__ = ["BuildOptions", "BuildReport", "ContentError", "build", "caption_maker", "check", "layout_targets",
           "load_games", "plan_targets", "preview"]


def build(folders: list[Path], options: BuildOptions, progress=None) -> BuildReport:
    """Check every target, then write the stale ones (in worker processes when options.jobs > 1).

    `progress(done, total, label)` is told as each target finishes.
    """
    with frozen_heap():
        return _build(folders, options, progress)


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
