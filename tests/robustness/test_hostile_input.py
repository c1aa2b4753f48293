"""Hostile and random input: located errors, never a traceback; no file or address reached from art."""

from __future__ import annotations

import io
import os
import struct
import textwrap
import zlib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from generator.cli import main
from generator.content.yaml_source import parse_yaml
from generator.errors import Problems
from tests.test_content_errors import BASE_FILES, make_game

EXAMPLES = int(os.environ.get("PNP_FUZZ_EXAMPLES", "150"))   # the benchmark suite runs 2,000+


def pnp_check(folder: Path):
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1), result.output
    return result


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                    st.text(max_size=20))
trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(min_size=1, max_size=10), inner, max_size=4)),
    max_leaves=20)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_random_bytes_never_crash_the_loader(data):
    problems = Problems()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    parse_yaml(text, Path("random.yaml"), problems)      # problems or data, never an exception


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=trees, file=st.sampled_from(["cards.yaml", "game.yaml", "i18n/en.yaml", "templates/card.yaml"]))
def test_random_yaml_trees_give_located_errors(tmp_path_factory, tree, file):
    folder = make_game(tmp_path_factory.mktemp("fuzz"), {file: yaml.safe_dump(tree, allow_unicode=True)})
    result = pnp_check(folder)
    if result.exit_code == 1:
        assert any(line.split(":")[0].endswith(".yaml") for line in result.output.splitlines())


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_edits_of_a_valid_game_never_crash(tmp_path_factory, data):
    file = data.draw(st.sampled_from(sorted(BASE_FILES)))
    if file.endswith(".svg"):
        return
    lines = BASE_FILES[file].splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    lines[index] = data.draw(st.text(max_size=30))
    folder = make_game(tmp_path_factory.mktemp("edit"), {file: "\n".join(lines) + "\n"})
    pnp_check(folder)


def test_svg_with_entities_or_outside_links_is_refused(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    evil = textwrap.dedent(f"""\
        <?xml version="1.0"?>
        <!DOCTYPE svg [<!ENTITY xxe SYSTEM "file://{secret}">]>
        <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><text>&xxe;</text></svg>
        """)
    linked = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
              'height="10" viewBox="0 0 10 10"><image xlink:href="http://example.invalid/x.png"/></svg>')
    for name, svg in (("evil", evil), ("linked", linked)):
        folder = make_game(tmp_path / name, {"art/star.svg": svg})
        result = pnp_check(folder)
        assert result.exit_code == 1
        assert "refused: the SVG declares entities or links" in result.output


