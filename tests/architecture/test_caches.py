"""generator/caches.py: memo tables owned by a Caches object, bounded, emptied on demand."""

from __future__ import annotations

import threading

import pytest

from generator.caches import Caches, active, cached

calls: list[int] = []


@cached("test.square", maxsize=2)
def square(value: int) -> int:
    calls.append(value)
    return value * value


@cached("test.file", maxsize=8, reads_files=True)
def file_bytes(path) -> bytes:
    return path.read_bytes()


def test_results_are_remembered_by_the_caches_in_force():
    calls.clear()
    with Caches().active() as caches:
        assert (square(3), square(3)) == (9, 9)
        assert calls == [3]
        assert caches.sizes() == {"test.square": 1}
    with Caches().active():           # another build context: its own, empty, tables
        square(3)
    assert calls == [3, 3]


def test_a_table_is_bounded():
    calls.clear()
    with Caches().active() as caches:
        for value in (1, 2, 3, 1):
            square(value)
        assert caches.sizes()["test.square"] == 2
    assert calls == [1, 2, 3, 1]          # 1 was the least recently used when 3 came


def test_files_changed_forgets_only_what_files_held(tmp_path):
    art = tmp_path / "art.svg"
    art.write_bytes(b"one")
    calls.clear()
    with Caches().active() as caches:
        square(4)
        assert file_bytes(art) == b"one"
        art.write_bytes(b"two")
        assert file_bytes(art) == b"one"      # remembered, as until the caller says files changed
        caches.files_changed()
        assert file_bytes(art) == b"two"
        square(4)
    assert calls == [4]


def test_each_thread_has_its_own_caches_outside_a_build():
    seen = []
    thread = threading.Thread(target=lambda: seen.append(active()))
    thread.start()
    thread.join()
    assert seen[0] is not active()


def test_a_cache_must_be_bounded():
    with pytest.raises(ValueError):
        cached("test.unbounded", maxsize=0)


def test_forget_empties_one_table_of_the_caches_in_force(tmp_path):
    art = tmp_path / "art.svg"
    art.write_bytes(b"one")
    calls.clear()
    with Caches().active() as caches:
        square(5)
        file_bytes(art)
        square.forget()
        assert caches.sizes() == {"test.file": 1, "test.square": 0}
        square(5)
    assert calls == [5, 5]
