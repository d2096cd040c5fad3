"""The kit's command line on a miniature suite: ``run``'s exit codes, reports, expectations files,
report paths and interrupts, and ``show``, ``coverage`` and ``compare`` (the loader, goldens,
runner and expectations themselves: ``tests/test_kit_runner.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.judge import golden
from conformance.cli import main
from tests import kit_fixtures as kf
from tests.kit_fixtures import mini_suite, write
from tests.test_kit_runner import cli, run_all


# --- run: exit codes, reports, interrupts -------------------------------------------------------

def test_exit_codes(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo") == 0
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho") == 1
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:CannotStart") == 3
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Nope") == 3
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "zzz*") == 2
    write(dirs["scenarios"] / "kit" / "bad.yaml", "format: 3\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo") == 2
    err = capsys.readouterr().err
    assert "bad.yaml:1:1: format:" in err


def test_orphaned_golden_is_a_suite_error(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    golden.write(dirs["golden"] / "kit" / "kit-gone.yaml", "kit-gone", "kit.echo", {"value": 1})
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-text") == 2
    assert "orphaned golden" in capsys.readouterr().err


def test_reports_are_written(tmp_path):
    dirs = mini_suite(tmp_path)
    out = tmp_path / "out"
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--report-json",
               str(out / "r.json"), "--junit", str(out / "r.xml"), "--report-md", str(out / "r.md")) == 1
    report = json.loads((out / "r.json").read_text())
    assert report["header"]["implementation"] == {"name": "echo", "version": "1", "language": "python"}
    assert {"suite", "spec", "protocol", "date"} <= set(report["header"])
    assert report["summary"]["kit"]["failed"] == 3
    assert {c["status"] for c in report["cases"]} == {"failed"} and report["cases"][0]["diff"]
    assert "<failure" in (out / "r.xml").read_text()
    assert "| kit | 0 | 3 |" in (out / "r.md").read_text()


def test_compare_puts_reports_side_by_side(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--report-json", str(tmp_path / "a.json"))
    cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--report-json", str(tmp_path / "b.json"))
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "| kit | 3/3 passed | 0/3 passed (3 failed) |" in out
    assert main(["compare", str(tmp_path / "nope.json")]) == 2


def test_coverage_fails_on_uncovered_must(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "coverage") == 0
    write(dirs["spec"] / "more.yaml", "area: pi\nclauses:\n  - {id: PI-TEST-LONELY, level: MUST, statement: s, source: t}\n")
    assert cli(dirs, "coverage") == 1
    assert "PI-TEST-LONELY" in capsys.readouterr().err


def test_coverage_needs_a_refusal_case_for_refusal_clauses(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    scen = dirs["scenarios"] / "kit" / "echo.yaml"
    scen.write_text(scen.read_text().replace("    error: {code: value-refused}\n", ""))
    assert cli(dirs, "coverage") == 1
    assert "ENV-TEST-REFUSE" in capsys.readouterr().err


def test_show_prints_input_and_golden(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "show", "kit-echo-text") == 0
    out = capsys.readouterr().out
    assert "ENV-TEST-ECHO (MUST): Echo returns its value." in out and "value: |" in out
    assert cli(dirs, "show", "nope") == 2


def test_update_rewrites_a_golden_whose_change_a_normaliser_hides(tmp_path, monkeypatch):
    from conformance.judge import normalise

    monkeypatch.setitem(normalise._NORMALISERS, "kit.hide-value", lambda out: {**out, "value": "hidden"})
    dirs = mini_suite(tmp_path)
    scen = dirs["scenarios"] / "kit" / "echo.yaml"
    scen.write_text(scen.read_text().replace("    input: {value: 1.0}\n", "    input: {value: 2}\n    normalise: [kit.hide-value]\n"))
    assert run_all(dirs, kf.Echo())["kit-echo-number"].status == "passed"
    assert cli(dirs, "run", "-q", "--update-goldens", "--case", "kit-echo-number") == 0
    assert golden.read(dirs["golden"] / "kit" / "kit-echo-number.yaml")["output"] == {"value": 2}


def test_empty_adapter_is_a_usage_error(tmp_path, capsys):
    assert cli(mini_suite(tmp_path), "run", "-q", "--adapter", "") == 2
    assert main(["smoke", "--adapter", " "]) == 2
    err = capsys.readouterr().err
    # advice every command can follow (smoke has no default adapter to fall back on)
    assert err.count("--adapter is empty: name an adapter (`reference` for the bundled one)") == 2
    assert main(["smoke", "--adapter", "reference"]) == 0


def test_interrupted_run_exits_130_and_writes_no_report(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    previous = '{"header": {"format": 2}, "previous": true}\n'  # an earlier report of the kit's
    report.write_text(previous)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Interrupted", "--report-json", str(report)) == 130
    assert report.read_text() == previous
    assert "interrupted after 1 of 3 cases" in capsys.readouterr().err


def test_junit_stays_well_formed_with_control_characters(tmp_path, capsys):
    import xml.dom.minidom

    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Shouty", "--junit", str(tmp_path / "r.xml")) == 1
    doc = xml.dom.minidom.parse(str(tmp_path / "r.xml"))
    assert "\\x1b[31mred" in doc.getElementsByTagName("failure")[0].getAttribute("message")
    assert "kit.ecko" in capsys.readouterr().err


@pytest.mark.parametrize("how, shown", [("--garbage", "Goodbye from a chatty adapter!"),
                                        ("--exit 5", "exited with code 5")])
def test_an_adapter_that_does_not_stop_cleanly_is_a_suite_error(tmp_path, capsys, how, shown):
    import shlex
    import sys

    dirs = mini_suite(tmp_path)
    command = shlex.join([sys.executable, str(Path(__file__).parent / "standins" / "bad_stop.py"), *how.split()])
    report = tmp_path / "r.json"
    assert cli(dirs, "run", "-q", "--adapter", command, "--report-json", str(report)) == 2
    err = capsys.readouterr().err
    assert "did not stop cleanly" in err and shown in err
    assert any(shown in e for e in json.loads(report.read_text())["header"]["suiteErrors"])


def _kit_running(tmp_path, record, standin: list, *options: str):
    """``pi-conformance run`` of the mini suite as a process of its own, against the stand-in
    ``standin`` (its script and arguments) started through records_pid.py, which writes the
    adapter's process id and home to ``record``."""
    import shlex
    import subprocess
    import sys

    dirs = mini_suite(tmp_path)
    command = shlex.join([sys.executable, str(Path(__file__).parent / "standins" / "records_pid.py"),
                          str(record), *standin])
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "run", "--adapter", command, *options,
         "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
         "--golden-dir", str(dirs["golden"])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)


