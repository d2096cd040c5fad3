"""The scripts under benchmarks/ still import: they run on demand, so no other test notices when
a name they import from the kit moves (benchmarks/suite.py imported make_adapter from
conformance.cli after it had moved to conformance.adapters.connect)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _unresolved(path: Path) -> list[str]:
    """The names ``path`` imports from ``conformance`` or ``reference`` that do not exist."""
    missing = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted = [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            wanted = [(node.module, alias.name) for alias in node.names]
        else:
            continue
        for module, name in wanted:
            if module.split(".")[0] not in ("conformance", "reference"):
                continue
            try:
                found = importlib.import_module(module)
            except ImportError:
                missing.append(module)
                continue
            if name is not None and not hasattr(found, name):
                try:
                    importlib.import_module(f"{module}.{name}")
                except ImportError:
                    missing.append(f"{module}.{name}")
    return missing


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_a_benchmark_imports_only_names_the_kit_has(script):
    assert _unresolved(BENCHMARKS / script) == []


def test_a_name_that_moved_is_found(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import os\nfrom conformance.cli import make_adapter, main\nimport conformance.nothing_here\n"
                     "from reference import envelope\n", encoding="utf-8")
    assert _unresolved(probe) == ["conformance.cli.make_adapter", "conformance.nothing_here"]
