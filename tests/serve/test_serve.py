"""`pnp serve` run as a user runs it: a real server process on a 100-card deck, its status contract,
face PNGs, an edit shown (and the other faces untouched: only the edited one drawn again), located
errors shown and cleared, and the page itself in a headless chromium (skipped where none is installed).
How soon an edit shows (the issue's 2 s) is the machine's speed: tests/benchmarks/bench_serve.py times it."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.conftest import private_font_cache

CARDS = 100
HANG_S = 60.0                 # a server that has not answered by then never will: the test fails


def _write_game(folder: Path) -> Path:
    game = folder / "deck"
    (game / "templates").mkdir(parents=True)
    (game / "i18n").mkdir()
    (game / "game.yaml").write_text("id: deck\ntitle: t.title\nlanguages: [en, ru]\n"
                                    "editions: {standard: {name: t.title}}\n", encoding="utf-8")
    for lang, word in (("en", "Card"), ("ru", "Карта")):
        lines = [f"{lang}:", "  t:", f'    title: "{word}"', "  card:"]
        lines += [f'    c{n}: "{word} {n}: move {n % 7 + 1} spaces, then draw one more."' for n in range(CARDS)]
        (game / "i18n" / f"{lang}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    deck = ["decks:", "  - id: main", "    name: t.title", "    template: front", "    back: back", "    cards:"]
    deck += [f"      - {{id: c{n}, count: 1, fields: {{text: card.c{n}}}}}" for n in range(CARDS)]
    (game / "cards.yaml").write_text("\n".join(deck) + "\n", encoding="utf-8")
    (game / "templates" / "front.yaml").write_text(
        "extends: poker-card\nboxes:\n"
        '  bg: {kind: rect, area: bleed, fill: "#fff8ec"}\n'
        '  text: {kind: text, text: "@text", x: 6, y: 20, width: 51, height: 48, style: body}\n', encoding="utf-8")
    (game / "templates" / "back.yaml").write_text(
        'extends: poker-card\nboxes:\n  bg: {kind: rect, area: bleed, fill: "#a31621"}\n', encoding="utf-8")
    return game


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read()


class Server:
    def __init__(self, game: Path, cache: Path):
        self.game = game
        self.cache = cache
        env = {**os.environ, "PNP_CACHE_DIR": str(cache)}
        self.process = subprocess.Popen([sys.executable, "-m", "generator", "serve", str(game), "--port", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        line = self.process.stdout.readline()
        found = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert found, line + self.process.stdout.read() if self.process.poll() is not None else line
        self.url = found.group(1)

    def status(self) -> dict:
        return json.loads(_get(self.url + "status.json"))

    def wait(self, test, timeout: float) -> dict:
        end = time.perf_counter() + timeout
        while True:
            status = self.status()
            if test(status):
                return status
            assert time.perf_counter() < end, f"not within {timeout} s: {status['build']} {status['errors']}"
            time.sleep(0.02)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serve")
    cache = folder / "cache"
    private_font_cache(cache)     # the font instances only: faces and texts start cold
    running = Server(_write_game(folder), cache)
    running.wait(lambda status: status["build"] >= 1 and status["faces"], HANG_S)
    yield running
    running.stop()


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def _edit_catalog(game: Path, old: str, new: str) -> None:
    catalog = game / "i18n" / "en.yaml"
    text = catalog.read_text(encoding="utf-8")
    assert old in text
    catalog.write_text(text.replace(old, new, 1), encoding="utf-8")


def _drawn_faces(server) -> dict[str, int]:
    """The face PNGs in the server's cache folder: digest → when the file was written (ns)."""
    return {path.stem: path.stat().st_mtime_ns for path in (server.cache / "faces").rglob("*.png")}


def _digest(face_url: str) -> str:
    return face_url.rsplit("/", 1)[-1].removesuffix(".png")


