"""`pnp serve`'s transport: connections accepted, their request heads read within bounds, each request
answered by a fixed pool of threads. Takes a request handler class; gives a server to run.

One thread, the lobby, accepts connections and reads their request heads without blocking: a
connection costs a worker thread only once its whole head has arrived. An idle or slow client (a
tab left open, a port scanner, a slowloris attack) holds a file descriptor and nothing else; a head
not complete HEAD_TIMEOUT_S after connecting is answered 408 and closed, and at most
MAX_CONNECTIONS are open at once (the one that has waited longest makes room for a newcomer).
Writes to a client that stops reading give up after SEND_TIMEOUT_S.

The handler reads the head from memory and answers one request per connection (HTTP/1.0
style: the connection closes after the answer). It refuses what this server never takes: a
request line that is not `METHOD /PATH HTTP/1.x` (HTTP/0.9 and proxy requests included), a head over
MAX_HEAD_BYTES, two Host headers and any request body.
"""

from __future__ import annotations

import errno
import io
import re
import selectors
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from socketserver import BaseServer
from typing import Any

HEAD_TIMEOUT_S = 5.0          # from connecting to the head's blank line: a browser takes microseconds
SEND_TIMEOUT_S = 10.0         # one send to a client that does not read
MAX_HEAD_BYTES = 64 * 1024    # request line and headers (http.server's own line limit is 64 KiB)
LISTEN_BACKLOG = 128          # connections the kernel holds before the lobby accepts them
MAX_CONNECTIONS = 512         # open at once, waiting for their heads or being answered
FILES_KEPT_FREE = 128         # descriptors left for the builds a rebuild runs (fonts, art, PDFs)
TICK_S = 0.2                  # the longest the lobby sleeps: deadlines are kept to this

# The end of a head: a blank line (http.server takes bare LF line ends as well as CRLF).
_HEAD_END = re.compile(rb"\r?\n\r?\n")
# A request line after which headers follow; any other first line is the whole request (HTTP/0.9
# has no headers) and is answered, and refused, at once instead of waiting for a blank line.
_LINE_WITH_HEADERS = re.compile(rb"[^\r\n ]+ [^\r\n ]+ HTTP/[^\r\n ]+\r?\n")


@dataclass
class Arrival:
    """A connection accepted by the lobby and the bytes of its head read so far."""

    sock: socket.socket
    address: tuple
    deadline: float                              # monotonic time its head must be complete by
    head: bytearray = field(default_factory=bytearray)
    whole: bool = False                          # the head's end has been seen
    scanned: int = 0                             # where the search for the head's end goes on

    def complete(self) -> bool:
        """Whether the whole head has arrived (a blank line, or a first line no headers follow)."""
        if not self.whole:
            line_end = self.head.find(b"\n")
            if line_end >= 0 and not _LINE_WITH_HEADERS.match(self.head, 0, line_end + 1):
                self.whole = True
            elif line_end >= 0:      # (searched from where the last read ended: a slow client costs no rescans)
                self.whole = _HEAD_END.search(self.head, max(self.scanned - 3, 0)) is not None
            self.scanned = len(self.head)
        return self.whole


