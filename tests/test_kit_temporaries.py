"""The kit's temporary files (an atomic write's, beside a report, a golden, a cache entry) are
named by one pattern that carries the writer's host and process id, so that the leftovers of a
kit killed outright are recognisable: the next write into the same folder, and a run's start
(its report folders, its golden folder), remove those whose process no longer runs and that are
older than :data:`conformance.output.files.STALE_AFTER`, and no other file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.output import files

ROOT = Path(__file__).resolve().parent.parent

KILLED_WRITER = """\
import os, signal, sys
from pathlib import Path
from conformance.output import files

def killed(src, dst):  # the kit killed outright between writing the temporary and the rename
    os.kill(os.getpid(), signal.SIGKILL)

os.replace = killed
files.atomic_write_text(Path(sys.argv[1]), "half of a report")
"""


@pytest.fixture(autouse=True)
def fresh_sweeps(monkeypatch):
    """Each test sweeps its folders afresh (a process sweeps each folder once)."""
    monkeypatch.setattr(files, "_swept", set())


def _killed_write(target: Path) -> tuple[int, Path]:
    """Run a writer of ``target`` killed before its rename; its process id and its leftover."""
    before = set(target.parent.iterdir()) if target.parent.exists() else set()
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(target)], cwd=ROOT,
                            env={**os.environ, "COVERAGE_PROCESS_START": "", "COVERAGE_PROCESS_CONFIG": ""})
    assert proc.wait() == -9
    (leftover,) = set(target.parent.iterdir()) - before
    return proc.pid, leftover


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def _dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(proc.stdout)


def test_a_killed_writer_leaves_a_temporary_that_names_its_host_and_process(tmp_path):
    pid, leftover = _killed_write(tmp_path / "report.json")
    assert files.temporary_owner(leftover.name) == (files.this_host(), pid), leftover.name
    assert re.fullmatch(r"\.report\.json\.pi-conformance-tmp~[A-Za-z0-9._-]+~\d+~\w{8}", leftover.name)
    assert not (tmp_path / "report.json").exists()


def test_the_next_write_removes_only_stale_temporaries_of_dead_writers(tmp_path):
    pid, stale = _killed_write(tmp_path / "report.json")
    _age(stale, files.STALE_AFTER + 60)
    _, young = _killed_write(tmp_path / "young.json")  # dead, but too recent to be sure of
    host, dead = files.this_host(), _dead_pid()
    kept = {
        "alive": f".r.json.pi-conformance-tmp~{host}~{os.getppid()}~abcdefgh",
        "other host": f".r.json.pi-conformance-tmp~elsewhere.example~{dead}~abcdefgh",
        "old pattern": ".report.json-abcdefgh",
        "near miss": f".r.json.pi-conformance-tmp~{host}~{dead}~abcdefg",
        "user's own": "notes.txt",
        "user's hidden": f".pi-conformance-tmp~{host}~{dead}~abcdefgh.keep",
    }
    for name in kept.values():
        _age(files_made(tmp_path / name), files.STALE_AFTER + 60)
    link_target = tmp_path / "linked"
    link_target.write_text("not the kit's")
    link = tmp_path / f".l.json.pi-conformance-tmp~{host}~{dead}~abcdefgh"
    link.symlink_to(link_target)
    _age(link, files.STALE_AFTER + 60)
    folder = tmp_path / f".f.json.pi-conformance-tmp~{host}~{dead}~abcdefgh"
    (folder / "inside").mkdir(parents=True)
    _age(folder, files.STALE_AFTER + 60)

    files.atomic_write_text(tmp_path / "other.json", "{}")

    names = {p.name for p in tmp_path.iterdir()}
    assert stale.name not in names, "the stale temporary of a killed writer is removed"
    assert link.name not in names and link_target.read_text() == "not the kit's", "a link is removed, never followed"
    assert folder.name not in names, "a stale temporary folder (an install's) is removed whole"
    assert young.name in names, "a temporary younger than STALE_AFTER is kept"
    for why, name in kept.items():
        assert name in names, f"{why}: {name} removed"
    assert "other.json" in names


def files_made(path: Path) -> Path:
    path.write_text("x")
    return path


def test_a_run_removes_stale_temporaries_beside_its_reports_and_in_its_golden_folder(tmp_path, monkeypatch, capsys):
    from tests.kit_fixtures import mini_suite

    dirs = mini_suite(tmp_path / "suite")
    reports = tmp_path / "reports"
    _, by_report = _killed_write(reports / "r.json")
    _, by_golden = _killed_write(dirs["golden"] / "kit" / "kit-echo-text.yaml")
    for leftover in (by_report, by_golden):
        _age(leftover, files.STALE_AFTER + 60)
    monkeypatch.setattr(files, "_swept", set())  # the suite's goldens were written by this process
    monkeypatch.chdir(tmp_path)
    code = main(["run", "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                 "--golden-dir", str(dirs["golden"]), "--adapter", "python:tests.kit_fixtures:Echo", "--report-md", str(reports / "r.md"), "-q"])
    out = capsys.readouterr()
    assert code == 0, out
    assert not by_report.exists(), "a run's report folder is swept at its start"
    assert not by_golden.exists(), "a run's golden folder is swept at its start"
    assert "not a golden" not in out.out + out.err


def test_a_temporary_of_a_running_writer_in_the_golden_folder_is_no_suite_error(tmp_path, monkeypatch, capsys):
    from tests.kit_fixtures import mini_suite

    dirs = mini_suite(tmp_path / "suite")
    running = dirs["golden"] / "kit" / f".kit-echo-text.yaml.pi-conformance-tmp~{files.this_host()}~{os.getppid()}~abcdefgh"
    running.write_text("being written")
    monkeypatch.chdir(tmp_path)
    code = main(["run", "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                 "--golden-dir", str(dirs["golden"]), "--adapter", "python:tests.kit_fixtures:Echo", "-q"])
    out = capsys.readouterr()
    assert code == 0 and running.exists(), out


def test_the_parse_cache_removes_stale_temporaries_only(tmp_path, cache, monkeypatch):
    from conformance.corpus import yamlcache

    monkeypatch.setattr(yamlcache, "_written", {})
    cache.mkdir(parents=True)
    (cache.parent / yamlcache.TAG).write_text(yamlcache._TAG_TEXT)  # the kit's folder, as after its first use
    _, stale = _killed_write(cache / ("a" * 64 + ".json"))
    _age(stale, files.STALE_AFTER + 60)
    own = cache / ".not-a-temporary"
    own.write_text("x")
    _age(own, 7200)
    yamlcache.put("b" * 64, "{}")
    assert not stale.exists() and own.exists()


def test_a_long_name_still_makes_a_temporary_of_the_pattern(tmp_path):
    target = tmp_path / ("r" * 250)
    files.atomic_write_text(target, "x")
    assert target.read_text() == "x"
    name = files.temporary_name(target.name)
    assert len(name.encode()) <= 255 - 8 and files.temporary_owner(name + "abcdefgh") == (files.this_host(), os.getpid())
