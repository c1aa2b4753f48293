"""Templates: YAML layouts with `extends` (several parents, child wins, cycles are errors)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.content.schema import Size, Template
from generator.content.validate import validate
from generator.content.yaml_source import YamlDocument, load_yaml
from generator.errors import Problems, SourceMark
from generator.input_files import shown
from generator.project import template_folders, templates_outside


@dataclass(frozen=True)
class ResolvedTemplate:
    id: str
    model: Template
    chain: tuple[YamlDocument, ...]   # the template's own file first, then its ancestors

    def mark(self, path: tuple, fallback: SourceMark | None = None) -> SourceMark:
        """Where a template value is written: the first file of the chain (child first) that has it;
        else `fallback`, or the template's own file."""
        for document in self.chain:
            if path in document.marks:
                return document.marks[path]
        return fallback if fallback is not None else self.chain[0].mark()

    @property
    def size(self) -> Size:
        """The face's size: `TemplateLibrary.resolve` refuses a template that has none (a parent may
        leave it to its children; a template drawn as a face cannot)."""
        if self.model.size is None:
            raise ValueError(f"template '{self.id}' was resolved without a size")
        return self.model.size


def discover_templates(game_folder: Path, project_templates: Path | None = None) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in template_folders(game_folder, project_templates):
        for file in sorted(folder.glob("*.yaml")):
            found.setdefault(file.stem, file)  # the game's own template wins over a shared one
    return found


class TemplateLibrary:
    """Loads and resolves templates on demand, each file read once."""

    def __init__(self, game_folder: Path, problems: Problems, project_templates: Path | None = None):
        outside = templates_outside(game_folder)
        if outside is not None:
            problems.add(SourceMark(game_folder / "templates"),
                         f"is a link leading outside the game folder (to {shown(str(outside))}): pnp does not "
                         "read templates through it",
                         "copy the templates into the game's own templates/ folder, or share them between games "
                         "as a project's templates (pnp.yaml `templates:`)")
        self.files = discover_templates(game_folder, project_templates)
        self.problems = problems
        self._documents: dict[str, YamlDocument | None] = {}
        self._resolved: dict[str, ResolvedTemplate | None] = {}
        self._cyclic: set[str] = set()      # reported once: a cycle read from each member is one mistake

    def resolve(self, template_id: str) -> ResolvedTemplate | None:
        if template_id not in self._resolved:
            merged = self._merged(template_id, ())
            result = None
            if merged is not None:
                data, chain = merged
                model = validate(Template, data, chain[0], self.problems, chain[1:])
                if model is not None and model.size is None:
                    # parents may leave size out; a template drawn as a face cannot
                    self.problems.add(chain[0].mark(), f"template '{template_id}' has no size, "
                                      "and neither has any template it extends",
                                      "add `size: {width: 63mm, height: 88mm}` or extend a template that has one")
                    model = None
                result = ResolvedTemplate(template_id, model, chain) if model else None
            self._resolved[template_id] = result
        return self._resolved[template_id]

    def check_all(self, folder: Path) -> None:
        """Read and validate every template in `folder`, used or not, so one run reports them all.

        Size is not required here: a parent template may leave it to its children.
        """
        for template_id, file in sorted(self.files.items()):
            if file.parent == folder and template_id not in self._resolved.keys() | self._cyclic:
                merged = self._merged(template_id, ())
                if merged is not None:
                    validate(Template, merged[0], merged[1][0], self.problems, merged[1][1:])

    def document(self, template_id: str) -> YamlDocument | None:
        """A template's own file as read, once (resolving it later reads no file again); None when it
        cannot be read (its problems are reported)."""
        return self._document(template_id)

    def _document(self, template_id: str) -> YamlDocument | None:
        if template_id not in self._documents:
            file = self.files[template_id]
            self._documents[template_id] = load_yaml(file, self.problems, root=file.parent)
        return self._documents[template_id]

    def _merged(self, template_id: str, stack: tuple[str, ...]):
        document = self._document(template_id)
        if document is None:
            return None
        data = document.data
        if not isinstance(data, dict):
            self.problems.add(document.mark(), f"a template must be a mapping of keys, got {data!r}",
                              "start with keys such as `extends:`, `size:`, `styles:` and `boxes:`")
            return None
        parents = data.get("extends") or []
        parents = [parents] if isinstance(parents, str) else parents
        if not isinstance(parents, list) or not all(isinstance(parent, str) for parent in parents):
            self.problems.add(document.mark(("extends",)),
                              f"extends: expected a template id or a list of them, got {parents!r}")
            return None
        merged: dict[str, Any] = {}
        chain: list[YamlDocument] = [document]
        for parent in parents:
            if parent in stack + (template_id,):
                self._cyclic.update(stack + (template_id,))
                cycle = " → ".join(stack + (template_id, parent))
                self.problems.add(document.mark(("extends",)), f"template cycle: {cycle}",
                                  "a template cannot extend itself, directly or through its parents")
                return None
            if parent not in self.files:
                self.problems.add(document.mark(("extends",)), f"unknown parent template '{parent}'",
                                  f"known templates: {', '.join(sorted(self.files))}")
                return None
            inherited = self._merged(parent, stack + (template_id,))
            if inherited is None:
                return None
            merged = deep_merge(merged, inherited[0])
            chain.extend(doc for doc in inherited[1] if doc not in chain)
        own = {key: value for key, value in data.items() if key != "extends"}
        return deep_merge(merged, own), tuple(chain)


def deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Mappings merge key by key (override wins); anything else is replaced whole."""
    result = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = value
    return result
