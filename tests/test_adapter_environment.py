"""The environment the kit starts an adapter in (PROTOCOL.md, "The adapter's environment")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.environment import (
    LOCALE,
    MEASUREMENT_VARIABLES,
    PASSED_VARIABLES,
    TIME_ZONE,
    AdapterEnvironment,
    parse_assignments,
)
from conformance.cli import main

STANDINS = Path(__file__).parent / "standins"
SHOWS = [sys.executable, str(STANDINS / "shows_environment.py")]
SERVER = [sys.executable, "-m", "conformance.adapters.server"]


def environment_of(adapter: JsonLinesAdapter) -> dict:
    answer = adapter.run("kit.echo", {"value": "env"}, root=None, timeout=10)
    assert answer.kind == "result", answer
    return answer.output["value"]


def test_the_adapter_gets_only_the_documented_variables(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-machine")
    monkeypatch.setenv("LANG", "da_DK.UTF-8")
    monkeypatch.setenv("LC_ALL", "tr_TR.UTF-8")
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    monkeypatch.setenv("HOME", "/home/the-tester")
    with JsonLinesAdapter(SHOWS, environment=AdapterEnvironment({"MY_FLAG": "1", "TZ": "Asia/Tokyo"})) as adapter:
        env = environment_of(adapter)
    scratch = Path(env["HOME"]).parent
    assert env["LANG"] == env["LC_ALL"] == LOCALE == "C.UTF-8"
    assert env["TZ"] == "Asia/Tokyo"  # --adapter-env comes last and wins
    assert env["MY_FLAG"] == "1"
    assert "OPENAI_API_KEY" not in env
    assert env["HOME"] == env["USERPROFILE"] == str(scratch / "home")
    assert env["TMPDIR"] == env["TEMP"] == env["TMP"] == str(scratch / "tmp")
    allowed = set(PASSED_VARIABLES + MEASUREMENT_VARIABLES) | {"LANG", "LC_ALL", "TZ", "HOME", "USERPROFILE",
                                                               "TMPDIR", "TEMP", "TMP", "MY_FLAG"}
    # Python itself may add LC_CTYPE when it coerces the C locale; nothing of the tester's passes.
    assert set(env) - allowed <= {"LC_CTYPE"}, set(env) - allowed
    assert not scratch.exists(), "the scratch folder outlives the adapter"


def test_the_default_time_zone_and_a_fresh_home(monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    with JsonLinesAdapter(SHOWS) as adapter:
        env = environment_of(adapter)
        assert env["TZ"] == TIME_ZONE == "UTC"
        assert Path(env["HOME"]).is_dir() and not any(Path(env["HOME"]).iterdir())


def test_a_restart_leaves_no_scratch_folder_behind():
    adapter = JsonLinesAdapter(SHOWS)
    try:
        first = Path(environment_of(adapter)["HOME"]).parent
        assert adapter.run("kit.echo", {"value": "crash"}, root=None, timeout=10).kind == "errored"
        assert not first.exists()
        second = Path(environment_of(adapter)["HOME"]).parent
        assert adapter.restarts == 1 and second != first and second.exists()
    finally:
        adapter.stop()
    assert not second.exists()


def test_adapter_env_assignments():
    assert parse_assignments(["A=1", "B=x=y", "A=2", "EMPTY="]) == {"A": "2", "B": "x=y", "EMPTY": ""}
    for bad in ["NOVALUE", "=1"]:
        with pytest.raises(ValueError, match="KEY=VALUE"):
            parse_assignments([bad])


def test_a_bad_adapter_env_is_a_usage_error(capsys):
    assert main(["smoke", "--adapter", "serve-reference", "--adapter-env", "NOVALUE"]) == 2
    assert "--adapter-env 'NOVALUE': expected KEY=VALUE" in capsys.readouterr().err
