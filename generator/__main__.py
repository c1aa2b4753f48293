"""The `pnp` console command (and `python -m generator`): the CLI with the contract's exit statuses.

Ctrl-C can come at any moment — while Python imports the engine, while click parses the
options, while a command runs — and always ends the same way: one line, exit status 130.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130          # 128 + SIGINT, as shells report it


def run() -> None:
    _quiet_pydantic_plugins()
    try:
        from generator.heap import allocation_burst
        with allocation_burst():      # modules and classes: lasting objects, no garbage to collect
            import click
            from generator.cli import main
        code = main(standalone_mode=False)
    except KeyboardInterrupt:
        _interrupted()
    except Exception as error:      # click's own: usage errors, and the Abort a Ctrl-C becomes
        import click
        if isinstance(error, click.exceptions.Abort):
            _interrupted()
        if isinstance(error, click.ClickException):
            # a usage error echoes what was typed: an ESC in a --lang value would act on the terminal
            from generator.errors import printable
            error.message = "\n".join(printable(line) for line in error.message.split("\n"))
            error.show()
            sys.exit(error.exit_code)
        raise
    _leave(code if isinstance(code, int) else 0)


def _quiet_pydantic_plugins() -> None:
    """pnp validates its own files with pydantic and has no use for pydantic plugins; looking for
    them reads the entry points of every installed distribution when the first model is built
    (~3 ms of each build's start). A PYDANTIC_DISABLE_PLUGINS the user set is left as it is."""
    import os
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def _leave(code: int) -> None:
    """Exit once the command is done, without tearing the interpreter down: freeing every object a
    build made one by one cost 7 % of a 1,000-card build's CPU, for nothing (mypy's fast exit does
    the same). What teardown would still do that matters is done here: the atexit handlers
    (the layout cache is saved by one) and the standard streams flushed. Under a profiler or a
    tracer (cProfile, coverage), which write their results after the program, the usual exit."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)
    import atexit
    import os
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):     # a closed pipe (pnp build | head): nothing more to say
            pass
    os._exit(code)


def _interrupted() -> None:
    sys.stderr.write("\ninterrupted: files already in place were left as they were\n")
    sys.exit(INTERRUPTED)


if __name__ == "__main__":
    run()
