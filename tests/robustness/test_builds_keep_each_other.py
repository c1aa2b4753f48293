"""No build undoes another: a build replaces, and may remove, only the files of the parts it was asked for.

`--paper`, `--only`, `--lang` and `--edition` each choose a part of the output folder; builds of two parts
into one folder keep both, byte for byte as a build of each alone writes them, and a build that asks for
both afterwards finds them up to date. A file goes only when the content it came from no longer asks for it.
"""

from __future__ import annotations

import json

from generator.incremental import STAMP
from tests.robustness.test_outputs import build, cards_game, snapshot, without_digests
from tests.test_content_errors import GAME


def _files(folder) -> dict[str, bytes]:
    return without_digests(snapshot(folder))


def test_a4_then_letter_into_one_folder_keeps_both(tmp_path):
    game = cards_game(tmp_path, cards=3)
    out, alone = tmp_path / "out", tmp_path / "alone"
    assert build(game, out, "--paper", "a4").exit_code == 0
    a4 = _files(out / "g" / "standard" / "en" / "a4")
    assert {"cards.pdf", "kit.pdf"} <= set(a4)
    assert build(game, out, "--paper", "letter").exit_code == 0
    target = out / "g" / "standard" / "en"
    assert _files(target / "a4") == a4                         # the Letter build left every A4 file
    assert build(game, alone, "--paper", "letter").exit_code == 0
    assert _files(target / "letter") == _files(alone / "g" / "standard" / "en" / "letter")
    both = build(game, out, "--json")                          # both papers, as a build of both wants them
    assert json.loads(both.output)["files"] == [] and json.loads(both.output)["up_to_date"] == ["g/standard/en"]


def test_only_cards_then_only_kit_keeps_both(tmp_path):
    game = cards_game(tmp_path, cards=2)
    out = tmp_path / "out"
    assert build(game, out, "--paper", "a4", "--only", "cards").exit_code == 0
    cards = (out / "g" / "standard" / "en" / "a4" / "cards.pdf").read_bytes()
    assert build(game, out, "--paper", "a4", "--only", "kit").exit_code == 0
    a4 = out / "g" / "standard" / "en" / "a4"
    assert (a4 / "cards.pdf").read_bytes() == cards and (a4 / "kit.pdf").is_file()
    again = build(game, out, "--paper", "a4", "--only", "cards,kit", "--json")
    assert json.loads(again.output)["files"] == []             # both parts are trusted together


def test_one_language_then_another_keeps_both(tmp_path):
    game = cards_game(tmp_path, cards=2, languages=("en", "de"))
    out = tmp_path / "out"
    assert build(game, out, "--paper", "a4", "--lang", "en").exit_code == 0
    english = _files(out / "g" / "standard" / "en")
    assert build(game, out, "--paper", "a4", "--lang", "de").exit_code == 0
    assert _files(out / "g" / "standard" / "en") == english and (out / "g" / "standard" / "de" / STAMP).is_file()


def test_one_edition_then_another_keeps_both(tmp_path):
    editions = GAME.replace("standard: {name: game.edition}",
                            "standard: {name: game.edition}\n  deluxe: {name: game.edition}")
    assert editions != GAME
    game = cards_game(tmp_path, cards=2, **{"game.yaml": editions})
    out = tmp_path / "out"
    assert build(game, out, "--paper", "a4", "--edition", "standard").exit_code == 0
    standard = _files(out / "g" / "standard")
    assert build(game, out, "--paper", "a4", "--edition", "deluxe").exit_code == 0
    assert _files(out / "g" / "standard") == standard and (out / "g" / "deluxe" / "en" / STAMP).is_file()


def test_a_file_goes_when_its_content_no_longer_asks_for_it_even_in_a_one_paper_build(tmp_path):
    out = tmp_path / "out"
    game = cards_game(tmp_path, cards=3)
    assert build(game, out).exit_code == 0
    target = out / "g" / "standard" / "en"
    game = cards_game(tmp_path, cards=2)                        # one card fewer
    assert build(game, out, "--paper", "a4").exit_code == 0
    assert not (target / "print-shop" / "png" / "cards" / "003-front.png").exists()   # its own part: gone
    assert (target / "letter" / "cards.pdf").is_file()           # the Letter part was not built: it stays
    rebuilt = build(game, out, "--json")                         # ...and is not trusted: it was made from the old game
    assert any(name.endswith("letter/cards.pdf") for name in json.loads(rebuilt.output)["files"])
