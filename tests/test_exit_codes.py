"""conformance.errors: the one place that spells an exit code. Everywhere else under conformance/
an exit code is an :class:`~conformance.errors.ExitCode` member: a number returned, passed to an
exit, stored in or compared with a variable named as a code is found here and refused."""

from __future__ import annotations

import ast
import signal
from pathlib import Path

import pytest

from conformance.errors import ExitCode

ROOT = Path(__file__).resolve().parent.parent
KIT = ROOT / "conformance"
EXEMPT = {KIT / "errors.py"}
SKELETONS = KIT / "adapters" / "skeleton"
"""The enum itself. The skeleton adapters (conformance/adapters/skeleton/) are not scanned: they are
files for a user to copy, which import nothing of the kit."""

CODE_NAMES = {"code", "exit_code", "rc", "returncode", "status_code"}
"""Variables, attributes and keyword arguments that hold an exit code. A comparison with a
``returncode`` (of a program the kit runs: ``sh``, ``npm``) is no exit code of the kit's and is
not refused; ``pytest.exit(returncode=...)`` is."""
EQUALITY = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
EXITS = {"exit", "_exit", "leave", "_fail", "_usage"}
"""Functions (or methods) whose arguments are exit codes: ``sys.exit``, ``os._exit``,
``pytest.exit``, ``conformance.output.console.leave`` and the commands' own helpers."""


def _is_number(node: ast.AST, *, collections: bool = False) -> bool:
    """Whether ``node`` is an int (not a bool), or either branch of a conditional is, or (with
    ``collections``) an element of a tuple, list or set is."""
    if isinstance(node, ast.IfExp):
        return _is_number(node.body, collections=collections) or _is_number(node.orelse, collections=collections)
    if collections and isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_number(e) for e in node.elts)
    return isinstance(node, ast.Constant) and type(node.value) is int


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _codeish(name: str | None) -> bool:
    return name is not None and (name in CODE_NAMES or name.startswith("EXIT_"))


def literal_exit_codes(source: str) -> list[int]:
    """The lines of ``source`` that spell an exit code as a number: ``return 2`` (or ``return 1 if
    x else 0``), ``sys.exit(1)``, ``pytest.exit(..., returncode=2)``, ``code = 70``,
    ``EXIT_OK = 0``, ``run.code == 3``, ``code not in (0, 1)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Return) and node.value is not None and _is_number(node.value):
            found.append(node.lineno)
        elif isinstance(node, ast.Call):
            args = list(node.args) if _name(node.func) in EXITS else []
            args += [k.value for k in node.keywords if _codeish(k.arg)]
            if any(_is_number(a) for a in args):
                found.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [_name(e) for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
            if any(map(_codeish, names)) and node.value is not None and _is_number(node.value, collections=True):
                found.append(node.lineno)
        elif isinstance(node, ast.Compare) and all(isinstance(op, EQUALITY) for op in node.ops):
            sides = [node.left, *node.comparators]
            if (any(_codeish(_name(s)) and _name(s) != "returncode" for s in sides)
                    and any(_is_number(s, collections=True) for s in sides)):
                found.append(node.lineno)
    return sorted(set(found))


def _kit_modules() -> list[Path]:
    return sorted(p for p in KIT.rglob("*.py") if p not in EXEMPT and "node_modules" not in p.parts
                  and p.parent != SKELETONS)


def test_no_literal_exit_code_under_conformance():
    found = {str(p.relative_to(ROOT)): lines for p in _kit_modules()
             if (lines := literal_exit_codes(p.read_text(encoding="utf-8")))}
    assert found == {}, "spell these exit codes as conformance.errors.ExitCode members"


@pytest.mark.parametrize("source", [
    "def f():\n    return 2\n",
    "def f(bad):\n    return 1 if bad else 0\n",
    "import sys\nsys.exit(3)\n",
    "import pytest\npytest.exit('no', returncode=2)\n",
    "code = 70\n",
    "EXIT_OK, EXIT_FAIL = 0, 1\n",
    "def f(run):\n    return run.code == 3\n",
    "def f(code):\n    return code not in (0, 1)\n",
    "def f():\n    return _fail('message', 2)\n",
])
def test_each_form_of_a_literal_exit_code_is_found(source):
    assert literal_exit_codes(source) != []


@pytest.mark.parametrize("source", [
    "from conformance.errors import ExitCode\ndef f():\n    return ExitCode.USAGE\n",
    "def f(items):\n    return len(items) + 1\n",
    "def f():\n    return True\n",
    "count = 0\n",
    "def f():\n    return (0, 0)\n",
    "def f(code):\n    return code < 0x20\n",
    "def f(done):\n    return done.returncode == 0\n",
])
def test_an_exit_code_member_or_another_number_is_not(source):
    assert literal_exit_codes(source) == []


def test_the_skeletons_are_the_only_modules_left_out():
    skipped = {p for p in KIT.rglob("*.py") if "node_modules" not in p.parts} - set(_kit_modules()) - EXEMPT
    assert skipped and all(p.parent == SKELETONS for p in skipped)


def test_the_codes_are_those_docs_running_md_tables():
    text = (ROOT / "docs" / "running.md").read_text(encoding="utf-8")
    for code in (ExitCode.OK, ExitCode.FAILED, ExitCode.USAGE, ExitCode.START):
        assert f"| {int(code)} |" in text
    assert "| 130, 143, 129 |" in text


def test_a_signal_gives_128_plus_its_number():
    assert ExitCode.of_signal(int(signal.SIGINT)) is ExitCode.INTERRUPTED
    assert ExitCode.of_signal(int(signal.SIGTERM)) is ExitCode.TERMINATED
    assert ExitCode.of_signal(int(signal.SIGHUP)) is ExitCode.HANGUP
    assert ExitCode.of_signal(int(signal.SIGKILL)) == 137
