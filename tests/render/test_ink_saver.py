"""Ink-saver backs use under 10 % summed ink and at most a quarter of the standard back's."""

import shutil
import subprocess

import pytest

from generator.render.ink import page_ink


def _back_pages(path):
    import pypdfium2 as pdfium
    return range(1, len(pdfium.PdfDocument(str(path))), 2)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_ink_saver_back_pages_stay_light(built_christmas, paper):
    standard = built_christmas / "full" / "bg" / paper / "cards.pdf"
    saver = built_christmas / "full" / "bg" / paper / "cards-ink-saver.pdf"
    for index in _back_pages(saver):
        light = page_ink(str(saver), index).total
        dark = page_ink(str(standard), index).total
        assert light < 0.10, f"page {index + 1}: {light:.1%}"
        assert light <= dark / 4, f"page {index + 1}: {light:.1%} vs standard {dark:.1%}"
        assert dark > 1.0        # the standard backs really are full-bleed and dark


def test_fronts_are_the_same_in_both_files(built_christmas):
    standard = built_christmas / "full" / "en" / "a4" / "cards.pdf"
    saver = built_christmas / "full" / "en" / "a4" / "cards-ink-saver.pdf"
    assert page_ink(str(standard), 0).total == pytest.approx(page_ink(str(saver), 0).total, rel=1e-6)


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript not installed (optional cross-check)")
def test_ghostscript_inkcov_agrees(built_christmas):
    saver = built_christmas / "full" / "bg" / "a4" / "cards-ink-saver.pdf"
    standard = built_christmas / "full" / "bg" / "a4" / "cards.pdf"

    def inkcov(path):
        out = subprocess.run(["gs", "-q", "-o", "-", "-sDEVICE=inkcov", str(path)],
                             capture_output=True, text=True, check=True).stdout
        return [sum(float(v) for v in line.split()[:4]) for line in out.strip().splitlines()]
    light, dark = inkcov(saver), inkcov(standard)
    for index in range(1, len(light), 2):
        assert light[index] < 0.10 and light[index] <= dark[index] / 4