class BoundedHTTPServer(HTTPServer):
    """An HTTPServer whose lobby waits for request heads and whose `workers` threads answer them."""

    request_queue_size = LISTEN_BACKLOG

    def __init__(self, address: tuple[str, int], handler: type[StrictRequestHandler], workers: int,
                 head_timeout: float = HEAD_TIMEOUT_S):
        self.handler = handler
        self.head_timeout = head_timeout        # seconds (HEAD_TIMEOUT_S; a test lowers it to see it at work)
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="pnp-serve")
        self.max_connections = _connection_cap()
        self.waiting: dict[socket.socket, Arrival] = {}      # in order of arrival: the oldest first
        self.answering = 0                                   # connections handed to the pool
        self.answering_lock = threading.Lock()
        self.selector = selectors.DefaultSelector()
        self.closing = threading.Event()
        self.closed = threading.Event()
        self.serving = False
        super().__init__(address, handler)       # (binds: a port in use closes the server at once)

    # -- the lobby -----------------------------------------------------------------------------

    def serve_forever(self, poll_interval: float = TICK_S) -> None:
        """Accept, read heads and hand complete ones to the pool until `shutdown()` (or Ctrl-C)."""
        self.serving = True
        self.socket.setblocking(False)
        self.selector.register(self.socket, selectors.EVENT_READ)
        try:
            while not self.closing.is_set():
                for key, _ in self.selector.select(min(poll_interval, TICK_S)):
                    if key.fileobj is self.socket:
                        self._accept_all()
                    else:
                        self._read(key.data)
                self._expire(time.monotonic())
        finally:
            self.closed.set()

    def shutdown(self) -> None:
        """Stop the lobby (from another thread) and wait until it has stopped."""
        self.closing.set()
        if self.serving:
            self.closed.wait()

    def server_close(self) -> None:
        self.closing.set()
        for arrival in list(self.waiting.values()):
            self._drop(arrival)
        self.selector.close()
        self.pool.shutdown(wait=False, cancel_futures=True)
        super().server_close()

    def _accept_all(self) -> None:
        """Every connection the kernel holds (a burst of 300 is taken in one go)."""
        while True:
            try:
                sock, address = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:        # a client gone before it was accepted, or out of descriptors
                if error.errno not in (errno.EMFILE, errno.ENFILE):
                    continue
                if not self._make_room():
                    time.sleep(TICK_S)      # nothing waiting to close: let answers finish rather than spin
                    return
                continue
            if self._open() >= self.max_connections and not self._make_room():
                _brief_answer(sock, 503, "pnp serve is answering too many requests: try again in a moment")
                continue
            sock.setblocking(False)
            arrival = Arrival(sock, address, time.monotonic() + self.head_timeout)
            self.waiting[sock] = arrival
            self.selector.register(sock, selectors.EVENT_READ, arrival)

    def _open(self) -> int:
        with self.answering_lock:
            return len(self.waiting) + self.answering

    def _make_room(self) -> bool:
        """Close the connection that has waited longest for its head; False when none waits."""
        if not self.waiting:
            return False
        oldest = next(iter(self.waiting.values()))
        self._leave_lobby(oldest)
        _brief_answer(oldest.sock, 503, "pnp serve has too many connections open: this one waited longest")
        return True

    def _read(self, arrival: Arrival) -> None:
        try:        # never more than the head may hold: 512 waiting heads take at most 32 MiB
            data = arrival.sock.recv(MAX_HEAD_BYTES - len(arrival.head))
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:                         # the client went away before asking anything
            self._drop(arrival)
            return
        arrival.head += data
        if len(arrival.head) >= MAX_HEAD_BYTES or arrival.complete():
            self._hand_over(arrival)

    def _expire(self, now: float) -> None:
        """Answer 408 to, and close, every connection whose head is late (they are in arrival order)."""
        while self.waiting:
            oldest = next(iter(self.waiting.values()))
            if oldest.deadline > now:
                return
            self._leave_lobby(oldest)
            _brief_answer(oldest.sock, 408, f"the request did not arrive within {self.head_timeout:g} s")

    def _drop(self, arrival: Arrival) -> None:
        self._leave_lobby(arrival)
        arrival.sock.close()

    def _leave_lobby(self, arrival: Arrival) -> None:
        del self.waiting[arrival.sock]
        try:
            self.selector.unregister(arrival.sock)
        except (KeyError, ValueError):
            pass

    def _hand_over(self, arrival: Arrival) -> None:
        self._leave_lobby(arrival)
        arrival.sock.setblocking(True)
        arrival.sock.settimeout(SEND_TIMEOUT_S)
        with self.answering_lock:
            self.answering += 1
        try:
            self.pool.submit(self._answer, arrival)
        except RuntimeError:                 # the pool is shut down: the server is stopping
            self._finished(arrival)

    # -- the pool ------------------------------------------------------------------------------

    def _answer(self, arrival: Arrival) -> None:
        try:
            self.handler(arrival, arrival.address, self)     # (what finish_request does, with the Arrival)
        except Exception:
            self.handle_error(arrival.sock, arrival.address)
        finally:
            self._finished(arrival)

    def _finished(self, arrival: Arrival) -> None:
        self.shutdown_request(arrival.sock)
        with self.answering_lock:
            self.answering -= 1

    def handle_error(self, request, client_address) -> None:
        """A request that breaks off (a closed tab, a garbled request) is the client's business: one
        line on stderr instead of http.server's traceback."""
        error = sys.exc_info()[1]
        print(f"pnp serve: a request from {client_address[0]} failed: {type(error).__name__}: {error}",
              file=sys.stderr)


