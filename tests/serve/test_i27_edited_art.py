"""`pnp serve` shows art edited in place: a session rebuilt after an SVG's bytes changed under the same
path draws the new art, not the one it remembered (issue 27: digests and drawings were cached by path).

In process, without a browser: one session rebuilt twice, the face PNGs it serves compared by pixel."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from generator.serve.session import PreviewSession, Selection
from tests.conftest import private_font_cache
from tests.test_content_errors import STAR_SVG, make_game

RED, BLUE = "#c00", "#00c"      # the same length: the file keeps its size


@pytest.fixture
def session(tmp_path, monkeypatch):
    private_font_cache(tmp_path / "cache")      # the cut fonts: a cold cache only costs time
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    game = make_game(tmp_path, {})
    return PreviewSession([game], Selection(game), None, tmp_path / "out")


def _front(session: PreviewSession) -> tuple[str, Image.Image]:
    """The shown front of the deck's card: its URL's digest and its pixels."""
    snapshot = session.rebuild()
    assert not snapshot.errors, snapshot.errors
    (url,) = [url for label, url in snapshot.faces if label == "cards/cards/star"]
    digest = url.rsplit("/", 1)[1].removesuffix(".png")
    png = session.face_png(digest)
    assert png is not None
    return digest, Image.open(io.BytesIO(png)).convert("RGB")


def _red_and_blue(image: Image.Image) -> tuple[int, int]:
    """How many pixels are the art's red and its blue."""
    colours = dict((colour, count) for count, colour in image.getcolors(maxcolors=1 << 20))
    return colours.get((204, 0, 0), 0), colours.get((0, 0, 204), 0)


def _edit_in_place(svg: Path, keep_times: bool) -> None:
    """Rewrite the art's bytes through the same file (same inode, same size); with `keep_times`, its
    modification time put back as an editor or a `touch -r` may leave it."""
    before = svg.stat()
    with open(svg, "r+b") as file:
        file.write(STAR_SVG.replace(RED, BLUE).encode())
    if keep_times:
        os.utime(svg, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = svg.stat()
    assert (after.st_ino, after.st_size) == (before.st_ino, before.st_size)


@pytest.mark.parametrize("keep_times", [False, True], ids=["new-mtime", "mtime-put-back"])
def test_an_svg_edited_in_place_is_drawn_anew(session, keep_times):
    digest, first = _front(session)
    red, blue = _red_and_blue(first)
    assert red > 100 and blue == 0             # the red square is drawn

    _edit_in_place(session.selection.game / "art" / "star.svg", keep_times)
    new_digest, second = _front(session)

    assert new_digest != digest                # a new URL: the page fetches the new face
    assert ImageChops.difference(first, second).getbbox() is not None
    red, blue = _red_and_blue(second)
    assert red == 0 and blue > 100             # the art as it is now, nothing of the old


def test_a_rebuild_of_unchanged_art_keeps_the_face(session):
    digest, first = _front(session)
    again, second = _front(session)
    assert again == digest and ImageChops.difference(first, second).getbbox() is None


def test_one_context_serves_every_rebuild_and_a_change_forgets_what_was_read_of_files(session, monkeypatch):
    _front(session)
    library, caches = session.context.library, session.context.caches
    assert sum(caches.sizes().values()) > 0                       # the art's digest and more, in the session's
    emptied = []
    monkeypatch.setattr(caches, "files_changed", lambda: emptied.append(True))
    _front(session)                                               # what the watcher runs after a change
    assert emptied == [True]
    session.select(paper="letter")                                # a switch reads nothing anew
    assert emptied == [True] and session.snapshot.selected["paper"] == "letter"
    assert session.context.library is library and session.context.caches is caches
