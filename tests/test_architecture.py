"""The layering of docs/architecture.md, checked on the source."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "hanamikoji"
LAYERS = ["core", "notation", "bots", "protocol", "arena", "research", "interfaces"]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def layer_files(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", LAYERS)
def test_no_layer_imports_a_lower_one(layer: str) -> None:
    lower = LAYERS[LAYERS.index(layer) + 1 :]
    for path in layer_files(layer):
        for module in imported_modules(path):
            for other in lower:
                assert not module.startswith(f"hanamikoji.{other}"), (
                    f"{path.relative_to(PACKAGE)} imports {module}, a lower layer"
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
