"""The newer commands attacked with bad input: `pnp serve`, `pnp i18n export/import`, spreadsheets
(`cards_from:`, `pnp data export`), `pnp build --pdfx/--icc/--cut` and `pnp export tts`.

Each case runs pnp's command line (tests/robustness/harness.py: no traceback, the expected exit
status) on a tiny synthetic game, and checks the one located message a user reads, that nothing
outside the game is read, and that nothing is half-written. In the test's process (run_in_process),
but for the server, the 400,000-unit file (its memory), the damaged sheets and the FIFO profile,
which run in a child.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import private_font_cache
from tests.robustness.harness import run_in_process, run_pnp
from tests.test_content_errors import make_game

# `file:line:col: message` or, for a file as a whole, `file: message`; then the hint
LOCATED = re.compile(r"^\S+?(:\d+(:\d+)?)?: .+\n    hint: .+", re.M)


def _font_cache(cache: Path) -> Path:
    """A private cache folder holding only the shared font instances (slow to make), so each
    served game starts cold but no test waits for a bold instance."""
    return private_font_cache(cache)


# ------------------------------------------------------------- pnp serve

class Served:
    """`pnp serve GAME --port 0` in a child process, asked with raw HTTP (any Host header)."""

    def __init__(self, game: Path, cache: Path):
        env = {**os.environ, "PNP_CACHE_DIR": str(_font_cache(cache))}
        self.process = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.argv[0] = 'pnp'; from generator.__main__ import run; run()",
             "serve", str(game), "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line + self.process.stderr.read()
        self.port = int(found.group(1))

    def get(self, path: str, host: str | None = None, **headers: str) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", f"127.0.0.1:{self.port}" if host is None else host)
        for name, value in headers.items():
            connection.putheader(name.replace("_", "-"), value)
        connection.endheaders()
        answer = connection.getresponse()
        body = answer.read()
        connection.close()
        return answer.status, body

    def status(self) -> dict:
        code, body = self.get("/status.json")
        assert code == 200, body
        return json.loads(body)

    def wait(self, test, timeout: float = 30) -> dict:
        end = time.monotonic() + timeout
        while True:
            status = self.status()
            if test(status):
                return status
            assert time.monotonic() < end, f"not within {timeout} s: {status}"
            time.sleep(0.05)

    def stop(self) -> str:
        """End the server; what it wrote to stderr."""
        self.process.terminate()
        try:
            _, errors = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, errors = self.process.communicate()
        return errors


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    game = make_game(folder, {})
    running = Served(game, folder / "cache")
    running.wait(lambda status: status["pages"] and not status["errors"])
    running.game = game
    yield running
    errors = running.stop()
    assert "Traceback" not in errors, errors


def test_serve_answers_only_to_local_host_names(served):
    """DNS rebinding: a page of evil.example that made its name resolve to 127.0.0.1 still sends
    its own Host; nothing is answered to it, on any route."""
    for path in ("/", "/status.json", "/events", "/select?lang=en", served.status()["faces"][0]):
        for host in ("evil.example", f"evil.example:{served.port}", "127.0.0.1.evil.example", "", "localhost.:1@x"):
            code, body = served.get(path, host=host)
            assert code == 421, (path, host, code)
            assert b"faces" not in body and b"PNG" not in body
    assert served.get("/status.json", host=f"localhost:{served.port}")[0] == 200
    assert served.get("/status.json", host="127.0.0.1")[0] == 200


def test_serve_names_no_file(served, tmp_path):
    """A face or page is named by its digest only: ../ in any spelling, on every route, reads nothing."""
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\nSECRET")
    up = "../" * 30 + str(secret).lstrip("/")
    for route in ("/face/", "/page/", "/", "/status.json/", "/events/"):
        for name in (up, up.replace("../", "..%2f"), up.replace("../", "%2e%2e/"), up.replace("/", "\\"),
                     str(secret), "/" + up):
            code, body = served.get(route + name)
            assert code == 404 and b"SECRET" not in body, (route, name, code)
    code, body = served.get("/face/" + "0" * 64 + ".png")
    assert code == 404


def test_serve_refuses_huge_and_cross_site_requests(served):
    """A 100 kB query is refused by the request line's limit; a /select with many fields or from
    another site's page switches nothing; a flood of switches costs at most two rebuilds."""
    before = served.status()
    assert served.get("/select?lang=" + "a" * 100_000)[0] in (400, 414)
    assert served.get("/select?" + "&".join(f"f{index}=1" for index in range(200)))[0] == 400
    assert served.get("/select?paper=letter", Sec_Fetch_Site="cross-site")[0] == 403
    assert served.get("/select?paper=letter", Origin="http://evil.example")[0] == 403
    assert served.get("/select?paper=a4", Origin=f"http://127.0.0.1:{served.port}")[0] == 202
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(20) as pool:          # each switch used to start its own thread and rebuild
        assert set(pool.map(lambda _: served.get("/select?paper=a4")[0], range(60))) == {202}
    time.sleep(1.0)
    assert served.status()["build"] == before["build"]          # nothing to switch: nothing rebuilt
    with ThreadPoolExecutor(20) as pool:
        papers = ["letter", "a4"] * 30
        assert set(pool.map(lambda paper: served.get(f"/select?paper={paper}")[0], papers)) == {202}
    assert served.get("/select?paper=a4")[0] == 202             # the last switch asked for is the one shown
    served.wait(lambda status: status["selected"]["paper"] == "a4" and status["pages"] and not status["errors"])


