"""``pi-conformance history`` and ``compare --cases``: verdicts across runs, and the regression gate.

The runs are of the reference and of seeded faults in process (``python:tests.test_diff:...``),
which differ from it by one known rule each, so what changed between them is known beforehand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.faults.runner import load_faults
from conformance.output.history import build_history, case_changes

ARGS = "python:tests.test_diff:ArgsEmptyDropped"
DOLLAR = "python:tests.test_diff:DollarZeroAll"


def _fault(fault_id: str):
    return next(f for f in load_faults() if f.id == fault_id)


@pytest.fixture(params=["fork", "spawn"])
def way(request, monkeypatch):
    """Runs forked from the command's process, or each a fresh Python. The forked way is run in
    a process of its own, single-threaded as a command line is (a test runner's workers are not)."""
    if request.param == "spawn":
        from conformance.commands import history_fork

        monkeypatch.setattr(history_fork, "can_fork", lambda: False)
    return request.param


def _history(way: str, argv: list[str], capsys) -> tuple[int, str, str]:
    if way == "spawn":
        code = main(["history", *argv])
        captured = capsys.readouterr()
        return code, captured.out, captured.err
    import subprocess

    from conformance.adapters.connect import kit_module_command

    probe = ("import sys, threading; from conformance.commands import history_fork; "
             "assert threading.active_count() == 1 and history_fork.can_fork(); "
             "from conformance.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([*kit_module_command("conformance.cli")[:-2], "-c", probe, "history", *argv],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert "AssertionError" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def test_history_names_what_each_neighbouring_pair_changed(tmp_path, capsys, way) -> None:
    out = tmp_path / "h"
    code, printed, _err = _history(way, ["--adapter", "reference", "--adapter", ARGS, "--adapter", DOLLAR,
                                   "--case", "tpl-*", "--out", str(out), "--markdown"], capsys)
    assert code == 0, printed
    history = json.loads((out / "history.json").read_text(encoding="utf-8"))
    assert [r["label"] for r in history["releases"]] == ["reference", ARGS, DOLLAR]
    first, second = history["pairs"]
    args_fault, dollar_fault = _fault("tpl-args-empty-dropped"), _fault("tpl-dollar-zero-all")
    by_id = {c["id"]: c for c in history["cases"]}
    # What the first fault breaks fails newly in the first pair, and passes again in the second.
    broken = [c["id"] for c in first["newlyFailing"]]
    assert broken and first["newlyPassing"] == []
    assert all(set(by_id[i]["clauses"]) & set(args_fault.clauses) for i in broken)
    assert [c["id"] for c in second["newlyPassing"]] == broken
    assert second["newlyFailing"] and all(set(by_id[c["id"]]["clauses"]) & set(dollar_fault.clauses)
                                          for c in second["newlyFailing"])
    assert all(c["from"] == "passed" and c["to"] == "failed" for c in first["newlyFailing"])
    assert by_id[broken[0]]["status"] == ["passed", "failed", "passed"]
    # Per clause: the counts of its cases in each run.
    clause = next(c for c in history["clauses"] if c["id"] in by_id[broken[0]]["clauses"])
    assert clause["status"][0].get("passed") == clause["cases"] and clause["status"][1].get("failed", 0) >= 1
    page = (out / "history.html").read_text(encoding="utf-8")
    assert broken[0] in page and ARGS in page and "newly failing" in page
    assert f"{len(broken)} newly failing, 0 newly passing" in printed
    row = next(line for line in printed.splitlines() if line.startswith(f"| `{ARGS}`"))
    assert row.endswith(f"| {len(broken)} | 0 |") and "| pi (pi-0.99.4) |" in row


@pytest.mark.parametrize("argv, said", [
    (["--adapter", "reference"], "two or more --adapter"),
    (["--adapter", "reference", "--adapter", "reference"], "given twice"),
    (["--adapter", "reference", "--adapter", "pi-node@latest"], "exact release version"),
    (["--adapter", "reference", "--adapter", ARGS, "--jobs", "0"], "--jobs must be 1 or more"),
])
def test_history_usage_errors(tmp_path, capsys, argv, said) -> None:
    assert main(["history", *argv, "--out", str(tmp_path / "h")]) == 2
    assert said in capsys.readouterr().err


def test_history_out_folder_of_the_kit_is_refused(capsys) -> None:
    import conformance

    folder = Path(conformance.__file__).parent / "spec"
    assert main(["history", "--adapter", "reference", "--adapter", ARGS, "--out", str(folder)]) == 2
    assert "--out" in capsys.readouterr().err and not (folder / "history.json").exists()


def test_history_stops_at_an_adapter_that_cannot_start(tmp_path, capsys, way) -> None:
    code, _out, err = _history(way, ["--adapter", "reference", "--adapter", "python:tests.no_such_module:X",
                                     "--case", "tpl-args-*", "--out", str(tmp_path / "h")], capsys)
    assert code == 3 and "python:tests.no_such_module:X could not start" in err
    said = err.split("pi-conformance history: the run against python:tests.no_such_module:X could not start:", 1)
    assert len(said) == 2 and "no_such_module" in said[1]  # what the run said, quoted by history
    assert not (tmp_path / "h" / "history.json").exists()


def _report(path: Path, statuses: dict[str, str], version: str = "1") -> Path:
    cases = [{"id": i, "area": "pi", "op": "pi.parse-args", "title": "", "clauses": ["PI-X"], "status": s,
              "message": ""} for i, s in statuses.items()]
    path.write_text(json.dumps({"header": {"implementation": {"name": "impl", "version": version}, "editions": {"pi": "pi-0.99.4"}},
                                "summary": {"pi": {s: list(statuses.values()).count(s) for s in set(statuses.values())}},
                                "cases": cases}), encoding="utf-8")
    return path


def test_compare_cases_lists_every_change_and_fails_on_a_regression(tmp_path, capsys) -> None:
    old = _report(tmp_path / "old.json", {"a": "passed", "b": "failed", "c": "passed", "d": "unsupported",
                                          "e": "passed", "gone": "passed"})
    new = _report(tmp_path / "new.json", {"a": "passed", "b": "passed", "c": "xfail", "d": "failed",
                                          "e": "unsupported", "added": "failed"}, version="2")
    assert main(["compare", "--cases", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines() if line.startswith("  ")]
    assert lines[:2] == [["REGRESSED", "c:", "passed", "->", "xfail"], ["REGRESSED", "e:", "passed", "->", "unsupported"]]
    assert ["fixed", "b:", "failed", "->", "passed"] in lines
    assert ["changed", "d:", "unsupported", "->", "failed"] in lines
    assert ["changed", "added:", "absent", "->", "failed"] in lines and ["changed", "gone:", "passed", "->", "absent"] in lines
    assert not any(line[1] == "a:" for line in lines)
    assert "6 case(s) changed status: 2 regressed" in out
    # Without a regression the gate passes, whatever else changed.
    fixed = _report(tmp_path / "fixed.json", {"a": "passed", "b": "passed", "c": "passed", "d": "failed",
                                              "e": "passed", "gone": "passed"})
    assert main(["compare", "--cases", str(old), str(fixed)]) == 0
    assert "0 regressed" in capsys.readouterr().out


@pytest.mark.parametrize("extra, said", [([], "takes two reports"), (["--markdown"], "are for the table")])
def test_compare_cases_usage(tmp_path, capsys, extra, said) -> None:
    one = _report(tmp_path / "one.json", {"a": "passed"})
    reports = [str(one)] * (3 if not extra else 2)
    assert main(["compare", "--cases", *extra, *reports]) == 2
    assert said in capsys.readouterr().err


def test_compare_cases_refuses_a_malformed_case_record(tmp_path, capsys) -> None:
    good = _report(tmp_path / "good.json", {"a": "passed"})
    bad = tmp_path / "bad.json"
    data = json.loads(good.read_text(encoding="utf-8"))
    data["cases"].append({"id": 3, "area": "pi", "status": "passed"})
    data["summary"]["pi"]["passed"] += 1
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["compare", "--cases", str(good), str(bad)]) == 2
    assert "bad.json: not a pi-conformance JSON report: cases[1].id must be a string, not 3" in capsys.readouterr().err


def test_history_of_reports_marks_cases_a_report_lacks(tmp_path) -> None:
    from conformance.output.reports import load_report

    one = load_report(_report(tmp_path / "1.json", {"a": "passed", "b": "failed"}))
    two = load_report(_report(tmp_path / "2.json", {"b": "passed", "c": "passed"}, version="2"))
    history = build_history([one, two], labels=["v1", "v2"])
    assert {c["id"]: c["status"] for c in history["cases"]} == {"a": ["passed", "absent"], "b": ["failed", "passed"],
                                                                "c": ["absent", "passed"]}
    assert history["clauses"] == [{"id": "PI-X", "cases": 3, "status": [{"passed": 1, "failed": 1, "absent": 1},
                                                                         {"absent": 1, "passed": 2}]}]
    assert history["pairs"][0]["newlyPassing"] == [{"id": "b", "from": "failed", "to": "passed"}]
    assert history["pairs"][0]["newlyFailing"] == []  # a case gone from a report is not a failure
    assert case_changes(one, two).regressions == []


def test_a_terminated_history_stops_its_runs_and_their_adapters(tmp_path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from conformance.adapters.connect import kit_module_command

    standins = Path(__file__).resolve().parent / "standins"
    pid_files = [tmp_path / "a.pid", tmp_path / "b.pid"]
    adapters = [f"{sys.executable} {standins / 'records_pid.py'} {p} hangs.py --always --provides pi.parse-args"
                for p in pid_files]
    command = kit_module_command("conformance.cli", "history", "--adapter", adapters[0], "--adapter", adapters[1],
                                 "--case", "tpl-args-*", "--timeout", "60", "--out", str(tmp_path / "h"))
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not all(p.exists() and p.read_text() for p in pid_files):
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read() if proc.poll() is not None else "no start"
            time.sleep(0.05)
        time.sleep(0.3)  # both runs are waiting for their adapter's answer
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=20)
        pids = [int(p.read_text().split()[0]) for p in pid_files]
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
            time.sleep(0.05)
        left = [pid for pid in pids if _alive(pid)]
    finally:  # nothing of this test's left running, whatever failed
        for kill in (lambda: os.killpg(proc.pid, signal.SIGKILL),
                     *(lambda p=p: os.kill(int(p.read_text().split()[0]), signal.SIGKILL) for p in pid_files)):
            try:
                kill()
            except (OSError, ValueError, IndexError):
                pass
        proc.wait()
    assert proc.returncode == 143, err
    assert left == []
    assert not (tmp_path / "h" / "history.json").exists()


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone but for its parent's wait
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_history_of_one_area_takes_the_default_edition_as_run_does(tmp_path, capsys, way) -> None:
    """``history --area envelope`` without --edition was refused (the default pi edition was
    passed on to each run as if it were named); each run now takes its default as ``run`` does."""
    code, printed, err = _history(way, ["--adapter", "reference", "--adapter", ARGS, "--area", "envelope",
                                        "--case", "env-instr-custom-alone", "--out", str(tmp_path / "h")], capsys)
    assert code == 0, printed + err
    assert "is an edition of the pi area" not in err