def test_status_contract_and_pngs(server):
    status = server.status()
    assert isinstance(status["build"], int) and status["build"] >= 1
    assert status["errors"] == []
    assert len(status["faces"]) == CARDS + 1          # every front, the one back once
    front, back = _png(_get(server.url + status["faces"][3][1:])), _png(_get(server.url + status["faces"][-1][1:]))
    assert abs(front.width / front.height - 63 / 88) < 0.02 and 230 <= front.width <= 260   # 63 mm at 100 dpi
    assert front.getpixel((front.width // 2, 8)) == (255, 248, 236)      # the front's paper colour
    assert back.getpixel((back.width // 2, back.height // 2)) == (163, 22, 33)
    page = _get(server.url).decode()
    assert "EventSource('/events')" in page and "/status.json" in page
    server.wait(lambda s: s["pages"], HANG_S)             # the home files' pages follow the faces
    pages = server.status()["pages"]
    assert any(p["label"].startswith("cards.pdf") for p in pages)
    sheet = _png(_get(server.url + pages[0]["url"][1:]))
    assert sheet.width < sheet.height                 # an A4 page, portrait


def test_an_edit_shows_and_only_that_face_is_drawn_again(server):
    before = server.wait(lambda s: s["pages"], HANG_S)
    old_png = _png(_get(server.url + before["faces"][7][1:]))
    drawn = _drawn_faces(server)
    _edit_catalog(server.game, "Card 7: move 1 spaces", "Card 7: jump over every pawn and shout")
    after = server.wait(lambda s: s["build"] > before["build"] and s["faces"][7] != before["faces"][7], HANG_S)
    new_png = _png(_get(server.url + after["faces"][7][1:]))
    assert ImageChops.difference(old_png, new_png).getbbox() is not None
    changed = [i for i, (old, new) in enumerate(zip(before["faces"], after["faces"], strict=False)) if old != new]
    assert changed == [7]                             # the other 100 faces keep their URLs (and PNGs)
    # the home files' new pages: published after the rebuild's faces are drawn ([] until then)
    server.wait(lambda s: s["pages"] and s["pages"] != before["pages"], HANG_S)
    # Only the edited face is drawn again: every PNG drawn before is untouched, and the one new
    # face is the edited card's. (A rebuild also draws a few faces of the deck that were never
    # drawn yet, as a first build draws the first of them before the page asks: those were not
    # drawn before, so they are not drawn again.)
    now = _drawn_faces(server)
    assert {digest: stamp for digest, stamp in now.items() if digest in drawn} == drawn
    listed_before = {_digest(url) for url in before["faces"]}
    new = set(now) - set(drawn)
    assert _digest(after["faces"][7]) in new
    assert new - {_digest(after["faces"][7])} <= listed_before - set(drawn), new


def test_errors_are_located_and_clear_when_fixed(server):
    cards = server.game / "cards.yaml"
    good = cards.read_text(encoding="utf-8")
    before = server.status()
    cards.write_text(good.replace("{id: c2, count: 1,", "{id: c2, count: many,", 1), encoding="utf-8")
    broken = server.wait(lambda s: s["errors"], HANG_S)
    assert broken["build"] > before["build"]
    assert re.match(r".*cards\.yaml:\d+:\d+: ", broken["errors"][0]), broken["errors"]
    assert "hint:" in broken["errors"][0]
    assert broken["faces"] == before["faces"]         # the last good faces stay beside the errors
    cards.write_text(good, encoding="utf-8")
    server.wait(lambda s: not s["errors"] and s["build"] > broken["build"], HANG_S)


def test_each_face_lists_the_keys_it_prints_with_their_text_and_line(server):
    status = server.status()
    assert len(status["keys"]) == len(status["faces"])
    assert status["keys"][3] == [{"key": "card.c3", "text": "Card 3: move 4 spaces, then draw one more.",
                                  "where": "i18n/en.yaml:8", "overflows": False}]
    assert status["keys"][-1] == []                   # the back prints no catalog text


def test_a_text_too_long_for_its_box_is_shown_overflowing_not_refused(server):
    before = server.status()
    _edit_catalog(server.game, "Card 5: move 6 spaces, then draw one more.",
                  "Card 5: " + " ".join(["a very long translation"] * 60))
    try:
        shown = server.wait(lambda s: s["build"] > before["build"] and any(k["overflows"] for ks in s["keys"]
                                                                             for k in ks), HANG_S)
        assert not shown["errors"] and len(shown["faces"]) == len(before["faces"])     # still every face
        assert [k["key"] for k in shown["keys"][5] if k["overflows"]] == ["card.c5"]
        assert any("card.c5" in warning or "does not fit" in warning for warning in shown["warnings"]), \
            shown["warnings"]
    finally:
        _edit_catalog(server.game, "Card 5: " + " ".join(["a very long translation"] * 60),
                      "Card 5: move 6 spaces, then draw one more.")
    server.wait(lambda s: not any(k["overflows"] for ks in s["keys"] for k in ks), HANG_S)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (Debian: apt-get install chromium)")
def test_a_face_as_each_dichromat_sees_it(server):
    from generator.colour_vision import simulated_hex
    back_url = server.url + server.status()["faces"][-1][1:]
    plain = _png(_get(back_url))
    centre = (plain.width // 2, plain.height // 2)
    assert plain.getpixel(centre) == (163, 22, 33)
    for view in ("protanopia", "deuteranopia", "tritanopia"):
        seen = _png(_get(back_url + f"?vision={view}")).getpixel(centre)
        expected = bytes.fromhex(simulated_hex("#a31621", view)[1:])
        assert all(abs(a - b) <= 3 for a, b in zip(seen, expected, strict=True)), (view, seen, expected.hex())
    assert _png(_get(back_url + "?vision=deuteranopia")).getpixel(centre)[1] > 60     # no longer a red
    with pytest.raises(urllib.error.HTTPError) as refused:
        _get(back_url + "?vision=blue")
    assert refused.value.code == 400


def test_page_in_a_headless_browser_updates_itself(server):
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(server.url)
            page.wait_for_function(f"document.querySelectorAll('#faces img').length === {CARDS + 1}")
            page.wait_for_function("document.querySelector('#faces img').naturalWidth > 200")
            assert page.locator("#errors pre").count() == 0
            assert page.locator("#lang option").all_inner_texts() == ["en", "ru"]
            first = page.get_attribute("#faces img", "src")
            _edit_catalog(server.game, "Card 0: move 1 spaces", "Card 0: everyone sings")
            page.wait_for_function(f"document.querySelector('#faces img').getAttribute('src') !== {first!r} "
                                   "&& document.querySelector('#faces img').naturalWidth > 200",
                                   timeout=HANG_S * 1000)
            # a mistake shows on the page, located; fixing it clears it
            cards = server.game / "cards.yaml"
            good = cards.read_text(encoding="utf-8")
            cards.write_text(good.replace("{id: c4, count: 1,", "{id: c4, count: many,", 1), encoding="utf-8")
            page.wait_for_function("document.querySelectorAll('#errors pre').length > 0", timeout=HANG_S * 1000)
            assert re.search(r"cards\.yaml:\d+:\d+: ", page.inner_text("#errors"))
            cards.write_text(good, encoding="utf-8")
            page.wait_for_function("document.querySelectorAll('#errors pre').length === 0", timeout=HANG_S * 1000)
            # the language switcher rebuilds in Russian
            english = page.get_attribute("#faces img", "src")
            page.select_option("#lang", "ru")
            page.wait_for_function(f"document.querySelector('#faces img').getAttribute('src') !== {english!r} "
                                   "&& document.querySelector('#lang').value === 'ru'", timeout=HANG_S * 1000)
            assert server.status()["selected"]["lang"] == "ru"
            page.wait_for_function("document.querySelector('#faces img').naturalWidth > 200", timeout=HANG_S * 1000)
            # a face's keys, for a translator: click it
            page.click("#faces figure:nth-child(4) img")
            page.wait_for_function("document.querySelector('#keys code') !== null")
            assert page.inner_text("#keys code") == "card.c3"
            assert "i18n/ru.yaml:8" in page.inner_text("#keys")            # (the page shows Russian by now)
            # the faces as a deuteranope sees them, and back
            page.select_option("#vision", "deuteranopia")
            page.wait_for_function("document.querySelector('#faces img').getAttribute('src').endsWith("
                                   "'?vision=deuteranopia') && document.querySelector('#faces img').naturalWidth > 200",
                                   timeout=HANG_S * 1000)
            page.select_option("#vision", "")
            page.wait_for_function("!document.querySelector('#faces img').getAttribute('src').includes('vision')",
                                   timeout=HANG_S * 1000)
            page.screenshot(path=str(server.cache.parent / "page.png"))
        finally:
            browser.close()
