"""Every code the reference can answer (an error answer's ``code``, or a ``code`` inside an
answer) is documented with its meaning: in a clause of the catalogue, or in the operation's
published output schema (its models' descriptions, and ``x-errors`` from
:data:`conformance.operations.error_codes.ERRORS`). The codes are collected from the suite's cases
and goldens, and from the reference's source (every code it raises or writes)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from conformance.corpus.cases import load_suite
from conformance.corpus.catalogue import load_catalogue
from conformance.judge import golden
from conformance.operations import catalogue as operations
from conformance.operations.error_codes import ERRORS, RENAMED
from conformance.output.schema import generate

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "reference").rglob("*.py"), *(ROOT / "conformance/adapters/reference").glob("*.py")])
CODE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)+$")
# Callees whose first two arguments may be a code: SpecError(code, ...), Diagnostic(level, code, ...),
# ConfigIssue(code, ...), and the reference's helpers that build them.
CALLEES = re.compile(r"(Error|Diagnostic|Issue|Problem|[Ff]ailure)$|^(d|fail)$")


def source_codes(paths=SOURCES) -> dict[str, set[str]]:
    """Every code the source raises or writes, with the files: a kebab-case string given to a
    callee above, as a ``code=`` keyword, or as the value of a ``"code"`` key."""
    found: dict[str, set[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            values = []
            if isinstance(node, ast.Call):
                if CALLEES.search(getattr(node.func, "id", getattr(node.func, "attr", ""))):
                    values += node.args[:2]
                values += [k.value for k in node.keywords if k.arg == "code"]
            elif isinstance(node, ast.Dict):
                values += [v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == "code"]
            for value in values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str) and CODE.match(value.value):
                    found.setdefault(value.value, set()).add(path.name if ROOT not in path.parents
                                                             else str(path.relative_to(ROOT)))
    return found


def suite_codes() -> dict[tuple[str, str], str]:
    """``(operation, code)`` for every error a case expects and every ``code`` in a golden."""
    found = {(c.op, c.error_code): c.id for c in load_suite().cases if c.error_code}

    def walk(value, op, where):
        if isinstance(value, dict):
            for k, v in value.items():
                if k == "code" and isinstance(v, str):
                    found.setdefault((op, v), where)
                walk(v, op, where)
        elif isinstance(value, list):
            for v in value:
                walk(v, op, where)

    for path in sorted((ROOT / "golden").rglob("*.yaml")):
        stored = golden.read(path)
        walk(stored["output"], stored["op"], str(path.relative_to(ROOT)))
    return found


def _named(code: str, text: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(code) + r"(?![\w-])", text) is not None


@pytest.fixture(scope="module")
def documented() -> tuple[str, dict[str, str]]:
    """The catalogue's text (statements and notes) and each operation's output schema as text."""
    cat = load_catalogue()
    clauses = " ".join(f"{c.statement} {c.note or ''}" for c in cat.clauses.values())
    schemas = {name[len("operations/"):-len(".output.json")]: json.dumps(schema, ensure_ascii=False)
               for name, schema in generate().items() if name.endswith(".output.json")}
    return clauses, schemas


def test_every_code_a_case_or_golden_shows_is_documented_for_its_operation(documented):
    clauses, schemas = documented
    missing = sorted(f"{op}: {code} ({where})" for (op, code), where in suite_codes().items()
                     if not _named(code, clauses) and not _named(code, schemas[op]))
    assert missing == []


def test_every_code_the_reference_can_answer_is_documented(documented):
    clauses, schemas = documented
    everything = clauses + " ".join(schemas.values())
    found = source_codes()
    assert len(found) > 50  # the scan finds the reference's codes
    assert sorted(f"{code} ({', '.join(sorted(paths))})" for code, paths in found.items()
                  if not _named(code, everything)) == []


def test_the_error_table_names_operations_and_codes_that_exist():
    known = source_codes()
    assert sorted(set(ERRORS) - set(operations())) == []
    assert sorted(f"{op}: {code}" for op, codes in ERRORS.items() for code in codes if code not in known) == []
    assert all(meaning.strip() for codes in ERRORS.values() for meaning in codes.values())


def test_the_scan_finds_a_code_raised_anywhere_in_the_reference(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('raise SpecError("made-up-code", "x")\nd("warn", "other-code", "s", "m")\n'
                      'failure = {"code": "third-code"}\n', encoding="utf-8")
    assert set(source_codes([module])) == {"made-up-code", "other-code", "third-code"}


def test_one_meaning_has_one_code():
    # Two codes documented with the same meaning name one thing two ways (as tree-required and
    # tree-missing did); a renamed code's former name is answered by no operation any more.
    codes_by_meaning: dict[str, set[str]] = {}
    for codes in ERRORS.values():
        for code, meaning in codes.items():
            codes_by_meaning.setdefault(" ".join(meaning.split()), set()).add(code)
    assert sorted(sorted(codes) for codes in codes_by_meaning.values() if len(codes) > 1) == []
    answered = {code for codes in ERRORS.values() for code in codes} | set(source_codes())
    assert sorted(set(RENAMED) & answered) == []
    assert sorted(set(RENAMED.values()) - answered) == []


def test_a_former_code_is_named_with_the_code_now():
    from conformance.adapters.base import Answer
    from conformance.judge.runner import Runner

    case = next(c for c in load_suite().cases if c.error_code == "tree-missing")
    runner = Runner(None)  # judging needs no adapter
    old = runner.judge(case, Answer("error", code="tree-required", message="no tree"), [])
    assert old.status == "failed" and "tree-required is this code's former name, renamed tree-missing" in old.message
    other = runner.judge(case, Answer("error", code="input-invalid", message="x"), [])
    assert other.status == "failed" and "former name" not in other.message
