"""The seeded faults (``tests/faults/``): every one must be caught by at least one case of the
suite, and the machinery that applies them must leave the reference as it was."""

from __future__ import annotations

import sys
import textwrap
from collections import Counter

import pytest

from conformance import faults as fm
from conformance.cases import load_suite

ALL = fm.load_faults()


@pytest.fixture(scope="module")
def suite():
    loaded = load_suite()
    return loaded.cases


def test_at_least_25_faults_spread_over_every_part():
    assert len(ALL) >= 25
    parts = Counter(f.id.split("-")[0] for f in ALL)
    assert set(parts) >= {"env", "prof", "msg", "tpl", "pkg", "mdl"}, parts
    assert {f.area for f in ALL} == {"envelope", "profiles", "pi"}


def test_every_fault_names_known_clauses():
    from conformance.catalogue import load_catalogue

    known = set(load_catalogue().clauses)
    unknown = {f.id: [c for c in f.clauses if c not in known] for f in ALL}
    assert not {k: v for k, v in unknown.items() if v}


def test_every_seeded_fault_is_caught(suite):
    matrix = fm.catch_matrix(ALL, suite, first_only=True)
    survivors = [f"{r.id} ({r.title}; {r.cases} cases run)" for r in matrix.survivors]
    assert not survivors, "seeded faults that no case catches:\n  " + "\n  ".join(survivors)
    assert len(matrix.results) == len(ALL)


def test_a_fault_changes_only_what_it_patches_and_is_undone():
    from reference.envelope import build, collation, contributions

    fault = next(f for f in ALL if f.id == "env-tiebreak-codepoint")
    original = collation.id_sort_key
    with fm.applied(fault):
        assert collation.id_sort_key is not original
        assert collation.id_sort_key("A") < collation.id_sort_key("a")  # code points: the mistake
    assert collation.id_sort_key is original
    assert collation.id_sort_key("a") < collation.id_sort_key("A")  # UCA root order again
    assert contributions.id_sort_key is original and build.developer_messages is not None


def test_a_constant_is_patched_under_its_own_name_only():
    from reference.profiles.core import inherit

    fault = next(f for f in ALL if f.id == "prof-depth-limit-9")
    with fm.applied(fault):
        assert inherit.MAX_LAYERS == 9
    assert inherit.MAX_LAYERS == 8


def test_a_function_in_a_dispatch_table_is_patched_and_restored():
    from reference.pi.core import convert

    fault = next(f for f in ALL if f.id == "msg-exclude-ignored")
    original = convert._CONVERTERS["bashExecution"]
    with fm.applied(fault):
        assert convert._CONVERTERS["bashExecution"] is not original
    assert convert._CONVERTERS["bashExecution"] is original


def test_a_missing_target_is_refused():
    fault = fm.Fault("x-missing", "envelope", "t", ("ENV-ENV-LAST",),
                     (fm.replace("reference.envelope.build:no_such_function", None),))
    with pytest.raises(fm.FaultError, match="no attribute"):
        with fm.applied(fault):
            pass
    with pytest.raises(fm.FaultError, match="module:attribute"):
        with fm.applied(fm.Fault("x-bad", "envelope", "t", (), (fm.replace("nocolon", None),))):
            pass


def test_a_fault_needs_a_patch():
    with pytest.raises(ValueError):
        fm.Fault("x", "envelope", "t", (), ())


def test_the_matrix_reports_every_catching_case(suite):
    fault = next(f for f in ALL if f.id == "env-environment-first")
    matrix = fm.catch_matrix([fault], suite)
    result = matrix.results[0]
    assert result.caught and len(result.caught_by) > 1
    assert all(result.statuses[c] in ("failed", "errored") for c in result.caught_by)
    text = fm.format_matrix(matrix, verbose=True)
    assert "caught" in text and "1/1 seeded faults caught" in text
    assert matrix.record()["survivors"] == []


def test_a_fault_served_over_json_lines_is_caught(suite):
    fault = next(f for f in ALL if f.id == "env-tools-any")
    matrix = fm.catch_matrix([fault], suite, via="serve", first_only=True)
    assert matrix.results[0].caught_by, matrix.results[0]


SURVIVOR_MODULE = textwrap.dedent('''
    from conformance.faults import Fault, wrap

    FAULTS = [Fault("env-harmless", "envelope", "A patch that changes nothing", ("ENV-ENV-LAST",),
                    (wrap("reference.envelope.build:developer_messages", lambda orig: lambda c, r: orig(c, r)),),
                    ("envelope.instructions",))]
''')


def test_the_command_fails_when_a_fault_survives(tmp_path, monkeypatch, capsys):
    (tmp_path / "harmless_faults.py").write_text(SURVIVOR_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    report = tmp_path / "matrix.json"
    code = fm.main(["--faults", "harmless_faults", "--first", "-q", "--report-json", str(report)])
    out = capsys.readouterr().out
    assert code == 1
    assert "SURVIVED env-harmless" in out and "0/1 seeded faults caught" in out
    assert '"survivors": [\n    "env-harmless"' in report.read_text()
    sys.modules.pop("harmless_faults", None)


def test_the_command_lists_and_selects_faults(capsys):
    assert fm.main(["--list", "--area", "profiles"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed and all("\tprofiles\t" in line for line in listed)
    clean = not load_suite().errors  # a scenario file being edited elsewhere makes the exit code 2
    assert fm.main(["--fault", "env-tools-any", "--first", "-q"]) == (0 if clean else 2)
    assert "1/1 seeded faults caught" in capsys.readouterr().out
    assert fm.main(["--fault", "no-such-fault"]) == 2
    assert fm.main(["--faults", "no.such.module"]) == 2


def test_every_must_clause_has_a_passing_case_and_every_refusal_a_passing_refusal(suite):
    """Clause coverage by cases that pass against the reference, not merely by cases that exist."""
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.adapters.reference import ReferenceImplementation
    from conformance.catalogue import load_catalogue
    from conformance.coverage import covering_cases, shows_refusal
    from conformance.runner import Runner

    runners: dict[str | None, Runner] = {}
    status: dict[str, str] = {}

    def passes(case) -> bool:
        # each case judged by the first edition it holds for (PI-DECISION-EDITIONS)
        edition = case.editions[0] if case.editions else None
        if edition not in runners:
            runners[edition] = Runner(InProcessAdapter(ReferenceImplementation()), edition=edition)
            runners[edition].start()
        if case.id not in status:
            status[case.id] = runners[edition].run_case(case).status
        return status[case.id] == "passed"

    missing = []
    cat = load_catalogue()
    for cid, clause in cat.clauses.items():
        if clause.check == "manual":
            continue
        covering = covering_cases(cat, cid, suite)
        if clause.level == "MUST" and not any(passes(c) for c in covering):
            missing.append(f"{cid}: no passing case")
        if clause.refusal and covering and not any(passes(c) for c in covering if shows_refusal(c)):
            missing.append(f"{cid}: no passing refusal case")
    for runner in runners.values():
        runner.stop()
    assert not missing, "\n".join(missing)
