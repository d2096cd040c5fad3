"""``--adapter-env`` names variables for an adapter the kit starts as a process; an in-process
adapter shares the kit's environment, so the variables would be silently lost there: every
command that takes the option refuses it then, naming what to do instead (the pytest plugin's
refusal: ``tests/test_kit_plugin.py``)."""

from __future__ import annotations

import pytest

from conformance.adapters import connect
from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.environment import AdapterEnvironment
from conformance.cli import main

REFUSED = "--adapter-env is for an adapter the kit starts as a process"


@pytest.mark.parametrize("spec", [None, "reference", "python:tests.kit_fixtures:Echo"])
def test_added_variables_are_refused_for_an_adapter_inside_the_kit(spec):
    with pytest.raises(connect.AdapterNameError, match=REFUSED):
        connect.make_adapter(spec, AdapterEnvironment({"A": "1"}))
    connect.make_adapter(spec, AdapterEnvironment())  # nothing added: nothing to lose


def test_added_variables_reach_an_adapter_the_kit_starts():
    adapter = connect.make_adapter("serve-reference", AdapterEnvironment({"A": "1"}))
    assert isinstance(adapter, JsonLinesAdapter)


@pytest.mark.parametrize("argv", [
    ["run", "-q", "--case", "env-payload-replace-both"],
    ["run", "-q", "--adapter", "python:tests.kit_fixtures:Echo"],
    ["invariants", "--examples", "1"],
    ["diff", "--adapter", "reference", "--adapter", "python:tests.kit_fixtures:Echo", "--examples", "1"],
])
def test_commands_refuse_added_variables_for_an_adapter_inside_the_kit(argv, capsys):
    assert main([*argv, "--adapter-env", "A=1"]) == 2
    assert REFUSED in capsys.readouterr().err


def test_diff_hands_the_variables_to_the_adapter_it_starts(monkeypatch):
    """With one adapter in process and one started, the variables go to the started one, and
    the in-process one is not refused for them."""
    given: dict[str, AdapterEnvironment | None] = {}
    real = connect.make_adapter

    def recording(spec, environment=None):
        given[spec] = environment
        return real(spec, environment)

    monkeypatch.setattr(connect, "make_adapter", recording)  # the session makes every adapter through it
    assert main(["diff", "--adapter", "reference", "--adapter", "serve-reference", "--op", "envelope.environment",
                 "--examples", "1", "--adapter-env", "A=1"]) == 0
    assert given["reference"] is None and dict(given["serve-reference"].extra) == {"A": "1"}
