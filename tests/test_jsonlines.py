"""The JSON-lines adapter protocol: its lines, and the kit's client against stand-in adapters (the
server, and the two together: ``tests/test_jsonlines_server.py``)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from conformance import PROTOCOL_VERSION
from conformance.adapters.base import Adapter, AdapterStartError
from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.connect import parse_command
from conformance.adapters.protocol import MalformedMessage, decode_message, encode_message
from tests.kit_fixtures import UNMEASURED

STANDINS = Path(__file__).parent / "standins"
TIMEOUT = 0.5
HANG = 0.1
"""The timeout of a request (or handshake, or stop) that the stand-in never answers: its length
changes nothing but how long the test waits. Requests that are answered get ``TIMEOUT``."""


def standin(script: str, *args: str, **kwargs) -> JsonLinesAdapter:
    kwargs.setdefault("start_timeout", 10.0)
    kwargs.setdefault("environment", UNMEASURED)
    return JsonLinesAdapter([sys.executable, str(STANDINS / script), *args], **kwargs)


def echo(adapter: JsonLinesAdapter, value, timeout: float = TIMEOUT):
    return adapter.run("kit.echo", {"value": value}, root=None, timeout=timeout)


@pytest.fixture
def started():
    """Start stand-ins and stop them all at the end of the test."""
    adapters: list[JsonLinesAdapter] = []

    def start(script: str, *args: str, **kwargs) -> JsonLinesAdapter:
        adapter = standin(script, *args, **kwargs)
        adapters.append(adapter)
        adapter.start()
        return adapter

    yield start
    for adapter in adapters:
        adapter.stop()


# -- lines ----------------------------------------------------------------------------------------


def test_encode_writes_one_compact_utf8_line():
    data = encode_message({"type": "run", "input": {"value": "é\u2028😀"}})
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert data == '{"type":"run","input":{"value":"é\u2028😀"}}\n'.encode("utf-8")


def test_encode_escapes_a_lone_surrogate_instead_of_failing():
    data = encode_message({"value": "a\ud800b"})
    assert data == b'{"value":"a\\ud800b"}\n'
    assert json.loads(data)["value"] == "a\ud800b"


def test_encode_refuses_nan():
    with pytest.raises(ValueError):
        encode_message({"value": float("nan")})


@pytest.mark.parametrize(
    "line, why",
    [
        (b"hello\n", "not JSON"),
        (b"[1]\n", "not an object"),
        (b'{"value": NaN}\n', "NaN is not JSON"),
        (b'{"value": "caf\xe9"}\n', "not UTF-8"),
        (b"\n", "not JSON"),
        # a reader cannot tell which of two values the writer meant (JSON readers differ on it)
        (b'{"type":"result","seq":1,"seq":2,"output":{}}\n', 'the key "seq" twice in one object'),
        (b'{"type":"result","seq":1,"output":{"value":1,"value":1}}\n', 'the key "value" twice in one object'),
        (b'{"type":"result","seq":1,"output":{"a":[{"\\u00e9":1,"\xc3\xa9":2}]}}\n',
         'the key "\\u00e9" twice in one object'),
        # an answer nested 100,000 deep, well under the line limit, ended the whole run in a
        # RecursionError traceback
        (b'{"type":"result","seq":1,"output":{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}}\n",
         "nested too deeply"),
    ],
)
def test_decode_refuses_what_is_not_one_json_object(line, why):
    with pytest.raises(MalformedMessage, match=why):
        decode_message(line)


def test_decode_keeps_keys_that_differ_and_equal_keys_in_different_objects():
    assert decode_message(b'{"a":{"a":1},"A":[{"a":2},{"a":3}],"e\xcc\x81":0,"\xc3\xa9":0}\n') == {
        "a": {"a": 1}, "A": [{"a": 2}, {"a": 3}], "e\u0301": 0, "\u00e9": 0}


def test_decode_accepts_crlf_and_raw_line_separators():
    assert decode_message('{"a":"x\u2028y"}\r\n'.encode()) == {"a": "x\u2028y"}


def test_parse_command_splits_like_a_shell():
    assert parse_command('node "my adapter.mjs" --x') == ["node", "my adapter.mjs", "--x"]
    with pytest.raises(ValueError):
        parse_command("   ")


def test_the_protocol_page_shows_every_message_type_in_valid_lines():
    import re

    import conformance

    page = (Path(conformance.__file__).parent / "PROTOCOL.md").read_text(encoding="utf-8")
    seen = set()
    for block in re.findall(r"```text\n(.*?)```", page, re.S):
        for line in block.splitlines():
            match = re.match(r"(kit|adapter)\s+(\{.*)", line)
            if match:
                seen.add((match.group(1), decode_message(match.group(2).encode() + b"\n")["type"]))
    kit = {"start", "run", "stop"}
    adapter = {"started", "result", "error", "unsupported", "skipped", "errored", "protocol-error", "stopped"}
    assert seen == {("kit", t) for t in kit} | {("adapter", t) for t in adapter}


# -- client: well-behaved adapter -----------------------------------------------------------------


def test_client_is_an_adapter():
    assert isinstance(standin("well_behaved.py"), Adapter)


def test_handshake_gives_the_adapters_hello(started):
    adapter = started("well_behaved.py")
    hello = adapter.hello
    assert (hello.name, hello.version, hello.language) == ("well-behaved", "0.0.1", "python")
    assert hello.protocol == PROTOCOL_VERSION
    assert "kit.echo" in hello.operations and "test.refuse" in hello.operations
    assert adapter.start() is hello  # starting a running adapter changes nothing


def test_every_answer_kind_of_a_well_behaved_adapter(started):
    adapter = started("well_behaved.py")
    value = {"text": "é\u2028😀\n", "n": [1, -2.5, None, True], "empty": {}}
    answer = echo(adapter, value)
    assert (answer.kind, answer.output) == ("result", {"value": value})

    answer = adapter.run("test.refuse", {}, root=None, timeout=TIMEOUT)
    assert (answer.kind, answer.code, answer.message) == ("error", "test-refused", "refused on purpose")

    answer = adapter.run("test.unsupported", {}, root=None, timeout=TIMEOUT)
    assert (answer.kind, answer.message) == ("unsupported", "not provided here")

    answer = adapter.run("test.skip", {}, root=None, timeout=TIMEOUT)
    assert (answer.kind, answer.message) == ("skipped", "skipped on purpose")

    answer = adapter.run("test.root", {}, root="/tmp/case-tree", timeout=TIMEOUT)
    assert answer.output == {"root": "/tmp/case-tree"}
    assert adapter.restarts == 0


def test_errored_answer_keeps_the_adapter_running(started):
    adapter = started("well_behaved.py")
    answer = adapter.run("test.errored", {}, root=None, timeout=TIMEOUT)
    assert (answer.kind, answer.message) == ("errored", "internal failure")
    assert "something broke inside" in answer.stderr
    assert echo(adapter, 1).kind == "result"
    assert adapter.restarts == 0


def test_a_flood_on_stderr_neither_blocks_nor_grows_without_bound(started):
    adapter = started("well_behaved.py")
    answer = adapter.run("test.noisy", {"bytes": 4_000_000}, root=None, timeout=5)
    assert answer.output == {"wrote": 4_000_000}
    tail = adapter._proc.stderr_tail(wait=0)
    assert len(tail) <= 4000


def test_stop_is_clean(started):
    adapter = started("well_behaved.py")
    proc = adapter._proc.popen
    adapter.stop()
    assert adapter.stop_problem is None
    assert proc.returncode == 0
    adapter.stop()  # a second stop does nothing


def test_an_unstarted_adapter_starts_on_its_first_request():
    adapter = standin("well_behaved.py")
    try:
        assert echo(adapter, "x").output == {"value": "x"}
        assert adapter.restarts == 0
    finally:
        adapter.stop()


def test_input_that_json_cannot_carry_is_errored_without_a_restart(started):
    adapter = started("well_behaved.py")
    answer = echo(adapter, float("nan"))
    assert answer.kind == "errored" and "cannot be sent as JSON" in answer.message
    assert echo(adapter, 2).output == {"value": 2}
    assert adapter.restarts == 0


# -- client: faults give errored, then a restart ---------------------------------------------------


def assert_recovers(adapter: JsonLinesAdapter, restarts: int) -> None:
    """The next request restarts the adapter (a new handshake) and is answered."""
    answer = echo(adapter, "after")
    assert (answer.kind, answer.output) == ("result", {"value": "after"})
    assert adapter.restarts == restarts


def test_crash_mid_run_is_errored_with_the_stderr_tail(started):
    adapter = started("crashes.py")
    assert echo(adapter, "before").kind == "result"
    answer = echo(adapter, "crash")
    assert answer.kind == "errored"
    assert "exited with code 3" in answer.message
    assert "RuntimeError: crashing on purpose" in answer.stderr
    assert_recovers(adapter, 1)
    assert echo(adapter, "crash").kind == "errored"
    assert_recovers(adapter, 2)


def test_hang_past_the_timeout_is_errored(started):
    adapter = started("hangs.py")
    began = time.monotonic()
    answer = echo(adapter, "hang", timeout=HANG)
    assert time.monotonic() - began < HANG + 3
    assert answer.kind == "errored"
    assert f"no answer within {HANG:g} s" in answer.message
    assert "sleeping instead of answering" in answer.stderr
    assert_recovers(adapter, 1)


def test_an_adapter_that_stops_reading_cannot_block_a_large_request(started):
    adapter = started("hangs.py", "--deaf")
    began = time.monotonic()
    answer = echo(adapter, "x" * 2_000_000, timeout=HANG)
    assert time.monotonic() - began < HANG + 3
    assert answer.kind == "errored"
    assert "did not read the request (" in answer.message
    assert f"bytes) within {HANG:g} s" in answer.message
    assert "no longer reading" in answer.stderr


def test_a_large_request_and_answer_go_through(started):
    adapter = started("well_behaved.py")
    value = "é" * 3_000_000
    assert echo(adapter, value, timeout=10).output == {"value": value}


@pytest.mark.parametrize(
    "value, why",
    [
        ("garbage", "not JSON"),
        ("array", "not an object"),
        ("nan", "NaN is not JSON"),
        ("latin1", "not UTF-8"),
        ("partial", "unterminated line"),
        ("twice", 'the key "value" twice in one object'),
    ],
)
def test_garbage_on_stdout_is_errored(started, value, why):
    adapter = started("garbage.py")
    answer = echo(adapter, value)
    assert answer.kind == "errored"
    assert "malformed output" in answer.message and why in answer.message
    assert_recovers(adapter, 1)


def test_an_answer_without_its_newline_is_named_when_it_times_out(started):
    adapter = started("garbage.py")
    answer = echo(adapter, "unended", timeout=HANG)
    assert answer.kind == "errored" and f"no answer within {HANG:g} s" in answer.message
    assert "it wrote 60 bytes with no newline at their end, '{\"type\": \"result\", \"seq\": 1," in answer.message
    assert_recovers(adapter, 1)


@pytest.mark.parametrize("limit", [100, 70_000])
def test_stdout_comes_out_line_by_line_whatever_its_chunks_and_a_line_past_the_limit_is_too_long(monkeypatch, limit):
    """Lines split over reads or many to a read come out whole and in order; a line of exactly
    the limit (its newline included) passes, one byte more is TOO_LONG and ends the output."""
    from conformance.adapters import process

    monkeypatch.setattr(process, "MAX_LINE_BYTES", limit)
    monkeypatch.setattr(process, "READ_CHUNK_BYTES", 7)
    lines = [b"a\n", b"\n", b"x" * (limit - 1) + b"\n", b"bc\n", b"y" * limit + b"\n", b"never\n"]
    script = "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read())"
    child = process.ChildProcess([sys.executable, "-c", script], None, None)
    try:
        child.send(b"".join(lines))
        child.close_stdin()
        got = [child.receive(5) for _ in range(5)]
    finally:
        child.kill()
    assert got == [*lines[:4], process.TOO_LONG]


def test_garbage_answer_carries_the_stderr_tail(started):
    adapter = started("garbage.py")
    answer = echo(adapter, "garbage")
    assert "Hello from a chatty adapter!" in answer.message
    assert "printing a banner on stdout" in answer.stderr


@pytest.mark.parametrize(
    "value, why",
    [
        ("skew", "out-of-order answer"),
        ("no-seq", "out-of-order answer"),
        ("seq-true", "out-of-order answer: seq true where 1 was expected"),
        ("seq-float", "out-of-order answer: seq 1.0 where 1 was expected"),
        ("wrong-type", "got a 'started' message"),
        ("unknown-type", "got a 'answer' message"),
        ("no-output", "no 'output'"),
        ("no-code", "'code' must be a non-empty string"),
    ],
)
def test_out_of_order_or_wrong_answers_are_errored(started, value, why):
    adapter = started("out_of_order.py")
    answer = echo(adapter, value)
    assert answer.kind == "errored"
    assert why in answer.message
    assert_recovers(adapter, 1)


def test_an_extra_answer_spoils_the_next_request_only(started):
    adapter = started("out_of_order.py")
    assert echo(adapter, "twice").kind == "result"
    answer = echo(adapter, "next")
    assert answer.kind == "errored" and "out-of-order answer" in answer.message
    assert_recovers(adapter, 1)


def test_unlisted_operation_is_unsupported_without_being_sent(started):
    adapter = started("lacks_op.py")
    answer = echo(adapter, 1)
    assert answer.kind == "unsupported"
    assert "does not list operation kit.echo" in answer.message
    # the listed one is sent (and the stand-in says so)
    assert adapter.run("test.other", {}, root=None, timeout=TIMEOUT).output == {"sent": True, "op": "test.other"}


def test_wrong_output_is_a_result_for_the_runner_to_compare(started):
    adapter = started("wrong_output.py")
    answer = echo(adapter, 42)
    assert (answer.kind, answer.output) == ("result", {"value": "not what was sent"})
    assert adapter.restarts == 0


def test_each_fault_is_followed_by_a_restart_and_the_run_goes_on(started):
    adapter = started("garbage.py")
    kinds = [echo(adapter, value).kind for value in ["a", "garbage", "b", "array", "c", "partial", "d"]]
    assert kinds == ["result", "errored", "result", "errored", "result", "errored", "result"]
    assert adapter.restarts == 3


def test_protocol_error_answer_is_errored_without_a_restart(started):
    adapter = started("well_behaved.py")
    reply = adapter.exchange_raw(b"{not json", timeout=TIMEOUT)
    assert reply == {"type": "protocol-error", "seq": None, "message": "malformed request"}
    assert echo(adapter, 3).output == {"value": 3}
    assert adapter.restarts == 0


# -- client: start failures ------------------------------------------------------------------------


def test_refused_protocol_version_raises_start_error():
    adapter = standin("refuses_version.py")
    with pytest.raises(AdapterStartError) as info:
        adapter.start()
    message = str(info.value)
    assert "protocol-unsupported" in message
    assert f"the kit speaks protocol {PROTOCOL_VERSION}, the adapter 99" in message
    assert "the kit asked for protocol 1" in message  # stderr tail


@pytest.mark.parametrize(
    "mode, why",
    [
        ("exit", "exited with code 2"),
        ("silent", f"no answer within {HANG:g} s during the handshake"),
        ("garbage", "malformed output during the handshake"),
        ("bad-hello", "no 'implementation' object"),
        ("old-protocol", "it speaks protocol 0, the kit speaks 1"),
    ],
)
def test_failure_to_start_raises_start_error(mode, why):
    # Only the silent stand-in is meant to run out of time; the others get the default start
    # timeout, so a busy machine (parallel workers, coverage in the child) cannot turn their
    # answer into a time-out.
    adapter = standin("fails_to_start.py", mode, **({"start_timeout": HANG} if mode == "silent" else {}))
    with pytest.raises(AdapterStartError, match=why) as info:
        adapter.start()
    if mode == "exit":
        assert "missing runtime, giving up" in str(info.value)


def test_a_command_that_does_not_exist_raises_start_error(tmp_path):
    adapter = JsonLinesAdapter([str(tmp_path / "no-such-adapter")])
    with pytest.raises(AdapterStartError, match="cannot run adapter"):
        adapter.start()


def test_failed_restarts_give_errored_answers_then_give_up(tmp_path):
    flag = tmp_path / "broken"
    script = tmp_path / "flaky_start.py"
    script.write_text(
        "import os, runpy, sys\n"
        f"if os.path.exists({str(flag)!r}):\n"
        "    sys.stderr.write('cannot start now\\n'); sys.exit(4)\n"
        f"sys.path.insert(0, {str(STANDINS)!r})\n"
        f"runpy.run_path({str(STANDINS / 'crashes.py')!r}, run_name='__main__')\n"
    )
    adapter = JsonLinesAdapter([sys.executable, str(script)], max_restart_failures=2, environment=UNMEASURED)
    adapter.start()
    try:
        flag.write_text("")
        assert echo(adapter, "crash").kind == "errored"
        first = echo(adapter, 1)
        assert first.kind == "errored" and "could not be restarted" in first.message
        assert "cannot start now" in first.message
        assert "could not be restarted" in echo(adapter, 1).message
        down = echo(adapter, 1)
        assert down.kind == "errored" and "is down: 2 restarts failed in a row" in down.message
        flag.unlink()
        assert echo(adapter, 1).kind == "errored"  # stays down: no more restarts are tried
    finally:
        adapter.stop()


def test_constructor_refuses_a_command_string():
    with pytest.raises(ValueError):
        JsonLinesAdapter("python adapter.py")  # type: ignore[arg-type]


# -- client: stopping, and adapters that hang -----------------------------------------------------


def test_an_adapter_that_refused_the_version_is_stopped_politely(tmp_path):
    log = tmp_path / "log"
    script = tmp_path / "refuses_and_logs.py"
    script.write_text(
        "import sys, runpy\n"
        f"sys.stderr = open({str(log)!r}, 'w', buffering=1)\n"
        f"sys.path.insert(0, {str(STANDINS)!r})\n"
        f"runpy.run_path({str(STANDINS / 'refuses_version.py')!r}, run_name='__main__')\n"
        "sys.stderr.write('exited after stop\\n')\n"
    )
    with pytest.raises(AdapterStartError):
        JsonLinesAdapter([sys.executable, str(script)], environment=UNMEASURED).start()
    assert log.read_text().splitlines() == ["refuses-version: the kit asked for protocol 1", "exited after stop"]


def test_a_request_to_an_adapter_that_never_started_is_errored():
    adapter = standin("fails_to_start.py", "exit")
    answer = echo(adapter, 1)
    assert answer.kind == "errored"
    assert "could not be started" in answer.message and "missing runtime" in answer.message


def test_an_adapter_that_ignores_stop_is_killed_and_reported():
    adapter = standin("hangs.py", "--deaf", stop_timeout=HANG)
    with adapter:
        popen = adapter._proc.popen
    assert popen.returncode is not None  # killed
    assert f"no answer within {HANG:g} s during stop" in adapter.stop_problem
    assert f"did not exit within {HANG:g} s of stop; killed" in adapter.stop_problem


def test_a_crashed_adapter_stops_without_raising(started):
    adapter = started("crashes.py")
    adapter._proc.popen.kill()
    adapter._proc.popen.wait()
    adapter.stop()
    assert adapter.stop_problem  # says what went wrong, raises nothing


def test_an_adapter_that_hangs_on_every_request_is_given_up_after_three_timeouts(started):
    adapter = started("hangs.py", "--always")
    began = time.monotonic()
    answers = [echo(adapter, i, timeout=HANG) for i in range(8)]
    assert time.monotonic() - began < 3 * HANG + 6  # three timeouts and their restarts, not eight
    assert all(a.kind == "errored" for a in answers)
    assert all(f"no answer within {HANG:g} s" in a.message for a in answers[:3])
    for answer in answers[3:]:
        assert "adapter" in answer.message and f"is hung: 3 requests in a row got no answer within {HANG:g} s" \
            in answer.message
    assert adapter.restarts == 2  # no restart after it is given up


def test_an_answer_in_time_resets_the_count_of_timeouts(started):
    adapter = started("hangs.py")
    assert echo(adapter, "hang", timeout=HANG).kind == "errored"
    assert echo(adapter, "hang", timeout=HANG).kind == "errored"
    assert echo(adapter, "fine").kind == "result"
    assert echo(adapter, "hang", timeout=HANG).kind == "errored"
    assert echo(adapter, "hang", timeout=HANG).kind == "errored"
    assert (answer := echo(adapter, "fine")).kind == "result", answer.message


def test_a_killed_adapter_gets_sigterm_first_to_clean_up(tmp_path):
    marker = tmp_path / "cleaned"
    script = tmp_path / "cleans_up.py"
    script.write_text(
        "import runpy, signal, sys\n"
        f"def leave(*_):\n    open({str(marker)!r}, 'w').close(); sys.exit(0)\n"
        "signal.signal(signal.SIGTERM, leave)\n"
        f"sys.path.insert(0, {str(STANDINS)!r})\n"
        f"sys.argv = ['hangs.py']\n"
        f"runpy.run_path({str(STANDINS / 'hangs.py')!r}, run_name='__main__')\n"
    )
    adapter = JsonLinesAdapter([sys.executable, str(script)], environment=UNMEASURED)
    adapter.start()
    try:
        assert echo(adapter, "hang", timeout=HANG).kind == "errored"
        assert marker.exists()
    finally:
        adapter.stop()
