"""Absent and null mean the same where an output schema allows null (ADAPTERS.md, "Optional
properties"): the kit applies the rule to every answer and golden, so an implementation may give
an optional property as null or leave it out.

Seen failing with :func:`conformance.optional.drop_nulls` returning its data unchanged: the
null-for-absent probe failed 47 profiles cases, the absent-for-null probe 108 cases.
"""

from __future__ import annotations

from collections import Counter

import pytest

from conformance import golden
from conformance.adapters.inprocess import InProcessAdapter
from conformance.cases import load_suite
from conformance.optional import drop_nulls
from conformance.runner import Runner
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
