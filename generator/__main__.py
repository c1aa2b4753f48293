"""The `pnp` console command (and `python -m generator`): the CLI with the contract's exit statuses.

Ctrl-C can come at any moment — while Python imports the engine, while click parses the
options, while a command runs — and always ends the same way: one line, exit status 130.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130          # 128 + SIGINT, as shells report it


def run() -> None:
    try:
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
            error.show()
            sys.exit(error.exit_code)
        raise
    sys.exit(code if isinstance(code, int) else 0)


def _interrupted() -> None:
    sys.stderr.write("\ninterrupted: files already in place were left as they were\n")
    sys.exit(INTERRUPTED)


if __name__ == "__main__":
    run()
