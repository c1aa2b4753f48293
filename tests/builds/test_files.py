"""Builds are deterministic and atomic: same input, same bytes; a failed build keeps old files."""

import os
import shutil
from pathlib import Path

import pytest

import generator.write as write_module
from generator.build import BuildOptions, build
from tests.conftest import CONTENT

OPTIONS = dict(editions=("free",), languages=("en",), papers=("a4",), print_shop_png=False)
BOTH_LANGUAGES = dict(editions=("free",), papers=("a4",), print_shop_png=False)


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> tuple[Path, list[Path]]:
    """christmas-round's free edition (bg and en, A4, no PNGs) built on one core, once for this file's
    comparisons: (its output folder, the files it wrote). Read-only: a test that writes copies it."""
    out = tmp_path_factory.mktemp("serial")
    report = build([CONTENT / "christmas-round"], BuildOptions(out=out, jobs=1, **BOTH_LANGUAGES))
    return out, report.written


def test_identical_input_gives_byte_identical_pdfs(serial, tmp_path):
    first, _ = serial
    second = tmp_path / "two"
    build([CONTENT / "christmas-round"], BuildOptions(out=second, jobs=1, **OPTIONS))     # the en target again
    files = sorted(p.relative_to(second) for p in second.rglob("*.pdf"))
    assert files
    for relative in files:
        assert (first / relative).read_bytes() == (second / relative).read_bytes(), relative


def test_a_build_that_fails_while_writing_keeps_the_previous_file(serial, tmp_path, monkeypatch):
    shutil.copytree(serial[0], tmp_path, dirs_exist_ok=True)
    target = tmp_path / "christmas-round" / "free" / "en" / "a4" / "cards.pdf"
    before = target.read_bytes()

    def broken_render(document, *settings):
        raise KeyboardInterrupt   # as if the user pressed Ctrl-C mid-render
    monkeypatch.setattr(write_module, "render_pdf", broken_render)
    with pytest.raises(KeyboardInterrupt):
        build([CONTENT / "christmas-round"], BuildOptions(out=tmp_path, force=True, **OPTIONS))
    assert target.read_bytes() == before
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")]


def test_an_interrupted_write_leaves_no_partial_file(tmp_path, monkeypatch):
    from generator.files import write_atomically
    target = tmp_path / "x.pdf"
    target.write_bytes(b"good")

    def failing_replace(source, destination):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        write_atomically(target, b"new")
    assert target.read_bytes() == b"good"
    assert list(tmp_path.iterdir()) == [target]


def test_an_unchanged_target_is_skipped_and_a_change_rebuilds_it(tmp_path, monkeypatch):
    from tests.test_content_errors import make_game
    game = make_game(tmp_path, {})                 # the minimal game: one deck, one language
    out = tmp_path / "out"
    options = dict(papers=("a4",), print_shop_png=False)
    first = build([game], BuildOptions(out=out, **options))
    assert first.written and not first.up_to_date
    drawn = []
    render = write_module.render_pdf
    monkeypatch.setattr(write_module, "render_pdf", lambda *args: drawn.append(args) or render(*args))
    again = build([game], BuildOptions(out=out, **options))
    assert again.written == [] and again.up_to_date == ["g/standard/en"]
    assert drawn == []             # nothing drawn (its time: tests/benchmarks/bench_budgets.py, under 1 s)
    catalog = game / "i18n" / "en.yaml"
    assert '"Star"' in catalog.read_text()
    catalog.write_text(catalog.read_text().replace('"Star"', '"Sun"'))
    changed = build([game], BuildOptions(out=out, **options))
    assert changed.written and not changed.up_to_date and drawn      # (the seam counted is the one drawing)
    forced = build([game], BuildOptions(out=out, force=True, **options))
    assert forced.written
    (out / "g" / "standard" / "en" / "a4" / "cards.pdf").unlink()   # a missing output is rebuilt
    assert build([game], BuildOptions(out=out, **options)).written


def test_a_parallel_build_writes_the_same_bytes_as_a_serial_one(serial, tmp_path):
    serial_out, serial_written = serial
    parallel = build([CONTENT / "christmas-round"], BuildOptions(out=tmp_path / "parallel", jobs=2, **BOTH_LANGUAGES))
    names = sorted(p.relative_to(serial_out) for p in serial_written)
    assert names == sorted(p.relative_to(tmp_path / "parallel") for p in parallel.written)
    for name in names + [Path("christmas-round/free/bg/.pnp-build.json")]:
        assert (serial_out / name).read_bytes() == (tmp_path / "parallel" / name).read_bytes(), name
    assert [row["target"] for row in parallel.targets] == ["christmas-round/free/bg", "christmas-round/free/en"]


def test_cli_summary_quiet_and_json(tmp_path):
    import json
    from click.testing import CliRunner
    from generator.cli import main
    from tests.test_content_errors import make_game
    arguments = ["build", str(make_game(tmp_path, {})), "--paper", "a4", "--out", str(tmp_path / "out"), "--jobs", "1"]
    table = CliRunner().invoke(main, arguments)
    assert table.exit_code == 0 and "g/standard/en" in table.output and "pages" in table.output
    quiet = CliRunner().invoke(main, arguments + ["-q", "--force"])
    assert quiet.exit_code == 0 and quiet.output == ""
    report = json.loads(CliRunner().invoke(main, arguments + ["--json"]).output)
    assert report["up_to_date"] == ["g/standard/en"] and report["files"] == []


def test_progress_is_told_pages_as_files_are_written_and_targets_as_they_finish(tmp_path):
    from tests.robustness.test_outputs import cards_game
    game = cards_game(tmp_path / "game", cards=12, languages=("de", "en"))     # two targets, 12 faces each
    calls = []
    report = build([game], BuildOptions(out=tmp_path / "out", papers=("a4",), jobs=1,
                                        only=frozenset({"cards", "print-shop", "png"})),
                   progress=lambda done, total, label, pages: calls.append((done, total, label, pages)))
    pages = [call[3] for call in calls]
    assert pages == sorted(pages) and len(calls) > 4                     # many reports, never backwards
    assert calls[-1][:2] == (2, 2)               # standard × (de, en)
    pdf_pages = sum(report.pages.values())
    pngs = sum(1 for path in report.written if path.suffix == ".png")
    assert pdf_pages < calls[-1][3] <= pdf_pages + pngs                  # PNGs count once per distinct face
    assert pngs and [call[2] for call in calls if call[0] == 0][0] == "g/standard/de"
