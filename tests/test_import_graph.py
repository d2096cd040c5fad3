"""The tree's shape: no import circle among the modules of reference/ and conformance/ (imports
inside functions count; imports only for type checkers do not), and no Python file over 600 lines,
the tests and benchmarks among them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("reference", "conformance")
MAX_LINES = 600
LIMITED = (*PACKAGES, "tests", "benchmarks")
"""The folders whose Python files are held to :data:`MAX_LINES`."""


def _modules() -> dict[str, Path]:
    mods = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "node_modules" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return mods


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(module: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """The modules of the tree that ``module`` imports, at any depth of its code."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def resolve(name: str) -> None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)

    def visit(node: ast.AST) -> None:
        if _type_checking_only(node):
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                resolve(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                resolve(f"{base}.{alias.name}" if f"{base}.{alias.name}" in mods else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_circle():
    mods = _modules()
    graph = {m: _imports(m, p, mods) for m, p in mods.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_python_file_over_600_lines():
    files = [p for folder in LIMITED for p in (ROOT / folder).rglob("*.py") if "node_modules" not in p.parts]
    assert len(files) > len(_modules())  # the tests and benchmarks are read too
    long = {str(p.relative_to(ROOT)): n for p in files
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


TOP_LEVEL = {"conformance", "conformance.cli", "conformance.plugin", "conformance.program", "conformance.suite",
             "conformance.errors", "conformance.session"}
"""The modules at the top of conformance/: the entry points (the console script, the pytest plugin,
the test ``pytest --pyargs conformance.suite`` collects), the exit codes every layer imports and the
session every front end builds and hands down; everything else is in a group."""


def test_conformance_modules_are_in_groups():
    flat = {m for m in _modules() if m.startswith("conformance") and m.count(".") <= 1
            and not (ROOT / m.replace(".", "/")).is_dir()}
    assert flat | {"conformance"} == TOP_LEVEL


def test_a_group_init_imports_nothing_of_its_group():
    """A group's ``__init__`` is its description: importing one module of a group loads no other."""
    mods = _modules()
    heavy = {m: sorted(_imports(m, p, mods)) for m, p in mods.items()
             if m.count(".") == 1 and p.name == "__init__.py"
             and m.split(".")[1] in {"corpus", "judge", "output", "faults", "commands"} and _imports(m, p, mods)}
    assert heavy == {}


def test_the_exit_codes_import_nothing_of_the_kit():
    """conformance.errors is the lowest module: any layer may import it, so it imports none."""
    mods = _modules()
    assert _imports("conformance.errors", mods["conformance.errors"], mods) == set()


def _names_of_tests(path: Path) -> list[str]:
    """Where ``path`` imports the ``tests`` package, statically or by a module name in a string
    (as ``importlib.import_module("tests.x")`` would): ``["LINE: NAME", ...]``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [node.value] if all(part.isidentifier() for part in node.value.split(".")) else []
        found += [f"{node.lineno}: {n}" for n in names if n == "tests" or n.startswith("tests.")]
    return found


def test_the_product_never_imports_the_tests():
    """reference/ and conformance/ stand alone: an installed kit has no ``tests`` package."""
    found = {str(p.relative_to(ROOT)): hits for p in _modules().values() if (hits := _names_of_tests(p))}
    assert found == {}


def test_the_tests_finder_sees_each_way_of_importing_them(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('import tests.faults\nfrom tests import x\nimport importlib\nimportlib.import_module("tests.faults")\n'
                     'from .tests import y\nprint("tests are good")\n', encoding="utf-8")
    assert _names_of_tests(probe) == ["1: tests.faults", "2: tests", "4: tests.faults"]
