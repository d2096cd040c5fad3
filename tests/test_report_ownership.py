"""A report path never replaces a file the kit did not write (:mod:`conformance.output.ownership`):
a README, ``.git/HEAD`` or an adapter's program named as a report, a diff case or a history page is
refused with the usage code and one line, and left as it was; the kit's own earlier reports of
every kind, and an empty file, are replaced."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.output.ownership import OPENINGS, kit_wrote

RUN = ["run", "-q", "--case", "env-payload-replace-both"]
USERS = {"README.md": "# My project\n", "HEAD": "ref: refs/heads/main\n",
         "my_impl.py": "#!/usr/bin/env python3\nprint('hello')\n"}


@pytest.mark.parametrize("name", sorted(USERS))
@pytest.mark.parametrize("flag", ["--report-json", "--junit", "--report-md", "--report-html"])
def test_a_run_report_over_a_users_file_is_refused_and_the_file_kept(tmp_path, capsys, flag, name):
    target = tmp_path / name
    target.write_text(USERS[name])
    assert main([*RUN, flag, str(target)]) == 2
    err = capsys.readouterr().err
    assert "not a file pi-conformance wrote" in err and len(err.strip().splitlines()) == 1
    assert target.read_text() == USERS[name]


def test_a_report_through_a_link_to_a_users_file_is_refused(tmp_path, capsys):
    mine = tmp_path / "notes.txt"
    mine.write_text("mine\n")
    (tmp_path / "r.json").symlink_to(mine)
    assert main([*RUN, "--report-json", str(tmp_path / "r.json")]) == 2
    assert mine.read_text() == "mine\n"


def test_every_kind_of_run_report_is_recognised_and_replaced(tmp_path, capsys):
    paths = {flag: tmp_path / f"r{n}" for n, flag in enumerate(["--report-json", "--junit", "--report-md",
                                                                  "--report-html"])}
    argv = [*RUN] + [x for flag, path in paths.items() for x in (flag, str(path))]
    assert main(argv) == 0
    for path in paths.values():
        assert kit_wrote(path), path
        path.write_bytes(path.read_bytes())  # the kit's own, left as written
    assert main(argv) == 0, capsys.readouterr().err


def test_an_empty_file_is_replaced(tmp_path):
    (tmp_path / "r.json").write_text("")
    assert main([*RUN, "--report-json", str(tmp_path / "r.json")]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["header"]["suite"]


def test_faults_and_invariants_reports_are_recognised(tmp_path, capsys):
    inv = tmp_path / "inv.json"
    assert main(["invariants", "--examples", "1", "--report-json", str(inv)]) == 0
    assert kit_wrote(inv) and main(["invariants", "--examples", "1", "--report-json", str(inv)]) == 0
    inv.write_text("# mine\n")
    assert main(["invariants", "--examples", "1", "--report-json", str(inv)]) == 2
    assert inv.read_text() == "# mine\n"


@pytest.mark.parametrize("text", ["hello", '{"header": 1}', "<?xml version='1.0'?><testsuites name=\"x\">",
                                  "<!DOCTYPE html><title>Mine</title>", "# Conformance", "#!/bin/sh\n"])
def test_a_lookalike_is_not_the_kits(tmp_path, text):
    (tmp_path / "f").write_text(text)
    assert not kit_wrote(tmp_path / "f")


def test_openings_are_each_needed():
    assert len(set(OPENINGS.values())) == len(OPENINGS)


def test_history_out_over_users_files_is_refused(tmp_path):
    (tmp_path / "history.html").write_text("<html>mine</html>\n")
    done = subprocess.run([sys.executable, "-m", "conformance.cli", "history", "--out", str(tmp_path),
                           "--adapter", "reference", "--adapter", "serve-reference", "--area", "envelope", "--case", "env-payload-replace-both"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "not a file pi-conformance wrote" in done.stderr
    assert (tmp_path / "history.html").read_text() == "<html>mine</html>\n"


def test_diff_out_over_a_users_file_writes_none_and_is_refused(tmp_path, capsys):
    from tests.test_diff import IN_PROCESS

    argv = ["diff", "--adapter", "reference", "--adapter", IN_PROCESS["tpl-args-empty-dropped"],
            "--op", "pi.parse-args", "--examples", "30", "--out", str(tmp_path)]
    assert main(argv) == 1
    written = sorted(tmp_path.glob("*.yaml"))
    assert written and all(kit_wrote(p) for p in written)
    assert main(argv) == 1  # its own cases, replaced
    written[0].write_text("cases: []  # mine\n")
    capsys.readouterr()
    assert main(argv) == 2
    assert "not a file pi-conformance wrote" in capsys.readouterr().err
    assert written[0].read_text() == "cases: []  # mine\n"


def test_invariants_scenario_over_a_users_file_is_refused(tmp_path, capsys):
    import conformance.commands.invariants as inv

    argv = ["--adapter", "python:tests.test_invariants:OnlyParseArgs", "--examples", "5",
            "--scenario-dir", str(tmp_path)]
    assert inv.main(argv) == 1
    found = tmp_path / "inv-tpl-args-requote.yaml"
    assert kit_wrote(found) and inv.main(argv) == 1
    found.write_text("mine\n")
    assert inv.main(argv) == 2 and found.read_text() == "mine\n"
