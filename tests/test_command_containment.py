"""A case's ``!command`` runs contained: the adapter environment with the case's variables over it,
in a scratch folder of its own (removed afterwards), in a process group killed when it ends or its
limit does, and without network where the system has user and network namespaces; and a scenario
folder other than the kit's own runs no command unless the user passes ``--allow-commands``.

The commands here are hostile stand-ins: one leaves a child running in the background, one
outlives its limit, one reads the tester's secrets, one calls a server on the tester's loopback."""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path

import pytest

from conformance.judge import golden
from conformance.corpus import shell
from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.cli import main
from tests.kit_fixtures import write

SPEC_DIR = Path(__file__).resolve().parents[1] / "conformance" / "spec"
ISOLATED = shell.isolation()[1] is None


def _resolve(value: str, env: dict | None = None, adapter=None):
    if adapter is None:
        adapter = InProcessAdapter(ReferenceImplementation())
        adapter.start()
    answer = adapter.run("pi.models-value", {"value": value, "env": env or {}}, root=None, timeout=30)
    assert answer.kind == "result", answer
    return answer.output["resolved"]


def _beating(beat: Path) -> bool:
    """Whether something still rewrites ``beat`` (a background child of a command)."""
    time.sleep(0.4)
    before = beat.read_text() if beat.exists() else None
    time.sleep(0.6)
    return beat.exists() and beat.read_text() != before


def background_child(beat: Path) -> str:
    """A command that leaves a child rewriting ``beat`` every 0.1 s, and answers once it has."""
    return (f"!(while :; do date +%s%N > '{beat}'; sleep 0.1; done) >/dev/null 2>&1 & "
            f"while [ ! -s '{beat}' ]; do sleep 0.05; done; echo started")


def test_a_background_child_of_a_command_does_not_outlive_it(tmp_path):
    beat = tmp_path / "beat"
    assert _resolve(background_child(beat)) == "started"
    assert beat.exists(), "the child ran"
    assert not _beating(beat), "the command's background child is still running"


def test_a_command_past_its_limit_is_killed_with_what_it_started(tmp_path):
    beat = tmp_path / "beat"
    started = time.monotonic()
    result = shell.run_contained(f"(while :; do date +%s%N > '{beat}'; sleep 0.1; done) & sleep 30", {}, 1.0)
    assert result.exit_code is None and result.stdout == "" and time.monotonic() - started < 10
    assert not _beating(beat), "a child of the command outlived its limit"


def test_a_command_runs_in_its_own_scratch_folder_with_the_adapter_environment(monkeypatch):
    monkeypatch.setenv("PI_TEST_SECRET_API_KEY", "the tester's own")
    out = _resolve("!printf '%s|%s|%s|%s' \"$(pwd)\" \"$HOME\" \"$PI_TEST_SECRET_API_KEY\" \"$TOKEN\"", {"TOKEN": "t0k"})
    folder, home, secret, token = out.split("|")
    assert Path(folder).name.startswith(f"{shell.SCRATCH_PREFIX}{os.getpid()}-") and folder != os.getcwd()
    assert home == os.path.join(folder, "home") and secret == "" and token == "t0k"
    assert not os.path.exists(folder), "the scratch folder is removed with the command"


@pytest.fixture()
def loopback_server():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    yield server.getsockname()[1]
    server.close()


CALL = ("!" + sys.executable + " -c \"import socket,sys\ntry:\n socket.create_connection(('127.0.0.1', {port}), 2)"
        "\n print('reached')\nexcept OSError:\n print('no network')\"")


@pytest.mark.skipif(not ISOLATED and not os.environ.get("CI"), reason=f"no namespaces here: {shell.isolation()[1]}")
def test_a_command_has_no_network(loopback_server):
    assert _resolve(CALL.format(port=loopback_server)) == "no network"


def test_what_is_not_available_is_said_once(monkeypatch, capsys):
    monkeypatch.setattr(shell, "_noted", False)
    monkeypatch.setattr(shell, "isolation", lambda: ([], "unshare is not installed"))
    for _ in range(3):
        assert _resolve("!echo hi") == "hi"
    err = capsys.readouterr().err
    assert err.count("!command values run without network isolation: unshare is not installed") == 1, err


SCENARIO = """\
format: 1
area: pi
title: Commands of someone else's suite
op: pi.models-value
cases:
  - id: mdl-value-foreign-command
    title: a command of a scenario folder that is not the kit's
    clauses: [PI-MODELS-VALUE-COMMAND]
    input: {{value: "!touch '{marker}'; echo ran", env: {{}}}}
"""


@pytest.mark.parametrize("allow", [False, True])
def test_a_scenario_folder_not_the_kits_runs_no_command_unless_allowed(tmp_path, capsys, allow):
    marker = tmp_path / "marker"
    scenarios, gold = tmp_path / "scenarios", tmp_path / "golden"
    write(scenarios / "pi" / "foreign.yaml", SCENARIO.format(marker=marker))
    golden.write(gold / "pi" / "mdl-value-foreign-command.yaml", "mdl-value-foreign-command", "pi.models-value",
                 {"form": "command", "variables": [], "resolved": "ran"})
    report = tmp_path / "report.json"
    code = main(["run", "--scenarios-dir", str(scenarios), "--spec-dir", str(SPEC_DIR), "--golden-dir", str(gold),
                 "--report-json", str(report), *(["--allow-commands"] if allow else [])])
    (record,) = json.loads(report.read_text())["cases"]
    assert code == 0, capsys.readouterr()
    if allow:
        assert record["status"] == "passed" and marker.exists()
    else:
        assert record["status"] == "skipped" and "--allow-commands" in record["message"]
        assert not marker.exists(), "the command ran"


def test_the_kits_own_scenarios_run_their_commands():
    assert shell.commands_allowed(None, False) and shell.commands_allowed(SPEC_DIR.parent / "scenarios", False)
    assert not shell.commands_allowed(SPEC_DIR, False) and shell.commands_allowed(SPEC_DIR, True)


@pytest.mark.parametrize("op, input, runs", [
    ("pi.models-value", {"value": "!echo", "env": {}}, True),
    ("pi.models-value", {"value": "$!echo", "env": {}}, False),
    ("pi.models-auth", {"modelsJson": {"providers": {"a": {"headers": {"x": "!id"}}}}}, True),
    ("pi.models-load", {"modelsJsonText": '{"providers": {"a": {"apiKey": "!id"}}}'}, True),
    ("pi.expand-input", {"text": "!echo"}, False),
])
def test_which_cases_run_a_command(op, input, runs):
    assert shell.runs_command(op, input) is runs
