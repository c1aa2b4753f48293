"""Where a command looks and writes: the game roots, the games named on the command line, the output folder.

The flags first, then the project file (pnp.yaml, generator/project.py), then content/ and output/ in the
current folder. Names typed on the command line become folders here, and the folders a command would write
into are refused here when writing there would harm the game.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from generator.cli_output import report_problems
from generator.errors import Problems, UsageError, printable
from generator.files import outside_link
from generator.project import Project, find_project, load_project

DEFAULT_CONTENT = "content"
DEFAULT_OUT = "output"


@dataclass(frozen=True)
class Where:
    """Where a command looks: the game roots (folders of game folders), the output, the project."""

    roots: tuple[Path, ...]
    out: Path
    project: Project | None = None

    @property
    def templates(self) -> Path | None:
        return self.project.templates if self.project else None


def locate(content_root: str | None, out: str | None, project_file: str | None) -> Where:
    """The flags first, then the project file (found from here upwards, or --project), then
    content/ and output/ in the current folder. Problems in pnp.yaml exit 1, located."""
    file = Path(project_file) if project_file else find_project(Path.cwd())
    project = None
    if file is not None:
        problems = Problems()
        project = load_project(file, problems)
        if problems.errors:
            report_problems(problems.items)
            click.echo(f"{len(problems.errors)} error(s) in the project file {file}", err=True)
            sys.exit(1)
    if content_root is not None:
        roots: tuple[Path, ...] = (Path(content_root),)
    elif project is not None:
        roots = project.games
    else:
        roots = (Path(DEFAULT_CONTENT),)
    output = Path(out) if out is not None else (project.output if project and project.output
                                               else (project.root / DEFAULT_OUT if project else Path(DEFAULT_OUT)))
    return Where(roots, output, project)


def find_games(content_root: Path) -> list[Path]:
    """The game folders (with a game.yaml) directly under a folder."""
    return sorted(p.parent for p in content_root.glob("*/game.yaml"))


def resolve_games(names: tuple[str, ...], content_root: Path | tuple[Path, ...]) -> list[Path]:
    """Game names under the game roots (content/, or a project's `games:`), or paths to game
    folders; none means every game. A root may itself be a game folder."""
    roots = (content_root,) if isinstance(content_root, Path) else tuple(content_root)

    def games_in(root: Path) -> list[Path]:
        return [root] if (root / "game.yaml").is_file() else find_games(root)
    if not names:
        games = [game for root in roots for game in games_in(root)]
        if not games:
            raise UsageError(f"no games found: no {' nor '.join(f'{root}/*/game.yaml' for root in roots)}; "
                             "name a game folder, or create one with `pnp new GAME`")
        return games
    folders = []
    for name in names:
        as_path = Path(name)
        found = [as_path] if (as_path / "game.yaml").is_file() else \
            [game for root in roots for game in games_in(root) if game.name == name]
        if not found:
            known = ", ".join(game.name for root in roots for game in games_in(root)) or "none"
            raise UsageError(f"no game '{name}': not a folder with game.yaml, nor a game under "
                             f"{', '.join(f'{root}/' for root in roots)} (games there: {known})")
        folders.append(found[0])
    resolved = [folder.resolve() for folder in folders]
    twice = [name for name, folder in zip(names, resolved, strict=True) if resolved.count(folder) > 1]
    if twice:                          # by name and by path alike: `pnp build sorry content/sorry`
        raise UsageError(f"the command names the game {printable(str(folders[names.index(twice[0])]))} more than "
                         f"once ({', '.join(repr(printable(name)) for name in twice)}): name each once")
    return folders


def one_game(game: str, content_root: str | None, project_file: str | None) -> tuple[Where, Path]:
    """The project's places and the folder of the one game a command names (a usage error if none)."""
    where = locate(content_root, None, project_file)
    try:
        return where, resolve_games((game,), where.roots)[0]
    except UsageError as error:
        raise click.UsageError(str(error)) from None


def refuse_output_inside(out: Path, folders: list[Path]) -> None:
    """An output folder inside a game would be read as part of the game: every build would see new input
    (never up to date), and the game's folder would grow by a build each time."""
    output = out.resolve()
    for folder in folders:
        game = folder.resolve()
        if output == game or game in output.parents:
            raise UsageError(f"the output folder {printable(str(out))} is inside the game folder "
                             f"{printable(str(folder))}: pnp would read its own output as the game's input; "
                             f"build into a folder outside the game (--out, or run pnp from the folder above: "
                             f"`cd .. && pnp build {printable(game.name)}`)")


def refuse_linked_folder(folder: Path, root: Path) -> None:
    """A folder pnp writes into by default (a game's schemas/) that is a link leading out of `root`:
    writing there would change files outside the game. Exit 1, with what to do."""
    linked = outside_link(folder, root)
    if linked is not None:
        click.echo(f"{printable(str(linked))}: is a link leading out of {printable(str(root))} (to "
                   f"{printable(os.path.realpath(linked))}): pnp does not write through it\n"
                   "    hint: remove the link (pnp makes the folder), or name the folder you mean with --out",
                   err=True)
        sys.exit(1)
