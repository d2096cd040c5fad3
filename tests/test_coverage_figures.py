"""``benchmarks/coverage_figures.py``, the last step of the README's test command: its figures,
its branch floor (which fails the command) and the coverage report it prints alongside."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "coverage_figures", Path(__file__).resolve().parent.parent / "benchmarks" / "coverage_figures.py")
figures_script = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(figures_script)


def _file(statements: int, covered: int, branches: int, covered_branches: int) -> dict:
    return {"summary": {"num_statements": statements, "covered_lines": covered, "num_branches": branches,
                        "covered_branches": covered_branches}}


DATA = {"files": {
    "reference/a.py": _file(10, 9, 1000, 950),
    "reference/b.py": _file(10, 10, 1000, 999),  # reference: 1949 of 2000 branches, 97.45%
    "conformance/c.py": _file(4, 1, 2, 1),
    "tests/t.py": _file(100, 0, 100, 0),  # neither package: left out
}}


def test_figures_sum_each_package_and_round_down():
    rows = figures_script.figures(DATA)
    assert rows["reference"] == {"statements": 20, "covered_lines": 19, "branches": 2000, "covered_branches": 1949}
    assert rows["conformance"]["statements"] == 4
    assert figures_script.percent(1949, 2000) == 97.4  # 97.45 never shows as 97.5
    assert figures_script.percent(0, 0) == 100.0


@pytest.mark.parametrize("floor, code", [("reference=97.4", 0), ("reference=97.5", 1), ("conformance=50", 0),
                                         ("conformance=50.1", 1)])
def test_the_branch_floor_fails_the_step_under_it(monkeypatch, capsys, floor, code):
    monkeypatch.setattr(figures_script, "load", lambda data_file: DATA)
    assert figures_script.main(["--fail-under-branch", floor]) == code
    assert ("is under" in capsys.readouterr().err) == bool(code)


def _standing_report(text: str, code: int):
    def start(data_file):
        return subprocess.Popen([sys.executable, "-c", f"print({text!r}); raise SystemExit({code})"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return start


def test_the_report_is_printed_before_the_figures(monkeypatch, capsys):
    monkeypatch.setattr(figures_script, "load", lambda data_file: DATA)
    monkeypatch.setattr(figures_script, "start_report", _standing_report("THE REPORT", 0))
    assert figures_script.main(["--report", "--fail-under-branch", "reference=95"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("THE REPORT\n") and "reference/" in out


def test_a_failing_report_fails_the_step(monkeypatch, capsys):
    monkeypatch.setattr(figures_script, "load", lambda data_file: DATA)
    monkeypatch.setattr(figures_script, "start_report", _standing_report("No data to report.", 1))
    assert figures_script.main(["--report"]) == 1
    assert "No data to report." in capsys.readouterr().out