def black_png(width: int, height: int) -> bytes:
    """The PNG Pillow writes for Image.new("1", (width, height)) (one bit a pixel, every pixel black), its
    zeros compressed a band of rows at a time: Pillow holds the whole image first (900 megapixels: 2 s)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = bytes(1 + -(-width // 8))                        # the filter byte (none) and the row's bits
    deflate = zlib.compressobj(6)
    rows = b"".join(deflate.compress(row * min(1000, height - start)) for start in range(0, height, 1000))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)) \
        + chunk(b"IDAT", rows + deflate.flush()) + chunk(b"IEND", b"")


def test_absurd_images_are_refused_before_their_pixels_are_read(tmp_path):
    folder = make_game(tmp_path, {})
    big = folder / "art" / "big.png"
    big.write_bytes(black_png(30_000, 30_000))            # tiny file, 900 megapixels when decoded
    with Image.open(io.BytesIO(black_png(3_001, 1_234))) as small:      # (Pillow will not open the big one)
        assert small.mode == "1" and small.tobytes() == Image.new("1", (3_001, 1_234)).tobytes()
    cards = (folder / "cards.yaml").read_text().replace("art/star.svg", "art/big.png")
    (folder / "cards.yaml").write_text(cards)
    result = pnp_check(folder)
    assert result.exit_code == 1
    assert "refused: more pixels than any printed piece needs (at most 60 megapixels)" in result.output
    Image.new("1", (25_000, 100)).save(big)                # fine for Pillow, absurd for a print piece
    result = pnp_check(folder)
    assert "refused: 25000 × 100 pixels is more than any printed piece needs" in result.output


def test_a_count_above_the_limit_is_an_error(tmp_path):
    folder = make_game(tmp_path, {})
    (folder / "cards.yaml").write_text((folder / "cards.yaml").read_text().replace("count: 2", "count: 999999"))
    result = pnp_check(folder)
    assert "999999 copies is more than the 10,000 a card may have" in result.output


def test_a_symlink_cannot_lead_art_out_of_the_game_folder(tmp_path):
    folder = make_game(tmp_path / "game", {})
    outside = tmp_path / "elsewhere.svg"
    outside.write_text((folder / "art" / "star.svg").read_text())
    (folder / "art" / "link.svg").symlink_to(outside)
    (folder / "cards.yaml").write_text((folder / "cards.yaml").read_text().replace("art/star.svg", "art/link.svg"))
    result = pnp_check(folder)
    assert result.exit_code == 1 and "'art/link.svg' is outside the game folder" in result.output


def test_pnp_new_scaffolds_a_game_that_builds_at_once(tmp_path, monkeypatch):
    import shutil
    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "templates", tmp_path / "templates")
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    created = CliRunner().invoke(main, ["new", "my-game", "--title", "My Game"])
    assert created.exit_code == 0, created.output
    assert (tmp_path / "content" / "my-game" / "cards.yaml").read_text().startswith("# yaml-language-server")
    built = CliRunner().invoke(main, ["build", "my-game", "--paper", "a4"])
    assert built.exit_code == 0, built.output
    assert (tmp_path / "output" / "my-game" / "standard" / "en" / "a4" / "cards.pdf").exists()
    again = CliRunner().invoke(main, ["new", "my-game"])
    assert again.exit_code == 2 and "already exists" in again.output


def test_preview_writes_every_distinct_face_and_contact_sheets(tmp_path):
    root = Path(__file__).resolve().parents[2]
    result = CliRunner().invoke(main, ["preview", str(root / "content" / "christmas-round"), "--edition", "free",
                                       "--lang", "en", "--out", str(tmp_path), "--dpi", "50"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "christmas-round" / "free" / "en" / "preview"
    assert len(list((folder / "cards" / "gifts").glob("*-front.png"))) == 6
    assert len(list((folder / "cards" / "surprises").glob("*-front.png"))) == 4
    assert len(list((folder / "cards" / "gifts").glob("*-back.png"))) == 1     # one shared back
    with Image.open(folder / "cards" / "gifts" / "teddy-front.png") as image:
        assert image.size == pytest.approx((63 / 25.4 * 50, 88 / 25.4 * 50), abs=1)   # 50 dpi, trim size
    for sheet in ("cards.png", "cards-gifts.png", "tokens.png", "pawns.png", "boards.png"):
        assert (folder / sheet).exists(), sheet


@pytest.mark.parametrize("lang, heading", [("hu", "nyomtatható játékcsomag"), ("ka", "დასაბეჭდი ნაკრები"),
                                           ("en", "Print-and-play kit")])
def test_a_new_game_in_any_language_gets_its_kit_cover_in_that_language(tmp_path, monkeypatch, lang, heading):
    import shutil
    from tests.pdf_probe import open_pdf
    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "templates", tmp_path / "templates")
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["new", "my-game", "--lang", lang, "--title", "Zoo"]).exit_code == 0
    built = CliRunner().invoke(main, ["build", "my-game", "--paper", "a4", "-q"])
    assert built.exit_code == 0, built.output
    cover = open_pdf(tmp_path / "output" / "my-game" / "standard" / lang / "a4" / "kit.pdf")[0]
    assert heading in " ".join(cover.get_textpage().get_text_range().split())


def test_a_cache_folder_that_cannot_be_one_is_said_plainly(tmp_path):
    # PNP_CACHE_DIR naming a file: one message naming it and what to do, exit 1, nothing written
    from tests.robustness.harness import run_pnp
    from tests.test_content_errors import make_game
    game, not_a_folder, out = make_game(tmp_path, {}), tmp_path / "cache", tmp_path / "out"
    not_a_folder.write_text("a file")
    run = run_pnp("build", str(game), "--out", str(out), "--paper", "a4", "--only", "cards", "--jobs", "1",
                  env={"PNP_CACHE_DIR": str(not_a_folder)}).assert_clean(1)
    assert "pnp's cache folder cannot be used: Not a directory" in run.output
    assert "set PNP_CACHE_DIR to a folder you can write to" in run.output
    assert not list(out.rglob("*.pdf"))
