"""`pnp serve [GAME] [--port 8000]`: find the game, start the preview session and the server."""

from __future__ import annotations

import errno
import hashlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cache_folder import cache_root
from generator.errors import UsageError

if TYPE_CHECKING:
    from generator.serve.server import ServeClocks
    from generator.serve.session import Snapshot


def serve_command(games: list[Path], edition: str | None, lang: str | None, paper: str, port: int,
                  templates: Path | None, clocks: ServeClocks | None = None) -> None:
    """Serve the first of `games` (the page switches between all of them) until Ctrl-C; `clocks`: the
    server's timeout and heartbeat (None: its own, as `pnp serve` runs)."""
    # the HTTP server, the watcher and the session's build context: loaded when serving, not by `pnp --help`
    from generator.serve.server import ServeClocks, serve
    from generator.serve.session import PreviewSession, Selection
    if not games:
        raise UsageError("no game to serve: name a game folder (pnp serve GAME)")
    game = games[0]
    out = cache_root() / "serve" / hashlib.sha256(str(game.resolve()).encode()).hexdigest()[:16]
    session = PreviewSession(games, Selection(game, edition, lang, paper), templates, out)
    watched = sorted({folder.resolve() for folder in games} | ({templates.resolve()} if templates else set()))

    def started(url: str) -> None:
        click.echo(f"serving {game.name} at {url} (Ctrl-C to stop)")
        sys.stdout.flush()

    def rebuilt(snapshot: Snapshot) -> None:
        state = f"{len(snapshot.errors)} error(s)" if snapshot.errors else f"{len(snapshot.faces)} faces"
        click.echo(f"build {snapshot.build}: {state} in {snapshot.seconds:.2f} s")
        sys.stdout.flush()
    try:
        serve(session, port, watched, started, rebuilt, clocks or ServeClocks())
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} is in use on 127.0.0.1: choose another (--port), "
                             "or 0 for any free one") from None
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}: choose another port "
                         "(--port; ports under 1024 need administrator rights), or 0 for any free one") from None
