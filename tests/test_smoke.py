"""``pi-conformance smoke``: each check passes for a good adapter and fails for the fault it targets."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.smoke import ECHO_SAMPLE, Check, smoke, smoke_adapter, smoke_main
from tests.kit_fixtures import UNMEASURED

STANDINS = Path(__file__).parent / "standins"
TIMEOUT = 0.5
HANG = 0.1
"""The per-request timeout where the stand-in answers no request: its length changes nothing but
how long the test waits."""


def command(script: str, *args: str) -> list[str]:
    return [sys.executable, str(STANDINS / script), *args]


def standin(script: str, *args: str, **kwargs) -> JsonLinesAdapter:
    """A stand-in of ``tests/standins/`` as the adapter, unmeasured (it runs none of the kit's code)."""
    return JsonLinesAdapter(command(script, *args), environment=UNMEASURED, **kwargs)


def checks_of(script: str, *args: str, timeout: float = TIMEOUT) -> dict[str, Check]:
    adapter = standin(script, *args, start_timeout=TIMEOUT * 10)
    return {check.name: check for check in smoke(adapter, timeout=timeout)}


def test_a_well_behaved_adapter_passes_every_check():
    checks = checks_of("well_behaved.py")
    assert list(checks) == ["handshake", "operations", "echo", "malformed", "repeat", "stop"]
    assert all(check.ok for name, check in checks.items() if name != "operations"), checks
    # It also lists test-only operations, which the suite does not know.
    assert not checks["operations"].ok and "test.refuse" in checks["operations"].detail
    assert checks["handshake"].detail == "well-behaved 0.0.1 (python), protocol 1, 7 operation(s)"


def test_serve_reference_passes_every_check():
    out = io.StringIO()
    code = smoke_main([sys.executable, "-m", "conformance.adapters.server"], out=out, timeout=5)
    assert code == 0, out.getvalue()
    lines = out.getvalue().splitlines()
    assert [line.split()[:2] for line in lines[:6]] == [
        ["ok", "handshake"], ["ok", "operations"], ["ok", "echo"], ["ok", "malformed"], ["ok", "repeat"], ["ok", "stop"],
    ]
    assert lines[-1] == "smoke: all 6 checks passed"


def test_echo_sample_exercises_every_json_type():
    kinds = set()

    def walk(value):
        kinds.add(type(value).__name__)
        for item in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
            walk(item)

    walk(ECHO_SAMPLE)
    assert kinds == {"dict", "list", "str", "int", "float", "bool", "NoneType"}
    assert any(ord(ch) > 0xFFFF for ch in ECHO_SAMPLE["text"])


def test_an_adapter_without_kit_echo_fails_with_a_clear_message():
    checks = checks_of("lacks_op.py")
    assert checks["handshake"].ok
    assert not checks["echo"].ok
    assert "does not list kit.echo; every adapter must provide it" in checks["echo"].detail
    assert not checks["repeat"].ok


def test_wrong_output_fails_echo():
    checks = checks_of("wrong_output.py")
    assert not checks["echo"].ok
    assert "kit.echo changed the value" in checks["echo"].detail
    assert '"not what was sent"' in checks["echo"].detail


def test_an_adapter_that_dies_on_a_malformed_request_fails_malformed():
    checks = checks_of("fragile.py")
    assert checks["echo"].ok
    assert not checks["malformed"].ok
    assert "a line that is not JSON" in checks["malformed"].detail
    assert "exited with code 1" in checks["malformed"].detail
    assert checks["repeat"].ok  # the kit restarted it and went on


def test_stop_is_not_passed_for_an_adapter_whose_process_died_before_it():
    checks = checks_of("fragile.py", "--no-echo")
    assert not checks["malformed"].ok and not checks["repeat"].ok
    assert not checks["stop"].ok and checks["stop"].detail == (
        "not checked: the adapter's process had exited during an earlier check (the adapter exited with code 1 "
        "during a raw request) and no later check started it again")
    assert checks_of("fragile.py")["stop"].ok  # restarted by the repeat check: its stop is checked


def test_an_adapter_that_answers_differently_fails_repeat():
    checks = checks_of("wrong_output.py", "--unstable")
    assert checks["echo"].ok and checks["malformed"].ok
    assert not checks["repeat"].ok
    assert "two identical requests got result" in checks["repeat"].detail


def test_an_adapter_that_hangs_fails_each_check_within_its_timeout():
    checks = checks_of("hangs.py", "--always", timeout=HANG)
    assert checks["handshake"].ok
    for name in ("echo", "malformed", "repeat"):
        assert not checks[name].ok
    assert f"no answer within {HANG:g} s" in checks["echo"].detail
    assert f"no answer within {HANG:g} s" in checks["repeat"].detail
    # its process did not die: the kit stopped it, and says so
    assert not checks["stop"].ok and checks["stop"].detail == (
        f"not checked: the kit stopped the adapter's process and sends it no more requests: adapter {Path(sys.executable).name} is "
        f"hung: 3 requests in a row got no answer within {HANG:g} s, so the rest of this run's requests are not sent")
    patient = standin("hangs.py", "--always", start_timeout=TIMEOUT * 10, max_timeouts=10)
    stop = {check.name: check for check in smoke(patient, timeout=HANG)}["stop"]
    assert not stop.ok and re.fullmatch(
        r"not checked: the kit stopped the adapter's process after a fault in an earlier check \(no answer within "
        rf"{HANG:g} s during kit\.echo \(seq \d+\)\) and no later check started it again", stop.detail), stop.detail


def test_an_adapter_that_crashes_fails_with_its_exit_code():
    checks = checks_of("crashes.py", "--always")
    assert checks["handshake"].ok
    assert not checks["echo"].ok and "exited with code 3" in checks["echo"].detail
    # malformed lines are answered (the stand-in survives them); the echo after them crashes
    assert not checks["malformed"].ok and "after the malformed requests" in checks["malformed"].detail
    assert not checks["repeat"].ok


def test_stand_ins_that_misbehave_only_on_cue_pass():
    for script in ("hangs.py", "crashes.py", "garbage.py", "out_of_order.py"):
        checks = checks_of(script)
        assert all(check.ok for check in checks.values()), (script, checks)


@pytest.mark.parametrize("script, args", [("refuses_version.py", ()), ("fails_to_start.py", ("exit",))])
def test_an_adapter_that_cannot_start_gives_exit_code_3(script, args):
    out = io.StringIO()
    assert smoke_adapter(standin(script, *args), out=out, timeout=TIMEOUT) == 3
    text = out.getvalue()
    assert text.startswith("FAIL handshake")
    assert text.rstrip().endswith("smoke: the adapter could not start")


def test_a_failed_check_gives_exit_code_1():
    out = io.StringIO()
    assert smoke_adapter(standin("fragile.py"), out=out, timeout=TIMEOUT) == 1
    assert out.getvalue().rstrip().endswith("smoke: 1 of 6 checks failed (malformed)")


def test_an_in_process_adapter_skips_the_protocol_checks():
    inprocess = pytest.importorskip("conformance.adapters.inprocess")
    from conformance.adapters.reference import ReferenceImplementation

    out = io.StringIO()
    assert smoke_adapter(inprocess.InProcessAdapter(ReferenceImplementation()), out=out) == 0
    text = out.getvalue()
    assert "malformed   not applicable: the adapter runs in process" in text
    assert "stop" not in text.split("smoke:")[0]


def test_a_misspelt_operation_fails_with_a_suggestion():
    from conformance.adapters.smoke import _check_operations

    check = _check_operations(["kit.echo", "pi.parse_args"])
    assert not check.ok and "pi.parse_args (did you mean pi.parse-args?)" in check.detail


@pytest.mark.parametrize("op, said", [
    ("envelope.foo", "envelope.foo"),  # shares only the area with envelope.session
    ("envelope.compose", "envelope.compose"),
    ("profiles.x", "profiles.x"),
    ("PI.PARSE-ARGS", "PI.PARSE-ARGS (did you mean pi.parse-args?)"),
    ("profile.load", "profile.load (did you mean profiles.load?)"),
    ("pi.model-value", "pi.model-value (did you mean pi.models-value?)"),
])
def test_only_close_operation_names_are_suggested(op, said):
    from conformance.adapters.smoke import _check_operations

    assert _check_operations([op]).detail == f"unknown operation(s): {said}"


def test_echo_is_judged_type_exact_and_names_the_first_difference():
    """``1`` for ``true`` was passed as unchanged (Python's ``True == 1``), and a difference past
    the cut of both sides was not shown; the judge's own comparison is used, and the path named."""
    from conformance.adapters.smoke import _first_difference

    sent = {"value": ECHO_SAMPLE}
    assert _first_difference(sent, sent) is None
    ones = {"value": {**ECHO_SAMPLE, "flags": [1, 0, None]}}
    assert _first_difference(sent, ones) == "at .value.flags[0]: sent true, got 1"
    extra = {"value": {**ECHO_SAMPLE, "zz": 1}}
    assert _first_difference(sent, extra) == "at .value.zz: not sent, got 1"
    assert _first_difference({"value": {"a": 1.0}}, {"value": {"a": 1}}) is None
