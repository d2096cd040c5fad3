"""Adapter text is escaped in every report: the Markdown report makes no tag, heading or fence of
it, JUnit keeps its CR visible (an XML reader turns a raw one into a line feed), JSON keeps it
exact."""

from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.kit_fixtures import mini_suite
from tests.test_kit_runner import cli

HOSTILE = shlex.join([sys.executable, str(Path(__file__).parent / "standins" / "hostile_report.py")])


def _run(tmp_path):
    dirs = mini_suite(tmp_path)
    paths = {flag: tmp_path / name for flag, name in
             (("--report-md", "r.md"), ("--junit", "r.xml"), ("--report-json", "r.json"))}
    options = [str(x) for pair in paths.items() for x in pair]
    assert cli(dirs, "run", "-q", "--adapter", HOSTILE, *options) == 1
    return paths


def _outside_code_blocks(text: str) -> list[str]:
    """The lines of a Markdown document that are not inside a fenced code block (whose fence is a
    run of backticks closed by the same run)."""
    outside, fence = [], None
    for line in text.splitlines():
        run = line[:len(line) - len(line.lstrip("`"))]
        if fence is None and len(run) >= 3:
            fence = run
        elif fence is not None and line == fence:
            fence = None
        elif fence is None:
            outside.append(line)
    assert fence is None, "a code block left open"
    return outside


def test_the_markdown_report_makes_no_markup_of_adapter_text(tmp_path):
    path = _run(tmp_path)["--report-md"]
    assert b"\r" not in path.read_bytes()
    text = path.read_text()
    outside = "\n".join(_outside_code_blocks(text))
    for raw in ("<img", "<script", "<b>", "<i>"):
        assert raw not in outside, raw
    assert not any(line.startswith("# forged") for line in _outside_code_blocks(text))
    assert "onerror=alert(1)" in text  # shown, not dropped


def test_junit_keeps_a_cr_visible_and_the_json_report_keeps_it_exact(tmp_path):
    paths = _run(tmp_path)
    assert b"\r" not in paths["--junit"].read_bytes()
    root = ET.parse(paths["--junit"]).getroot()
    assert "\\r" in root.get("name")
    failures = [e for e in root.iter() if e.tag in ("failure", "error")]
    assert failures and all("\r" not in (e.text or "") + e.get("message", "") for e in failures)
    assert any("\\r" in (e.text or "") for e in failures)
    json.loads(paths["--report-json"].read_text())  # well-formed whatever the adapter wrote


def test_junit_shows_the_cr_of_an_in_process_implementation(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "standins"))
    dirs = mini_suite(tmp_path)
    junit = tmp_path / "r.xml"
    assert cli(dirs, "run", "-q", "--adapter", "python:hostile_impls:CarriageReturns", "--junit", str(junit)) == 1
    assert b"\r" not in junit.read_bytes()
    texts = [(e.text or "") + e.get("message", "") for e in ET.parse(junit).getroot().iter() if e.tag == "failure"]
    assert texts and all("first line\\r\nsecond line" in t or "first line\\r" in t for t in texts)
