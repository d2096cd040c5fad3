"""A run ends as its exit code says, whatever the implementation or a signal does: a termination
signal stops it at once wherever the kit is (143, 129), killing the adapter and removing its
folder; an implementation's ``os._exit`` or a thread it leaves behind can neither fake a verdict
nor hold the kit once its report is written."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.kit_fixtures import mini_suite

REPO = Path(__file__).resolve().parent.parent
STANDINS = Path(__file__).parent / "standins"


def _kit(tmp_path, adapter: str, *options: str, env: dict | None = None) -> subprocess.Popen:
    """``pi-conformance run`` of the mini suite in a process of its own against ``adapter``,
    with the stand-ins' folder on ``PYTHONPATH`` (for ``python:hostile_impls:CLASS``)."""
    dirs = mini_suite(tmp_path)
    environment = dict(os.environ, PYTHONPATH=str(STANDINS), **(env or {}))
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "run", "--adapter", adapter, *options,
         "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
         "--golden-dir", str(dirs["golden"])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=environment)


def _wait_for(path: Path, timeout: float = 20) -> None:
    """Until ``path`` holds something (a stand-in wrote it whole, as one short write)."""
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text()):
        assert time.monotonic() < deadline, f"{path} never written"
        time.sleep(0.02)


@pytest.mark.parametrize("implementation, said", [
    ("SleepsPolitely", "interrupted after 0 of 3 cases; no report written"),  # in order, at once
    ("Sleeps", "the implementation did not give the run back, so the kit ended it"),  # it swallowed the signal
])
@pytest.mark.parametrize("signame, code", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_termination_signal_during_an_in_process_call_ends_the_run(tmp_path, signame, code, implementation, said):
    mark = tmp_path / "mark"
    report = tmp_path / "r.json"
    kit = _kit(tmp_path, f"python:hostile_impls:{implementation}", "--timeout", "60", "--report-json", str(report),
               env={"HOSTILE_MARK": str(mark)})
    try:
        _wait_for(mark)
        kit.send_signal(getattr(signal, signame))
        assert kit.wait(10) == code  # not that case's error, with the run going on
    finally:
        kit.kill()
    assert said in kit.stderr.read()
    assert not report.exists()


@pytest.mark.parametrize("signame, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_while_waiting_for_stopped_kills_the_adapter_and_removes_its_folder(tmp_path, signame, code):
    record = tmp_path / "adapter.pid"
    command = shlex.join([sys.executable, str(STANDINS / "records_pid.py"), str(record), "deaf_to_stop.py"])
    kit = _kit(tmp_path, command, "-q")
    try:
        assert kit.stdout.readline().startswith("implementation:")
        _wait_for(record)
        pid, home = record.read_text().split()
        time.sleep(1.0)  # the three cases are answered at once; the kit then waits for stopped (2 s)
        kit.send_signal(getattr(signal, signame))
        assert kit.wait(10) == code
    finally:
        kit.kill()
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid), 0)
    assert not Path(home).parent.exists()


@pytest.mark.parametrize("prefix", ["python:", "python-process:"])
def test_an_implementation_that_calls_os_exit_cannot_end_the_run_green(tmp_path, prefix):
    report = tmp_path / "r.json"
    kit = _kit(tmp_path, prefix + "hostile_impls:ExitsAtOnce", "--report-json", str(report))
    out, err = kit.communicate(timeout=60)
    # its cases errored (in process: os._exit raised instead; in its own process: the process
    # ended), the report is written and the run is not green
    assert kit.returncode == 1 and report.exists(), out + err
    assert "ERRORED kit-echo-text" in out
    if prefix == "python:":
        assert "os._exit(0) called" in out


@pytest.mark.parametrize("prefix", ["python:", "python-process:"])
def test_a_thread_left_by_an_implementation_does_not_hold_the_kit(tmp_path, prefix):
    report = tmp_path / "r.json"
    kit = _kit(tmp_path, prefix + "hostile_impls:LeavesThread", "--report-json", str(report))
    try:
        out, err = kit.communicate(timeout=30)
    finally:
        kit.kill()
    assert kit.returncode == 0, out + err
    assert report.exists()


@pytest.mark.parametrize("prefix", ["python:", "python-process:"])
@pytest.mark.parametrize("impl, words", [("OddOperations", "gave 3 (int)"),
                                         ("StringOperations", "a list of operation names (strings), and gave 'kit.echo' (str)")])
def test_operations_not_a_list_of_names_is_an_adapter_that_could_not_start(tmp_path, prefix, impl, words):
    # a string was read letter by letter, as eight one-letter operations
    kit = _kit(tmp_path, f"{prefix}hostile_impls:{impl}")
    out, err = kit.communicate(timeout=60)
    assert kit.returncode == 3, out + err
    assert "Traceback" not in err and words in err, err


@pytest.mark.parametrize("adapter", ["python:hostile_impls:DeepAnswer", "python:hostile_impls:DeepestAnswer",
                                     "python-process:hostile_impls:DeepestAnswer"])
def test_an_answer_nested_past_the_bound_is_malformed_and_every_report_is_written(tmp_path, adapter):
    # 100,000 deep crashed the kit in process (RecursionError copying it) and the server too
    paths = [tmp_path / name for name in ("r.json", "r.md", "r.xml", "r.html")]
    flags = ["--report-json", "--report-md", "--junit", "--report-html"]
    kit = _kit(tmp_path, adapter, *[x for pair in zip(flags, map(str, paths)) for x in pair])
    out, err = kit.communicate(timeout=120)
    assert kit.returncode == 1, out + err
    assert "Traceback" not in err and "nested more than 100 levels deep" in out
    assert all(p.exists() for p in paths)
