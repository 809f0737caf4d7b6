"""The layering of docs/architecture.md, checked on the source."""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping, Set
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "hanamikoji"
LAYERS = [
    "core",
    "notation",
    "bots",
    "training",
    "protocol",
    "arena",
    "tournaments",
    "kernel",
    "research",
    "puzzles",
    "interfaces",
]
"""From the lowest layer to the highest: a layer imports only from the ones before it."""


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module in ``path``, of the package in folder ``root`` (a
    package is named by its ``__init__.py``)."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def package_modules(root: Path) -> dict[str, Path]:
    """Every module of the package in folder ``root``, by its dotted name."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def imported_modules(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module ``path`` imports, anywhere (inside functions too), relative imports
    made absolute. ``from M import N`` imports ``M.N`` when that is a module of the
    package, else ``M``."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    known = package_modules(root)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, node.module] if node.module else parent)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return found


def module_graph(root: Path) -> dict[str, set[str]]:
    """For each module of the package in ``root``, the package's modules it imports."""
    known = package_modules(root)
    return {
        name: {module for module in imported_modules(path, root) if module in known}
        for name, path in known.items()
    }


def import_cycles(graph: Mapping[str, Set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, directly or not (the strongly
    connected components of more than one module, or of one that imports itself), by
    Tarjan's algorithm."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(group) > 1 or module in graph.get(module, ()):
                cycles.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return cycles


def layer_files(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", LAYERS)
def test_no_layer_imports_a_higher_one(layer: str) -> None:
    higher = LAYERS[LAYERS.index(layer) + 1 :]
    for path in layer_files(layer):
        for module in imported_modules(path):
            for other in higher:
                assert not module.startswith(f"hanamikoji.{other}"), (
                    f"{path.relative_to(PACKAGE)} imports {module}, a higher layer"
                )


def test_core_uses_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in layer_files("core"):
        for module in imported_modules(path):
            top = module.split(".")[0]
            assert top == "hanamikoji" or top in allowed, (
                f"{path.relative_to(PACKAGE)} imports {module}, outside the standard library"
            )
            if top == "hanamikoji":
                assert module.startswith("hanamikoji.core"), (
                    f"{path.relative_to(PACKAGE)} imports {module} outside the core"
                )


def test_no_modules_import_each_other() -> None:
    cycles = import_cycles(module_graph(PACKAGE))
    assert not cycles, "modules that import one another: " + "; ".join(
        " <-> ".join(cycle) for cycle in cycles
    )


def test_the_cycle_finder_finds_lazy_and_relative_cycles(tmp_path: Path) -> None:
    package = tmp_path / "toy"
    (package / "sub").mkdir(parents=True)
    sources = {
        "__init__.py": "",
        "a.py": "def later():\n    from .sub import b\n",
        "sub/__init__.py": "from toy.sub.c import VALUE\n",
        "sub/b.py": "import toy.c2\n",
        "sub/c.py": "VALUE = 1\n",
        "c2.py": "from . import a\nimport os\n",
        "alone.py": "from toy import a\n",
        "self.py": "from toy import self\n",
    }
    for name, source in sources.items():
        (package / name).write_text(source, encoding="utf-8")
    graph = module_graph(package)
    assert graph["toy.a"] == {"toy.sub.b"}
    assert graph["toy.sub"] == {"toy.sub.c"}
    assert graph["toy.c2"] == {"toy.a"}
    assert import_cycles(graph) == [["toy.a", "toy.c2", "toy.sub.b"], ["toy.self"]]
    graph["toy.c2"] = set()
    graph["toy.self"] = set()
    assert import_cycles(graph) == []


WEB = PACKAGE / "interfaces" / "web"
WEB_SHARED = ("wire", "db", "cluster", "http", "catalog")
"""The web server's folders that every feature shares (docs/architecture.md)."""
WEB_ABOVE_SHARED = (
    "games",
    "lobby",
    "players",
    "ratings",
    "social",
    "browser",
    "notices",
    "chat",
    "puzzles",
    "api",
    "bots",
    "ladder",
    "tournaments",
    "pages",
    "services",
    "app",
)
"""The web server's features, its composition root and its assembly."""


@pytest.mark.parametrize("folder", WEB_SHARED)
def test_no_shared_web_folder_imports_a_feature(folder: str) -> None:
    """What the features share (the database, the wire, ...) is below them: it never
    imports a feature, the composition root or the app."""
    above = tuple(f"hanamikoji.interfaces.web.{name}" for name in WEB_ABOVE_SHARED)
    for path in sorted((WEB / folder).rglob("*.py")):
        for module in imported_modules(path):
            assert not module.startswith(above), (
                f"{path.relative_to(PACKAGE)} imports {module}, above the shared folders"
            )


def test_every_web_folder_is_shared_or_a_feature() -> None:
    """A new folder of the web server says which it is, so the rule above covers it."""
    folders = {path.name for path in WEB.iterdir() if (path / "__init__.py").is_file()}
    assert folders <= set(WEB_SHARED) | set(WEB_ABOVE_SHARED)
