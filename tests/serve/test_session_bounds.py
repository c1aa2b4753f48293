"""A preview session edited many times keeps what two builds show, not every build's faces, pages
and page PNGs (in process: the session's own tables are the honest measure)."""

from __future__ import annotations


from generator.serve.session import PreviewSession, Selection
from tests.conftest import private_font_cache
from tests.test_content_errors import make_game

EDITS = 6


def test_an_edited_session_keeps_two_builds(tmp_path, monkeypatch):
    private_font_cache(tmp_path / "cache")
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    game = make_game(tmp_path, {})
    session = PreviewSession([game], Selection(game), None, tmp_path / "out")
    catalog = game / "i18n" / "en.yaml"
    per_build = None
    for edit in range(EDITS):
        catalog.write_text(catalog.read_text(encoding="utf-8").replace('star: "', f'star: "{edit}', 1),
                           encoding="utf-8")
        snapshot = session.rebuild()
        assert not snapshot.errors and snapshot.pages, snapshot.errors
        for _, url in snapshot.pages:           # the page asks for every page's image
            assert session.page_png(url.rsplit("/", 1)[1].removesuffix(".png"))
        per_build = per_build or (len(snapshot.faces), len(snapshot.pages))
    faces, pages = per_build
    assert len(session.faces) <= 2 * faces, len(session.faces)
    assert len(session.pages) <= 2 * pages and len(session.page_pngs) <= 2 * pages, \
        (len(session.pages), len(session.page_pngs), pages)
    assert session.page_png(snapshot.pages[0][1].rsplit("/", 1)[1].removesuffix(".png"))   # the shown ones stay
