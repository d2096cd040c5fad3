"""The console the kit is given may be hostile: a standard output that is full (``> /dev/full``),
closed (``>&-``) or whose reader leaves (``| head -1``), an ASCII-only console and file system
(``PYTHONUTF8=0 LC_ALL=C PYTHONIOENCODING=ascii``), a working folder removed under the shell, a
golden folder that cannot be written under ``--update-goldens``. Each ends in one line on standard
error and the exit code docs/running.md gives, never a traceback, and loses no verdict or report.
Every probe runs the kit as a program, in a process of its own."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.judge import golden
from tests.kit_fixtures import mini_suite

REPO = Path(__file__).resolve().parent.parent
ASCII = {"PYTHONUTF8": "0", "LC_ALL": "C", "PYTHONIOENCODING": "ascii", "LANG": "C"}


def _argv(dirs: dict, *args: str, adapter: str = "python:tests.kit_fixtures:Echo") -> list[str]:
    return [sys.executable, "-m", "conformance.cli", *args, "--adapter", adapter,
            "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]), "--golden-dir", str(dirs["golden"])]


def _env(**extra: str) -> dict:
    return {**os.environ, "PYTHONPATH": str(REPO), **extra}


def _one_line(stderr: str, text: str) -> None:
    """``stderr`` holds no traceback and says ``text`` on exactly one line."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if text in line]
    assert len(lines) == 1, stderr


def _statuses(report: Path) -> list[str]:
    return [c["status"] for c in json.loads(report.read_text(encoding="utf-8"))["cases"]]


@pytest.mark.parametrize("implementation, code", [("Echo", 2), ("WrongEcho", 1)])
def test_a_full_standard_output_loses_the_console_text_only(tmp_path, implementation, code):
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    with open("/dev/full", "w") as full:
        done = subprocess.run(_argv(dirs, "run", "--report-json", str(report),
                                    adapter=f"python:tests.kit_fixtures:{implementation}"),
                              stdout=full, stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path, timeout=120)
    # a passing run whose console was lost is not 0: a script must not take it for a whole one
    assert done.returncode == code, done.stderr
    _one_line(done.stderr, "standard output cannot be written (No space left on device)")
    assert len(_statuses(report)) == 3


@pytest.mark.parametrize("args", [["list"], ["show", "kit-echo-text"], ["editions"], ["coverage"]])
def test_a_command_whose_product_is_its_output_fails_on_a_full_output(tmp_path, args):
    dirs = mini_suite(tmp_path)
    argv = [a for a in _argv(dirs, *args) if a not in ("--adapter", "python:tests.kit_fixtures:Echo")]
    if args == ["editions"]:
        argv = argv[:4]
    with open("/dev/full", "w") as full:
        done = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path,
                              timeout=120)
    assert done.returncode == 2, done.stderr
    _one_line(done.stderr, "standard output cannot be written (No space left on device)")


