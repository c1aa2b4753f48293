"""The on-disk cache of fitted texts: a build that fills it, one that reads it and one over a damaged
file all write the very bytes of a build without it; the file holds one record per fitted text."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.conftest import private_font_cache

CARDS = 12


def _game(folder: Path) -> Path:
    game = folder / "deck"
    (game / "templates").mkdir(parents=True)
    (game / "i18n").mkdir()
    (game / "game.yaml").write_text("id: deck\ntitle: t.title\nlanguages: [ru]\n"
                                    "editions: {standard: {name: t.title}}\n", encoding="utf-8")
    lines = ["ru:", "  t:", '    title: "Колода"', "  card:"]
    lines += [f'    c{n}: "Карта {n}: передвиньте фишку на {n % 5 + 1} клетки вперёд и возьмите ещё одну карту '
              f'из колоды{" — немедленно" * (n % 3)}."' for n in range(CARDS)]
    (game / "i18n" / "ru.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    deck = ["decks:", "  - id: main", "    name: t.title", "    template: front", "    back: back", "    cards:"]
    deck += [f"      - {{id: c{n}, count: 1, fields: {{text: card.c{n}}}}}" for n in range(CARDS)]
    (game / "cards.yaml").write_text("\n".join(deck) + "\n", encoding="utf-8")
    (game / "templates" / "front.yaml").write_text(
        "size: {width: 63mm, height: 88mm}\nbleed: 3\nstyles: {body: {size: 14, min_size: 6, align: center}}\n"
        "boxes:\n  text: {kind: text, text: '@text', x: 6, y: 20, width: 51, height: 30, style: body}\n",
        encoding="utf-8")
    (game / "templates" / "back.yaml").write_text(
        "size: {width: 63mm, height: 88mm}\nbleed: 3\nboxes:\n  bg: {kind: rect, area: bleed, fill: '#a31621'}\n",
        encoding="utf-8")
    return game


def _build(game: Path, out: Path, cache: Path | None) -> str:
    """The deck's cards.pdf built (forced) with the fitted-text cache in `cache`, or with none; its digest.
    In the test's process (run_in_process): each build reads the cache folder afresh (a child's start
    cost more than the build)."""
    from tests.robustness.harness import run_in_process
    env = {"PNP_NO_CACHE": "1"} if cache is None else {"PNP_NO_CACHE": "", "PNP_CACHE_DIR": str(cache)}
    run_in_process("build", str(game), "--only", "cards", "--paper", "a4", "--jobs", "1", "--force", "-q",
                   "--out", str(out), env=env).assert_clean(0)
    return hashlib.sha256((out / "deck" / "standard" / "ru" / "a4" / "cards.pdf").read_bytes()).hexdigest()


def test_filled_read_and_damaged_caches_build_the_same_bytes(tmp_path):
    game = _game(tmp_path)
    cache = tmp_path / "cache"
    private_font_cache(cache)     # the font instances only: the texts start cold
    without = _build(game, tmp_path / "cold", None)
    (cache / "layouts").mkdir(parents=True)
    (cache / "layouts" / "0123456789abcdef01234567.pickle").write_bytes(b"a file of the first format")
    assert _build(game, tmp_path / "fill", cache) == without
    records, = (cache / "layouts").glob("*.records")
    assert not list((cache / "layouts").glob("*.pickle"))      # the old format's files removed
    data = records.read_bytes()
    # one record per fitted text: the 12 texts, some fitted again at the deck's one size
    assert data.startswith(b"pnp-layouts\n") and CARDS <= data.count(b"\x80\x05") <= 3 * CARDS
    assert _build(game, tmp_path / "warm", cache) == without
    stamp = records.stat().st_mtime_ns
    assert _build(game, tmp_path / "again", cache) == without and records.stat().st_mtime_ns == stamp   # all read
    records.write_bytes(data[: len(data) // 2])          # cut short: the whole records are used, the rest set again
    assert _build(game, tmp_path / "cut", cache) == without
    damaged = bytearray(data)
    damaged[len(data) // 2: len(data) // 2 + 40] = b"\x00" * 40    # a record's pickle broken
    records.write_bytes(bytes(damaged))
    assert _build(game, tmp_path / "damaged", cache) == without
    records.write_bytes(b"not a cache at all")
    assert _build(game, tmp_path / "garbage", cache) == without
