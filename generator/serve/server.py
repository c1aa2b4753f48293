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
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from generator.serve.page import PAGE
from generator.serve.session import PreviewSession

HOST = "127.0.0.1"
DEBOUNCE_MS = 60
EVENT_KEEPALIVE_S = 15


def status(session: PreviewSession) -> dict:
    snapshot = session.snapshot
    return {"build": snapshot.build, "errors": snapshot.errors, "warnings": snapshot.warnings,
            "faces": [url for _, url in snapshot.faces], "labels": [label for label, _ in snapshot.faces],
            "pages": [{"label": label, "url": url} for label, url in snapshot.pages],
            "choices": snapshot.choices, "selected": snapshot.selected, "seconds": snapshot.seconds}


def make_handler(session: PreviewSession, stopping: threading.Event):
    class Handler(BaseHTTPRequestHandler):
        server_version = "pnp-serve"

        def log_message(self, *args) -> None:    # the terminal shows rebuilds, not every request
            pass

        def do_GET(self) -> None:
            url = urlparse(self.path)
            path = url.path
            if path == "/":
                self._send(200, "text/html; charset=utf-8", PAGE.encode())
            elif path == "/status.json":
                self._send(200, "application/json", json.dumps(status(session)).encode(), cache=False)
            elif path == "/events":
                self._events()
            elif path == "/select":
                wanted = {key: values[-1] for key, values in parse_qs(url.query).items()}
                threading.Thread(target=session.select, kwargs=wanted, daemon=True).start()
                self._send(202, "application/json", b"{}", cache=False)
            elif path.startswith("/face/") and path.endswith(".png"):
                self._png(session.face_png(path[len("/face/"):-4]))
            elif path.startswith("/page/") and path.endswith(".png"):
                self._png(session.page_png(path[len("/page/"):-4]))
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


def watch(session: PreviewSession, folders: list[Path], stopping: threading.Event, on_rebuild) -> None:
    """Build once, then again after every change under `folders` until `stopping` is set."""
    from watchfiles import watch as watch_changes
    on_rebuild(session.rebuild())
    for _ in watch_changes(*folders, debounce=DEBOUNCE_MS, step=20, stop_event=stopping,
                           watch_filter=_not_output, raise_interrupt=False):
        on_rebuild(session.rebuild())


def _not_output(change, path: str) -> bool:
    """Editors' swap and backup files and the cache's own writes are not changes to the game."""
    name = Path(path).name
    return not (name.startswith(".") or name.endswith(("~", ".swp", ".tmp")) or "__pycache__" in path)


def serve(session: PreviewSession, port: int, watched: list[Path], on_start, on_rebuild) -> None:
    """Answer on 127.0.0.1:port at once (build 0 until the first build is done) and rebuild on
    every change until Ctrl-C."""
    stopping = threading.Event()
    server = ThreadingHTTPServer((HOST, port), make_handler(session, stopping))
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
