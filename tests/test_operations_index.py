"""The names-only operation catalogue (``conformance/operations/index.py``) is exactly what the
operation modules declare, and the commands that need only names or one operation import no more
than that."""

from __future__ import annotations

import json
import subprocess
import sys

from conformance.judge import normalise
from conformance.operations import catalogue, get, index, names


def test_the_index_names_every_operation_and_the_module_that_declares_it():
    declared = {name: op.module.rpartition(".")[2] for name, op in catalogue().items()}
    assert index.OPERATIONS == declared
    assert names() == sorted(declared)


def test_the_index_names_every_normaliser_and_the_module_that_declares_it():
    catalogue()
    declared = {name: fn.__module__.rpartition(".")[2] for name, fn in normalise.normalisers().items()}
    assert index.NORMALISERS == declared


def test_get_gives_the_declared_operation_and_none_for_an_unknown_name():
    assert get("envelope.build") is catalogue()["envelope.build"]
    assert get("envelope.no-such-operation") is None


def _imported_after(code: str) -> dict:
    """The operation modules and whether pydantic is imported, after ``code`` in a fresh process."""
    probe = (f"{code}\nimport json, sys\n"
             "print(json.dumps({'ops': sorted(m for m in sys.modules if m.startswith('conformance.operations.')),"
             " 'pydantic': 'pydantic' in sys.modules}))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def test_names_and_the_package_import_no_operation_module_nor_pydantic():
    assert _imported_after("from conformance.operations import names; names()") == \
        {"ops": ["conformance.operations.index"], "pydantic": False}


def test_one_operation_imports_only_the_modules_it_needs():
    seen = _imported_after("from conformance.operations import get; get('profiles.strip')")
    assert seen["ops"] == ["conformance.operations.base", "conformance.operations.error_codes",  # pure data
                           "conformance.operations.index", "conformance.operations.profiles"]


def test_a_normaliser_imports_only_the_module_that_declares_it():
    seen = _imported_after("from conformance.judge.normalise import apply; apply(['pi.drop-messages'], {'message': 1})")
    assert "conformance.operations.pi_models" in seen["ops"]
    assert not any(m.endswith((".envelope", ".profiles")) for m in seen["ops"])


def test_the_command_line_imports_no_model_library_to_parse_its_arguments():
    probe = ("import contextlib, io\nfrom conformance.cli import parser\n"
             "args = parser().parse_args(['list', '--area', 'pi'])\n"
             "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
             "    parser().parse_args(['--help'])")
    code = (f"{probe}\nimport json, sys\nprint(json.dumps(sorted(m for m in ('pydantic', 'ruamel.yaml', "
            "'conformance.faults.runner', 'conformance.invariants', 'conformance.diff', 'conformance.corpus.catalogue') "
            "if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert json.loads(out.splitlines()[-1]) == []


def test_a_deferred_command_gets_its_arguments_when_chosen():
    from conformance.cli import parser

    args = parser().parse_args(["faults", "--list"])
    assert args.fn.__module__ == "conformance.commands.faults" and args.list is True
