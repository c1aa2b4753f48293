"""The package's shape: stages that only look down, no import cycles, no module state outside the
build context (docs/architecture.md). Read from the source with `ast`, not by importing it."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "generator"

# Each module's stage, lowest first: a module imports only from its own stage or the stages before it.
# A module is placed by the longest prefix of its dotted name listed here.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("generator.errors", "generator.units", "generator.print_facts", "generator.files",
                    "generator.input_files", "generator.heap", "generator.cache_folder", "generator.caches",
                    "generator.report", "generator.workers", "generator.options", "generator.engine",
                    "generator.content.yaml_source")),
    ("catalogs", ("generator.i18n",)),
    ("content", ("generator.content", "generator.project")),
    ("text", ("generator.text", "generator.face_cache")),
    ("components", ("generator.components",)),
    ("imposition", ("generator.imposition",)),
    ("render", ("generator.render", "generator.colour_vision")),
    ("rulebook", ("generator.rulebook",)),
    ("output", ("generator.imposition.cut", "generator.imposition.booklet", "generator.imposition.cover",
                "generator.targets", "generator.write", "generator.preflight", "generator.export_tts",
                "generator.data_export", "generator.incremental", "generator.context", "generator.i18n.sizes",
                "generator.i18n.screens", "generator.i18n.exchange", "generator.i18n.status",
                "generator.face_images", "generator.colour_check")),
    ("build", ("generator.build",)),
    ("commands", ("generator.cli", "generator.cli_options", "generator.cli_places", "generator.cli_output",
                  "generator.__main__", "generator.serve", "generator.scaffold",
                  "generator.upgrade", "generator.upgrade_text", "generator.i18n.exchange_cli")),
)


def module_names() -> dict[str, Path]:
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        dotted = path.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        names[dotted.removesuffix(".__init__")] = path
    return names


MODULES = module_names()


def stage(module: str) -> int:
    best, rank = -1, None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), index
    if rank is None:
        if module == "generator":
            return len(LAYERS) - 1
        raise AssertionError(f"{module} has no stage in LAYERS")
    return rank


def imported(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The package's modules an import statement names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
            parts = parts[:len(parts) - node.level + 1]
            base = ".".join(parts + ([base] if base else []))
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
    found = []
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.append(name)
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of imports under `if TYPE_CHECKING:` (never run: no dependency at run time)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        lines.add(sub.lineno)
    return lines


@functools.cache
def _parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for every test of this file (the trees are only read): parsing
    the package twice, for the graph and for each module's state, took 0.6 s of the file's 3 s."""
    return ast.parse(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def trees() -> dict[str, ast.Module]:
    """Every module's syntax tree, parsed once for the tests that read them all."""
    return {module: _parsed(path) for module, path in MODULES.items()}


@pytest.fixture(scope="module")
def graph(trees) -> dict[str, dict[str, int]]:
    """The import graph of the package, made once for the tests that read it."""
    return import_graph(trees)


def import_graph(trees: dict[str, ast.Module]) -> dict[str, dict[str, int]]:
    """module → {module it imports at run time: line}."""
    graph: dict[str, dict[str, int]] = {}
    for module, tree in trees.items():
        skipped = _type_checking_only(tree)
        edges = graph.setdefault(module, {})
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno not in skipped:
                for target in imported(module, node):
                    edges.setdefault(target, node.lineno)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_module_has_a_stage():
    for module in MODULES:
        stage(module)


def test_no_import_cycles(graph):
    assert cycles(graph) == []


def test_imports_only_look_down(graph):
    upward = [f"{MODULES[module].relative_to(PACKAGE.parent)}:{line} imports {target} "
              f"({LAYERS[stage(module)][0]} → {LAYERS[stage(target)][0]})"
              for module, edges in graph.items() for target, line in edges.items()
              if stage(target) > stage(module)]
    assert upward == []


def _module_state(path: Path) -> list[str]:
    """Module-level `lru_cache`s and mutable containers (a frozen table is a MappingProxyType,
    frozenset or tuple)."""
    tree = _parsed(path)
    found = []
    mutable_calls = {"dict", "list", "set", "defaultdict", "collections.defaultdict", "OrderedDict",
                     "collections.OrderedDict", "bytearray", "deque", "collections.deque"}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                if any(word in ast.unparse(decorator) for word in ("lru_cache", "functools.cache", "cached_property")) \
                        or ast.unparse(decorator) == "cache":
                    found.append(f"{path.name}:{node.lineno} @{ast.unparse(decorator)} {node.name}")
        if isinstance(node, ast.Global):
            found.append(f"{path.name}:{node.lineno} global {', '.join(node.names)}")
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if value is None or isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "__all__":
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(ast.unparse(target) == "__all__" for target in targets):
            continue
        if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)) or (
                isinstance(value, ast.Call) and ast.unparse(value.func) in mutable_calls):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(targets[0])} = {ast.unparse(value)[:40]}")
    return found


@pytest.mark.parametrize("module", sorted(set(MODULES) - {"generator.caches"}))
def test_no_module_state_outside_the_build_context(module):
    assert _module_state(MODULES[module]) == []


def test_no_module_imports_platypus_and_the_rulebook_uses_nothing_private(trees):
    """The rulebook is set by pnp's own paginator and drawn through the renderer's public entry points: no
    module imports ReportLab's platypus, and no rulebook module reaches into another object's _attributes."""
    found = []
    for module, path in sorted(MODULES.items()):
        for node in ast.walk(trees[module]):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}:{node.lineno} imports {name}" for name in names
                      if name.startswith("reportlab.platypus")]
            if module.startswith("generator.rulebook.") and isinstance(node, ast.Attribute) \
                    and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                found.append(f"{path.name}:{node.lineno} uses {ast.unparse(node)}")
    assert found == []
