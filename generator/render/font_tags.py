"""Give every embedded font subset of a finished PDF its own subset tag (ISO 32000-1 §9.6.4).

ReportLab names the subsets of each font AAAAAA+, AAAAAB+ … afresh in every file, so a
file made of several (the kit with its rulebook booklet) holds many different subsets
all called `AAAAAA+Nunito-…`, which print-shop RIPs may mix up. Each subset's tag is
derived here from what the subset holds (its font dictionary, widths, character map and
font program) and its place in the file, so identical input still gives identical bytes.

The tags are rewritten in place, six letters for six letters: no object moves, and the
cross-reference table stays right. Only files with a classic cross-reference table
(what ReportLab and pdfium write) are read; others are returned unchanged.
"""

from __future__ import annotations

import hashlib
import re

_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_SUBSECTION = re.compile(rb"(\d+)\s+(\d+)\s*[\r\n]+")
_BASE_FONT = re.compile(rb"/BaseFont\s*/([A-Z]{6})\+")
_FONT_NAME = re.compile(rb"/FontName\s*/([A-Z]{6})\+")
_REFERENCE = rb"/%s\s+(\d+)\s+0\s+R"
_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def subset_tags(pdf: bytes) -> list[tuple[bytes, bytes]]:
    """(tag, font name) of every subset font dictionary in the file, in object order (tests read this)."""
    objects = _objects(pdf)
    found = []
    for number in sorted(objects):
        body = _body(pdf, objects, number)
        match = re.search(rb"/BaseFont\s*/([A-Z]{6})\+([^\s/<>\[\]()]+)", body)
        if match and b"/Type" in body and re.search(rb"/Type\s*/Font\b", body):
            found.append((match.group(1), match.group(2)))
    return found


def distinct_subset_tags(pdf: bytes) -> bytes:
    """The same PDF with a different tag for every subset font (and its descriptor), derived from its content."""
    objects = _objects(pdf)
    if not objects:
        return pdf
    out = bytearray(pdf)
    used: set[bytes] = set()
    retagged: dict[int, bytes] = {}         # descriptor object → the tag it was given
    for number in sorted(objects):
        body = _body(pdf, objects, number)
        base = _BASE_FONT.search(body)
        if base is None or not re.search(rb"/Type\s*/Font\b", body):
            continue
        descriptor = _reference(body, b"FontDescriptor")
        if descriptor in retagged:          # two dictionaries of one subset keep one tag
            tag = retagged[descriptor]
        else:
            tag = _new_tag(_subset_digest(pdf, objects, body, descriptor), used)
        _put(out, objects[number] + base.start(1), tag)
        if descriptor is not None and descriptor in objects and descriptor not in retagged:
            name = _FONT_NAME.search(_body(pdf, objects, descriptor))
            if name is not None:
                _put(out, objects[descriptor] + name.start(1), tag)
            retagged[descriptor] = tag
    return bytes(out)


def _new_tag(digest: bytes, used: set[bytes]) -> bytes:
    """Six capitals from the digest; the next digest in line when a tag is taken (identical subsets too)."""
    while True:
        value = int.from_bytes(digest[:8], "big")
        tag = bytes(_LETTERS[(value // 26 ** i) % 26] for i in range(6))
        if tag not in used:
            used.add(tag)
            return tag
        digest = hashlib.sha256(digest).digest()


def _subset_digest(pdf: bytes, objects: dict[int, int], body: bytes, descriptor: int | None) -> bytes:
    """What identifies a subset: its dictionary without the old tag, its ToUnicode map and font program."""
    digest = hashlib.sha256(_BASE_FONT.sub(b"/BaseFont/", body))
    parts = [_reference(body, b"ToUnicode")]
    if descriptor is not None and descriptor in objects:
        described = _body(pdf, objects, descriptor)
        parts += [_reference(described, name) for name in (b"FontFile2", b"FontFile", b"FontFile3")]
    for number in parts:
        if number is not None and number in objects:
            digest.update(_body(pdf, objects, number))
    return digest.digest()


def _put(out: bytearray, at: int, tag: bytes) -> None:
    out[at:at + 6] = tag


def _reference(body: bytes, key: bytes) -> int | None:
    match = re.search(_REFERENCE % key, body)
    return int(match.group(1)) if match else None


def _body(pdf: bytes, objects: dict[int, int], number: int) -> bytes:
    """An object's text from its `N 0 obj` to its `endobj` (a stream's data included)."""
    start = objects[number]
    end = pdf.find(b"endobj", start)
    return pdf[start:end if end >= 0 else len(pdf)]


def _objects(pdf: bytes) -> dict[int, int]:
    """Object number → byte offset, from the file's last classic cross-reference table ({} if none)."""
    tail = _STARTXREF.search(pdf[-64:])
    if tail is None:
        return {}
    position = int(tail.group(1))
    if pdf[position:position + 4] != b"xref":
        return {}
    objects: dict[int, int] = {}
    position += 4
    while True:
        while pdf[position:position + 1] in (b" ", b"\r", b"\n"):
            position += 1
        header = _SUBSECTION.match(pdf, position)
        if header is None:
            break
        first, count = int(header.group(1)), int(header.group(2))
        position = header.end()
        for index in range(count):
            entry = pdf[position:position + 20]
            offset, kind = entry[:10], entry[17:18]
            if kind == b"n" and int(offset):
                objects[first + index] = int(offset)
            position += 20
    return {number: offset for number, offset in objects.items()
            if re.match(rb"\d+\s+\d+\s+obj", pdf[offset:offset + 24])}
