"""The newer commands attacked with bad input: `pnp serve`, `pnp i18n export/import`, spreadsheets
(`cards_from:`, `pnp data export`), `pnp build --pdfx/--icc/--cut` and `pnp export tts`.

Each case runs pnp in its own process (tests/robustness/harness.py: no traceback, the expected exit
status, within the time and memory budget) on a tiny synthetic game, and checks the one located
message a user reads, that nothing outside the game is read, and that nothing is half-written.
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

from tests.robustness.harness import run_pnp
from tests.test_content_errors import make_game

LOCATED = re.compile(r"^\S+:\d+(:\d+)?: .+\n    hint: .+", re.M)


def _font_cache(cache: Path) -> Path:
    """A private cache folder holding only the shared font instances (slow to make), so each
    served game starts cold but no test waits for a bold instance."""
    fonts = Path(os.environ.get("PNP_CACHE_DIR") or Path.home() / ".cache" / "pnp") / "fonts"
    if fonts.is_dir() and not (cache / "fonts").exists():
        shutil.copytree(fonts, cache / "fonts")
    return cache


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
