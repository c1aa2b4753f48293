"""`pnp serve`'s HTTP side: a page, its status, face and page PNGs, server-sent events, a file watcher.

Bound to 127.0.0.1 only (the preview is the designer's, not the network's). Routes:

  GET /              the page (generator/serve/page.py)
  GET /status.json   {"build": n, "errors": [...], "faces": [url, ...], ...}; n grows with every rebuild
  GET /face/<digest>.png, /page/<id>.png   a face, a home file's page
  GET /events        server-sent events: `data: <build>` after every rebuild
  GET /select?game=&edition=&lang=&paper=  switch what is shown (rebuilds)

The watcher (watchfiles) sees every change under the game folder and the project's
templates and rebuilds at once (changes within 60 ms are taken together).
"""

from __future__ import annotations

import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from generator.serve.page import PAGE
from generator.serve.session import PreviewSession

HOST = "127.0.0.1"
DEBOUNCE_MS = 60
EVENT_KEEPALIVE_S = 15
REAPPEAR_POLL_S = 1.0          # how often a deleted game folder is looked for again
# DNS rebinding: a web page on evil.example may make its own name resolve to 127.0.0.1 and then
# read this server as "same origin"; the browser still sends Host: evil.example. Only the names
# this server is reached by locally are answered.
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
LOCAL_HOST = re.compile(r"(127\.0\.0\.1|localhost)\.?(:[0-9]{1,5})?")
# A face is named by its 64-hex digest, a page by 20 hex digits and its index: nothing else is a
# name, so no request can name a file (../, %2e%2e, absolute paths never match).
FACE_NAME = re.compile(r"/face/([0-9a-f]{64})\.png")
PAGE_NAME = re.compile(r"/page/([0-9a-f]{20}-[0-9]{1,6})\.png")
MAX_EVENT_STREAMS = 16           # open /events connections (each holds a thread)


def local_host(header: str | None) -> bool:
    """Whether a request's Host header names this machine's loopback (with or without the port)."""
    return bool(header) and LOCAL_HOST.fullmatch(header.strip().lower()) is not None


def cross_site(headers) -> bool:
    """A request another web site's page made (a link, an image, a script's fetch): browsers say so in
    Sec-Fetch-Site or Origin. Such a request may not switch the preview (/select)."""
    if headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        return True
    origin = headers.get("Origin")
    if origin is None or origin == "null":
        return origin == "null"
    host = urlparse(origin).hostname or ""
    return host not in LOCAL_HOSTS


def status(session: PreviewSession) -> dict:
    snapshot = session.snapshot
    return {"build": snapshot.build, "errors": snapshot.errors, "warnings": snapshot.warnings,
            "faces": [url for _, url in snapshot.faces], "labels": [label for label, _ in snapshot.faces],
            "pages": [{"label": label, "url": url} for label, url in snapshot.pages],
            "choices": snapshot.choices, "selected": snapshot.selected, "seconds": snapshot.seconds}


SELECTABLE = ("game", "edition", "lang", "paper")


def make_handler(session: PreviewSession, stopping: threading.Event):
    streams = threading.BoundedSemaphore(MAX_EVENT_STREAMS)

    class Handler(BaseHTTPRequestHandler):
        server_version = "pnp-serve"

        def log_message(self, *args) -> None:    # the terminal shows rebuilds, not every request
            pass

        def do_GET(self) -> None:
            if not local_host(self.headers.get("Host")):
                self._send(421, "text/plain", b"pnp serve answers only to http://127.0.0.1 or http://localhost",
                           cache=False)
                return
            url = urlparse(self.path)
            path = url.path
            face, page = FACE_NAME.fullmatch(path), PAGE_NAME.fullmatch(path)
            if path == "/":
                self._send(200, "text/html; charset=utf-8", PAGE.encode())
            elif path == "/status.json":
                self._send(200, "application/json", json.dumps(status(session)).encode(), cache=False)
            elif path == "/events":
                if not streams.acquire(blocking=False):
                    self._send(503, "text/plain", b"too many open event streams", cache=False)
                    return
                try:
                    self._events()
                finally:
                    streams.release()
            elif path == "/select":
                if cross_site(self.headers):
                    self._send(403, "text/plain", b"another site may not switch the preview", cache=False)
                    return
                try:
                    fields = parse_qs(url.query, max_num_fields=len(SELECTABLE) * 2)
                except ValueError:
                    self._send(400, "text/plain", b"/select takes game, edition, lang and paper", cache=False)
                    return
                wanted = {key: values[-1] for key, values in fields.items() if key in SELECTABLE}
                session.request_select(wanted)
                self._send(202, "application/json", b"{}", cache=False)
            elif face or page:
                try:
                    data = session.face_png(face.group(1)) if face else session.page_png(page.group(1))
                except OSError:       # a file the face draws was deleted since: the next rebuild says so
                    data = None
                self._png(data)
            else:
                self._send(404, "text/plain", b"not found", cache=False)

        def _png(self, data: bytes | None) -> None:
            if data is None:
                self._send(404, "text/plain", b"no such face (rebuilt since?)", cache=False)
            else:       # a URL is a digest of what it shows: it never changes
                self._send(200, "image/png", data, cache=True)

        def _send(self, code: int, kind: str, body: bytes, cache: bool = False) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "max-age=31536000, immutable" if cache else "no-store")
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _events(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            seen = -1
            try:
                while not stopping.is_set():
                    with session.changed:
                        if session.snapshot.build == seen:
                            session.changed.wait(EVENT_KEEPALIVE_S)
                        build = session.snapshot.build
                    message = f"data: {build}\n\n" if build != seen else ": keep-alive\n\n"
                    seen = build
                    self.wfile.write(message.encode())
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError, OSError):
                return

    return Handler


