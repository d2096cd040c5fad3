"""A battery of hostile probes: implementations in process that change the process's state,
answer data that runs code, raise unbounded or unprintable text; suite files that are FIFOs,
devices, too large or hold a NUL; suite folders that are loops or missing. Each ends in a verdict
or one message with its exit code, never a traceback or a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kit_fixtures import mini_suite

REPO = Path(__file__).resolve().parent.parent
STANDINS = Path(__file__).parent / "standins"


def _run(dirs: dict, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(STANDINS)])}
    return subprocess.run([sys.executable, "-m", "conformance.cli", "run", "-q", *args,
                           "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                           "--golden-dir", str(dirs["golden"])], capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=timeout)


@pytest.mark.parametrize("implementation, code", [
    ("RemovesCwd", 0), ("NoneStdout", 0), ("RecLimit", 0),  # the kit's state is given back after each call
    ("HostileDict", 1), ("HostileException", 1), ("HugeCrash", 1),
])
def test_an_implementation_in_process_cannot_break_the_kit(tmp_path, implementation, code):
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    done = _run(dirs, "--adapter", f"python:hostile_state:{implementation}", "--report-json", str(report))
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    assert "area" in done.stdout  # the console's table was printed: stdout is the kit's again
    assert report.stat().st_size < 200_000  # a 50 MB exception text is cut


def _replace(path: Path, how: str) -> None:
    path.unlink()
    if how == "fifo":
        os.mkfifo(path)
    elif how == "devzero":
        path.symlink_to("/dev/zero")
    elif how == "nul":
        path.write_bytes(b"format: 1\narea: kit\x00\n")
    elif how == "huge":
        path.write_bytes(b"#" * (17 * 1024 * 1024))


@pytest.mark.parametrize("where, how", [
    (where, how) for where in ("scenarios/kit/echo.yaml", "golden/kit/kit-echo-text.yaml", "spec/test.yaml")
    for how in ("fifo", "devzero", "nul", "huge")])
def test_a_suite_file_that_is_no_file_of_text_is_a_suite_error(tmp_path, where, how):
    dirs = mini_suite(tmp_path)
    _replace(tmp_path / where, how)
    done = _run(dirs, timeout=20)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "suite error" in done.stderr
    if where.startswith("spec/") and how != "nul":  # its clause ids cannot be read: the cases citing them are held
        assert "unknown clause" not in done.stderr and "3 case(s) not loaded" in done.stderr


@pytest.mark.parametrize("update", [[], ["--update-goldens", "--case", "kit-echo-text"]])
@pytest.mark.parametrize("how", ["fifo", "socket", "link", "dangling-link"])
def test_a_golden_that_is_no_regular_file_is_one_suite_error(tmp_path, how, update):
    """A FIFO, a socket or a symbolic link in a case's golden place is reported once, when read
    ("not a regular file"; a link is not followed, wherever it points), never also as "not a
    golden ... never read"; ``--update-goldens`` replaces none of them, nor what a link names."""
    import socket

    dirs = mini_suite(tmp_path)
    path = dirs["golden"] / "kit" / "kit-echo-text.yaml"
    outside = tmp_path / "outside.yaml"
    outside.write_text(path.read_text())
    kept = outside.read_text()
    path.unlink()
    if how == "fifo":
        os.mkfifo(path)
    elif how == "socket":
        held = socket.socket(socket.AF_UNIX)
        held.bind(str(path))
    else:
        path.symlink_to(outside if how == "link" else tmp_path / "nowhere.yaml")
    done = _run(dirs, *update, timeout=20)
    assert done.returncode == 2, done.stderr
    said = [line for line in done.stderr.splitlines() if "kit-echo-text.yaml" in line]
    reason = "not followed" if how.endswith("link") else "not a regular file"
    assert len(said) == 1 and reason in said[0], done.stderr
    assert "never read" not in done.stderr and "1 suite error(s)" in done.stderr, done.stderr
    assert path.is_symlink() if how.endswith("link") else not path.is_file(), "--update-goldens replaced what it did not write"
    assert outside.read_text() == kept


@pytest.mark.parametrize("flag", ["--scenarios-dir", "--spec-dir"])
@pytest.mark.parametrize("kind", ["missing", "loop"])
def test_a_suite_folder_that_is_no_folder_is_one_usage_line(tmp_path, flag, kind):
    dirs = mini_suite(tmp_path)
    bad = tmp_path / "bad"
    if kind == "loop":
        bad.symlink_to(bad)
    dirs = {**dirs, flag.strip("-").split("-")[0]: bad}
    done = _run(dirs)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "not a folder" in done.stderr


def test_a_golden_folder_that_is_a_loop_is_one_usage_line(tmp_path):
    dirs = mini_suite(tmp_path)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    done = _run({**dirs, "golden": loop}, "--report-json", str(tmp_path / "r.json"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "--golden-dir" in done.stderr and "not a folder" in done.stderr


def test_a_golden_folder_named_that_does_not_exist_says_to_make_it(tmp_path, capsys):
    """It said to install the kit from its wheel, which a user naming their own folder had done."""
    from conformance.cli import main

    dirs = mini_suite(tmp_path)
    assert main(["run", "-q", "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                 "--golden-dir", str(tmp_path / "none"), "--update-goldens"]) == 2
    err = capsys.readouterr().err
    assert f"--golden-dir {tmp_path / 'none'}: not a folder; make it" in err and "install the kit" not in err, err
