"""The pure core of the pi area (reference.pi.core) does no I/O: no file system, clock, environment
or process, and nothing of the host layer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[1] / "reference" / "pi" / "core"
BANNED = {"os", "pathlib", "time", "datetime", "random", "shutil", "tempfile", "conformance", "io", "subprocess",
          "signal", "socket", "glob"}
BANNED_CALLS = {"open", "input", "print"}


def _imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_imports_no_io_clock_or_environment(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for name in _imported(tree):
        assert name.split(".")[0] not in BANNED, f"{path.name} imports {name}"
        assert not name.startswith("reference.pi.host"), f"{path.name} imports the host layer"


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_calls_no_builtin_io(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in BANNED_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}()"


def test_core_is_not_empty() -> None:
    assert len(list(CORE.glob("*.py"))) >= 10
