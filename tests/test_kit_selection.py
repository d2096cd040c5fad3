"""What a new user meets first: a YAML file in a place the loader does not read is named in a
warning, never silently left out; an option that would change nothing is a usage error; ``show``
reports a duplicate id as ``list`` and ``run`` do."""

from __future__ import annotations

import pytest

from conformance.cases import load_suite
from conformance.cli import main
from tests.kit_fixtures import mini_suite, write

HEAD = "format: 1\narea: kit\ntitle: odd forms\nop: kit.echo\ncases:\n"
CASE = "title: t\n    clauses: [ENV-TEST-ECHO]\n    input: {value: 1}\n"


def _cli(dirs, *args):
    return main([*args, "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                 "--golden-dir", str(dirs["golden"])])


def test_show_reports_a_duplicate_id_as_list_and_run_do(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "twin.yaml", HEAD + "  - id: kit-echo-text\n    " + CASE)
    assert _cli(dirs, "list") == 2
    assert "is also used at" in capsys.readouterr().err
    assert _cli(dirs, "show", "kit-echo-text") == 2
    assert "case id 'kit-echo-text' is also used at" in capsys.readouterr().err


def test_coverage_json_without_faults_is_a_usage_error(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert _cli(dirs, "coverage", "--json") == 2
    captured = capsys.readouterr()
    assert "--faults" in captured.err and captured.out == ""


@pytest.mark.parametrize("where", ["kit/sub/x.yaml", "x.yaml", "kit/sub/deeper/x.yml", "envelope/kit/x.yaml"])
def test_a_scenario_file_in_a_place_not_read_is_named(tmp_path, where):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / where, HEAD + "  - id: kit-lost\n    " + CASE)
    write(dirs["scenarios"] / "ids.yaml", "retired: []\n")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert [e.file.endswith(where) and "this file is not read" in e.message for e in suite.errors] == [True]
