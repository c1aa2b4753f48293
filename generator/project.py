"""Where things are: a project's `pnp.yaml`, and the data folders shipped inside the package.

A project file is optional. At a project's root it says where its games are, the output
folder, the default papers, languages and editions, its own shared templates, and named
printer profiles (back offset, margin, duplex) picked with `pnp build --printer NAME`:

    games: [games]                 # folders of game folders (or game folders), relative to this file
    templates: templates           # the project's shared templates (after a game's own, before pnp's)
    output: output
    papers: [a4]
    languages: [en, de]
    editions: [standard]
    printer: office                # the profile used when --printer is not given
    printers:
      office: {back_offset: [1.5, -0.5], margin: 5mm, duplex: long-edge}

It is found from the current folder upwards (or named with --project). This module reads
only YAML; pydantic (for the located-error schema) is imported when a project file is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.caches import cached
from generator.errors import Problems, SourceMark

PROJECT_FILE = "pnp.yaml"


# (where the package is does not change while pnp runs: no file table to empty when the game's files change)
@cached("project.package_folder", maxsize=8)
def package_folder(name: str) -> Path:
    """A data folder shipped inside the package (generator.shared_templates, generator.shared_schemas,
    generator.fonts).

    pip installs wheels unpacked, and the editable install maps the repository's folders, so
    importlib.resources gives a real folder either way."""
    from importlib.resources import files      # (~10 ms to import: only once a folder is asked for)
    return Path(str(files(f"generator.{name}")))


def shared_templates() -> Path:
    """pnp's own shared templates (poker-card, poker-card-framed), the last place a template is looked for."""
    return package_folder("shared_templates")


def shared_schemas() -> Path:
    """The JSON Schemas of every content file, as shipped (`pnp schema` writes the same files)."""
    return package_folder("shared_schemas")


def template_folders(game_folder: Path, project_templates: Path | None = None) -> list[Path]:
    """Where a game's templates are looked for, the first that has an id winning: the game's own
    templates/, then its project's (pnp.yaml `templates:`), then the ones shipped with pnp.

    Nothing else: a folder that happens to be called templates/ somewhere above the game is not
    read (a game builds the same wherever it is kept)."""
    folders = [] if templates_outside(game_folder) else [game_folder / "templates"]
    for folder in (project_templates, shared_templates()):
        if folder is not None and folder.resolve() not in {known.resolve() for known in folders}:
            folders.append(folder)
    return [folder for folder in folders if folder.is_dir()]


def templates_outside(game_folder: Path) -> Path | None:
    """Where the game's own templates/ leads when that is out of the game folder (a link), else None:
    such a folder is not read, like a linked i18n/ or art/ (content/templates.py says so, located)."""
    own = game_folder / "templates"
    try:
        resolved, game = own.resolve(), game_folder.resolve()
    except (OSError, RuntimeError):          # a link loop
        return own
    return None if resolved == game / "templates" or game in resolved.parents else resolved


@dataclass(frozen=True)
class Printer:
    """A named printer profile: what `pnp calibrate` measured and how it prints."""

    name: str
    back_offset: tuple[float, float] | None = None     # mm
    margin: float | None = None                        # mm the printer cannot print at the paper's edge
    duplex: str | None = None                          # long-edge or short-edge


@dataclass(frozen=True)
class Project:
    """A project file, its paths made absolute (relative ones are read from the file's folder)."""

    file: Path
    games: tuple[Path, ...] = ()
    templates: Path | None = None
    output: Path | None = None
    papers: tuple[str, ...] | None = None
    languages: tuple[str, ...] | None = None
    editions: tuple[str, ...] | None = None
    printer: str | None = None
    printers: dict[str, Printer] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.file.parent


def find_project(start: Path) -> Path | None:
    """The nearest pnp.yaml in `start` or a folder above it."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder / PROJECT_FILE
    return None


def load_project(file: Path, problems: Problems) -> Project | None:
    """Read and check a project file; its problems (located, with hints) go to `problems`."""
    # pydantic (the schema, the validator): imported only when there is a project file to read
    from generator.content.project_schema import ProjectFile
    from generator.content.validate import validate
    from generator.content.yaml_source import load_yaml
    if not file.is_file():
        problems.add(SourceMark(file), "no project file here", "give --project the path of a pnp.yaml")
        return None
    document = load_yaml(file, problems, root=file.parent)
    if document is None:
        return None
    if document.data is None:
        document.data = {}
    model = validate(ProjectFile, document.data, document, problems)
    if model is None:
        return None
    root = file.parent.resolve()

    def folder(value: str, path: tuple[str | int, ...]) -> Path | None:
        resolved = (root / value).resolve()
        if not resolved.is_dir():
            problems.add(document.mark(path), f"no folder '{value}' beside {PROJECT_FILE}",
                         f"create it, or correct the path (relative to {root})")
            return None
        return resolved
    games = [folder(value, ("games", index)) for index, value in enumerate(model.games)]
    templates = folder(model.templates, ("templates",)) if model.templates else None
    printers = {name: Printer(name, (profile.back_offset[0], profile.back_offset[1]) if profile.back_offset else None,
                              profile.margin, profile.duplex) for name, profile in model.printers.items()}
    if model.printer is not None and model.printer not in printers:
        problems.add(document.mark(("printer",)), f"no printer profile '{model.printer}'",
                     f"profiles under printers: {', '.join(sorted(printers)) or 'none yet'}")
    if problems.errors:
        return None
    return Project(file.resolve(), tuple(game for game in games if game), templates,
                   (root / model.output).resolve() if model.output else None,
                   _tuple(model.papers), _tuple(model.languages), _tuple(model.editions), model.printer, printers)


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return tuple(values) if values else None