def test_serve_invalid_catalog_then_fixed(served):
    """A catalog edit that breaks the game shows its located message; fixing it clears it."""
    catalog = served.game / "i18n" / "en.yaml"
    good = catalog.read_text(encoding="utf-8")
    catalog.write_text(good.replace('    star: "Star"\n', '    star: [unclosed\n'), encoding="utf-8")
    broken = served.wait(lambda status: status["errors"])
    assert LOCATED.search(broken["errors"][0]) and "en.yaml" in broken["errors"][0], broken["errors"]
    assert broken["faces"]                      # the last good faces stay
    catalog.write_text(good, encoding="utf-8")
    served.wait(lambda status: not status["errors"] and status["build"] > broken["build"])


def test_serve_port_in_use_and_deleted_game(tmp_path):
    """A taken port is a usage error (exit 2); a game folder deleted while serving shows an error,
    and the game is watched again once the folder is back."""
    import socket
    game = make_game(tmp_path, {})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        run = run_pnp("serve", str(game), "--port", str(taken.getsockname()[1])).assert_clean(2)
    assert "is in use" in run.output and "--port" in run.output
    running = Served(game, tmp_path / "cache")
    try:
        running.wait(lambda status: status["faces"])
        saved = tmp_path / "saved"
        shutil.move(game, saved)
        gone = running.wait(lambda status: status["errors"])
        assert "game.yaml" in gone["errors"][0]
        shutil.move(saved, game)
        running.wait(lambda status: not status["errors"] and status["build"] > gone["build"])
        (game / "i18n" / "en.yaml").write_text(
            (game / "i18n" / "en.yaml").read_text(encoding="utf-8").replace('"Star"', '"Sun"'), encoding="utf-8")
        back = running.wait(lambda status: status["build"] > gone["build"] + 1)
        assert not back["errors"]
    finally:
        errors = running.stop()
    assert "Traceback" not in errors, errors


# ------------------------------------------------------------- pnp i18n export / import

PLURAL_EN = '    star: "Star"\n  left: {one: "{count} card left", other: "{count} cards left"}\n'


def _exchange_game(tmp_path: Path) -> Path:
    from tests.test_content_errors import EN, GAME
    return make_game(tmp_path, {"game.yaml": GAME.replace("languages: [en]", "languages: [en, ru]"),
                                "i18n/en.yaml": EN.replace('    star: "Star"\n', PLURAL_EN),
                                "i18n/ru.yaml": EN.replace("en:", "ru:", 1).replace('"Star"', '""')})


