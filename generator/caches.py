"""The memo tables of a build: every cache pnp keeps in memory, owned by one `Caches` object.

A stage that wants a pure function remembered decorates it with `cached(name, maxsize)`; the
table itself is not kept by the module but by the `Caches` in force (`active()`), which the build
context (generator/context.py) creates and puts in force for a build, and a long-lived process
(`pnp serve`) keeps from one rebuild to the next. So:

- every table is bounded (a `maxsize` is required);
- every table can be emptied at once (`Caches.clear`), one at a time (`forget` on the function), or
  only those that remember what files held (`Caches.files_changed`, marked `reads_files=True`):
  `pnp serve` calls it when the game changes, so an SVG edited in place is read again;
- a test, a worker process or a second build in the same process can start from empty tables
  (`with Caches().active(): ...`) instead of reaching into module globals.

Each table is a C `functools.lru_cache` made for that `Caches` object: a hit costs what a module
`lru_cache` cost, plus one context-variable lookup. Outside any build the caches of the current
thread are used (one `Caches` a thread, made on first use), so the stages can be called directly.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class _Table:
    """What a decorated function asks of each `Caches`: its table's name, size and kind."""
    name: str
    maxsize: int
    reads_files: bool


class Caches:
    """The memo tables of one build context, by name."""

    def __init__(self) -> None:
        self._tables: dict[str, tuple[_Table, Any]] = {}

    def table(self, table: _Table, function: Callable[..., Any]) -> functools._lru_cache_wrapper[Any]:
        """The remembering version of `function` for these caches (made on first use)."""
        try:
            return self._tables[table.name][1]
        except KeyError:
            remembering = functools.lru_cache(maxsize=table.maxsize)(function)
            self._tables[table.name] = (table, remembering)
            return remembering

    def clear(self) -> None:
        """Forget everything remembered."""
        for _, remembering in self._tables.values():
            remembering.cache_clear()

    def files_changed(self) -> None:
        """Forget what was remembered of files (their bytes, digests, drawings): they may have changed."""
        for table, remembering in self._tables.values():
            if table.reads_files:
                remembering.cache_clear()

    def sizes(self) -> dict[str, int]:
        """How many entries each table holds (for tests and `--debug` reports)."""
        return {name: remembering.cache_info().currsize for name, (_, remembering) in sorted(self._tables.items())}

    @contextmanager
    def active(self) -> Iterator[Caches]:
        """These caches in force for the stages called inside the `with`."""
        token = _ACTIVE.set(self)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)


# The one piece of module state: which Caches is in force. A context variable, so each thread
# (and each asyncio task) sees its own, and `Caches.active` restores the previous one on leaving.
_ACTIVE: contextvars.ContextVar[Caches] = contextvars.ContextVar("pnp_caches")


def active() -> Caches:
    """The caches in force: the build's, or else this thread's own (made on first use)."""
    try:
        return _ACTIVE.get()
    except LookupError:
        caches = Caches()
        _ACTIVE.set(caches)
        return caches


class Cached(Generic[P, R]):
    """A function whose results are remembered in the active caches' table `name`."""

    def __init__(self, function: Callable[P, R], table: _Table) -> None:
        self._function = function
        self._table = table
        functools.update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        caches = _ACTIVE.get(None) or active()
        try:              # the common case inlined: the hot text functions are called ~15,000 times a deck
            remembering: Callable[..., R] = caches._tables[self._table.name][1]
        except KeyError:
            remembering = caches.table(self._table, self._function)
        return remembering(*args, **kwargs)

    def forget(self) -> None:
        """Empty this function's table in the caches in force (what only one stage needed, released)."""
        caches = _ACTIVE.get(None) or active()
        caches.table(self._table, self._function).cache_clear()

    def uncached(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """The function itself, computed afresh and not remembered."""
        return self._function(*args, **kwargs)


def cached(name: str, maxsize: int, reads_files: bool = False) -> Callable[[Callable[P, R]], Cached[P, R]]:
    """Remember the decorated function's results in the active caches' table `name` (at most `maxsize`).
    `reads_files`: its results depend on what files hold (emptied by `Caches.files_changed`)."""
    if maxsize <= 0:
        raise ValueError("a cache needs a positive maxsize")

    def decorate(function: Callable[P, R]) -> Cached[P, R]:
        return Cached(function, _Table(name, maxsize, reads_files))
    return decorate
