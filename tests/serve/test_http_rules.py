"""The rules `pnp serve` answers by, as tables: which Host names it, which page is foreign, when a
request head is complete, which bodies are refused. (tests/robustness/test_serve_bounds.py sends
the same over the wire to a real server.)"""

from __future__ import annotations

import socket
from email.message import Message

import pytest

from generator.serve.bounded_http import HEAD_TIMEOUT_S, LISTEN_BACKLOG, Arrival, _body_refusal
from generator.serve.server import foreign, local_host

PORT = 8765


@pytest.mark.parametrize("host, answered", [
    (f"127.0.0.1:{PORT}", True), (f"localhost:{PORT}", True), (f"LOCALHOST:{PORT}", True),
    (f"localhost.:{PORT}", True), ("127.0.0.1", True), ("localhost", True),
    ("127.0.0.1:1", False), (f"127.0.0.1:{PORT}0", False), ("localhost:99999", False),
    ("evil.example", False), (f"evil.example:{PORT}", False), (f"127.0.0.1.evil.example:{PORT}", False),
    ("", False), (None, False), (f"localhost:{PORT}@evil.example", False), ("[::1]", False),
])
def test_host_names_this_server(host, answered):
    assert local_host(host, PORT) is answered


def _headers(**fields: str) -> Message:
    message = Message()
    for name, value in fields.items():
        message[name.replace("_", "-")] = value
    return message


@pytest.mark.parametrize("fields, is_foreign", [
    ({}, False),
    ({"Sec_Fetch_Site": "same-origin"}, False),
    ({"Sec_Fetch_Site": "none"}, False),                    # typed into the address bar
    ({"Origin": f"http://127.0.0.1:{PORT}"}, False),
    ({"Origin": f"http://localhost:{PORT}"}, False),
    ({"Sec_Fetch_Site": "cross-site"}, True),
    ({"Sec_Fetch_Site": "same-site"}, True),                # another port of this machine
    ({"Origin": "null"}, True),                             # a sandboxed frame, a file:// page
    ({"Origin": "http://evil.example"}, True),
    ({"Origin": "http://localhost:3000"}, True),
    ({"Origin": f"https://127.0.0.1:{PORT}"}, True),
    ({"Origin": "http://127.0.0.1:notaport"}, True),
    ({"Origin": f"http://127.0.0.1:{PORT}", "Sec_Fetch_Site": "cross-site"}, True),
])
def test_foreign_pages(fields, is_foreign):
    assert foreign(_headers(**fields), PORT) is is_foreign


@pytest.mark.parametrize("chunks, complete", [
    ([b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"], True),
    ([b"GET / HTTP/1.1\nHost: x\n\n"], True),
    ([b"GET / HTTP/1.1\r\nHost: x\r\n"], False),
    ([b"GET / HTTP/1.1\r\nHo", b"st: x\r", b"\n", b"\r", b"\n"], True),      # the blank line split over reads
    ([b"GET / HTT"], False),
    ([b"GET /\r\n"], True),                     # HTTP/0.9: no headers follow, answered (refused) at once
    ([b"\x16\x03\x01\x00\r\n"], True),          # a TLS hello or other garbage: the same
    ([b"GET / HTTP/1.1 x\r\n"], True),
])
def test_head_complete(chunks, complete):
    left, right = socket.socketpair()
    try:
        arrival = Arrival(left, ("127.0.0.1", 0), 0.0)
        for chunk in chunks:
            arrival.head += chunk
            arrival.complete()
        assert arrival.complete() is complete
        assert arrival.complete() is complete       # asked again (the handler does): the same
    finally:
        left.close()
        right.close()


@pytest.mark.parametrize("fields, refused", [
    ({}, None), ({"Content_Length": "0"}, None),
    ({"Content_Length": "1"}, 413), ({"Content_Length": "20000000"}, 413),
    ({"Transfer_Encoding": "chunked"}, 413),
    ({"Content_Length": "-1"}, 400), ({"Content_Length": "ten"}, 400),
])
def test_bodies_refused(fields, refused):
    found = _body_refusal(_headers(**fields))
    assert (found and found[0]) == refused


def test_two_content_lengths_refused():
    message = _headers(Content_Length="0")
    message["Content-Length"] = "5"
    assert _body_refusal(message)[0] == 400


def test_limits_are_the_issues():
    """A few seconds for a request head; a listen backlog that takes a burst (issue 26 asked for 128)."""
    assert 1 <= HEAD_TIMEOUT_S <= 5
    assert LISTEN_BACKLOG >= 128
