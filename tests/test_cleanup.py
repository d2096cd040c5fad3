"""Clean-up at any depth and with any permissions: the kit removes the case trees and scratch
folders it made whatever an implementation left in them, without following a link out of them,
and a leftover of a run killed outright never stops a later run."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from conformance.cli import main
from tests.kit_fixtures import UNMEASURED, deep_chain

STANDINS = Path(__file__).parent / "standins"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


UNMEASURED_ARGS = [item for name, value in UNMEASURED.extra.items() for item in ("--adapter-env", f"{name}={value}")]


def test_a_folder_deeper_than_recursion_and_path_length_is_removed_whatever_its_modes(deep_tmp):
    from conformance.output.removal import remove_tree

    outside = deep_tmp / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept")
    top = deep_tmp / "top"
    deep_chain(top / "chain", 3000)
    (top / "link").symlink_to(outside, target_is_directory=True)
    (top / "locked").mkdir()
    (top / "locked" / "f").write_text("x")
    (top / "locked").chmod(0o000)
    top.chmod(0o500)
    assert remove_tree(top) is True
    assert not os.path.lexists(top)
    assert (outside / "keep.txt").read_text() == "kept", "a link is removed, never followed"
    assert remove_tree(top) is True, "a folder already gone is removed"


def test_a_file_or_a_link_is_removed_itself(deep_tmp):
    from conformance.output.removal import remove_tree

    target = deep_tmp / "target"
    target.mkdir()
    (target / "f").write_text("x")
    (deep_tmp / "link").symlink_to(target, target_is_directory=True)
    assert remove_tree(deep_tmp / "link") and (target / "f").exists()
    (deep_tmp / "file").write_text("x")
    assert remove_tree(deep_tmp / "file") and not (deep_tmp / "file").exists()


def test_a_run_whose_adapter_litters_deep_locked_folders_finishes_and_leaves_nothing(deep_tmp, monkeypatch, capsys):
    tmp = deep_tmp / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)
    report = deep_tmp / "report.json"
    adapter = shlex.join([sys.executable, str(STANDINS / "deep_litter.py"), "--provides", "profiles.load"])
    code = main(["run", "--adapter", adapter, "--case", "prof-load-symlink-dangling", "--report-json", str(report),
                 *UNMEASURED_ARGS])
    assert code == 0, capsys.readouterr()
    results = json.loads(report.read_text())["cases"]
    assert [r["status"] for r in results] == ["unsupported"], results
    assert list(tmp.iterdir()) == [], "the case's tree and the adapter's scratch folder are removed"


def test_deep_locked_leftovers_of_a_killed_run_do_not_stop_the_next_run(deep_tmp, monkeypatch, capsys):
    from conformance.adapters.environment import SCRATCH_PREFIX
    from conformance.judge.runner import TREE_PREFIX

    tmp = deep_tmp / "tmp"
    dead = _dead_pid()
    for prefix in (TREE_PREFIX, SCRATCH_PREFIX):
        deep_chain(tmp / f"{prefix}{dead}-left", 2000)
        (tmp / f"{prefix}{dead}-left").chmod(0o000)
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr("conformance.adapters.environment._swept", set())
    report = deep_tmp / "report.json"
    adapter = shlex.join([sys.executable, str(STANDINS / "well_behaved.py"), "--provides", "profiles.load"])
    code = main(["run", "--adapter", adapter, "--case", "prof-load-symlink-dangling", "--report-json", str(report),
                 *UNMEASURED_ARGS])
    assert code == 0, capsys.readouterr()
    assert [r["status"] for r in json.loads(report.read_text())["cases"]] == ["unsupported"]
    assert list(tmp.iterdir()) == [], "both leftovers are swept"
