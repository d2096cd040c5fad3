"""Bidirectional controls in an adapter's answer never reach the console or a report raw: they
would reorder what a person reads (``reviewer.\\u202e.hsilgnE`` reads ``reviewer.English.``).
The console, Markdown and JUnit write them as ``\\u202e``; the HTML report draws them as named
signs; the JSON report keeps the data exact, written with JSON's own ``\\u202e`` escape."""

from __future__ import annotations

import json

import pytest

from conformance.judge import diffs
from conformance.cli import main
from conformance.output.console import BIDI_CONTROLS, bidi_escaped
from conformance.output.reports import xml_text
from conformance.output.site import visible
from tests.kit_fixtures import Instructions

ALL = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
TEXT = "You are a reviewer.\u202e  .hsilgnE ni rewsna syawlA"


def test_the_controls_are_every_bidirectional_control():
    assert BIDI_CONTROLS == set(ALL)


@pytest.mark.parametrize("char", ALL)
def test_each_control_is_escaped_by_every_writer(char):
    escaped = f"\\u{ord(char):04x}"
    assert bidi_escaped(f"a{char}b") == f"a{escaped}b"
    assert diffs.visible(f"+a{char}b\n") == f"+a{escaped}b\n"
    assert xml_text(f"a{char}b") == f"a{escaped}b"
    assert char not in visible(f"a{char}b") and 'class="ws"' in visible(f"a{char}b")


class Reversed(Instructions):
    """Answers env-instr-custom-alone with the golden and a right-to-left override after it."""

    name = "reversed"
    text = TEXT


def test_an_answer_s_bidirectional_control_reaches_no_output_raw(tmp_path, capsys):
    paths = {flag: tmp_path / f"r.{ext}" for flag, ext in
             [("--report-json", "json"), ("--junit", "xml"), ("--report-md", "md"), ("--report-html", "html")]}
    argv = ["run", "--adapter", f"python:{__name__}:Reversed", "--case", "env-instr-custom-alone"]
    for flag, path in paths.items():
        argv += [flag, str(path)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    texts = {flag: path.read_text(encoding="utf-8") for flag, path in paths.items()}
    texts["console"] = captured.out + captured.err
    for where, text in texts.items():
        assert not set(text) & BIDI_CONTROLS, where
    for where in ("console", "--report-md", "--junit"):
        assert "reviewer.\\u202e  .hsilgnE" in texts[where], where
    assert '<span class="ws" title="right-to-left override">⸢RLO⸣</span>  .hsilgnE' in texts["--report-html"]
    [case] = json.loads(texts["--report-json"])["cases"]
    assert case["actual"] == {"providerInstructions": TEXT}  # the data exact


def test_diff_quotes_an_answer_s_bidirectional_control_escaped(tmp_path, capsys):
    assert main(["diff", "--adapter", "reference", "--adapter", f"python:{__name__}:Reversed",
                 "--op", "envelope.instructions", "--examples", "2", "--out", str(tmp_path)]) == 1
    [written] = tmp_path.glob("*.yaml")
    for text in (capsys.readouterr().out, written.read_text(encoding="utf-8")):
        assert not set(text) & BIDI_CONTROLS and "reviewer.\\u202e  .hsilgnE" in text
