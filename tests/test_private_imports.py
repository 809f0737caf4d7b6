"""No module of the package uses another module's private names (issue 48).

A module offers what others need under a public name; a private (``_x``) name is its
own. ruff's SLF rule catches ``obj._x`` on objects; this test catches what it does not:
``from hanamikoji.m import _x`` (relative imports too), ``import hanamikoji._m``, and
``m._x`` where ``m`` is a module of the package imported by name. Dunder names
(``__version__``, ``__all__``) are public.
"""

from __future__ import annotations

import ast

from test_architecture import PACKAGE, module_name

ROOT = "hanamikoji"


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module ``node`` imports from, relative imports made absolute."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def private_uses(source: str, module: str, is_package: bool = False) -> list[str]:
    """Each use of another of the package's modules' private names in ``source`` (the
    text of ``module``), as ``line: what``."""
    found: list[str] = []
    imported: dict[str, str] = {}
    """Names bound to the package's modules by imports: name -> module."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != ROOT:
                    continue
                if any(is_private(part) for part in alias.name.split(".")):
                    found.append(f"{node.lineno}: import {alias.name}")
                bound = alias.asname or alias.name.split(".")[0]
                imported[bound] = alias.name if alias.asname else ROOT
        elif isinstance(node, ast.ImportFrom):
            origin = absolute(node, module, is_package)
            if origin.split(".")[0] != ROOT:
                continue
            if any(is_private(part) for part in origin.split(".")):
                found.append(f"{node.lineno}: from {origin} import ...")
            for alias in node.names:
                if is_private(alias.name):
                    found.append(f"{node.lineno}: from {origin} import {alias.name}")
                imported[alias.asname or alias.name] = f"{origin}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in imported:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_uses_another_modules_private_names() -> None:
    problems: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path, PACKAGE)
        uses = private_uses(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")
        problems.extend(f"{path.relative_to(PACKAGE.parent)}:{use}" for use in uses)
    assert problems == [], "private names used across modules:\n" + "\n".join(problems)


def test_the_check_finds_each_kind_of_private_use() -> None:
    source = "\n".join(
        [
            "from hanamikoji.bots.greedy import Tuning, _final_values",
            "from . import _sibling",
            "from ._hidden import thing",
            "import hanamikoji._internal",
            "from hanamikoji.bots import judge",
            "import hanamikoji.core.rng as rng",
            "value = judge._cache + rng._GAMMA",
            "import os",
            "os._exit(0)",
            "from hanamikoji import __version__",
            "self._own = judge.public",
        ]
    )
    assert private_uses(source, "hanamikoji.kernel.policies") == [
        "1: from hanamikoji.bots.greedy import _final_values",
        "2: from hanamikoji.kernel import _sibling",
        "3: from hanamikoji.kernel._hidden import ...",
        "4: import hanamikoji._internal",
        "7: judge._cache",
        "7: rng._GAMMA",
    ]
