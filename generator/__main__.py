"""The `pnp` console command (and `python -m generator`): the CLI with the contract's exit statuses.

Ctrl-C can come at any moment — while Python imports the engine, while click parses the
options, while a command runs — and always ends the same way: one line, exit status 130.
"""

from __future__ import annotations

import gc
import io
import os
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    import click

INTERRUPTED = 130          # 128 + SIGINT, as shells report it


def run() -> NoReturn:
    _quiet_pydantic_plugins()
    try:
        # imported inside the `try`: a Ctrl-C while Python imports the engine ends as any other
        from generator.heap import allocation_burst
        with allocation_burst():      # modules and classes: lasting objects, no garbage to collect
            import click
            from generator.cli import main
        code = main(standalone_mode=False)
    except KeyboardInterrupt:
        _interrupted()
    except Exception as error:      # click's own: usage errors, and the Abort a Ctrl-C becomes
        import click    # (imported above unless the import itself failed)
        if isinstance(error, click.exceptions.Abort):
            _interrupted()
        if isinstance(error, click.ClickException):
            _show_usage_error(error)
            sys.exit(error.exit_code)
        raise
    _leave(code if isinstance(code, int) else 0)


def _show_usage_error(error: click.ClickException) -> None:
    """Click's message, every line made printable: a usage error echoes what was typed, and an ESC in
    a --lang value would act on the terminal."""
    from generator.errors import printable      # (errors: only when there is one to show)
    shown = _Shown()
    error.show(file=shown)
    sys.stderr.write("\n".join(printable(line) for line in shown.getvalue().split("\n")))


class _Shown(io.StringIO):
    """What click shows, kept to be made printable: a terminal to click, which would otherwise take
    escape sequences out unseen (the escapes are what the user should see of what they typed)."""

    def isatty(self) -> bool:
        return True


def _quiet_pydantic_plugins() -> None:
    """pnp validates its own files with pydantic and has no use for pydantic plugins; looking for
    them reads the entry points of every installed distribution when the first model is built
    (~3 ms of each build's start). A PYDANTIC_DISABLE_PLUGINS the user set is left as it is."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def _leave(code: int) -> NoReturn:
    """Exit as Python does, once the command is done (the build context saved what it keeps as it ended).

    The standard streams are flushed first: into a closed pipe (pnp build | head) there is nothing more
    to say, and the interpreter's own flush at exit would print a traceback and exit 120. And what is
    still alive is set aside from the collector (gc.freeze, as the build does: generator/heap.py): the
    exit's own collections walked every lasting object of the build to find no garbage, 0.19 s of CPU
    after a 1,000-card build (an eighth of it); set aside, leaving costs 0.02 s more than os._exit did."""
    gc.freeze()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            try:       # what is left unwritten goes nowhere, so the exit's flush finds nothing to fail on
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
            except (OSError, ValueError):
                pass
    sys.exit(code)


def _interrupted() -> NoReturn:
    sys.stderr.write("\ninterrupted: files already in place were left as they were\n")
    sys.exit(INTERRUPTED)


if __name__ == "__main__":
    run()