class _QuietServer(ThreadingHTTPServer):
    """A request that breaks off (a closed tab, a garbled request) is the client's business: one
    line on stderr instead of http.server's traceback."""

    def handle_error(self, request, client_address) -> None:
        error = sys.exc_info()[1]
        print(f"pnp serve: a request from {client_address[0]} failed: {type(error).__name__}: {error}",
              file=sys.stderr)


def watch(session: PreviewSession, folders: list[Path], stopping: threading.Event, on_rebuild) -> None:
    """Build once, then again after every change under `folders` until `stopping` is set.

    A watched folder that disappears (deleted, or swapped by a checkout) takes its inotify watch
    with it: the session then shows the error, waits for the folder to come back and watches
    it again from a fresh build."""
    from watchfiles import watch as watch_changes

    def rebuild() -> None:          # whatever one rebuild meets, the watcher lives on
        try:
            on_rebuild(session.rebuild())
        except Exception as error:
            print(f"pnp serve: rebuild failed: {type(error).__name__}: {error}", file=sys.stderr)
    seen = _stamp(folders)
    rebuild()
    missing_shown = False            # the session has shown the folder's absence
    while not stopping.is_set():
        if not all(folder.is_dir() for folder in folders):
            if not missing_shown:
                rebuild()
                missing_shown = True
            if stopping.wait(REAPPEAR_POLL_S):
                return
            if all(folder.is_dir() for folder in folders):
                rebuild()
            continue
        missing_shown = False
        caught_up = False
        for changes in watch_changes(*folders, debounce=DEBOUNCE_MS, step=20, stop_event=stopping,
                                     watch_filter=_not_output, raise_interrupt=False,
                                     rust_timeout=int(REAPPEAR_POLL_S * 1000), yield_on_timeout=True):
            gone = not all(folder.is_dir() for folder in folders)
            if not caught_up:
                # the watch only starts here: an edit saved while the first build ran (or while the
                # watch was being set up) raised no event, so compare the files with before it
                caught_up = True
                changes = changes or (_stamp(folders) != seen)
            if changes or gone:
                rebuild()
            if gone:
                missing_shown = True
                break


def _stamp(folders: list[Path]) -> frozenset:
    """Every watched file's path, size and time: what a missed event would have changed."""
    found = set()
    for folder in folders:
        for path in folder.rglob("*") if folder.is_dir() else ():
            if _not_output(None, str(path)):
                try:
                    info = path.stat()
                except OSError:
                    continue
                found.add((str(path), info.st_size, info.st_mtime_ns))
    return frozenset(found)


def _not_output(change, path: str) -> bool:
    """Editors' swap and backup files and the cache's own writes are not changes to the game."""
    name = Path(path).name
    return not (name.startswith(".") or name.endswith(("~", ".swp", ".tmp")) or "__pycache__" in path)


def serve(session: PreviewSession, port: int, watched: list[Path], on_start, on_rebuild) -> None:
    """Answer on 127.0.0.1:port at once (build 0 until the first build is done) and rebuild on
    every change until Ctrl-C."""
    stopping = threading.Event()
    server = _QuietServer((HOST, port), make_handler(session, stopping))
    server.daemon_threads = True
    watcher = threading.Thread(target=watch, args=(session, watched, stopping, on_rebuild), daemon=True)
    watcher.start()
    on_start(f"http://{HOST}:{server.server_address[1]}/")
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        stopping.set()
        with session.changed:
            session.changed.notify_all()
        server.server_close()
