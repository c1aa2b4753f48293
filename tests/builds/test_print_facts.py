"""Each fact once: papers and margins (print_facts), the option choices (options' Enums), the ink limit and the
default font stack — checked against independent sources (ReportLab's page sizes, the PDFs pnp writes) and
against copies creeping back into the engine's source."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from reportlab.lib.pagesizes import A4, letter

from generator.cli import main
from generator.imposition.shops import SHOP_PRESETS
from generator.options import BuildOptions, Color, CutFormat, Duplex, Layout, PdfX, Shop, choices
from generator.print_facts import (INK_LIMIT, PAPER_SIZES, PAPERS, PRINTABLE_MARGIN, RULEBOOK_PAGE_SIZES, SAFE_MARGIN,
                                   SHEET_MAX_SIZE, TILE_MARGIN, Paper, landscape)
from generator.text.fonts import DEFAULT_STACK, STACKS, builtin_families
from tests.pdf_probe import open_pdf, page_size_mm

GENERATOR = Path(__file__).resolve().parents[2] / "generator"
PT = 25.4 / 72


def test_paper_sizes_are_reportlabs_a4_and_letter():
    assert PAPERS == (Paper.A4, Paper.LETTER) and PAPERS == ("a4", "letter")
    for paper, points in ((Paper.A4, A4), (Paper.LETTER, letter)):
        assert PAPER_SIZES[paper] == pytest.approx((points[0] * PT, points[1] * PT), abs=0.01)


def test_what_must_fit_a_page_fits_every_paper():
    for paper in PAPERS:
        width, height = PAPER_SIZES[paper]
        assert SHEET_MAX_SIZE[0] <= width - 2 * SAFE_MARGIN and SHEET_MAX_SIZE[1] <= height - 2 * SAFE_MARGIN
        page_w, page_h = RULEBOOK_PAGE_SIZES[paper]
        sheet_w, sheet_h = landscape(paper)
        assert 2 * page_w <= sheet_w + 1e-9 and page_h == sheet_h        # two rulebook pages a side
    assert PRINTABLE_MARGIN < TILE_MARGIN < SAFE_MARGIN


@pytest.mark.parametrize("paper, duplex", [("a4", "long-edge"), ("letter", "short-edge")])
def test_the_calibration_sheet_is_the_paper_pnp_names(tmp_path, paper, duplex):
    result = CliRunner().invoke(main, ["calibrate", "--paper", paper, "--duplex", duplex, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = open_pdf(tmp_path / f"calibration-{paper}-{duplex}.pdf")
    assert len(document) == 2
    for index in range(2):
        assert page_size_mm(document, index) == pytest.approx(PAPER_SIZES[paper], abs=0.01)


def test_every_choice_of_the_cli_is_its_options_enum():
    enums = {"paper": Paper, "duplex": Duplex, "shop": Shop, "layout": Layout, "color": Color, "pdfx": PdfX,
             "cut": CutFormat}
    seen = 0
    for command in main.commands.values():
        for param in getattr(command, "params", []):
            if param.name in enums and hasattr(param.type, "choices"):
                assert list(param.type.choices) == choices(enums[param.name]), (command.name, param.name)
                seen += 1
    # build: duplex shop layout color pdfx cut; check: color shop; calibrate: paper duplex; serve: paper
    assert seen == 11
    assert set(choices(Shop)) == set(SHOP_PRESETS)
    build = main.commands["build"]
    ink_limit = {param.name: param for param in build.params}["ink_limit"]
    assert not isinstance(ink_limit.default, int)  # given only with CMYK; its default is the one INK_LIMIT
    assert f"default {round(INK_LIMIT * 100)}" in ink_limit.help
    defaults = BuildOptions()
    assert (defaults.papers, defaults.duplex, defaults.margin, defaults.ink_limit) == \
        (PAPERS, Duplex.LONG_EDGE, PRINTABLE_MARGIN, INK_LIMIT)


def test_a_build_holds_the_enums_the_command_line_named(tmp_path, monkeypatch):
    import generator.cli as cli
    seen = {}
    monkeypatch.setattr(cli, "build", lambda games, options, progress=None: seen.setdefault("options", options)
                        or (_ for _ in ()).throw(SystemExit(0)))
    CliRunner().invoke(main, ["build", "--paper", "letter", "--duplex", "short-edge", "--shop", "tgc", "--layout",
                              "gutterfold", "--color", "cmyk", "--out", str(tmp_path), "-q"])
    options = seen["options"]
    assert options.papers == (Paper.LETTER,) and type(options.papers[0]) is Paper
    assert (options.duplex, options.shop, options.layout, options.color) == \
        (Duplex.SHORT_EDGE, Shop.TGC, Layout.GUTTERFOLD, Color.CMYK)
    assert all(isinstance(value, enum) for value, enum in ((options.duplex, Duplex), (options.shop, Shop),
                                                           (options.layout, Layout), (options.color, Color)))


def test_the_default_font_stack_is_built_in_and_written_once():
    assert set(DEFAULT_STACK) <= set(builtin_families())
    written = re.compile(r"[\"']nunito[\"'],\s*[\"']inter[\"']|nunito, inter, noto")
    copies = [path.relative_to(GENERATOR) for path in GENERATOR.rglob("*.py") if written.search(path.read_text())]
    assert copies == []     # written once, as the fields of text/fonts.py's BuiltinStacks
    assert DEFAULT_STACK == STACKS.default


def test_no_paper_size_or_ink_limit_is_written_outside_print_facts():
    numbers = re.compile(r"\b(215\.9|279\.4|297\.0|148\.0|139\.7)\b|ink_limit: float = 3\.0|\bdefault=300\b")
    copies = [path.relative_to(GENERATOR) for path in GENERATOR.rglob("*.py") if numbers.search(path.read_text())]
    assert copies == [Path("print_facts.py")]
