"""The JSON-lines adapter protocol's server (``conformance.adapters.server``) fed lines in process,
and served to the kit's client (its lines and the client alone: ``tests/test_jsonlines.py``)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import PROTOCOL_VERSION
from conformance.adapters.base import Implementation, ImplementationError, Skipped, Unsupported
from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.environment import AdapterEnvironment
from conformance.adapters.server import serve
from tests.test_jsonlines import echo, standin

# -- server -------------------------------------------------------------------------------------


class Toy(Implementation):
    """An in-process implementation with one operation per answer kind."""

    name = "toy"
    version = "2.0"
    language = "python"

    def operations(self):
        return ["kit.echo", "toy.refuse", "toy.unsupported", "toy.skip", "toy.crash", "toy.list", "toy.root"]

    def run(self, op, input, root):
        if op == "kit.echo":
            return {"value": input.get("value")}
        if op == "toy.refuse":
            raise ImplementationError("toy-refused", "no, thanks")
        if op == "toy.unsupported":
            raise Unsupported("field x is not provided")
        if op == "toy.skip":
            raise Skipped("not today")
        if op == "toy.crash":
            raise KeyError("boom")
        if op == "toy.list":
            return [1, 2]
        return {"root": root}


def exchange(lines: list[str | bytes], implementation: Implementation | None = None) -> list[dict]:
    data = b"".join(line if isinstance(line, bytes) else line.encode() + b"\n" for line in lines)
    out = io.BytesIO()
    code = serve(implementation or Toy(), io.BytesIO(data), out)
    assert code == 0
    replies = out.getvalue().splitlines(keepends=True)
    assert all(line.endswith(b"\n") for line in replies)
    return [json.loads(line) for line in replies]


START = json.dumps({"type": "start", "protocol": PROTOCOL_VERSION})


def run_line(seq, op, input, root=None) -> str:
    return json.dumps({"type": "run", "seq": seq, "op": op, "input": input, "root": root})


def test_server_handshake_and_stop():
    replies = exchange([START, '{"type":"stop"}', START])
    assert replies == [
        {
            "type": "started",
            "protocol": PROTOCOL_VERSION,
            "implementation": {"name": "toy", "version": "2.0", "language": "python"},
            "operations": sorted(Toy().operations()),
        },
        {"type": "stopped"},
    ]  # nothing is read after stop


def test_server_maps_each_outcome_to_its_answer(capsys):
    replies = exchange(
        [
            START,
            run_line(1, "kit.echo", {"value": ["é", 1]}),
            run_line(2, "toy.refuse", {}),
            run_line(3, "toy.unsupported", {}),
            run_line(4, "toy.skip", {}),
            run_line(5, "toy.crash", {}),
            run_line(6, "toy.list", {}),
            run_line(7, "toy.root", {}, root="/abs/tree"),
            run_line(8, "other.op", {}),
        ]
    )
    assert replies[1:] == [
        {"type": "result", "seq": 1, "output": {"value": ["é", 1]}},
        {"type": "error", "seq": 2, "code": "toy-refused", "message": "no, thanks"},
        {"type": "unsupported", "seq": 3, "reason": "field x is not provided"},
        {"type": "skipped", "seq": 4, "reason": "not today"},
        {"type": "errored", "seq": 5, "message": "toy.crash raised KeyError: 'boom'"},
        {"type": "errored", "seq": 6, "message": "malformed 'result': toy.list returned an array, not an object"},
        {"type": "result", "seq": 7, "output": {"root": "/abs/tree"}},
        {"type": "unsupported", "seq": 8, "reason": "toy does not provide other.op"},
    ]
    assert "KeyError: 'boom'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "line, seq, why",
    [
        (b"not json\n", None, "not JSON"),
        (b"[1, 2]\n", None, "not an object"),
        (b'{"seq": 3}\n', 3, "no 'type'"),
        (b'{"type": "dance", "seq": 4}\n', 4, "unknown message type 'dance'"),
        (b'{"type": "run", "op": "kit.echo", "input": {}}\n', None, "'seq' must be an integer"),
        (b'{"type": "run", "seq": true, "op": "kit.echo", "input": {}}\n', None, "'seq' must be an integer"),
        (b'{"type": "run", "seq": 5, "input": {}}\n', 5, "'op' must be a non-empty string"),
        (b'{"type": "run", "seq": 6, "op": "kit.echo", "input": [1]}\n', 6, "'input' must be an object"),
        (b'{"type": "run", "seq": 7, "op": "kit.echo", "input": {}, "root": 1}\n', 7, "'root' must be a string or null"),
        (b'{"type": "start", "protocol": "1"}\n', None, "'protocol' must be an integer"),
        (b'{"type": "start", "protocol": 1}\n', None, "already started"),
        (b'{"type": "run", "seq": 8, "op": "kit.echo", "input": {"valu": 1}}\n', 8, "input.valu: unknown field"),
        (b'{"value": "caf\xe9"}\n', None, "not UTF-8"),
        (b"\n", None, "not JSON"),
        (b'{"type": "run", "seq": 10, "op": "kit.echo", "input": {"value": 1, "value": 2}}\n', None,
         'the key "value" twice in one object'),
    ],
)
def test_server_answers_a_malformed_request_and_keeps_running(line, seq, why):
    replies = exchange([START, line, run_line(9, "kit.echo", {"value": 9})])
    assert replies[1]["type"] == "protocol-error"
    assert replies[1]["seq"] == seq
    assert why in replies[1]["message"]
    assert replies[2] == {"type": "result", "seq": 9, "output": {"value": 9}}


def test_server_refuses_run_before_start():
    replies = exchange([run_line(1, "kit.echo", {}), START, run_line(2, "kit.echo", {})])
    assert replies[0] == {"type": "protocol-error", "seq": 1, "message": "'run' before 'start'"}
    assert replies[1]["type"] == "started" and replies[2]["type"] == "result"


def test_server_refuses_another_protocol_version():
    replies = exchange([json.dumps({"type": "start", "protocol": PROTOCOL_VERSION + 1}), START])
    assert replies[0] == {
        "type": "error",
        "code": "protocol-unsupported",
        "message": f"this adapter speaks protocol {PROTOCOL_VERSION}, not {PROTOCOL_VERSION + 1}",
        "protocols": [PROTOCOL_VERSION],
    }
    assert replies[1]["type"] == "started"


def test_server_ends_at_end_of_input():
    assert exchange([START]) == exchange([START])[:1]


def test_server_accepts_text_streams():
    out = io.StringIO()
    serve(Toy(), io.StringIO(START + "\n" + run_line(1, "kit.echo", {"value": "ü"}) + "\n"), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[1] == {"type": "result", "seq": 1, "output": {"value": "ü"}}


# -- client and server together ----------------------------------------------------------------


# ``conformance.adapters.jsonlines`` is the name PROTOCOL.md first documented: it still serves.
@pytest.mark.parametrize("module", ["conformance.adapters.server", "conformance.adapters.jsonlines"])
def test_serve_reference_through_the_client(module):
    adapter = JsonLinesAdapter([sys.executable, "-m", module])
    hello = adapter.start()
    try:
        assert (hello.name, hello.language) == ("reference", "python")
        assert "kit.echo" in hello.operations
        value = {"s": "a\u2028b\U0001F600\ud800", "n": [0, -1, 2.5, None, False]}
        assert echo(adapter, value, timeout=5).output == {"value": value}
        answer = adapter.run("kit.echo", {"valu": 1}, root=None, timeout=5)
        assert answer.kind == "errored" and "input.valu" in answer.message
        assert echo(adapter, 1, timeout=5).kind == "result"
        assert adapter.restarts == 0
    finally:
        adapter.stop()
    assert adapter.stop_problem is None


def test_serve_main_keeps_prints_off_the_protocol():
    adapter = standin("prints_stdout.py", environment=AdapterEnvironment())  # measured: it runs serve_main
    try:
        adapter.start()
        for value in range(3):
            answer = echo(adapter, value, timeout=5)
            assert (answer.kind, answer.output) == ("result", {"value": value})
        assert adapter.restarts == 0
        proc = adapter._proc
    finally:
        adapter.stop()
    assert adapter.stop_problem is None
    # Read once the process has ended and its standard error is read to the end: right after an
    # answer the reader may not have got to it yet on a busy machine.
    tail = proc.stderr_tail(wait=10)
    assert "noisy: print() during run" in tail and "noisy: raw write to fd 1" in tail


def test_serving_a_named_implementation_class():
    adapter = JsonLinesAdapter(
        [sys.executable, "-m", "conformance.adapters.server", "tests.test_jsonlines_server:Toy"],
        cwd=str(Path(__file__).parent.parent),
    )
    try:
        assert adapter.start().name == "toy"
        answer = adapter.run("toy.refuse", {}, root=None, timeout=5)
        assert (answer.kind, answer.code) == ("error", "toy-refused")
    finally:
        adapter.stop()


class Broken(Toy):
    def operations(self):
        raise RuntimeError("no catalogue today")


def test_server_answers_start_with_an_error_when_the_implementation_cannot_list_operations(capsys):
    replies = exchange([START, run_line(1, "kit.echo", {})], Broken())
    assert replies[0] == {
        "type": "error",
        "code": "start-failed",
        "message": "toy: operations() raised RuntimeError: no catalogue today",
    }
    assert replies[1] == {"type": "protocol-error", "seq": 1, "message": "'run' before 'start'"}
    assert "no catalogue today" in capsys.readouterr().err


def test_serving_something_that_is_not_an_implementation_exits_2():
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "conformance.adapters.server", "json:JSONDecoder"],
        capture_output=True, text=True, timeout=30,
    )
    assert done.returncode == 2
    assert "json:JSONDecoder is not a conformance.adapters.base.Implementation" in done.stderr


@pytest.mark.parametrize("signame, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_serve_reference_interrupted_exits_as_every_command_does(signame, code):
    # it exited 1, where the README's exit codes (and every other command) give 128 + the signal
    import signal

    served = subprocess.Popen([sys.executable, "-m", "conformance.cli", "serve-reference"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        served.stdin.write('{"type": "start", "protocol": 1}\n')
        served.stdin.flush()
        assert json.loads(served.stdout.readline())["type"] == "started"  # serving, waiting for a request
        served.send_signal(getattr(signal, signame))
        assert served.wait(10) == code
    finally:
        if served.poll() is None:
            served.kill()
            served.wait()
