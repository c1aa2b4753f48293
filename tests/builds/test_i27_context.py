"""The build context (generator/context.py): what a build keeps is owned by one object and let go when the
build ends — caches in force only inside it, the files of fitted texts written when it ends (no atexit),
no import hook, a normal exit, and an explicit public API for generator.build."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

import generator.build
from generator import caches, face_cache
from generator.build import BuildOptions, build
from generator.caches import Caches
from generator.context import BuildContext
from generator.face_cache import LayoutFiles
from generator.print_facts import Paper
from tests.conftest import private_font_cache
from tests.test_content_errors import make_game

ROOT = Path(__file__).resolve().parents[2]


def _child(code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh interpreter in the repository (its own imports, its own exit)."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def _cards_only(out: Path) -> BuildOptions:
    return BuildOptions(out=out, papers=(Paper.A4,), only=frozenset({"cards"}), jobs=1, print_shop=False)


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own, its fonts linked from the usual one (cutting them takes seconds)."""
    cache = private_font_cache(tmp_path / "cache")
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    monkeypatch.delenv("PNP_NO_CACHE", raising=False)
    return cache


def test_the_caches_are_in_force_inside_the_context_only() -> None:
    outside = caches.active()
    context = BuildContext(BuildOptions())
    assert context.caches is not outside
    with context:
        assert caches.active() is context.caches
        with context.with_options(BuildOptions(jobs=2)) as derived:      # re-entered by a derived one
            assert caches.active() is context.caches is derived.caches
        assert caches.active() is context.caches
    assert caches.active() is outside


def test_a_derived_context_shares_fonts_caches_and_files_of_fitted_texts() -> None:
    session = BuildContext(BuildOptions())
    derived = session.with_options(BuildOptions(out=Path("elsewhere")))
    assert derived.out == Path("elsewhere") and session.out == Path("output")
    assert derived.caches is session.caches and derived.layout_files is session.layout_files
    assert derived.library is session.library            # loaded once, by whichever asked first
    assert derived.drawing == session.drawing
    assert session.drawing.initial_font == session.library.body_face.name


def test_the_fonts_are_loaded_only_when_asked_for() -> None:
    done = _child("import sys\nfrom generator.context import BuildContext\nfrom generator.options import BuildOptions\n"
                  "with BuildContext(BuildOptions()) as context:\n    print(context.out)\n"
                  "print(sorted(name for name in ('reportlab', 'generator.text.fonts') if name in sys.modules))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["output", "[]"]


def test_a_build_writes_its_file_of_fitted_texts_when_it_ends_not_at_exit(tmp_path: Path, own_cache: Path) -> None:
    game = make_game(tmp_path, {})
    report = build([game], _cards_only(tmp_path / "out"))
    assert report.written
    records, = (own_cache / "layouts").glob("*.records")      # there as build() returns
    assert records.stat().st_size > 100
    again = build([game], _cards_only(tmp_path / "out"))
    assert again.up_to_date == ["g/standard/en"] and not again.written     # an unchanged game: nothing rebuilt


def test_the_layout_files_are_written_when_the_context_ends(tmp_path: Path, own_cache: Path) -> None:
    """Texts fitted after the layout (as a rulebook's are, while it is drawn) are kept too."""
    from generator.text.fonts import FontLibrary
    from generator.text.setter import TextSetter

    files = LayoutFiles()
    setter = TextSetter(FontLibrary())
    with BuildContext(BuildOptions(), layout_files=files):
        files.attach(setter, tmp_path)
        assert isinstance(setter.layouts, face_cache.LayoutCache)
        setter.layouts[(("a text",), 50.0, 10.0, ("a style",))] = _FakeLayout()     # as fit_text stores one
        assert not (own_cache / "layouts").exists()
    stored, = (own_cache / "layouts").glob("*.records")
    assert len(face_cache._read(stored)) == 1


class _FakeLayout:
    """A fitted text as the layout cache pickles it: its glyph runs."""

    runs: tuple[()] = ()


def test_a_style_s_file_is_read_again_once_the_files_changed(tmp_path: Path) -> None:
    """The stable form of a style that names a file (an inline icon) is remembered in a file table: a long
    process (pnp serve) that is told the files changed sees the file's new bytes."""
    icon = tmp_path / "coin.svg"
    icon.write_text("<svg/>", encoding="utf-8")
    style = ("icons", icon)
    with Caches().active() as tables:
        before = face_cache._stable_style(style)
        icon.write_text("<svg></svg>", encoding="utf-8")       # edited in place: same path
        assert face_cache._stable_style(style) == before        # remembered...
        tables.files_changed()
        after = face_cache._stable_style(style)
    assert after != before and hashlib.sha256(b"<svg></svg>").hexdigest() in after


def test_workers_build_what_one_process_builds(tmp_path: Path, own_cache: Path) -> None:
    """Each worker's task runs in a context of its own: the same bytes as a build in one process."""
    from tests.test_content_errors import EN
    game = make_game(tmp_path, {"game.yaml": "id: g\ntitle: game.title\nlanguages: [en, de]\n"
                                             "editions:\n  standard: {name: game.edition}\n",
                                "i18n/de.yaml": EN.replace("en:", "de:", 1).replace('"Star"', '"Stern"')})
    one, two = tmp_path / "one", tmp_path / "two"
    build([game], _cards_only(one))
    report = build([game], BuildOptions(out=two, papers=(Paper.A4,), only=frozenset({"cards"}), jobs=2,
                                        print_shop=False))
    assert len(report.targets) == 2
    for lang in ("en", "de"):
        pdf = Path("g", "standard", lang, "a4", "cards.pdf")
        assert (two / pdf).read_bytes() == (one / pdf).read_bytes()


def test_importing_generator_installs_no_import_hook() -> None:
    done = _child("import sys\nbefore = list(sys.meta_path), list(sys.path_hooks)\nimport generator, generator.build\n"
                  "print(before == (list(sys.meta_path), list(sys.path_hooks)))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert not (ROOT / "generator" / "bytecode.py").exists()


def test_pnp_exits_as_python_does_running_the_atexit_handlers() -> None:
    """A normal exit (no os._exit): the interpreter's own end runs, atexit handlers included."""
    done = _child("import atexit, runpy, sys\natexit.register(lambda: print('handlers ran'))\n"
                  "sys.argv = ['pnp', '--version']\nrunpy.run_module('generator', run_name='__main__')")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "handlers ran"


def test_generator_build_offers_what_its_all_names_and_imports_no_stage_for_it() -> None:
    for name in generator.build.__all__:
        assert hasattr(generator.build, name), name
    done = _child("import sys, generator.build\nprint(sorted(name for name in ('generator.targets', 'generator.write', "
                  "'generator.text.fonts', 'reportlab', 'pydantic') if name in sys.modules))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
