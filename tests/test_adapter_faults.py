"""An adapter that fails during ``diff`` or ``invariants`` (it crashes and the kit restarts it, or
it answers the same input differently) is reported plainly, with its own reason, never as a
hypothesis traceback."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from conformance.cli import main

STANDINS = Path(__file__).parent / "standins"
STANDIN = STANDINS / "unreliable.py"


def unreliable(*args: str) -> str:
    return shlex.join([sys.executable, str(STANDIN), *args])


def test_diff_reports_an_adapter_that_crashes_mid_run_with_its_reason(capsys):
    code = main(["diff", "--adapter", "reference", "--adapter", unreliable("crash", "3"),
                 "--op", "envelope.instructions", "--examples", "3"])
    captured = capsys.readouterr()
    assert code == 1, captured.out
    assert "Traceback" not in captured.out + captured.err and "Flaky" not in captured.out + captured.err
    fault = [line for line in captured.out.splitlines() if line.startswith("ADAPTER-FAULT ")]
    assert len(fault) == 1, captured.out
    assert "exited with code 9" in fault[0] and "its standard error ended: unreliable: crash" in fault[0]
    assert 'failed on {"input": ' in fault[0]
    assert "fault     envelope.instructions (" in captured.out
    assert "1 operations stopped by an adapter's fault" in captured.out


@pytest.mark.parametrize("standin, said", [
    ("crashes.py", "exited with code 3 during envelope.instructions (seq 1); its standard error ended: crashes: about "
                   "to fail\\nRuntimeError: crashing on purpose"),
    ("hangs.py", "no answer within 0.5 s during envelope.instructions (seq 1); its standard error ended: hangs: sleeping"),
])
def test_diff_reports_an_adapter_that_always_fails_as_its_fault_not_a_disagreement(capsys, tmp_path, standin, said):
    # every request fails alike, so no answer differs when sent again: it was printed as a
    # disagreement, shrunk to `input: {}`, with a scenario to save and the crash in a comment
    adapter = shlex.join([sys.executable, str(STANDINS / standin), "--always", "--provides", "envelope.instructions"])
    code = main(["diff", "--adapter", "reference", "--adapter", adapter, "--op", "envelope.instructions",
                 "--examples", "3", "--timeout", "0.5", "--out", str(tmp_path / "found")])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "DISAGREEMENT" not in out and "0 disagreements" in out
    assert not (tmp_path / "found").exists()  # --out is made only to hold a disagreement
    fault = [line for line in out.splitlines() if line.startswith(f"ADAPTER-FAULT envelope.instructions: {adapter} ")]
    assert len(fault) == 1 and 'failed on {"input": ' in fault[0] and said in fault[0], out
    assert "fault     envelope.instructions (1 examples," in out


def test_diff_reports_an_adapter_that_answers_the_same_input_differently(capsys):
    code = main(["diff", "--adapter", "reference", "--adapter", unreliable("fickle"), "--examples", "3"])
    captured = capsys.readouterr()
    assert code == 1, captured.out
    assert "Traceback" not in captured.out + captured.err
    fault = [line for line in captured.out.splitlines() if line.startswith("ADAPTER-FAULT envelope.instructions: ")]
    assert len(fault) == 1, captured.out
    assert "answered the same example differently" in fault[0]
    assert "first error FICKLE; then unsupported" in fault[0] and '{"input": ' in fault[0]
    assert "0 disagreements" in captured.out


def test_invariants_report_the_adapters_own_failure(capsys):
    code = main(["invariants", "--adapter", unreliable("crash", "2"), "--examples", "3",
                 "--invariant", "inv-env-context-blank-file"])
    captured = capsys.readouterr()
    assert code == 1, captured.out
    out = captured.out
    assert "Flaky" not in out and "Traceback" not in out, out
    assert ("the adapter failed: envelope.context-message: " in out and "exited with code 9" in out
            and "its standard error ended: unreliable: crash" in out), out


def _echo_answer(adapter: str, monkeypatch):
    """The answer of ``adapter`` (the stand-ins' folder on its paths) to one ``kit.echo``."""
    from conformance.adapters.connect import make_adapter

    monkeypatch.syspath_prepend(str(STANDINS))
    monkeypatch.setenv("PYTHONPATH", str(STANDINS))
    made = make_adapter(adapter)
    made.start()
    try:
        return made.run("kit.echo", {"value": 1}, root=None, timeout=10)
    finally:
        made.stop()


@pytest.mark.parametrize("adapter", [
    "python:non_object_impl:NonObject",  # run in process
    "python-process:non_object_impl:NonObject",  # served by the kit's own server
    shlex.join([sys.executable, str(STANDINS / "non_object.py")]),  # a process writing "output": null
])
def test_a_result_that_is_not_an_object_is_an_adapter_error_in_the_kits_words(adapter, monkeypatch):
    answer = _echo_answer(adapter, monkeypatch)
    assert answer.kind == "errored", answer
    assert "malformed 'result'" in answer.message and "null, not an object" in answer.message, answer.message
    assert "NoneType" not in answer.message and "Output" not in answer.message


@pytest.mark.parametrize("value, said", [("[1]", "an array"), ('"x"', "a string"), ("3", "a number"),
                                         ("true", "a boolean")])
def test_each_kind_of_non_object_output_is_named_as_json_names_it(value, said):
    from conformance.adapters.connect import make_adapter

    made = make_adapter(shlex.join([sys.executable, str(STANDINS / "non_object.py"), value]))
    made.start()
    try:
        answer = made.run("kit.echo", {"value": 1}, root=None, timeout=10)
    finally:
        made.stop()
    assert answer.kind == "errored" and f"{said}, not an object" in answer.message, answer.message


@pytest.mark.parametrize("option", ["", "--malformed"])
def test_the_stderr_tail_of_an_errored_case_holds_only_what_the_adapter_wrote_during_it(option):
    from conformance.adapters.connect import make_adapter

    made = make_adapter(shlex.join([sys.executable, str(STANDINS / "errors_each_case.py"), *filter(None, [option])]))
    made.start()
    try:
        answers = [made.run("kit.echo", {"value": n}, root=None, timeout=10) for n in range(3)]
    finally:
        made.stop()
    assert [a.kind for a in answers] == ["errored"] * 3
    for answer in answers[1:]:
        assert answer.stderr.count("during seq") == 1, answer.stderr
    assert "during seq 1" in answers[0].stderr and "during seq 3" in answers[2].stderr


@pytest.mark.parametrize("adapter", ["python:non_object_impl:LongNumber", "python-process:non_object_impl:LongNumber"])
def test_a_number_too_long_for_the_kit_is_said_in_the_kits_words(adapter, monkeypatch):
    # it was Python's advice: 'use sys.set_int_max_str_digits() to increase the limit'
    answer = _echo_answer(adapter, monkeypatch)
    assert answer.kind == "errored", answer
    assert "a number 10001 digits long, past the kit's limit of 4300 digits" in answer.message, answer.message
    assert "sys." not in answer.message


@pytest.mark.parametrize("number", ["1" * 10000, "-" + "1" * 10000])
def test_a_line_holding_a_number_too_long_for_the_kit_is_malformed_in_the_kits_words(number):
    from conformance.adapters.protocol import MalformedMessage, decode_message

    with pytest.raises(MalformedMessage) as raised:
        decode_message(b'{"type":"result","seq":1,"output":{"value":' + number.encode() + b"}}\n")
    assert str(raised.value) == "a number 10000 digits long, past the kit's limit of 4300 digits for a number"
