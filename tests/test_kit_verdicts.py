"""No wrong verdict, whatever goes wrong around the cases: closed pipes, implementations that
exit, goldens that belong to another case, orphaned goldens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.judge import golden
from tests.kit_fixtures import mini_suite
from tests.test_kit_plugin import run as run_pytest, suite_dir  # noqa: F401 (fixture)
from tests.test_kit_runner import cli

REPO = Path(__file__).resolve().parent.parent
pytest_plugins = ["pytester"]


def test_closed_stdout_still_judges_every_case_and_writes_the_report(tmp_path):
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    argv = [sys.executable, "-m", "conformance.cli", "run", "--adapter", "python:tests.kit_fixtures:WrongEcho",
            "--report-json", str(report), "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir",
            str(dirs["spec"]), "--golden-dir", str(dirs["golden"])]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    proc.stdout.close()  # the reader is gone before the first line, as with `| head -0`
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1, stderr
    assert "Traceback" not in stderr
    assert [c["status"] for c in json.loads(report.read_text())["cases"]] == ["failed"] * 3


def test_an_implementation_that_exits_fails_its_case_and_the_run_goes_on(tmp_path):
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    code = cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:ExitsOnSecondCall",
               "--report-json", str(report))
    assert code == 1
    statuses = [c["status"] for c in json.loads(report.read_text())["cases"]]
    assert len(statuses) == 3 and statuses.count("errored") == 1 and statuses.count("passed") == 2
    errored = next(c for c in json.loads(report.read_text())["cases"] if c["status"] == "errored")
    assert "SystemExit" in errored["message"]


def _golden_of_another_case(golden_dir: Path) -> None:
    """kit-echo-text's golden, with the right output but a header naming another case."""
    path = golden.golden_path(golden_dir, "kit", "kit-echo-text")
    stored = golden.read(path)
    golden.write(path, "kit-echo-number", stored["op"], stored["output"])


