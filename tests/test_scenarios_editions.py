"""Every scenario under every non-default edition it holds for, against the bundled reference in
process, one test per case and edition (PI-DECISION-EDITIONS).

``tests/test_scenarios.py`` judges each case by its area's default edition only, so what an
edition changes (pi-1.6.0's classifier catalogue, its message fields, its goldens) would go
unjudged by the suite's own run; this module judges it, with the same check as the plugin's test
(the edition's own golden where the case has one)."""

from __future__ import annotations

import pytest

from conformance.corpus import editions
from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.corpus.cases import load_suite, select
from conformance.plugin import check_case
from conformance.judge.runner import Runner

OTHER_EDITIONS = [e for e in editions.EDITIONS if not e.default]
"""The editions no other test module judges (each area's default is test_scenarios' run)."""


def _params() -> list:
    suite = load_suite()
    assert not suite.errors, suite.errors
    return [pytest.param(e.name, case, id=f"{e.name}:{case.id}")
            for e in OTHER_EDITIONS for case in select(suite.cases, areas=[e.area], edition=e.name)]


@pytest.fixture(scope="module")
def runners():
    """One started in-process runner per edition, made when first needed: ``{edition: Runner}``."""
    started: dict[str, Runner] = {}
    yield started
    for runner in started.values():
        runner.stop()


def _runner(runners: dict, edition: str) -> Runner:
    if edition not in runners:
        runners[edition] = Runner(InProcessAdapter(ReferenceImplementation()), edition=edition)
        runners[edition].start()
    return runners[edition]


def test_every_non_default_edition_is_judged():
    assert [e.name for e in OTHER_EDITIONS] == ["pi-1.6.0"]
    assert sum(1 for p in _params() if p.values[0] == "pi-1.6.0") > 400


@pytest.mark.parametrize(("edition", "case"), _params())
def test_case_under_edition(edition, case, runners, snapshot) -> None:
    """One case judged under ``edition`` (its golden for that edition, or its shared golden)."""
    check_case(case, _runner(runners, edition), snapshot)
