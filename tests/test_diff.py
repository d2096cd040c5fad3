"""``pi-conformance diff``: two implementations compared on generated inputs.

The reference agrees with itself served over the protocol; a seeded fault served as a command
adapter is found, shrunk and printed as a scenario that loads and reproduces; the strategies draw
only inputs the operations' models accept; usage errors and adapters that cannot start get their
exit codes.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conformance.adapters.connect import make_adapter
from conformance.adapters.environment import MEASUREMENT_VARIABLES
from conformance.corpus.cases import SCENARIOS_DIR, load_file
from conformance.corpus.catalogue import load_catalogue
from conformance.cli import main
from conformance.diff import common_operations, compare, diff_operation
from conformance.diff.scenario import case_id
from conformance.faults.runner import FaultyReference, fault_adapter, load_faults
from conformance.operations import catalogue
from conformance.strategies import for_operation

REPO = Path(__file__).resolve().parent.parent


def fault_command(fault_id: str) -> str:
    """The ``--adapter`` command line serving the reference with one seeded fault."""
    return shlex.join([sys.executable, "-m", "conformance.faults.runner", "serve", fault_id])


class _Seeded(FaultyReference):
    """The reference with the seeded fault :attr:`fault_id`, in process: an ``--adapter
    python:tests.test_diff:CLASS`` for the tests about what diff does with a disagreement, where
    serving the fault over the protocol (a process of its own per run) is not the point."""

    fault_id = ""

    def __init__(self) -> None:
        super().__init__(next(f for f in load_faults() if f.id == self.fault_id))


class DollarZeroAll(_Seeded):
    fault_id = "tpl-dollar-zero-all"


class ArgsEmptyDropped(_Seeded):
    fault_id = "tpl-args-empty-dropped"


IN_PROCESS = {cls.fault_id: f"python:tests.test_diff:{cls.__name__}" for cls in (DollarZeroAll, ArgsEmptyDropped)}
"""``--adapter`` of each in-process seeded fault, by fault id."""


@pytest.mark.untraced  # every operation again, in process and served: the other diff tests measure it
def test_the_reference_agrees_with_itself_served_over_the_protocol(capsys):
    code = main(["diff", "--adapter", "reference", "--adapter", "serve-reference", "--area", "pi",
                 "--area", "profiles", "--area", "envelope", "--examples", "3"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "0 disagreements" in out and "disagree " not in out


@pytest.mark.parametrize("fault, op", [("tpl-args-empty-dropped", "pi.parse-args"),
                                       ("tpl-dollar-zero-all", "pi.substitute-args")])
def test_a_seeded_fault_is_found_and_printed_as_a_case_that_loads_and_reproduces(tmp_path, capsys, fault, op):
    out_dir = tmp_path / "found"
    # The served fault runs unmeasured (--adapter-env of the measurement variables, empty): the run
    # in process below asks the reference the same examples (same seed), measured, and
    # tests/test_faults.py measures a fault served over the protocol.
    code = main(["diff", "--adapter", "reference", "--adapter", fault_command(fault), "--op", op,
                 "--examples", "100", "--seed", "1", "--out", str(out_dir),
                 "--adapter-env", f"PYTHONPATH={REPO}",
                 *(f"--adapter-env={name}=" for name in MEASUREMENT_VARIABLES)])
    printed = capsys.readouterr().out
    assert code == 1, printed
    files = sorted(out_dir.glob("*.yaml"))
    assert len(files) == 1 and files[0].stem.startswith(f"diff-{op.replace('.', '-')}-")
    text = files[0].read_text(encoding="utf-8")
    assert "# reference answered a result:" in text and f"answered a result:" in text.split("# reference")[-1]
    # Loads as written, with clauses the catalogue knows.
    scenarios = tmp_path / "scenarios" / "pi"
    scenarios.mkdir(parents=True)
    (scenarios / files[0].name).write_text(text, encoding="utf-8")
    cases, errors = load_file(scenarios / files[0].name, known_clauses=set(load_catalogue().clauses))
    assert errors == [] and len(cases) == 1 and cases[0].id == files[0].stem and cases[0].op == op
    # Reproduces: the two adapters still disagree on the case's input (the fault in process now:
    # its being served over the protocol was judged by the run above).
    adapters = (make_adapter("reference"), fault_adapter(next(f for f in load_faults() if f.id == fault)))
    for adapter in adapters:
        adapter.start()
    try:
        found = compare(adapters, op, cases[0].input, None, timeout=10)
        again = diff_operation(adapters, op, examples=100, seed=1)
    finally:
        for adapter in adapters:
            adapter.stop()
    assert found is not None
    assert again.disagreement is not None and case_id(again.disagreement) == cases[0].id  # same seed, same case


NEW_STRATEGY_FAULTS = [
    ("env-environment-first", "envelope.build"), ("env-ctx-inject", "envelope.context-hook"),
    ("env-ctx-format", "envelope.context-message"), ("env-contrib-replace", "envelope.developer-messages"),
    ("env-format", "envelope.environment"), ("env-instructions-no-append", "envelope.instructions"),
    ("env-registry-incompatible", "envelope.session"), ("env-audit-setting", "envelope.settings"),
    ("mdl-classifier-catalogue-table", "pi.classifier-catalogue"), ("mdl-classifier-cost", "pi.classifier-usage"),
    ("msg-extra-fields", "pi.validate-message"), ("prof-config-json", "profiles.config"),
    ("pi-160-models-sampling-apis", "pi.models-sampling"),
    ("prof-edit-race", "profiles.config-edit"), ("prof-match-and", "profiles.match"),
    ("prof-picker-rows-11", "profiles.picker"), ("prof-session-restore", "profiles.session"),
    ("prof-settings-registry", "profiles.settings"),
]
"""A seeded fault for each operation whose strategy is new, found within a small budget."""


@pytest.mark.parametrize("fault_id, op", NEW_STRATEGY_FAULTS)
def test_the_new_strategies_find_a_seeded_fault_of_their_operation(fault_id, op):
    fault = next(f for f in load_faults() if f.id == fault_id)
    adapters = (make_adapter("reference"), fault_adapter(fault))
    for adapter in adapters:
        adapter.start()
    try:
        report = diff_operation(adapters, op, examples=30, shrink=False)
    finally:
        for adapter in adapters:
            adapter.stop()
    assert report.source == "hand-written" and report.disagreement is not None, f"{fault_id} not found in {op}"


def test_a_generated_case_cites_the_operations_most_cited_clause(tmp_path, capsys):
    main(["diff", "--adapter", "reference", "--adapter", IN_PROCESS["tpl-args-empty-dropped"],
          "--op", "pi.parse-args", "--examples", "30", "--out", str(tmp_path)])
    capsys.readouterr()
    (file,) = tmp_path.glob("*.yaml")
    cases, _ = load_file(file)
    from conformance.corpus.cases import load_suite

    counts: dict[str, int] = {}
    for case in load_suite(SCENARIOS_DIR).cases:
        if case.op == "pi.parse-args":
            for clause in case.clauses:
                counts[clause] = counts.get(clause, 0) + 1
    assert cases[0].clauses == [max(sorted(counts), key=lambda c: counts[c])]


@pytest.mark.parametrize("argv, code", [
    (["--adapter", "reference"], 2),
    (["--adapter", "reference", "--adapter", "reference", "--examples", "0"], 2),
    (["--adapter", "reference", "--adapter", "reference", "--examples", "10001"], 2),  # a typo, not days of work
    (["--adapter", "reference", "--adapter", "reference", "--op", "pi.no-such-op"], 2),
    (["--adapter", "reference", "--adapter", "'unbalanced"], 2),
    (["--adapter", "reference", "--adapter", "/nonexistent/adapter-program"], 3),
])
def test_usage_errors_and_adapters_that_cannot_start(argv, code, capsys):
    assert main(["diff", *argv]) == code
    assert "pi-conformance diff:" in capsys.readouterr().err


def test_an_operation_outside_the_areas_given_is_refused_as_run_refuses_a_case(capsys):
    # run --area pi --case 'env-*' is a usage error; diff compared the envelope operation regardless
    code = main(["diff", "--adapter", "reference", "--adapter", "reference", "--area", "pi",
                 "--op", "envelope.instructions", "--examples", "1"])
    captured = capsys.readouterr()
    assert code == 2 and "diff reference against" not in captured.out, captured.out
    assert "--op envelope.instructions: not of --area pi" in captured.err
    assert main(["diff", "--adapter", "reference", "--adapter", "reference", "--area", "pi", "--area", "envelope",
                 "--op", "envelope.instructions", "--examples", "1"]) == 0
    with pytest.raises(ValueError, match="not of --area profiles"):
        common_operations(["envelope.instructions"], ["envelope.instructions"], areas=["profiles"],
                          ops=["envelope.instructions"])


@pytest.mark.parametrize("op", sorted(o for o in catalogue() if not o.startswith("kit.")))
def test_every_strategy_draws_inputs_its_operation_accepts(op):
    strategy, _source = for_operation(op)
    model = catalogue()[op].input

    @settings(max_examples=15, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def check(example):
        data, tree = example
        model.model_validate(data)
        if tree is not None:
            from conformance.corpus.trees import parse_tree

            parse_tree(tree)

    check()


FALLBACK_ALLOWED: set[str] = set()
"""Operations (besides ``kit.*``) allowed to draw their examples from the schema fallback: none."""


def test_every_operation_has_a_hand_written_strategy():
    fallback = {op for op in catalogue() if not op.startswith("kit.") and for_operation(op)[1] == "fallback"}
    assert fallback <= FALLBACK_ALLOWED, f"write a strategy in conformance/strategies/ for {sorted(fallback)}"


# --- known divergences (--expectations) ------------------------------------------------------------


def _expectations_file(tmp_path, *entries: str) -> str:
    path = tmp_path / "expectations.yaml"
    path.write_text("expectations:\n" + "".join(
        f"  - {{id: {e}, status: fail, reason: seeded divergence}}\n" for e in entries), encoding="utf-8")
    return str(path)


def _diff_fault(fault, op, *extra):
    return main(["diff", "--adapter", "reference", "--adapter", IN_PROCESS[fault], "--op", op,
                 "--examples", "40", *extra])


def test_a_disagreement_the_expectations_record_is_known_and_does_not_fail(tmp_path, capsys):
    code = _diff_fault("tpl-dollar-zero-all", "pi.substitute-args",
                       "--expectations", _expectations_file(tmp_path, "tpl-sub-*"))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "known     pi.substitute-args" in out and "DISAGREEMENT" not in out
    assert "0 disagreements, known divergences in 1 operations" in out


def test_expectations_of_another_operation_leave_the_disagreement_reported(tmp_path, capsys):
    code = _diff_fault("tpl-dollar-zero-all", "pi.substitute-args",
                       "--expectations", _expectations_file(tmp_path, "pkg-disc-*"))
    out = capsys.readouterr().out
    assert code == 1 and "DISAGREEMENT pi.substitute-args" in out, out


def test_a_disagreement_at_a_new_place_of_a_recorded_operation_is_not_known():
    from conformance.diff.known import KnownCase, KnownDivergences, signature

    recorded = KnownDivergences({"pi.x": [KnownCase("c1", ["C"], "r", signature(
        (["result", {"a": [1], "b": 1}], ["result", {"a": [2], "b": 1}])))]})
    same_place = signature((["result", {"a": [5, 6], "b": 1}], ["result", {"a": [5, 7], "b": 1}]))
    new_place = signature((["result", {"a": [1], "b": 1}], ["result", {"a": [1], "b": 2}]))
    both = signature((["result", {"a": [1], "b": 1}], ["result", {"a": [2], "b": 2}]))
    refusal = signature((["result", {"a": [1]}], ["error", "some-code"]))
    assert [c.id for c in recorded.explain("pi.x", same_place)] == ["c1"]
    assert recorded.explain("pi.x", new_place) == [] and recorded.explain("pi.x", refusal) == []
    assert recorded.explain("pi.x", both) == []  # a known place and a new one: not known
    assert recorded.explain("pi.y", same_place) == []


@pytest.mark.parametrize("text", ["expectations:\n  - {id: no-such-case-*, status: fail, reason: r}\n",
                                  "expectations:\n  - {id: tpl-sub-*, status: maybe, reason: r}\n"])
def test_a_bad_or_stale_expectations_file_is_a_usage_error(tmp_path, capsys, text):
    path = tmp_path / "e.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["diff", "--adapter", "reference", "--adapter", "reference", "--op", "pi.parse-args",
                 "--expectations", str(path)]) == 2
    assert "e.yaml" in capsys.readouterr().err


def _recording(seen: list):
    """The bundled reference, in process, noting the edition each request carries."""
    adapter = make_adapter("reference")
    run = adapter.run

    def recorded(op, input, *, root, timeout, edition=None):
        seen.append((op, edition))
        return run(op, input, root=root, timeout=timeout, edition=edition)

    adapter.run = recorded
    return adapter


@pytest.mark.parametrize("edition, pi_edition", [(None, "pi-0.99.4"), ("pi-1.6.0", "pi-1.6.0")])
def test_the_edition_judged_travels_with_every_request(edition, pi_edition):
    from conformance.corpus.editions import default_of

    expected = {"pi": pi_edition, "envelope": default_of("envelope")}
    seen: list = []
    adapters = (_recording(seen), _recording(seen))
    for adapter in adapters:
        adapter.start()
    try:
        for op in ("pi.models-sampling", "envelope.environment"):
            report = diff_operation(adapters, op, examples=3, shrink=False, edition=edition)
            assert report.disagreement is None and not report.error
    finally:
        for adapter in adapters:
            adapter.stop()
    assert seen and {(op.split(".")[0], e) for op, e in seen} == set(expected.items())


def test_the_edition_option_of_diff_names_the_edition_and_refuses_unknown_ones(capsys):
    assert main(["diff", "--adapter", "reference", "--adapter", "reference", "--op", "pi.models-sampling",
                 "--examples", "2", "--edition", "pi-1.6.0"]) == 0
    assert "edition pi-1.6.0" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["diff", "--adapter", "reference", "--adapter", "reference", "--edition", "pi-9"])
    assert exc.value.code == 2


@pytest.mark.parametrize("out, message", [("/proc/pi-conformance-nope", "/proc takes no new files"),
                                          ("{tmp}/a-file/out", "cannot write in {tmp}/a-file")])
def test_an_out_folder_that_cannot_be_written_is_refused_before_the_search(out, message, capsys, tmp_path):
    # (an --out naming a file is refused with the arguments: tests/test_kit_options.py)
    (tmp_path / "a-file").write_text("kept")
    out, message = out.format(tmp=tmp_path), message.format(tmp=tmp_path)
    assert main(["diff", "--adapter", "reference", "--adapter", "reference", "--op", "pi.parse-args",
                 "--examples", "2", "--out", out]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "examples compared" not in captured.out
    assert (tmp_path / "a-file").read_text() == "kept"


def test_the_examples_counted_are_those_drawn_and_shrink_steps_are_counted_apart(capsys):
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.adapters.reference import ReferenceImplementation

    sent = []

    class Recording(InProcessAdapter):
        def run(self, op, input, **kwargs):
            sent.append(input)
            return super().run(op, input, **kwargs)

    adapters = (Recording(ReferenceImplementation()), InProcessAdapter(DollarZeroAll()))
    for adapter in adapters:
        adapter.start()
    report = diff_operation(adapters, "pi.substitute-args", examples=40)
    assert report.disagreement is not None and report.shrinks > 0
    assert report.examples <= 40 and report.examples + report.shrinks + 1 == len(sent)  # + the final replay
    assert sent[-1] == report.disagreement.input
    # the last example drawn is the first that disagreed; every one before it agreed
    first = sent[report.examples - 1]
    assert compare(adapters, "pi.substitute-args", first, None, 10.0) is not None
    unshrunk = diff_operation(adapters, "pi.substitute-args", examples=40, shrink=False)
    assert (unshrunk.examples, unshrunk.shrinks, unshrunk.disagreement.input) == (report.examples, 0, first)
    assert all(compare(adapters, "pi.substitute-args", i, None, 10.0) is None for i in sent[:report.examples - 1])
    assert _diff_fault("tpl-dollar-zero-all", "pi.substitute-args") == 1
    out = capsys.readouterr().out
    assert f"({report.examples} examples, {report.shrinks} shrink steps, " in out
    assert f"1 operations, {report.examples} examples compared, 1 disagreements (shrunk in {report.shrinks} further steps)" in out


def test_the_bound_on_examples_is_said(capsys):
    assert main(["diff", "--adapter", "reference", "--adapter", "reference", "--examples", "10000000"]) == 2
    assert "--examples: the number of examples must be at most 10,000, got 10,000,000" in capsys.readouterr().err


@settings(max_examples=80, suppress_health_check=list(HealthCheck), deadline=None)
@given(example=for_operation("pi.package-source")[0])
def test_a_generated_tilde_source_always_names_its_home(example) -> None:
    # Without `home`, `~` resolves against the implementation's own home: two adapter processes
    # (each with a scratch home) would disagree on every such input, whatever their rules.
    data, _tree = example
    if data["source"].startswith("~"):
        assert data.get("home") == "/home/user"