def test_a_golden_of_another_case_is_a_suite_error_under_the_cli(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    _golden_of_another_case(dirs["golden"])
    assert cli(dirs, "run", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-text") == 2
    path = golden.golden_path(dirs["golden"], "kit", "kit-echo-text")
    line = path.read_text().splitlines().index("case: kit-echo-number") + 1
    # placed at its `case` key as every suite file's error is, the file named once
    assert (f"pi-conformance: {path}:{line}:1: a suite error: the golden is for case 'kit-echo-number' "
            "('kit.echo'), not 'kit-echo-text' ('kit.echo')\n") in capsys.readouterr().err
    assert cli(dirs, "show", "kit-echo-text") == 0  # it printed the other case's golden as this one's
    assert (f"golden ({path}): {path}:{line}:1: the golden is for case 'kit-echo-number' ('kit.echo'), "
            "not 'kit-echo-text' ('kit.echo')\n") in capsys.readouterr().out


def test_a_golden_of_another_operation_is_placed_at_its_op_key(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    path = golden.golden_path(dirs["golden"], "kit", "kit-echo-text")
    stored = golden.read(path)
    golden.write(path, "kit-echo-text", "kit.other", stored["output"])
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-text") == 2
    line = path.read_text().splitlines().index("op: kit.other") + 1
    assert f"{path}:{line}:1: a suite error: the golden is for case 'kit-echo-text' ('kit.other')" in \
        capsys.readouterr().err


def test_a_golden_that_is_not_utf8_is_placed_at_the_byte(tmp_path, capsys):
    # It was `path: 'utf-8' codec can't decode byte 0xff in position 97`, the file named twice.
    dirs = mini_suite(tmp_path)
    path = golden.golden_path(dirs["golden"], "kit", "kit-echo-text")
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3][:2] + b"\xff" + lines[3][2:]
    path.write_bytes(b"\n".join(lines))
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-text") == 2
    assert f"pi-conformance: {path}:4:3: a suite error: golden is not UTF-8 text (byte 0xff)\n" in \
        capsys.readouterr().err
    assert cli(dirs, "show", "kit-echo-text") == 0
    assert f"golden ({path}): {path}:4:3: golden is not UTF-8 text (byte 0xff)" in capsys.readouterr().out


def test_a_golden_that_cannot_be_read_is_a_suite_error_not_a_traceback(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    path = golden.golden_path(dirs["golden"], "kit", "kit-echo-text")
    path.unlink()
    path.mkdir()
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-text") == 2
    assert f"pi-conformance: {path}: a suite error: cannot read file: Is a directory\n" in capsys.readouterr().err


def test_a_missing_or_broken_golden_is_a_suite_error_not_the_implementations_failure(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    path = golden.golden_path(dirs["golden"], "kit", "kit-echo-text")
    report = tmp_path / "r.json"
    path.write_text("content: [unclosed\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--report-json", str(report)) == 2
    err = capsys.readouterr().err
    assert f"{path}:2:1: a suite error: golden is not valid YAML: while parsing a flow sequence" in err
    statuses = {c["id"]: c["status"] for c in json.loads(report.read_text())["cases"]}
    assert statuses == {"kit-echo-text": "errored", "kit-echo-number": "passed", "kit-echo-refused": "passed"}
    path.unlink()
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo") == 2
    assert "a suite error: no golden at" in capsys.readouterr().err


def test_a_golden_with_a_key_too_many_is_placed_at_that_key(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    path = golden.golden_path(dirs["golden"], "kit", "kit-echo-text")
    path.write_text(path.read_text() + "extra: 1\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-text") == 2
    line = path.read_text().splitlines().index("extra: 1") + 1
    assert (f"{path}:{line}:1: a suite error: golden must be a mapping with exactly case, op, output "
            "(unknown key 'extra')") in capsys.readouterr().err


def test_a_broken_golden_is_placed_under_pytest_too(pytester, suite_dir):  # noqa: F811
    path = golden.golden_path(suite_dir / "golden", "kit", "kit-echo-text")
    path.write_text("content: [unclosed\n")
    result = run_pytest(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-k", "text")
    assert result.ret == 2
    result.stdout.fnmatch_lines([f"*pi-conformance suite error: {path}:2:1: golden is not valid YAML*"])


def test_a_golden_of_another_case_fails_under_pytest(pytester, suite_dir):  # noqa: F811
    _golden_of_another_case(suite_dir / "golden")
    result = run_pytest(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-k", "text")
    result.assert_outcomes(failed=1, deselected=2)
    path = golden.golden_path(suite_dir / "golden", "kit", "kit-echo-text")
    line = path.read_text().splitlines().index("case: kit-echo-number") + 1
    result.stdout.fnmatch_lines([f"*pi-conformance suite error: {path}:{line}:1: the golden is for case 'kit-echo-number'*"])


def test_the_orphaned_golden_message_names_the_step_that_silences_it(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    orphan = dirs["golden"] / "kit" / "kit-gone.yaml"
    golden.write(orphan, "kit-gone", "kit.echo", {"value": 1})
    # Listing the id as retired is not what silences it ...
    (dirs["scenarios"] / "ids.yaml").write_text("retired:\n  - {id: kit-gone, reason: gone}\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo") == 2
    message = capsys.readouterr().err
    assert "delete it" in message and "or list its id" not in message  # no advice that cannot work
    # ... deleting it, as the message says, is.
    orphan.unlink()
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo") == 0


def test_scenario_input_is_validated_strictly_with_file_and_line(tmp_path):
    """A value pydantic could coerce (``"yes"`` for a boolean, ``"1"`` for a number) is refused,
    never sent to the implementation as written."""
    from conformance.corpus.cases import load_suite

    scenario = tmp_path / "profiles" / "strict.yaml"
    scenario.parent.mkdir()
    scenario.write_text(
        "format: 1\narea: profiles\ntitle: strict\nop: profiles.load\ncases:\n"
        "  - id: prof-strict-bodies\n    title: bodies as text\n    clauses: [PROF-FILE-EXT]\n"
        "    input: {agentDir: /a, cwd: /p, bodies: \"yes\"}\n")
    errors = [str(e) for e in load_suite(tmp_path).errors]
    assert len(errors) == 1 and errors[0].startswith(f"{scenario}:9:") and "input.bodies" in errors[0]


def test_every_report_shows_suite_errors(tmp_path, capsys):
    from tests.kit_fixtures import write

    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "broken.yaml", "format: 1\narea: kit\ntitle: t\ncases: 3\n")
    out = tmp_path / "out"
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--report-json",
               str(out / "r.json"), "--junit", str(out / "r.xml"), "--report-md", str(out / "r.md")) == 2
    junit = (out / "r.xml").read_text()
    assert '<testsuite name="suite-errors"' in junit and "broken.yaml" in junit and "<error" in junit
    markdown = (out / "r.md").read_text()
    assert "## Suite errors (1)" in markdown and "broken.yaml" in markdown
    capsys.readouterr()
    from conformance.cli import main

    assert main(["compare", str(out / "r.json")]) == 0
    assert any(line.split()[:3] == ["suite", "errors", "1"] for line in capsys.readouterr().out.splitlines())


def _results(tmp_path, adapter: str) -> dict[str, dict]:
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    cli(dirs, "run", "-q", "--adapter", adapter, "--report-json", str(report))
    return {c["id"]: c for c in json.loads(report.read_text())["cases"]}


def test_a_result_where_an_error_was_expected_shows_the_result(tmp_path):
    message = _results(tmp_path, "python:tests.kit_fixtures:WrongEcho")["kit-echo-refused"]["message"]
    assert message.startswith("expected error value-refused, got a result:") and "value: wrong" in message


def test_an_error_without_a_message_is_said_to_have_none(tmp_path):
    results = _results(tmp_path, "python:tests.kit_fixtures:RefusesSilently")
    assert results["kit-echo-text"]["message"].startswith("unexpected error quietly-refused (no message); ")
    assert results["kit-echo-refused"]["message"] == \
        "expected error value-refused, got quietly-refused (no message)"


def test_an_error_where_a_result_was_expected_shows_the_expected_result(tmp_path):
    # as a result where an error was expected shows the result: the message said only the error
    message = _results(tmp_path, "python:tests.kit_fixtures:RefusesSilently")["kit-echo-text"]["message"]
    head, _, shown = message.partition(":\n")
    assert head.startswith("unexpected error quietly-refused (no message); the case expects the result of ")
    assert head.endswith("kit-echo-text.yaml") and "value: |" in shown and "one" in shown and "two" in shown


def test_a_built_in_model_without_an_id_is_refused_at_load(tmp_path):
    """Every model is found by its id: a case describing a built-in model without one is refused
    with file:line instead of reaching an implementation (the reference used to raise KeyError)."""
    from conformance.corpus.cases import load_suite

    scenario = tmp_path / "pi" / "builtin.yaml"
    scenario.parent.mkdir()
    scenario.write_text(
        "format: 1\narea: pi\ntitle: t\nop: pi.models-load\ncases:\n"
        "  - id: mdl-builtin-no-id\n    title: a built-in model without id\n    clauses: [PI-MODELS-SCHEMA]\n"
        "    input: {builtins: {acme: {models: [{name: Acme One}]}}}\n")
    errors = [str(e) for e in load_suite(tmp_path).errors]
    assert len(errors) == 1 and errors[0].startswith(f"{scenario}:9:") and ".id" in errors[0], errors


def test_the_markdown_report_puts_what_fails_the_run_first(tmp_path):
    # a few real failures were found after hundreds of unsupported cases, in the run's order
    from conformance.output import reports

    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--report-json", str(report))
    data = json.loads(report.read_text())
    statuses = ["unsupported", "xfail", "failed"]  # the worst last in the run's order
    for record, status in zip(data["cases"], statuses):
        record["status"] = status
    reports.write_markdown(tmp_path / "r.md", data)
    shown = [line.rsplit("(", 1)[1].rstrip(")") for line in (tmp_path / "r.md").read_text().splitlines()
             if line.startswith("### ")]
    assert shown == ["failed", "xfail", "unsupported"]


@pytest.mark.parametrize("value, where, column", [
    ("2024-01-01", "output.value is a date", 3), (".nan", "output.value is nan", 3),
    ("!!binary aGk=", "output.value is a bytes", 3), ("{1: x}", "output.value has the key 1, not a string", 11)])
def test_a_golden_holding_what_is_not_json_data_is_placed_at_it(tmp_path, capsys, value, where, column):
    # It was `path:1:1: date is not JSON data` under run and a traceback under show.
    dirs = mini_suite(tmp_path)
    path = golden.golden_path(dirs["golden"], "kit", "kit-echo-number")
    path.write_text(path.read_text().replace("value: 1", f"value: {value}"))
    line = path.read_text().splitlines().index(f"  value: {value}") + 1
    placed = f"{path}:{line}:{column}: golden is not JSON data: {where}"
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-number") == 2
    assert f"pi-conformance: {placed.replace(': golden', ': a suite error: golden', 1)}\n" in capsys.readouterr().err
    assert cli(dirs, "show", "kit-echo-number") == 0
    assert f"golden ({path}): {placed}\n" in capsys.readouterr().out
