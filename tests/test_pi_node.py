"""The pi-node adapter (conformance/adapters/pi-node): protocol, sandbox and offline behaviour.

These tests talk to the adapter over raw JSON lines, independently of the kit's client, so that a
fault is located in the adapter. They need the adapter's dependencies (``npm ci`` in its folder);
without them they are skipped, except under CI (``CI`` set), where a missing install is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import weakref
from pathlib import Path

import pytest

from conformance.adapters.environment import AdapterEnvironment

pytestmark = pytest.mark.untraced  # code the other tests measure (see tests/conftest.py)

ADAPTER_DIR = Path(__file__).resolve().parents[1] / "conformance" / "adapters" / "pi-node"
LAUNCH = ADAPTER_DIR / "launch.mjs"


def _installed() -> bool:
    return (ADAPTER_DIR / "node_modules" / "@earendil-works" / "pi-coding-agent").is_dir() and bool(
        shutil.which("node")
    )


if not _installed():
    if os.environ.get("CI"):
        raise RuntimeError(f"the pi-node adapter is not installed: run `npm ci` in {ADAPTER_DIR}")
    pytest.skip(f"pi-node adapter not installed (npm ci in {ADAPTER_DIR})", allow_module_level=True)


class Session:
    """One adapter process spoken to line by line."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        # By default the environment the kit gives every adapter (fixed locale and time zone, a
        # scratch home), so that no answer depends on the machine running the tests.
        self.scratch = AdapterEnvironment().open() if env is None else None
        if self.scratch is not None:
            env = self.scratch.env
            weakref.finalize(self, self.scratch.remove)
        self.proc = subprocess.Popen(
            ["node", str(LAUNCH)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.seq = 0

    def send(self, message: dict) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"adapter closed its output; stderr: {self.proc.stderr.read() if self.proc.stderr else ''}"
        return json.loads(line)

    def run(self, op: str, input: dict, root: str | None = None) -> dict:
        self.seq += 1
        answer = self.send({"type": "run", "seq": self.seq, "op": op, "input": input, "root": root})
        assert answer["seq"] == self.seq
        return answer

    def close(self) -> int:
        answer = self.send({"type": "stop"})
        assert answer == {"type": "stopped"}
        code = self.proc.wait(timeout=30)
        if self.scratch is not None:
            self.scratch.remove()
        return code


@pytest.fixture(scope="module")
def session():
    s = Session()
    hello = s.send({"type": "start", "protocol": 1})
    s.hello = hello
    yield s
    if s.proc.poll() is None:
        s.close()


def test_handshake_names_pi_and_its_version(session):
    hello = session.hello
    assert hello["type"] == "started"
    assert hello["protocol"] == 1
    assert hello["implementation"] == {"name": "pi", "version": "1.6.0", "language": "javascript"}
    assert "kit.echo" in hello["operations"]
    assert hello["operations"] == sorted(hello["operations"])


def test_echo_returns_any_json_value_unchanged(session):
    value = {"a": [1, 2.5, None, True, "x\ny", {"b": []}], "ünï": "cödé"}
    assert session.run("kit.echo", {"value": value}) == {"type": "result", "seq": session.seq, "output": {"value": value}}


def test_envelope_and_profiles_operations_are_unsupported(session):
    # The two extensions are not published with Pi: the adapter declares none of their
    # operations and answers `unsupported` if asked anyway.
    assert not [op for op in session.hello["operations"] if op.startswith(("envelope.", "profiles."))]
    for op in ("envelope.compose", "profiles.compose"):
        answer = session.run(op, {})
        assert answer["type"] == "unsupported"
        assert op in answer["reason"]


def test_stop_ends_the_process_and_removes_its_sandbox():
    s = Session()
    s.send({"type": "start", "protocol": 1})
    s.run("kit.echo", {"value": 1})
    assert s.close() == 0
    stderr = s.proc.stderr.read() if s.proc.stderr else ""
    sandbox = next(line.split("sandbox ", 1)[1] for line in stderr.splitlines() if "pi-node adapter: sandbox " in line)
    assert Path(sandbox).name.startswith("pi-conformance-pi-node-")
    assert not Path(sandbox).exists()


def test_nothing_of_the_user_is_read_or_written(tmp_path):
    # A HOME and agent directory of "the user": the adapter must neither read them (a models.json
    # there would change answers) nor write to them.
    home = tmp_path / "home"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    (agent / "models.json").write_text('{"providers": {}}')
    env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(agent), "OPENAI_API_KEY": "sk-user"}
    s = Session(env=env)
    s.send({"type": "start", "protocol": 1})
    s.run("kit.echo", {"value": 1})
    assert s.close() == 0
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == [
        ".pi",
        ".pi/agent",
        ".pi/agent/models.json",
    ]


def test_unreadable_requests_get_a_protocol_error_and_the_session_goes_on():
    s = Session()
    assert s.send({"type": "run", "seq": 7, "op": "kit.echo", "input": {}, "root": None}) == {
        "type": "protocol-error",
        "seq": 7,
        "message": "'run' before a successful 'start'",
    }
    s.send({"type": "start", "protocol": 1})
    assert s.proc.stdin and s.proc.stdout
    s.proc.stdin.write("this is not json\n")
    s.proc.stdin.flush()
    assert json.loads(s.proc.stdout.readline()) == {
        "type": "protocol-error",
        "seq": None,
        "message": "the line is not JSON",
    }
    answer = s.send({"type": "run", "seq": 0, "input": {}})
    assert answer["type"] == "protocol-error" and answer["seq"] == 0 and "'op'" in answer["message"]
    answer = s.send({"type": "hello"})
    assert answer["type"] == "protocol-error" and answer["seq"] is None
    assert s.run("kit.echo", {"value": "still here"})["output"] == {"value": "still here"}
    assert s.close() == 0


def test_another_protocol_version_is_refused_at_start():
    s = Session()
    answer = s.send({"type": "start", "protocol": 2})
    assert answer["type"] == "error" and answer["code"] == "protocol-unsupported"
    assert answer["protocols"] == [1]
    assert s.close() == 0


def test_end_of_input_ends_the_adapter_like_stop():
    s = Session()
    s.send({"type": "start", "protocol": 1})
    assert s.proc.stdin
    s.proc.stdin.close()
    assert s.proc.wait(timeout=30) == 0


def test_a_terminated_adapter_still_removes_its_sandbox():
    s = Session()
    s.send({"type": "start", "protocol": 1})
    s.proc.terminate()
    s.proc.wait(timeout=30)
    stderr = s.proc.stderr.read() if s.proc.stderr else ""
    sandbox = next(line.split("sandbox ", 1)[1] for line in stderr.splitlines() if "pi-node adapter: sandbox " in line)
    assert not Path(sandbox).exists()


@pytest.mark.parametrize("litter", [False, True])
def test_a_sandbox_left_by_an_adapter_killed_outright_is_removed_at_the_next_start(deep_tmp, litter):
    # litter: a folder deeper than Node's recursive removal can walk, without permissions, in the
    # sandbox left behind (a case's command could write one): it stopped every later start
    import signal
    import time

    from tests.kit_fixtures import deep_chain

    tmp = deep_tmp / "tmp"
    tmp.mkdir()
    env = {"PATH": os.environ["PATH"], "TMPDIR": str(tmp), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}

    def sandboxes() -> list[str]:
        return sorted(p.name for p in tmp.iterdir() if p.name.startswith("pi-conformance-pi-node-"))

    def start() -> subprocess.Popen:
        proc = subprocess.Popen(["bash", str(ADAPTER_DIR / "run.sh")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env, start_new_session=True)
        assert proc.stdin and proc.stdout
        proc.stdin.write('{"type": "start", "protocol": 1}\n')
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["type"] == "started"
        return proc

    first = start()
    left = sandboxes()
    assert len(left) == 1
    os.killpg(first.pid, signal.SIGKILL)  # no time to clean up
    first.wait(10)
    time.sleep(0.2)
    assert sandboxes() == left
    if litter:
        deep_chain(tmp / left[0] / "tmp" / "deep", 3000)
    second = start()
    try:
        now = sandboxes()
        assert len(now) == 1 and now != left
    finally:
        second.communicate('{"type": "stop"}\n', timeout=30)
    assert sandboxes() == []


def test_a_command_pi_runs_leaves_nothing_running_and_runs_in_a_folder_of_its_own(session, tmp_path):
    from tests.test_command_containment import _beating, background_child

    beat = tmp_path / "beat"
    answer = session.run("pi.models-value", {"value": background_child(beat), "env": {}})
    assert answer["output"]["resolved"] == "started" and beat.exists(), answer
    assert not _beating(beat), "a background child of Pi's command is still running"
    folder = session.run("pi.models-value", {"value": "!pwd", "env": {}})["output"]["resolved"]
    assert Path(folder).name.startswith("command-") and not os.path.exists(folder)


def test_a_command_pi_runs_has_no_network(session):
    import socket
    import sys

    from tests.test_command_containment import CALL, ISOLATED

    if not ISOLATED and not os.environ.get("CI"):
        pytest.skip("no user or network namespaces here")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    try:
        value = CALL.format(port=server.getsockname()[1]).replace(sys.executable, "python3")
        assert session.run("pi.models-value", {"value": value, "env": {}})["output"]["resolved"] == "no network"
    finally:
        server.close()
