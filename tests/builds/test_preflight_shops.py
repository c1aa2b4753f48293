"""`pnp check --preflight --shop S` on pnp's own files: a print-shop build for each shop of the catalogue passes
that shop's preflight (its bleed, safe zone and resolution), and fails another shop's where their bleeds
differ; a PDF/X-1a file, whose transparency is flattened to 300 ppi images, passes too."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.imposition.shops import SHOP_PRESETS
from tests.test_content_errors import CARD_TEMPLATE, make_game, pnp

# a card whose art is half transparent: a PDF/X-1a build flattens it into an image at the shop's ppi
SEE_THROUGH = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
               '<rect width="10" height="10" fill="#c00"/><circle cx="5" cy="5" r="4" fill="#00c" '
               'fill-opacity="0.5"/></svg>\n')


def _build_and_preflight(tmp_path: Path, build_shop: str, check_shop: str, *more: str) -> tuple[int, str]:
    folder = make_game(tmp_path, {"art/star.svg": SEE_THROUGH, "templates/card.yaml": CARD_TEMPLATE})
    out = tmp_path / "out"
    built = pnp("build", str(folder), "--only", "print-shop", "--shop", build_shop, "-q", "--out", str(out), *more)
    assert built.exit_code == 0, built.output
    result = pnp("check", str(folder), "--preflight", "--shop", check_shop, "--out", str(out))
    return result.exit_code, result.output


@pytest.mark.parametrize("shop", sorted(SHOP_PRESETS))
def test_each_shops_own_files_pass_its_preflight(tmp_path: Path, shop: str) -> None:
    code, output = _build_and_preflight(tmp_path, shop, shop)
    assert code == 0 and "1 file(s), 0 problem(s)" in output, output


def test_another_shops_bleed_is_an_error_of_each_page(tmp_path: Path) -> None:
    code, output = _build_and_preflight(tmp_path, "tgc", "generic")
    assert code == 1
    assert "error: page 1: bleed 3.17–3.17 mm, not 3 mm" in output, output


def test_a_flattened_pdfx_1a_file_passes_at_its_shops_resolution(tmp_path: Path) -> None:
    code, output = _build_and_preflight(tmp_path, "tgc", "tgc", "--pdfx", "1a", "--color", "cmyk")
    assert code == 0 and "0 problem(s)" in output, output
    assert "lowest 29" in output or "lowest 30" in output, output      # its images were measured


def test_shop_without_preflight_is_a_usage_error(tmp_path: Path) -> None:
    result = pnp("check", str(make_game(tmp_path, {})), "--shop", "tgc")
    assert result.exit_code == 2 and "--shop is a --preflight option" in result.output
