"""Text an adapter supplies (its name, error codes and messages, reasons, standard error) is shown
escaped on the console, cut when very long, and never breaks a command or a report."""

from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conformance.cli import main
from conformance.output.console import shown, shown_lines

HOSTILE = shlex.join([sys.executable, str(Path(__file__).parent / "standins" / "hostile_text.py")])
NAME = "evil\\x1b[31mred\\ud800\\nfake: all passed"


def assert_safe(text: str) -> None:
    """Nothing raw of the adapter's text reached the console: no control character, no lone
    surrogate, no line of its own at the kit's margins (standard error's lines are its own, in a
    block indented by four spaces), no line of 100,000 characters."""
    assert "\x1b" not in text and "\ud800" not in text and "\x00" not in text and "\u202e" not in text
    assert not [line for line in text.splitlines() if line.startswith(("fake:", " fake:", "  fake:"))], text
    assert max(len(line) for line in text.splitlines()) < 9000


@pytest.mark.parametrize("text, expected", [
    ("evil\x1b[31mred\ud800\nfake: all passed", NAME),
    ("a\tb\rc\x7f\x85\u2028\u202e\u2066", "a\\tb\\rc\\x7f\\x85\\u2028\\u202e\\u2066"),
    ("plain é 中 \u200d \\x1b", "plain é 中 \u200d \\x1b"),
])
def test_shown_escapes_controls_surrogates_and_bidirectional_overrides(text, expected):
    assert shown(text) == expected
    assert shown(shown(text)) == expected


def test_shown_cuts_a_long_piece_saying_how_much():
    assert shown("X" * 100_000, 10) == "XXXXXXXXXX... (99,990 more characters cut)"
    assert shown("X" * 10, 10) == "X" * 10
    assert shown(shown("X" * 2500)) == shown("X" * 2500)  # shown twice, the count stays right
    assert shown_lines("a\x1b\nb") == ["a\\x1b", "b"]


def test_run_shows_adapter_text_escaped_and_writes_every_report(tmp_path, capsys):
    paths = {flag: tmp_path / f"report.{ext}" for flag, ext in
             [("--report-json", "json"), ("--junit", "xml"), ("--report-md", "md"), ("--report-html", "html")]}
    # A case of each operation the stand-in answers (with an error, unsupported, a crash) and of
    # one it does not list: every kind of text it supplies, without restarting it once per case.
    argv = ["run", "--adapter", HOSTILE, "--area", "envelope"]
    for case_id in ("env-instr-custom-alone", "env-payload-replace-both", "env-env-example", "env-build-full"):
        argv += ["--case", case_id]
    for flag, path in paths.items():
        argv += [flag, str(path)]
    code = main(argv)
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert code == 1, out
    assert_safe(out)
    assert f"implementation: {NAME} 0.0.1 (python)" in out
    assert "XXXX... (98,000 more characters cut): \\x00\\u202e\\x1b[31mred\\ud800\\nfake: all passed" in out
    assert "unsupported" in out and "why\\x1b[31mred\\ud800\\nfake: all passed" in out
    assert "    \\x1b[2Jcleared" in out
    report = json.loads(paths["--report-json"].read_text(encoding="utf-8"))
    assert report["header"]["implementation"]["name"] == NAME
    ET.parse(paths["--junit"])
    for flag in ("--report-md", "--report-html"):
        text = paths[flag].read_text(encoding="utf-8")
        assert "\x1b" not in text and "more characters cut" in text


def test_smoke_shows_the_handshake_name_escaped(capsys):
    # The stand-in never answers the malformed check's line: smoke's --timeout ends the wait (it
    # answers every other request at once).
    code = main(["smoke", "--adapter", HOSTILE, "--timeout", "0.3"])
    captured = capsys.readouterr()
    assert code == 1, captured.out
    assert_safe(captured.out + captured.err)
    assert f"handshake   {NAME} 0.0.1 (python)" in captured.out
    assert "no answer within 0.3 s during a raw request" in captured.out


def test_diff_shows_both_answers_escaped_in_a_scenario_that_loads(tmp_path, capsys):
    code = main(["diff", "--adapter", "reference", "--adapter", HOSTILE, "--op", "envelope.instructions",
                 "--examples", "2", "--out", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 1, captured.out
    assert_safe(captured.out + captured.err)
    [written] = tmp_path.glob("*.yaml")
    text = written.read_text(encoding="utf-8")
    assert "more characters cut): \\x00\\u202e\\x1b[31mred\\ud800 fake: all passed" in text
    assert len(YAML(typ="safe", pure=True).load(text)["cases"]) == 1
