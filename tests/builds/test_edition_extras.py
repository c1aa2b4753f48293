"""Editions decide their extras: `print_shop: false` builds no print-shop folder, `ink_saver` the
ink-saver cards; a rebuild after flipping the flag removes what the build no longer makes."""

from __future__ import annotations

import json

from tests.test_content_errors import BACK_TEMPLATE, make_game, pnp

TWO_EDITIONS = """\
id: g
title: game.title
languages: [en]
editions:
  free: {name: game.edition, players: "2–4", print_shop: false}
  full: {name: game.edition, players: "2–6", ink_saver: true}
fonts:
  body: [nunito, inter]
"""

CARDS = """\
decks:
  - id: cards
    name: deck.cards
    template: card
    back: back
    ink_saver_back: light
    cards:
      - id: star
        count: 2
        fields: {name: cards.star, art: art/star.svg}
"""

LIGHT_BACK = BACK_TEMPLATE


def _files(folder):
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()
                  and not path.name.startswith("."))


def _game(tmp_path, game=TWO_EDITIONS):
    return make_game(tmp_path, {"game.yaml": game, "cards.yaml": CARDS, "templates/light.yaml": LIGHT_BACK})


def test_free_builds_no_print_shop_nor_ink_saver_and_full_builds_both(tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    result = pnp("build", str(game), "--paper", "a4", "--out", str(out), "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    free, full = _files(out / "g" / "free" / "en"), _files(out / "g" / "full" / "en")
    assert "a4/cards.pdf" in free and "a4/kit.pdf" in free
    assert not any(name.startswith("print-shop/") for name in free), free
    assert "a4/cards-ink-saver.pdf" not in free
    assert "print-shop/cards.pdf" in full and "print-shop/png/cards/001-front.png" in full
    assert "a4/cards-ink-saver.pdf" in full
    assert not (out / "g" / "free" / "en" / "print-shop").exists()
    summary = json.loads(result.output[result.output.index("{"):])
    assert not any("print-shop" in name for name in summary["files"] if "/free/" in name)
    assert summary["warnings"] == []        # a default build says nothing about what an edition does not offer


def test_a_rebuild_after_turning_print_shop_off_removes_the_stale_folder(tmp_path):
    on = TWO_EDITIONS.replace(", print_shop: false", "")
    game, out = _game(tmp_path, on), tmp_path / "out"
    assert pnp("build", str(game), "--paper", "a4", "--out", str(out), "--jobs", "1",
               "--edition", "free").exit_code == 0
    shop = out / "g" / "free" / "en" / "print-shop"
    assert (shop / "cards.pdf").is_file()
    (game / "game.yaml").write_text(TWO_EDITIONS, encoding="utf-8")
    result = pnp("build", str(game), "--paper", "a4", "--out", str(out), "--jobs", "1", "--edition", "free")
    assert result.exit_code == 0, result.output
    assert not shop.exists(), _files(shop)
    assert (out / "g" / "free" / "en" / "a4" / "cards.pdf").is_file()


def test_asking_a_print_shop_preset_of_an_edition_without_one_is_a_located_note(tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    result = pnp("build", str(game), "--paper", "a4", "--out", str(out), "--jobs", "1", "--shop", "mpc", "-q")
    assert result.exit_code == 0, result.output
    assert ("g/game.yaml:5:58: warning: edition 'free' of 'g' offers no print-shop files (print_shop: false): "
            "none are built for it") in result.output.replace(str(tmp_path) + "/", ""), result.output
    assert "'full'" not in result.output
    assert not (out / "g" / "free" / "en" / "print-shop").exists()
    assert (out / "g" / "full" / "en" / "print-shop" / "cards.pdf").is_file()


def test_only_an_edition_with_the_ink_saver_file_shows_ink_saver_backs_in_the_preview(tmp_path):
    # `pnp serve` lists every face an edition prints: the free edition makes no cards-ink-saver.pdf
    from types import SimpleNamespace

    from generator.errors import Problems
    from generator.options import BuildOptions
    from generator.serve.session import PreviewSession
    from generator.targets import clean_games, layout_targets
    from generator.text.fonts import FontLibrary
    game = _game(tmp_path)
    (game / "templates" / "light.yaml").write_text(      # a back of its own, not the regular one again
        LIGHT_BACK.replace("boxes:\n", 'boxes:\n  frame: {kind: rect, x: 3, y: 3, width: 57, height: 82, '
                                        'stroke: "#999999"}\n'),
        encoding="utf-8")
    problems = Problems()
    sources = clean_games([game], problems)
    targets = {target.edition: target for target in layout_targets(sources, BuildOptions(check_only=True), problems,
                                                                    FontLibrary())}
    assert not problems.errors
    session = SimpleNamespace(faces={}, selection=SimpleNamespace(game=game))
    from generator.serve.face_keys import FaceKeyRecorder
    labels = {edition: [label for label, _ in PreviewSession._face_list(session, target, FaceKeyRecorder())[0]]
              for edition, target in targets.items()}
    assert not targets["free"].prints_ink_saver_backs and targets["full"].prints_ink_saver_backs
    assert "cards/cards/ink-saver back" in labels["full"]
    assert not any("ink-saver" in label for label in labels["free"]), labels["free"]