@pytest.mark.parametrize("signame, code", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_termination_signal_stops_a_hanging_adapter_and_writes_no_report(tmp_path, signame, code):
    import os
    import signal
    import time

    record = tmp_path / "adapter.pid"
    report = tmp_path / "r.json"
    kit = _kit_running(tmp_path, record, ["hangs.py", "--always"], "--report-json", str(report))
    try:
        assert kit.stdout.readline().startswith("implementation:")
        pid, home = record.read_text().split()
        time.sleep(0.3)  # the first request is sent and hangs
        began = time.monotonic()
        kit.send_signal(getattr(signal, signame))
        assert kit.wait(10) == code
        # killed at once, not asked to stop (which costs the adapter's 2 s to answer stop)
        assert time.monotonic() - began < 1.8
    finally:
        kit.kill()
    assert "interrupted after 0 of 3 cases; no report written" in kit.stderr.read()
    assert not report.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid), 0)
    assert not Path(home).parent.exists()  # the adapter's scratch folder is gone too


@pytest.mark.parametrize("signame, code", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_while_the_adapter_starts_kills_it_and_removes_its_folder(tmp_path, signame, code):
    import os
    import signal
    import time

    record = tmp_path / "adapter.pid"
    kit = _kit_running(tmp_path, record, ["fails_to_start.py", "silent"])
    try:
        deadline = time.monotonic() + 10
        while not (record.exists() and record.read_text().endswith("\n")) and time.monotonic() < deadline:
            time.sleep(0.02)
        pid, home = record.read_text().split()
        time.sleep(0.2)  # the start is sent; the adapter never answers it
        kit.send_signal(getattr(signal, signame))
        assert kit.wait(10) == code
    finally:
        kit.kill()
    assert "interrupted" in kit.stderr.read()
    time.sleep(0.1)
    with pytest.raises(ProcessLookupError):  # it was left running, its parent gone
        os.kill(int(pid), 0)
    assert not Path(home).parent.exists()  # and its scratch folder left behind


# --- run: expectations files --------------------------------------------------------------------

def test_bad_expectations_stop_before_the_run(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", "expectations:\n- {id: x, status: maybe, reason: r}\n")
    report = tmp_path / "r.json"
    assert cli(dirs, "run", "--adapter", "python:tests.kit_fixtures:Echo", "--expectations",
               str(tmp_path / "exp.yaml"), "--report-json", str(report)) == 2
    out = capsys.readouterr()
    assert "implementation:" not in out.out and "exp.yaml:2:" in out.err and not report.exists()


@pytest.mark.parametrize("text", ["expectations: []\n", "implementation: x 1.0\nexpectations: []\n"])
def test_an_expectations_file_without_entries_is_named_on_stderr(tmp_path, capsys, text):
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", text)
    cli(dirs, "run", "-q", "--expectations", str(tmp_path / "exp.yaml"))
    assert "exp.yaml lists no expectations: every case is expected to pass" in capsys.readouterr().err
    write(tmp_path / "exp.yaml", "expectations:\n- {id: kit-echo-refused, status: fail, reason: r}\n")
    cli(dirs, "run", "-q", "--expectations", str(tmp_path / "exp.yaml"))
    assert "lists no expectations" not in capsys.readouterr().err


@pytest.mark.parametrize("named, warned", [("echo 1", False), ("echo 2", True), ("pi 1.6.0", True), (None, False)])
def test_an_expectations_file_written_for_another_implementation_is_named(tmp_path, capsys, named, warned):
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", (f"implementation: {named}\n" if named else "") + "expectations: []\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--expectations",
               str(tmp_path / "exp.yaml")) == 0
    err = capsys.readouterr().err
    assert (f"exp.yaml is written for {named}; the adapter is echo 1 (its entries apply all the same)" in err) == warned
    assert ("is written for" in err) == warned


@pytest.mark.parametrize("text", ["", "\n\n", "# nothing yet\n", "---\n"])
def test_an_empty_expectations_file_is_refused_before_the_run(tmp_path, capsys, text):
    # An empty file is more likely a file not yet written (or truncated) than a claim that every
    # case passes, which `expectations: []` states.
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", text)
    assert cli(dirs, "run", "-q", "--expectations", str(tmp_path / "exp.yaml")) == 2
    out = capsys.readouterr()
    assert "implementation:" not in out.out
    assert f"{tmp_path / 'exp.yaml'}:1:1: the file is empty" in out.err and "expectations: []" in out.err


# --- run: report paths, checked before the run --------------------------------------------------

@pytest.mark.parametrize("flag", ["--report-json", "--junit", "--report-md", "--report-html"])
def test_a_report_to_standard_output_is_refused_and_no_file_called_dash_is_written(tmp_path, capsys, monkeypatch,
                                                                                    flag):
    dirs = mini_suite(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", flag, "-") == 2
    assert "reports are written to files" in capsys.readouterr().err
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("flag", ["--report-json", "--junit", "--report-md"])
def test_unwritable_report_paths_are_refused_before_the_run(tmp_path, capsys, flag):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", flag, str(tmp_path)) == 2
    assert "is a directory" in capsys.readouterr().err
    assert cli(dirs, "run", "-q", "--report-json", str(tmp_path / "a"), "--junit", str(tmp_path / "a")) == 2


@pytest.mark.parametrize("flag", ["--report-json", "--junit", "--report-md", "--report-html"])
def test_a_report_path_ending_in_a_slash_is_refused_and_nothing_is_written(tmp_path, capsys, flag):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", flag, str(tmp_path / "out") + "/") == 2
    assert "ends in a slash, which names a folder" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_report_folder_that_cannot_be_made_is_refused_before_the_run(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    (tmp_path / "afile").write_text("x")
    assert cli(dirs, "run", "-q", "--report-json", str(tmp_path / "new" / "r.json"),
               "--report-md", str(tmp_path / "afile" / "sub" / "r.md")) == 2
    assert "implementation:" not in capsys.readouterr().out
    assert not (tmp_path / "new" / "r.json").exists()


# --- compare ------------------------------------------------------------------------------------

def test_compare_refuses_a_malformed_report_naming_it(tmp_path, capsys):
    bad = write(tmp_path / "bad.json", '{"header": {}, "summary": {}, "cases": []}')
    assert main(["compare", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "header.implementation" in err


def test_compare_names_a_missing_report(tmp_path, capsys):
    assert main(["compare", str(tmp_path / "nope.json")]) == 2
    assert "nope.json: cannot read" in capsys.readouterr().err


def test_compare_names_each_column_by_its_report_and_can_show_a_row_per_operation(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    for name, impl in (("echo.json", "Echo"), ("wrong.json", "WrongEcho"), ("again.json", "Echo")):
        cli(dirs, "run", "-q", "--adapter", f"python:tests.kit_fixtures:{impl}", "--report-json", str(tmp_path / name))
    reports = [str(tmp_path / n) for n in ("echo.json", "wrong.json", "again.json")]
    capsys.readouterr()
    assert main(["compare", *reports]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    # the kit's own area has no edition: no Pi edition is named for it
    assert "echo 1 (echo.json)" in head and "echo 1 (wrong.json)" in head and "echo 1 (again.json)" in head
    assert "pi-0.99.4" not in head
    assert main(["compare", "--by-op", "--markdown", *reports]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| area | operation | echo 1 (echo.json) | echo 1 (wrong.json) | "
                          "echo 1 (again.json) |\n"
                          "| --- | --- | ---: | ---: | ---: |"), out
    assert "| kit | kit.echo | 3/3 passed | 0/3 passed (3 failed) | 3/3 passed |" in out
    assert main(["compare", "--by-op", *reports]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].split()[:2] == ["area", "operation"]
    assert text[1].split()[:5] == ["kit", "kit.echo", "3/3", "passed", "0/3"]
    assert main(["compare", "--html", *reports]) == 0
    assert "echo 1 (echo.json)" in capsys.readouterr().out
    # The same report twice: its columns are told apart.
    assert main(["compare", reports[0], reports[0]]) == 0
    assert "(echo.json) [1]" in capsys.readouterr().out


def test_compare_refuses_two_forms_at_once(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["compare", str(tmp_path / "a.json"), "--markdown", "--html"])
    assert exit_.value.code == 2
    assert "--html: not allowed with argument --markdown" in capsys.readouterr().err
