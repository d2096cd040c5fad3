"""An adapter's refusal to start reaches the console escaped in every command that starts one
(``run``, ``diff``, ``invariants``, ``smoke``): its code, message and standard error can neither
colour the terminal nor forge a line of the kit's own."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from tests.test_hostile_text_everywhere import adapter as everywhere, console_is_safe

STANDIN = Path(__file__).parent / "standins" / "refuses_start.py"


@pytest.mark.parametrize("how", ["error", "exit", "everywhere"])
@pytest.mark.parametrize("argv", [
    ["run", "--case", "env-instr-*"],
    ["diff", "--adapter", "reference", "--op", "envelope.instructions", "--examples", "2"],
    ["invariants", "--invariant", "inv-env-context-*", "--examples", "2"],
    ["smoke"],
])
def test_a_hostile_start_refusal_is_shown_escaped(argv, how, capsys):
    adapter = shlex.join([sys.executable, str(STANDIN), how]) if how != "everywhere" else everywhere("refuse")
    code = main([*argv, "--adapter", adapter])
    assert code == 3
    out = capsys.readouterr()
    text = out.out + out.err
    if how == "everywhere":  # every kind of hostile text (tests/standins/hostile_everywhere.py)
        console_is_safe(text)
        assert "FORGED-LINE" in text, "the refusal is shown, not dropped"
        return
    assert "\x1b" not in text and "\u202e" not in text
    forged = [line for line in text.splitlines() if line.startswith("pi-conformance: all passed")]
    assert forged == [], text
    assert "pi-conformance: all passed" in text  # shown, escaped or indented, not dropped
