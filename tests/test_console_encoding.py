"""A console whose encoding cannot hold an answer's text (``PYTHONIOENCODING=ascii`` or
``latin-1``) loses nothing but the raw characters: they are printed as backslash escapes, the
reports are written and the exit code is the verdict's."""

from __future__ import annotations

import io
import json
import sys

import pytest

from conformance.cli import main
from tests.kit_fixtures import Instructions

ANSWER = "Vous \u00eates relecteur \u2014 \u4e2d"


class Accented(Instructions):
    """Answers env-instr-custom-alone wrongly, with text beyond ASCII and Latin-1."""

    name = "accent\u00e9 \u2014"
    text = ANSWER


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_text_the_console_cannot_encode_is_escaped_and_the_run_completes(encoding, tmp_path, monkeypatch):
    out = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    err = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    report = tmp_path / "r.json"
    code = main(["run", "--adapter", f"python:{__name__}:Accented", "--case", "env-instr-custom-alone",
                 "--report-json", str(report)])
    out.flush()
    printed = out.buffer.getvalue().decode(encoding)
    assert code == 1, printed
    assert "\\u2014" in printed and "+providerInstructions: Vous " in printed
    assert json.loads(report.read_text(encoding="utf-8"))["cases"][0]["actual"]["providerInstructions"] == ANSWER
    assert out.errors == "strict" and err.errors == "strict"  # given back as they were