def _exported(game: Path, out: Path, fmt: str) -> str:
    run_in_process("i18n", "export", str(game), "--lang", "ru", "--format", fmt, "--out", str(out)).assert_clean(0)
    return (out / f"g.ru.{'xlf' if fmt == 'xliff' else 'po'}").read_text(encoding="utf-8")


def _import_refused(game: Path, file: Path, *expected: str) -> str:
    """pnp i18n import fails with located messages naming `expected`, and the catalog is untouched."""
    catalog = game / "i18n" / "ru.yaml"
    before = catalog.read_bytes()
    run = run_in_process("i18n", "import", str(game), str(file)).assert_clean(1)
    assert LOCATED.search(run.output), run.output
    for words in expected:
        assert words in run.output, run.output
    assert "nothing imported" in run.output
    assert catalog.read_bytes() == before
    return run.output


def test_xliff_entities_are_never_resolved(tmp_path):
    """XXE: an external entity naming a file is refused before any parser resolves it, in UTF-8 and
    UTF-16; a billion-laughs file is refused at its DOCTYPE in well under a second of parsing."""
    game = _exchange_game(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-LINE\n")
    xliff = _exported(game, tmp_path / "x", "xliff")
    head, body = xliff.split("\n", 1)
    external = f'{head}\n<!DOCTYPE xliff [<!ENTITY x SYSTEM "file://{secret}">]>\n' + body.replace(
        "<source>Star</source>", '<source>Star</source><target state="translated">&x;</target>')
    for name, data in (("xxe.xlf", external.encode()), ("xxe16.xlf", external.encode("utf-16"))):
        (tmp_path / name).write_bytes(data)
        output = _import_refused(game, tmp_path / name, f"{name}:2:1: the file declares a DOCTYPE")
        assert "TOP-SECRET" not in output and "TOP-SECRET" not in (game / "i18n" / "ru.yaml").read_text()
    laughs = "".join(f'<!ENTITY l{level} "{f"&l{level - 1};" * 10}">' for level in range(1, 10))
    bomb = f'{head}\n<!DOCTYPE xliff [<!ENTITY l0 "ha">{laughs}]>\n' + body.replace(
        "<source>Star</source>", '<source>Star</source><target state="translated">&l9;</target>')
    (tmp_path / "bomb.xlf").write_text(bomb)
    _import_refused(game, tmp_path / "bomb.xlf", "bomb.xlf:2:1: the file declares a DOCTYPE")


def test_exchange_language_never_becomes_a_path(tmp_path):
    """A file's target-language or Language header is a language code, never ../../x."""
    game = _exchange_game(tmp_path)
    xliff = _exported(game, tmp_path / "x", "xliff").replace('target-language="ru"', 'target-language="../../pwn"')
    xliff = xliff.replace("<source>Star</source>", '<source>Star</source><target state="translated">Звезда</target>')
    (tmp_path / "trav.xlf").write_text(xliff)
    _import_refused(game, tmp_path / "trav.xlf", "trav.xlf:3:1: the file's language '../../pwn' is not a language code")
    po = _exported(game, tmp_path / "p", "po").replace("Language: ru", "Language: ../../pwn")
    (tmp_path / "trav.po").write_text(po)
    _import_refused(game, tmp_path / "trav.po", "the file's language '../../pwn'")
    assert not list(tmp_path.rglob("pwn*"))


def test_po_broken_header_plural_count_and_control_characters(tmp_path):
    """A PO whose header is garbage still imports by its units; a plural with the wrong number of
    forms, a NUL in a text, a 100,000-character text, a syntax error and a FIFO are refused, located."""
    game = _exchange_game(tmp_path)
    po = _exported(game, tmp_path / "p", "po")
    translated = po.replace('msgid "Star"\nmsgstr ""', 'msgid "Star"\nmsgstr "Звезда"')
    header = re.sub(r'"Plural-Forms: .*\n', '"Plural-Forms: nplurals=banana; plural=(;\\\\n"\n', translated)
    (tmp_path / "header.po").write_text(header)
    run_in_process("i18n", "import", str(game), str(tmp_path / "header.po")).assert_clean(0)
    assert 'star: "Звезда"' in (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")
    plural = po.replace('msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\nmsgstr[3] ""',
                        'msgstr[0] "{count} карта"\nmsgstr[1] "{count} карты"')
    assert plural != po
    (tmp_path / "plural.po").write_text(plural)
    _import_refused(game, tmp_path / "plural.po", "left")
    (tmp_path / "nul.po").write_text(po.replace('msgid "Star"\nmsgstr ""', 'msgid "Star"\nmsgstr "Зв\\0"')
                                      .replace("Зв\\0", "Зв\x00"))
    _import_refused(game, tmp_path / "nul.po", "control character U+0000")
    (tmp_path / "long.po").write_text(po.replace('msgid "Star"\nmsgstr ""',
                                                 'msgid "Star"\nmsgstr "' + "я" * 100_000 + '"'))
    _import_refused(game, tmp_path / "long.po", "100,000 characters long")
    (tmp_path / "syntax.po").write_text(po.replace('msgid "Star"', 'msgid "Star\nmsgstr garbage'))
    _import_refused(game, tmp_path / "syntax.po", "not a PO file")
    os.mkfifo(tmp_path / "fifo.po")
    _import_refused(game, tmp_path / "fifo.po", "not a regular file")


def test_exchange_file_of_too_many_units_is_refused_before_parsing(tmp_path):
    """400,000 units (10 MB) are refused by their count at once; 50 bad units are listed, no more."""
    game = _exchange_game(tmp_path)
    po = _exported(game, tmp_path / "p", "po")
    (tmp_path / "huge.po").write_text(po + "".join(f'\nmsgctxt "k{index}"\nmsgid "x"\nmsgstr "y"\n'
                                                   for index in range(400_000)))
    run = run_pnp("i18n", "import", str(game), str(tmp_path / "huge.po")).assert_clean(1)
    assert "huge.po: the file has 400,006 units: at most 100,000" in run.output
    assert run.peak_bytes < 150 * 2**20, run.peak_bytes / 2**20      # counted, not parsed into 400,000 units
    (tmp_path / "many.po").write_text(po + "".join(f'\nmsgctxt "k{index}"\nmsgid "x"\nmsgstr "y"\n'
                                                   for index in range(500)))
    run = run_in_process("i18n", "import", str(game), str(tmp_path / "many.po")).assert_clean(1)
    assert run.output.count("is not a key of the source catalog") == 50 and "more units with errors" in run.output


def test_import_keeps_a_hand_written_catalog(tmp_path):
    """Comments, flow mappings, single quotes, block scalars and anchors stay; a changed anchored value
    keeps its anchor, an alias of it keeps the old text (written out), an alias given its own text gets it."""
    from tests.test_content_errors import EN, GAME
    source = EN.replace('  cards:\n    star: "Star"\n', '  cards:\n    star: "Star"\n    moon: "Moon"\n')
    hand = ("# hand-written\nru:\n  game: {title: 'Игра', edition: \"Стандарт\"}   # flow\n"
            "  deck:\n    cards: &c Карты   # anchor\n  cards:\n    star: *c\n    moon: |\n      Луна\n")
    game = make_game(tmp_path, {"game.yaml": GAME.replace("languages: [en]", "languages: [en, ru]"),
                                "i18n/en.yaml": source, "i18n/ru.yaml": hand})
    po = _exported(game, tmp_path / "p", "po")
    po = po.replace('msgid "Cards"\nmsgstr "Карты"', 'msgid "Cards"\nmsgstr "Колода"')
    (tmp_path / "deck.po").write_text(po)
    run_in_process("i18n", "import", str(game), str(tmp_path / "deck.po")).assert_clean(0)
    written = (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")
    assert written == hand.replace("&c Карты", '&c "Колода"').replace("star: *c", 'star: "Карты"'), written
    po = po.replace('msgid "Star"\nmsgstr "Карты"', 'msgid "Star"\nmsgstr "Звезда"').replace(
        'msgid "Moon"\nmsgstr "Луна\\n"', 'msgid "Moon"\nmsgstr "Месяц"')
    (tmp_path / "star.po").write_text(po)
    (game / "i18n" / "ru.yaml").write_text(hand, encoding="utf-8")
    run_in_process("i18n", "import", str(game), str(tmp_path / "star.po")).assert_clean(0)
    written = (game / "i18n" / "ru.yaml").read_text(encoding="utf-8")
    assert written == hand.replace("&c Карты", '&c "Колода"').replace("star: *c", 'star: "Звезда"').replace(
        "moon: |\n      Луна\n", 'moon: "Месяц"\n'), written
    run_in_process("check", str(game)).assert_clean(0)


# ------------------------------------------------------------- spreadsheets: cards_from and pnp data export

def _sheet_game(tmp_path: Path, sheet: str, data: bytes) -> Path:
    from tests.test_content_errors import CARDS
    deck = CARDS[:CARDS.index("    cards:")] + f"    cards_from: data/{sheet}\n"
    game = make_game(tmp_path, {"cards.yaml": deck})
    (game / "data").mkdir()
    (game / "data" / sheet).write_bytes(data)
    return game


GOOD_CSV = b"id,count,name,art\nstar,2,cards.star,art/star.svg\n"


def _good_xlsx(tmp_path: Path) -> bytes:
    game = make_game(tmp_path / "source", {})
    run_in_process("data", "export", str(game), "cards", "--to", str(tmp_path / "good.xlsx")).assert_clean(0)
    return (tmp_path / "good.xlsx").read_bytes()


def test_damaged_and_huge_sheets_are_refused_located(tmp_path):
    """Truncated, not-a-zip and zip-bomb workbooks, NUL bytes in a CSV, a 10 MiB cell, a 17 MiB file:
    one located message each, within the budget (the bomb is refused by its declared sizes, unread)."""
    import io
    import zipfile

    from tests.zip_bomb import Piece, zip_of
    good = _good_xlsx(tmp_path)
    entries: list[tuple[str, list[Piece]]] = []
    with zipfile.ZipFile(io.BytesIO(good)) as source:
        for entry in source.infolist():
            data = source.read(entry.filename)
            pieces: list[Piece] = [data]
            if entry.filename.endswith("sheet1.xml"):
                head, tail = data.split(b"</sheetData>", 1)
                pieces = [head + b"</sheetData>", (b" ", 300 << 20), tail]
            entries.append((entry.filename, pieces))
    bomb = zip_of(entries)
    cases = {
        "trunc.xlsx": (good[:len(good) // 2], "not a workbook"),
        "text.xlsx": (b"hello", "not a workbook"),
        "bomb.xlsx": (bomb, "unpacks to 300 MB"),
        "nul.csv": (GOOD_CSV.replace(b"star,2", b"st\x00ar,2"), "nul.csv:2:A: id: 'st\\x00ar'"),
        "cell.csv": (GOOD_CSV.replace(b"cards.star", b'"' + b"A" * (10 << 20) + b'"'),
                     "cell.csv:2: a cell is longer than 10,000 characters"),
        "huge.csv": (GOOD_CSV + b"#" * (17 << 20), "at most 16 MB"),
    }
    assert len(bomb) < 1 << 20
    in_a_child = {"bomb.xlsx", "cell.csv", "huge.csv"}      # the cases about memory: measured in their own process
    for name, (data, expected) in cases.items():
        game = _sheet_game(tmp_path / name, name, data)
        run = (run_pnp if name in in_a_child else run_in_process)("check", str(game)).assert_clean(1)
        assert expected in run.output and LOCATED.search(run.output), (name, run.output)
    good_game = _sheet_game(tmp_path / "good", "good.xlsx", good)
    run_in_process("check", str(good_game)).assert_clean(0)


def test_data_export_keeps_text_text_and_refuses_what_no_cell_holds(tmp_path):
    """A field "=1+2" is text in the workbook (openpyxl made it a formula that reads back as nothing);
    a control character is a located error and nothing is written; an unwritable --to is a usage error."""
    from tests.test_content_errors import CARDS
    game = make_game(tmp_path, {"cards.yaml": CARDS.replace("fields: {", 'fields: {note: "=1+2", ')})
    target = tmp_path / "deck.xlsx"
    run_in_process("data", "export", str(game), "cards", "--to", str(target)).assert_clean(0)
    from python_calamine import CalamineWorkbook
    rows = CalamineWorkbook.from_path(str(target)).get_sheet_by_index(0).to_python()
    assert rows[1][rows[0].index("note")] == "=1+2", rows
    bad = make_game(tmp_path / "bad", {"cards.yaml": CARDS.replace("fields: {", 'fields: {note: "a\\x01b", ')})
    run = run_in_process("data", "export", str(bad), "cards", "--to", str(tmp_path / "bad.xlsx")).assert_clean(1)
    assert "cards.yaml:9:" in run.output and "control character U+0001" in run.output, run.output
    assert not (tmp_path / "bad.xlsx").exists()
    (tmp_path / "folder.csv").mkdir()
    run_in_process("data", "export", str(game), "cards", "--to", str(tmp_path / "folder.csv")).assert_clean(2)
    file = tmp_path / "file"
    file.write_text("x")
    run = run_in_process("data", "export", str(game), "cards", "--to", str(file / "deck.csv")).assert_clean(2)
    assert "cannot write it" in run.output, run.output


# ------------------------------------------------------------- --pdfx/--icc, --cut, pnp export tts

def test_icc_that_is_no_cmyk_output_profile_is_a_usage_error(tmp_path):
    """Not an ICC file, an RGB profile, a damaged CMYK profile, 17 MiB, a FIFO (it blocked the build),
    a missing file: each one usage error naming --icc, exit 2, and nothing written."""
    from PIL import ImageCms
    from generator.render.icc_profile import pnp_cmyk_profile
    game = make_game(tmp_path, {})
    profiles = {"text.icc": b"not an icc profile", "huge.icc": b"\0" * (17 << 20),
                "rgb.icc": ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes(),
                "damaged.icc": pnp_cmyk_profile()[:len(pnp_cmyk_profile()) // 2]}
    expected = {"text.icc": "not an ICC profile", "huge.icc": "at most 16 MB", "rgb.icc": "RGB colours",
                "damaged.icc": "cannot convert sRGB colours", "fifo.icc": "named pipe (FIFO)",
                "missing.icc": "No such file"}
    for name, data in profiles.items():
        (tmp_path / name).write_bytes(data)
    os.mkfifo(tmp_path / "fifo.icc")
    in_a_child = {"huge.icc", "fifo.icc"}      # its memory measured; a FIFO waited on would hang the test's process
    for name, words in expected.items():
        run = (run_pnp if name in in_a_child else run_in_process)(
            "build", str(game), "--pdfx", "1a", "--icc", str(tmp_path / name), "--out", str(tmp_path / "out"),
            "--paper", "a4", "--jobs", "1").assert_clean(2)
        assert f"--icc {tmp_path / name}" in run.output and words in run.output, (name, run.output)
    assert not (tmp_path / "out").exists()


def test_cut_with_gutterfold_is_a_usage_error(tmp_path):
    game = make_game(tmp_path, {})
    run = run_in_process("build", str(game), "--cut", "svg", "--layout", "gutterfold", "--out", str(tmp_path / "out"),
                  "--paper", "a4").assert_clean(2)
    assert "--layout duplex" in run.output and not (tmp_path / "out").exists()


def test_export_tts_out_not_a_folder(tmp_path):
    """--out naming a file, or a folder under a file: one message naming the path, exit 1 (was a traceback)."""
    game = make_game(tmp_path, {})
    file = tmp_path / "file"
    file.write_text("x")
    run_in_process("export", "tts", str(game), "--out", str(file)).assert_clean(2)
    run = run_in_process("export", "tts", str(game), "--out", str(file / "sub")).assert_clean(1)
    assert f"{file / 'sub'}: cannot write the export: Not a directory" in run.output, run.output
    assert file.read_text() == "x"
