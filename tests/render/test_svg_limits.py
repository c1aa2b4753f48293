"""The SVG checks' own copy of svglib's limit, and checking without loading svglib."""

from __future__ import annotations

import subprocess
import sys

import svglib.svglib

from generator.render.svg_guard import MAX_USE_COPIES


def test_use_limit_is_svglibs():
    assert MAX_USE_COPIES == svglib.svglib.MAX_USE_EXPANSIONS


def test_laying_out_loads_no_svglib():
    # the layout and art-checking stages import svglib (and ReportLab's graphics) only to draw SVG art
    code = ("import sys, generator.targets, generator.render.svg_guard, generator.render.art; "
            "print('svglib' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"
