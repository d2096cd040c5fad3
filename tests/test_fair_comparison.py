"""Judged only on what a clause states: absent and null mean the same where an output schema
allows null (ADAPTERS.md, "Optional properties"), and facets, output fields no clause defines,
are compared only when declared or decided by a cited clause (ADAPTERS.md, "Facets"). The kit
applies both to every answer and golden.

Seen failing with :func:`conformance.judge.optional.drop_nulls` returning its data unchanged: the
null-for-absent probe failed 47 profiles cases, the absent-for-null probe 108 cases.
"""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.judge import golden
from conformance.adapters.inprocess import InProcessAdapter
from conformance.corpus.cases import load_suite
from conformance.judge.optional import drop_nulls
from conformance.judge.runner import Runner
from tests.standins.probes import AbsentForNull, NullForAbsent


@pytest.mark.parametrize("edition", [None, "pi-1.6.0"])
@pytest.mark.parametrize("probe", [NullForAbsent, AbsentForNull], ids=["null-for-absent", "absent-for-null"])
def test_a_probe_that_moves_between_null_and_absent_passes_every_case(probe, edition):
    suite = load_suite(areas=["pi"] if edition else None)
    cases = [c for c in suite.cases if (edition in c.editions if edition else True)]
    runner = Runner(InProcessAdapter(probe()), edition=edition, details=False)
    runner.start()
    try:
        statuses = Counter()
        failed = []
        for case in cases:
            if edition is None and case.editions and case.editions[0] != runner.edition_of(case):
                continue
            result = runner.run_case(case)
            statuses[result.status] += 1
            if result.status != "passed":
                failed.append((case.id, result.status, result.message[:200]))
    finally:
        runner.stop()
    assert failed == [] and statuses["passed"] > 100


@pytest.mark.parametrize("probe, case_id", [(NullForAbsent, "prof-picker-bind-any"),
                                             (AbsentForNull, "pkg-src-npm-plain")])
def test_a_probe_really_changes_answers(probe, case_id):
    """The probes are not the reference in disguise: each answers these cases differently."""
    from conformance.adapters.reference import ReferenceImplementation

    (case,) = load_suite(patterns=[case_id]).cases
    raw = ReferenceImplementation().run(case.op, case.input, None)
    assert golden.encoded(probe().run(case.op, case.input, None)) != golden.encoded(raw)


def test_a_map_entry_keeps_its_null():
    """A value of a map (``thinkingLevelMap``: a level written as null is unsupported) is not a
    property: its null says something its absence does not."""
    model = {"id": "m", "thinkingLevelMap": {"high": None}, "inputLimits": None}
    data = {"issues": [], "providers": [{"id": "p", "name": "p", "baseUrl": None, "models": [model]}]}
    out = drop_nulls("pi.models-load", data)
    kept = out["providers"][0]["models"][0]
    assert kept["thinkingLevelMap"] == {"high": None}
    assert "inputLimits" not in kept


def test_an_item_of_a_list_keeps_its_null():
    assert drop_nulls("kit.echo", {"value": [None, {"a": None}]}) == {"value": [None, {"a": None}]}
    assert drop_nulls("kit.echo", {"value": None}) == {}


def test_an_unknown_operation_leaves_data_as_it_is():
    assert drop_nulls("no.such-op", {"a": None}) == {"a": None}


def _run(probe, cases):
    runner = Runner(InProcessAdapter(probe()), details=False)
    runner.start()
    try:
        return {case.id: runner.run_case(case).status for case in cases}
    finally:
        runner.stop()


def test_published_style_diagnostics_pass_every_case_whose_clauses_decide_no_facet():
    """A profiles implementation that gives diagnostics as pi-prompt-profiles does (level, code,
    message; no scope, subject or detail), losers without a reason, and declares no facet, passes
    every case whose clauses decide none of those fields, and fails only cases citing a clause
    that does (the clause's ``facets``). Seen failing with the facets compared whatever the
    handshake said (106 cases)."""
    from tests.standins.probes import PublishedDiagnostics

    cases = load_suite(areas=["profiles"]).cases
    statuses = _run(PublishedDiagnostics, cases)
    undecided = [c for c in cases if not c.facets]
    assert len(undecided) > 200
    assert {c.id: statuses[c.id] for c in undecided if statuses[c.id] != "passed"} == {}
    assert all(c.facets for c in cases if statuses[c.id] != "passed")
    assert any(statuses[c.id] != "passed" for c in cases if c.facets), "the decided facets are compared"


def test_diagnostics_in_another_order_pass_every_case():
    """PROF-DIAG-CODES gives the diagnostics of an answer no order (nor does ENV-AUDIT-SETTING-INVALID or
    ENV-REGISTRY-INCOMPATIBLE), so an implementation that lists them in the reverse of the
    reference's order passes every profiles and envelope case (ADAPTERS.md, "Diagnostics"): among
    them prof-strength-chain-bytes-two-byte-default-over, whose profile-total-size the published
    pi-prompt-profiles reports before auto-none and the reference after it. Seen failing with
    ``conformance.judge.facets.UNORDERED`` empty (the probe then failed the cases with two or more
    diagnostics)."""
    from tests.standins.probes import ReversedDiagnostics, _reversed_diagnostics

    cases = load_suite(areas=["profiles", "envelope"]).cases
    goldens = {c.id: golden.read(golden.golden_path(golden.GOLDEN_DIR, c.area, c.id)) for c in cases if c.error_code is None}
    reordered = {cid for cid, g in goldens.items() if g and _reversed_diagnostics(g["output"]) != g["output"]}
    assert "prof-strength-chain-bytes-two-byte-default-over" in reordered and len(reordered) > 20
    statuses = _run(ReversedDiagnostics, cases)
    assert {cid: s for cid, s in statuses.items() if s != "passed"} == {}


def test_a_clause_that_decides_a_facet_says_so_in_its_statement():
    """Every facet a clause decides is named in its statement, and every clause that names a
    diagnostic's detail, a loser's reason or a null scope declares the facet."""
    from conformance.corpus.catalogue import load_catalogue
    from conformance.judge.facets import FACETS

    words = {"diagnostic.scope": "scope", "diagnostic.subject": "subject", "diagnostic.detail": "detail",
             "loser.reason": "reason"}
    assert set(words) == set(FACETS)
    for clause in load_catalogue().clauses.values():
        for facet in clause.facets or ():
            assert words[facet] in clause.statement, (clause.id, facet)


@pytest.mark.parametrize("gives, said", [("scope", "must be a list"), (["diagnostic.scop"], "names no facet: diagnostic.scop")])
def test_a_handshake_with_a_bad_gives_is_a_protocol_violation(gives, said):
    from conformance.adapters.protocol import ProtocolViolation, parse_started

    started = {"type": "started", "protocol": 1, "implementation": {"name": "x", "version": "1", "language": "js"},
               "operations": ["kit.echo"]}
    assert parse_started(started).gives == ()
    assert parse_started({**started, "gives": ["loser.reason"]}).gives == ("loser.reason",)
    with pytest.raises(ProtocolViolation, match=said):
        parse_started({**started, "gives": gives})
