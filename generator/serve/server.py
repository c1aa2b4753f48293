"""`pnp serve`'s HTTP side: a page, its status, face and page PNGs, server-sent events, a file watcher.

Bound to 127.0.0.1 only (the preview is the designer's, not the network's). Routes:

  GET /              the page (generator/serve/page.py)
  GET /status.json   {"build": n, "errors": [...], "faces": [url, ...], ...}; n grows with every rebuild
  GET /face/<digest>.png, /page/<id>.png   a face, a home file's page
  GET /events        server-sent events: `data: <build>` after every rebuild
  GET /select?game=&edition=&lang=&paper=  switch what is shown (rebuilds)

Connections, heads and their limits are bounded_http's (idle and slow clients cost no thread,
a fixed pool answers); here every request must name this server in its Host (127.0.0.1 or
localhost, on its port: DNS rebinding), and /events and /select refuse another page's requests
(Origin, Sec-Fetch-Site). An event stream writes a heartbeat every EVENT_HEARTBEAT_S and looks
for its client's close every EVENT_POLL_S: a closed tab frees its slot at once.

The watcher (watchfiles) sees every change under the game folder and the project's
templates and rebuilds at once (changes within 60 ms are taken together).
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from watchfiles import watch as watch_changes

from generator.serve.bounded_http import HEAD_TIMEOUT_S, BoundedHTTPServer, StrictRequestHandler, peer_closed
from generator.serve.page import PAGE
from generator.serve.session import PreviewSession, Refused

HOST = "127.0.0.1"
DEBOUNCE_MS = 60
EVENT_HEARTBEAT_S = 2.0        # a comment line on an idle stream: a closed one fails to take it
EVENT_POLL_S = 0.25            # how often an idle stream asks whether its client has closed it
REAPPEAR_POLL_S = 1.0          # how often a deleted game folder is looked for again
# DNS rebinding: a web page on evil.example may make its own name resolve to 127.0.0.1 and then
# read this server as "same origin"; the browser still sends Host: evil.example. Only the names
# this server is reached by locally are answered, with its own port.
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
LOCAL_HOST = re.compile(r"(127\.0\.0\.1|localhost)\.?(?::([0-9]{1,5}))?")
# A face is named by its 64-hex digest, a page by 20 hex digits and its index: nothing else is a
# name, so no request can name a file (../, %2e%2e, absolute paths never match).
FACE_NAME = re.compile(r"/face/([0-9a-f]{64})\.png")
PAGE_NAME = re.compile(r"/page/([0-9a-f]{20}-[0-9]{1,6})\.png")
MAX_EVENT_STREAMS = 16           # open /events connections (each holds a worker)
REQUEST_WORKERS = 8              # workers for every other request: streams never take them all


@dataclass(frozen=True)
class ServeClocks:
    """The server's own clocks, in seconds: how long a request's head may take to arrive, and how often an
    idle event stream is written a heartbeat. `pnp serve` runs with the defaults; a test lowers them to
    see the timeout and the heartbeat at work without waiting out the real ones."""

    head_timeout: float = HEAD_TIMEOUT_S
    heartbeat: float = EVENT_HEARTBEAT_S


def local_host(header: str | None, port: int) -> bool:
    """Whether a request's Host header names this server: the machine's loopback, on its port.

    A Host without a port is taken too (HTTP/1.0 tools send one): a browser leaves the port out
    only for port 80, so no page reaching this port through a browser can send it."""
    found = LOCAL_HOST.fullmatch(header.strip().lower()) if header else None
    return found is not None and (found.group(2) is None or int(found.group(2)) == port)


def foreign(headers, port: int) -> bool:
    """A request another page made (another site, or another port of this machine: a link, an image,
    a script's fetch): browsers say so in Sec-Fetch-Site or Origin. Such a request may neither
    switch the preview (/select) nor hold an event stream (/events)."""
    if headers.get("Sec-Fetch-Site", "").lower() in ("cross-site", "same-site"):
        return True
    origin = headers.get("Origin")
    if origin is None:
        return False          # not sent on a same-origin GET, nor by tools such as curl
    try:
        url = urlparse(origin)
        own_port = url.port or 80
    except ValueError:
        return True
    return not (url.scheme == "http" and url.hostname in LOCAL_HOSTS and own_port == port)


def status(session: PreviewSession) -> dict:
    snapshot = session.snapshot
    return {"build": snapshot.build, "errors": snapshot.errors, "warnings": snapshot.warnings,
            "faces": [url for _, url in snapshot.faces], "labels": [label for label, _ in snapshot.faces],
            "keys": snapshot.keys,
            "pages": [{"label": label, "url": url} for label, url in snapshot.pages],
            "choices": snapshot.choices, "selected": snapshot.selected, "seconds": snapshot.seconds}


SELECTABLE = ("game", "edition", "lang", "paper")


def make_handler(session: PreviewSession, stopping: threading.Event, heartbeat: float = EVENT_HEARTBEAT_S):
    streams = threading.BoundedSemaphore(MAX_EVENT_STREAMS)

    class Handler(StrictRequestHandler):
        server_version = "pnp-serve"
        server: BoundedHTTPServer

        def log_message(self, *args) -> None:    # the terminal shows rebuilds, not every request
            pass

        def do_GET(self) -> None:
            port = self.server.server_address[1]
            if not local_host(self.headers.get("Host"), port):
                self.send_text(421, f"pnp serve answers only to http://127.0.0.1:{port} or http://localhost:{port}")
                return
            url = urlparse(self.path)
            path = url.path
            face, page = FACE_NAME.fullmatch(path), PAGE_NAME.fullmatch(path)
            if path == "/":
                self.send_body(200, "text/html; charset=utf-8", PAGE.encode())
            elif path == "/status.json":
                self.send_body(200, "application/json", json.dumps(status(session)).encode())
            elif path == "/events":
                self._events_route(port)
            elif path == "/select":
                self._select(url.query, port)
            elif face or page:
                self._png(face, page, url.query)
            else:
                self.send_text(404, "not found")

        def _select(self, query: str, port: int) -> None:
            if foreign(self.headers, port):
                self.send_text(403, "another site's page may not switch the preview")
                return
            try:
                fields = parse_qs(query, max_num_fields=len(SELECTABLE) * 2)
            except ValueError:
                self.send_text(400, "/select takes game, edition, lang and paper")
                return
            session.request_select({key: values[-1] for key, values in fields.items() if key in SELECTABLE})
            self.send_body(202, "application/json", b"{}")

        def _png(self, face, page, query: str) -> None:
            vision = ""
            if face and query:       # ?vision=deuteranopia: the face as that eye sees it
                from generator.colour_vision import VIEWS     # (the engine: loaded by the first rebuild)
                try:
                    vision = parse_qs(query, max_num_fields=2).get("vision", [""])[-1]
                except ValueError:
                    vision = "?"
                if vision not in ("", *VIEWS[1:]):
                    self.send_text(400, f"vision is one of {', '.join(VIEWS[1:])}")
                    return
            try:
                data = session.face_png(face.group(1), vision or None) if face else session.page_png(page.group(1))
            except Refused as refused:        # said on the terminal too: the page shows a broken image
                print(f"pnp serve: {refused}", file=sys.stderr)
                self.send_text(403, str(refused))
                return
            except OSError:       # a file the face draws was deleted since: the next rebuild says so
                data = None
            if data is None:
                self.send_text(404, "no such face (rebuilt since?)")
            else:       # a URL is a digest of what it shows: it never changes
                self.send_body(200, "image/png", data, cache=True)

        def _events_route(self, port: int) -> None:
            if foreign(self.headers, port):
                self.send_text(403, "another site's page may not listen to this preview")
                return
            if not streams.acquire(blocking=False):
                self.send_text(503, "too many open event streams")
                return
            try:
                self._events()
            finally:          # a closed or failed stream frees its slot at once
                streams.release()

        def _events(self) -> None:
            """`data: <build>` after every rebuild, a heartbeat comment when idle, until the client
            goes (seen within EVENT_POLL_S, or at the first write that fails) or the server stops."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            seen, written = -1, 0.0
            try:
                while not stopping.is_set():
                    with session.changed:
                        if session.snapshot.build == seen:
                            session.changed.wait(EVENT_POLL_S)
                        build = session.snapshot.build
                    now = time.monotonic()
                    if build != seen or now - written >= heartbeat:
                        self.wfile.write(f"data: {build}\n\n".encode() if build != seen else b": heartbeat\n\n")
                        seen, written = build, now
                    elif peer_closed(self.connection):
                        return
            except OSError:           # a reset, a broken pipe, a client that stopped reading
                return

    return Handler


def watch(session: PreviewSession, folders: list[Path], stopping: threading.Event, on_rebuild) -> None:
    """Build once, then again after every change under `folders` until `stopping` is set.

    A watched folder that disappears (deleted, or swapped by a checkout) takes its inotify watch
    with it: the session then shows the error, waits for the folder to come back and watches
    it again from a fresh build."""

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
            changed = bool(changes)
            if not caught_up:
                # the watch only starts here: an edit saved while the first build ran (or while the
                # watch was being set up) raised no event, so compare the files with before it
                caught_up = True
                changed = changed or _stamp(folders) != seen
            if changed or gone:
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


def serve(session: PreviewSession, port: int, watched: list[Path], on_start, on_rebuild,
          clocks: ServeClocks = ServeClocks()) -> None:
    """Answer on 127.0.0.1:port at once (build 0 until the first build is done) and rebuild on
    every change until Ctrl-C."""
    stopping = threading.Event()
    server = BoundedHTTPServer((HOST, port), make_handler(session, stopping, clocks.heartbeat),
                               MAX_EVENT_STREAMS + REQUEST_WORKERS, clocks.head_timeout)
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
