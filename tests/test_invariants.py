"""The property-based invariants: they hold for the reference, in process and through
``serve-reference``; they catch the faults they are about; a counterexample is a scenario file that
loads and, with goldens written by the reference, fails against the broken implementation."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conformance import invariants as inv
from conformance.commands import invariants as invariants_command
from conformance.adapters.base import Implementation
from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.faults.runner import FaultyReference, load_faults

ALL = inv.invariants()
FAULTS = {f.id: f for f in load_faults()}

# Each invariant and a seeded fault it must catch on its own.
CATCHES = {
    "inv-env-order-registration": "env-tiebreak-registration",
    "inv-env-environment-last": "env-environment-sorted",
    "inv-env-context-blank-file": "env-context-blank-kept",
    "inv-env-context-divider": "env-divider-always",
    "inv-env-context-verbatim": "env-context-trimmed",
    "inv-prof-switch-one-block": "prof-strip-only-at-start",
    "inv-prof-chain-specific-first": "prof-layers-base-first",
    "inv-tpl-args-requote": "tpl-args-empty-dropped",
    "inv-msg-convert-excluded": "msg-exclude-ignored",
}


def _started(adapter):
    hello = adapter.start()
    return adapter, set(hello.operations)


@pytest.fixture(scope="module")
def reference():
    adapter, ops = _started(InProcessAdapter(ReferenceImplementation()))
    yield adapter, ops
    adapter.stop()


@pytest.fixture(scope="module")
def served():
    adapter, ops = _started(JsonLinesAdapter([sys.executable, "-m", "conformance.adapters.server"],
                                             name="serve-reference"))
    yield adapter, ops
    adapter.stop()


def test_the_brief_properties_are_all_there():
    ids = {i.id for i in ALL}
    assert len(ids) >= 12
    assert {i.area for i in ALL} == {"envelope", "profiles", "pi"}
    assert set(CATCHES) <= ids


def test_invariants_name_known_clauses():
    from conformance.corpus.catalogue import load_catalogue

    known = set(load_catalogue().clauses)
    assert {i.id: [c for c in i.clauses if c not in known] for i in ALL if set(i.clauses) - known} == {}


@pytest.mark.parametrize("invariant", ALL, ids=lambda i: i.id)
def test_holds_for_the_reference(invariant, reference):
    adapter, ops = reference
    result = inv.run_invariant(invariant, adapter, ops)
    assert result.status == "passed", f"{result.message}\n{result.scenario}"
    assert result.examples >= 1


@pytest.mark.untraced  # the invariants again, served: test_holds_for_the_reference measures them
@pytest.mark.parametrize("invariant", ALL, ids=lambda i: i.id)
def test_holds_through_serve_reference(invariant, served):
    adapter, ops = served
    result = inv.run_invariant(invariant, adapter, ops, examples=10)
    assert result.status == "passed", f"{result.message}\n{result.scenario}"


@pytest.mark.parametrize("invariant_id,fault_id", sorted(CATCHES.items()))
def test_catches_its_fault(invariant_id, fault_id):
    # Catching is the point here, not shrinking (most of the time of a run that finds a fault):
    # the shrunk counterexample is judged by the two tests below.
    invariant = next(i for i in ALL if i.id == invariant_id)
    adapter, ops = _started(InProcessAdapter(FaultyReference(FAULTS[fault_id])))
    try:
        result = inv.run_invariant(invariant, adapter, ops, shrink=False)
    finally:
        adapter.stop()
    assert result.status == "failed", result.message
    assert result.requests and result.scenario.startswith(f"# Found by invariant {invariant_id}")


def test_a_counterexample_is_a_ready_to_commit_scenario(tmp_path):
    """The printed scenario loads as a scenario file; with goldens written by the reference, one of
    its cases fails against the fault the invariant found."""
    from conformance.corpus.cases import load_suite
    from conformance.judge.runner import Runner

    invariant = next(i for i in ALL if i.id == "inv-env-environment-last")
    fault = FAULTS["env-environment-sorted"]
    adapter, ops = _started(InProcessAdapter(FaultyReference(fault)))
    try:
        result = inv.run_invariant(invariant, adapter, ops)
    finally:
        adapter.stop()
    assert result.status == "failed"
    scenarios = tmp_path / "scenarios"
    (scenarios / "envelope").mkdir(parents=True)
    (scenarios / "envelope" / "strength-found.yaml").write_text(result.scenario, encoding="utf-8")
    suite = load_suite(scenarios)
    assert not suite.errors, suite.errors
    assert suite.cases and all(c.id.startswith("env-strength-") for c in suite.cases)
    goldens = tmp_path / "golden"
    writer = Runner(InProcessAdapter(ReferenceImplementation()), golden_dir=goldens, update=True)
    writer.start()
    assert all(writer.run_case(c).status == "passed" for c in suite.cases)
    judge = Runner(InProcessAdapter(FaultyReference(fault)), golden_dir=goldens)
    judge.start()
    assert any(judge.run_case(c).status == "failed" for c in suite.cases)


@pytest.mark.untraced  # the same search and shrink as the counterexample test's, twice: that test measures it
def test_the_default_run_is_reproducible():
    invariant = next(i for i in ALL if i.id == "inv-env-context-divider")
    texts = []
    for _ in range(2):
        adapter, ops = _started(InProcessAdapter(FaultyReference(FAULTS["env-divider-always"])))
        texts.append(inv.run_invariant(invariant, adapter, ops).scenario)
        adapter.stop()
    assert texts[0] and texts[0] == texts[1]


def test_the_budget(monkeypatch):
    monkeypatch.delenv(inv.EXAMPLES_ENV, raising=False)
    assert inv.example_budget() == inv.DEFAULT_EXAMPLES
    monkeypatch.setenv(inv.EXAMPLES_ENV, "400")
    assert inv.example_budget() == 400
    assert inv.example_budget(7) == 7
    with pytest.raises(ValueError, match="^--examples: .* at least 1, got 0"):
        inv.example_budget(0)
    assert inv.example_budget(10_000) == 10_000
    with pytest.raises(ValueError, match="^--examples: .* at most 10,000, got 10,000,000"):
        inv.example_budget(10_000_000)  # a typo, not days of work
    monkeypatch.setenv(inv.EXAMPLES_ENV, "10001")
    with pytest.raises(ValueError, match=r"^\$PI_CONFORMANCE_INVARIANT_EXAMPLES: .* at most 10,000, got 10,001"):
        inv.example_budget()
    for raw, said in (("abc", "a whole number, got 'abc'"), ("0", "at least 1, got 0")):
        monkeypatch.setenv(inv.EXAMPLES_ENV, raw)  # the message names the variable to fix
        with pytest.raises(ValueError, match=rf"^\$PI_CONFORMANCE_INVARIANT_EXAMPLES: .*{said}"):
            inv.example_budget()


class OnlyParseArgs(Implementation):
    """An implementation that provides one operation and gets it wrong."""

    name = "only-parse-args"

    def operations(self):
        return ["pi.parse-args"]

    def run(self, op, input, root):
        return {"args": input["text"].split()}


def test_missing_operations_make_an_invariant_unsupported():
    adapter, ops = _started(InProcessAdapter(OnlyParseArgs()))
    invariant = next(i for i in ALL if i.id == "inv-env-environment-last")
    assert inv.run_invariant(invariant, adapter, ops).status == "unsupported"
    requote = next(i for i in ALL if i.id == "inv-tpl-args-requote")
    result = inv.run_invariant(requote, adapter, ops)
    assert result.status == "failed" and "parsing" in result.message


class Crashes(Implementation):
    name = "crashes"

    def operations(self):
        return ["pi.models-value"]

    def run(self, op, input, root):
        raise RuntimeError("boom")


def test_an_adapter_that_crashes_is_errored():
    adapter, ops = _started(InProcessAdapter(Crashes()))
    invariant = next(i for i in ALL if i.id == "inv-mdl-literal-value")
    result = inv.run_invariant(invariant, adapter, ops, examples=3)
    assert result.status == "errored" and "boom" in result.message


def test_the_command(tmp_path, capsys):
    assert invariants_command.main(["--list", "--area", "profiles"]) == 0
    assert all(line.startswith("inv-prof-") for line in capsys.readouterr().out.splitlines())
    report = tmp_path / "r.json"
    code = invariants_command.main(["--adapter", "python:tests.test_invariants:OnlyParseArgs", "--examples", "5",
                     "--report-json", str(report), "--scenario-dir", str(tmp_path / "found")])
    out = capsys.readouterr().out
    assert code == 1 and "FAILED inv-tpl-args-requote" in out and "ready-to-commit scenario" in out
    assert (tmp_path / "found" / "inv-tpl-args-requote.yaml").exists()
    assert '"status": "unsupported"' in report.read_text()
    assert invariants_command.main(["--invariant", "nothing-*"]) == 2
    assert invariants_command.main(["--examples", "0"]) == 2
    assert invariants_command.main(["--adapter", "python:no.such:Thing"]) == 3


def test_a_run_where_every_invariant_is_unsupported_is_said_to_prove_nothing(capsys):
    # it said nothing, where run warns that a run judging no case proves nothing
    code = invariants_command.main(["--adapter", "python:tests.test_invariants:Crashes", "--examples", "2",
                                    "--invariant", "inv-env-*"])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    assert "pi-conformance: warning: no selected invariant was checked (" in captured.err
    assert "unsupported): the run proves nothing" in captured.err
    assert invariants_command.main(["--adapter", "python:tests.test_invariants:Crashes", "--examples", "2",
                                    "--invariant", "inv-mdl-literal-value"]) == 1
    assert "proves nothing" not in capsys.readouterr().err


def test_invalid_generated_input_is_the_invariants_fault(reference):
    adapter, ops = reference
    client = inv.Client(adapter, ops, 5.0)
    with pytest.raises(ValueError, match="invalid pi.parse-args input"):
        client.call("pi.parse-args", {"txt": "a"})
    assert Path(inv.__file__).name == "__init__.py"


def test_case_prefixes_come_from_the_cases():
    # AUTHORING.md's prefixes, as the suite's own cases use them.
    assert inv.case_prefix("pi", "pi.parse-args") == "tpl"
    assert inv.case_prefix("pi", "pi.validate-message") == "msg"
    assert inv.case_prefix("pi", "pi.packages-resolve") == "pkg"
    assert inv.case_prefix("pi", "pi.models-load") == "mdl"
    assert inv.case_prefix("profiles", "profiles.compose") == "prof"
    assert inv.case_prefix("envelope", "envelope.context-message") == "env"

    class C:
        def __init__(self, id, op, area="pi"):
            self.id, self.op, self.area = id, op, area

    cases = [C("abc-1", "pi.x"), C("abc-2", "pi.x"), C("zz-1", "pi.x"), C("mdl-1", "pi.y")]
    assert inv.case_prefix("pi", "pi.x", cases) == "abc"
    assert inv.case_prefix("pi", "pi.new", cases) == "abc"  # the area's most common prefix
    assert inv.case_prefix("kit", "kit.echo", cases) == "kit"


def test_the_examples_counted_are_those_drawn_and_shrink_steps_are_counted_apart(capsys):
    invariant = next(i for i in ALL if i.id == "inv-env-context-divider")
    adapter, ops = _started(InProcessAdapter(FaultyReference(FAULTS["env-divider-always"])))
    result = inv.run_invariant(invariant, adapter, ops, examples=3)
    unshrunk = inv.run_invariant(invariant, adapter, ops, examples=3, shrink=False)
    adapter.stop()
    assert result.status == unshrunk.status == "failed"
    # the counterexample is found at the same draw, within the budget, whether shrunk or not
    assert 1 <= result.examples == unshrunk.examples <= 3
    assert result.shrinks > 0 and unshrunk.shrinks == 0
    crashed = inv.run_invariant(next(i for i in ALL if i.id == "inv-mdl-literal-value"),
                                *_started(InProcessAdapter(Crashes())), examples=3)
    assert crashed.status == "errored" and (crashed.examples, crashed.shrinks) == (1, 0)


def test_an_invariants_frames_are_checked_before_the_drawn_examples(reference):
    # the strategy never draws the example that breaks the property; the frame holds it
    from hypothesis import strategies as st

    def check(client, example):
        client.call("pi.parse-args", {"text": example})
        if example == "framed":
            raise inv.Counterexample("the frame was checked")

    framed = inv.Invariant("inv-pi-framed", "pi", "frames are checked", ("PI-TPL-ARGS-SPLIT",), ("pi.parse-args",),
                           lambda: st.just("drawn"), check, lambda: ["framed"])
    adapter, ops = reference
    result = inv.run_invariant(framed, adapter, ops, examples=3)
    assert result.status == "failed" and "the frame was checked" in result.message
    unframed = inv.Invariant("inv-pi-unframed", "pi", "no frames", ("PI-TPL-ARGS-SPLIT",), ("pi.parse-args",),
                             lambda: st.just("drawn"), check)
    assert inv.run_invariant(unframed, adapter, ops, examples=3).status == "passed"


def test_invariants_over_frame_shapes_draw_frames():
    framed = {i.id for i in inv.registered() if i.frames is not None and i.frames()}
    assert framed >= {"inv-env-environment-last", "inv-mdl-literal-value", "inv-prof-compose-idempotent",
                      "inv-prof-strip-composed", "inv-prof-switch-one-block"}