def test_a_closed_standard_output_loses_the_console_text_only(tmp_path):
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    shell = 'exec "$@" >&-'
    done = subprocess.run(["sh", "-c", shell, "sh", *_argv(dirs, "run", "--report-json", str(report))],
                          stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr
    _one_line(done.stderr, "standard output cannot be written (it is closed)")
    assert _statuses(report) == ["passed"] * 3


def test_a_reader_that_leaves_after_one_line_costs_the_rest_of_the_console_only(tmp_path):
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    kit = subprocess.Popen(_argv(dirs, "run", "--report-json", str(report), adapter="python:tests.kit_fixtures:WrongEcho"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), cwd=tmp_path)
    assert kit.stdout.readline().startswith(b"implementation:")  # as `| head -1` reads it
    kit.stdout.close()
    stderr = kit.stderr.read().decode()
    assert kit.wait(timeout=120) == 1, stderr  # the verdict's code: the reader chose to stop
    _one_line(stderr, "standard output was closed by its reader")
    assert _statuses(report) == ["failed"] * 3


def test_an_ascii_console_and_file_system_judge_as_any_other(tmp_path):
    """Under the C locale with UTF-8 mode off, Python's file system encoding is ASCII: a case
    whose tree holds ``café.md`` could not be written (a UnicodeEncodeError traceback)."""
    report = tmp_path / "r.json"
    argv = [sys.executable, "-m", "conformance.cli", "run", "--case", "prof-load-bad-ids", "--case", "env-instr-*",
            "--report-json", str(report)]
    done = subprocess.run(argv, capture_output=True, env=_env(**ASCII), cwd=tmp_path, timeout=120)
    stderr = done.stderr.decode("ascii")
    assert done.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert set(_statuses(report)) == {"passed"}
    shown = subprocess.run([sys.executable, "-m", "conformance.cli", "show", "prof-load-bad-ids"], capture_output=True,
                           env=_env(**ASCII), cwd=tmp_path, timeout=120)
    assert shown.returncode == 0 and b"caf\\xe9.md" in shown.stdout, shown.stderr


@pytest.mark.parametrize("args", [["run", "-q", "--area", "envelope"], ["list"], ["docs", "--out", "/tmp/never-written"]])
def test_a_removed_working_folder_is_one_line_and_exit_2(tmp_path, args):
    gone = tmp_path / "gone"
    gone.mkdir()
    argv = [sys.executable, "-m", "conformance.cli", *args]
    shell = 'cd "$1" && rmdir "$1" && shift && exec "$@"'
    done = subprocess.run(["sh", "-c", shell, "sh", str(gone), *argv], capture_output=True, text=True,
                          env=_env(), timeout=120)
    assert done.returncode == 2, done.stderr
    _one_line(done.stderr, "the working folder no longer exists")
    assert not Path("/tmp/never-written").exists()


def test_a_golden_folder_that_cannot_be_written_under_update_goldens(tmp_path, monkeypatch, capsys):
    """Writes into the golden folder refused as on a read-only mount (root, who runs CI, writes a
    folder without write permission, so a permission bit cannot stand in for it)."""
    from conformance.cli import main
    from conformance.output import files

    dirs = mini_suite(tmp_path, goldens=False)
    golden.write(dirs["golden"] / "kit" / "kit-echo-number.yaml", "kit-echo-number", "kit.echo", {"value": 1})
    real = files.atomic_write_bytes

    def refused(path, data):
        if Path(path).parent == dirs["golden"] / "kit":
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real(path, data)

    monkeypatch.setattr(files, "atomic_write_bytes", refused)
    report = tmp_path / "r.json"
    code = main(["run", "--update-goldens", "--report-json", str(report), "--scenarios-dir", str(dirs["scenarios"]),
                 "--spec-dir", str(dirs["spec"]), "--golden-dir", str(dirs["golden"])])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    lines = [line for line in err.splitlines() if "cannot write goldens there" in line]
    assert len(lines) == 1 and "Read-only file system" in lines[0] and "1 not written" in lines[0], err
    by_id = {c["id"]: c for c in json.loads(report.read_text())["cases"]}
    assert by_id["kit-echo-text"]["status"] == "errored" and "golden not written" in by_id["kit-echo-text"]["message"]
    assert by_id["kit-echo-number"]["status"] == "passed"  # its golden was already right
    assert not (dirs["golden"] / "kit" / "kit-echo-text.yaml").exists()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes a folder without write permission")
def test_a_golden_folder_without_write_permission_under_update_goldens(tmp_path):
    dirs = mini_suite(tmp_path, goldens=False)
    (dirs["golden"] / "kit").mkdir()
    (dirs["golden"] / "kit").chmod(0o555)
    try:
        done = subprocess.run(_argv(dirs, "run", "--update-goldens", adapter="reference"), capture_output=True,
                              text=True, env=_env(), cwd=tmp_path, timeout=120)
    finally:
        (dirs["golden"] / "kit").chmod(0o755)
    assert done.returncode == 2, done.stderr
    _one_line(done.stderr, "cannot write goldens there")


def test_a_tree_name_the_file_system_encoding_cannot_hold_is_an_error_not_a_traceback(tmp_path):
    """Outside the program (the pytest plugin, a script), nothing starts Python again in UTF-8
    mode: the tree is refused with a reason, which the runner makes the case's error."""
    script = ("import sys\nfrom pathlib import Path\nfrom conformance.corpus.trees import TreeEntry, materialise\n"
              "try:\n    materialise({'caf\\u00e9.md': TreeEntry(text='x')}, Path(sys.argv[1]))\n"
              "except OSError as exc:\n    print(ascii(str(exc)))\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          env=_env(**ASCII), timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    assert "cannot be written in the file system's encoding (ascii)" in done.stdout, done.stdout
    assert list(tmp_path.iterdir()) == []