def _connection_cap() -> int:
    """MAX_CONNECTIONS, or fewer where the process may open fewer files (each connection is one)."""
    try:
        import resource
    except ImportError:              # Windows: no per-process limit to read
        return MAX_CONNECTIONS
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - FILES_KEPT_FREE))


def _brief_answer(sock: socket.socket, code: int, text: str) -> None:
    """A short plain-text answer written from the lobby without waiting (lost if the client does not
    read it), then the connection closed."""
    body = (text + "\n").encode()
    head = (f"HTTP/1.0 {code} {HTTPStatus(code).phrase}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    try:
        sock.setblocking(False)
        sock.send(head + body)
    except OSError:
        pass
    sock.close()


class _Writer(io.BufferedIOBase):
    """The connection as the handler's wfile: every write sent whole (within the socket's timeout)."""

    def __init__(self, sock: socket.socket):
        self._sock = sock

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self._sock.sendall(data)
        return len(data)


class StrictRequestHandler(BaseHTTPRequestHandler):
    """One request per connection, its head read from memory; a request this server never takes is
    refused before any route sees it. Subclasses add do_GET."""

    protocol_version = "HTTP/1.0"
    default_request_version = "HTTP/1.0"     # an error answered to a garbled request line has a status line
    raw_requestline: bytes                   # (set by BaseHTTPRequestHandler.handle_one_request)

    def __init__(self, request: Any, client_address: Any, server: BaseServer) -> None:
        """`request`: the Arrival whose head the server's lobby read (setup takes its socket)."""
        super().__init__(request, client_address, server)

    def setup(self) -> None:
        arrival: Arrival = self.request
        self.request = self.connection = arrival.sock
        self.head_complete = arrival.complete()
        self.head = bytes(arrival.head)
        self.rfile = io.BytesIO(self.head)
        self.wfile = _Writer(arrival.sock)

    def handle(self) -> None:
        self.close_connection = True
        self.command, self.requestline, self.request_version = "", "", self.default_request_version
        if not self.head_complete:
            too_long = b"\n" not in self.head
            self.send_text(414 if too_long else 431, f"the request's {'line' if too_long else 'headers'} "
                           f"exceed {MAX_HEAD_BYTES // 1024} KiB")
            return
        self.handle_one_request()

    def parse_request(self) -> bool:
        words = self.raw_requestline.split()
        if len(words) != 3:        # HTTP/0.9 (`GET /`) and worse: no version, no headers, no status line
            self.requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
            self.send_text(400, "a request line is METHOD PATH HTTP/1.0 or HTTP/1.1 (HTTP/0.9 is not answered)")
            return False
        if not super().parse_request():
            return False
        if not self.path.startswith("/"):     # `GET http://other.example/ …` names another host than Host does
            self.send_text(400, "a request names its path from / (this server is no proxy)")
            return False
        if len(self.headers.get_all("Host") or []) > 1:
            self.send_text(400, "two Host headers: a request names one host")
            return False
        refused = _body_refusal(self.headers)
        if refused is not None:
            self.send_text(*refused)
            return False
        return True

    def handle_expect_100(self) -> bool:
        return True                # no request takes a body: never invite one with 100 Continue

    def send_text(self, code: int, text: str) -> None:
        self.send_body(code, "text/plain; charset=utf-8", (text + "\n").encode())

    def send_body(self, code: int, kind: str, body: bytes, cache: bool = False) -> None:
        """The whole answer; `cache`: the URL names what it shows, forever (else never kept)."""
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=31536000, immutable" if cache else "no-store")
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


def _body_refusal(headers) -> tuple[int, str] | None:
    """Why a request's body is refused (every one is: no route takes a body), or None for none."""
    if headers.get_all("Transfer-Encoding"):
        return 413, "pnp serve takes no request body"
    lengths = headers.get_all("Content-Length") or []
    if not lengths:
        return None
    if len(lengths) > 1 or not lengths[0].strip().isdigit():
        return 400, "a malformed Content-Length"
    if int(lengths[0]) > 0:
        return 413, "pnp serve takes no request body"
    return None


def peer_closed(sock: socket.socket) -> bool:
    """Whether the client has closed its end (or reset it), asked without waiting; what it sent
    meanwhile is discarded (nothing is read from a connection after its head)."""
    timeout = sock.gettimeout()
    sock.settimeout(0)
    try:
        return not sock.recv(4096)
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        sock.settimeout(timeout)
