"""Standing checks of the whole suite: it loads cleanly, every MUST clause is covered, no golden
is orphaned, the published schemas are current, and the reference gives identical results in
process and through ``serve-reference``."""

from __future__ import annotations

import sys

import pytest

from conformance.judge import golden
from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.corpus.cases import load_suite, select
from conformance.corpus.catalogue import load_catalogue
from conformance.judge.coverage import clause_coverage
from conformance.output.docs import write_docs
from conformance.judge.runner import Runner
from conformance.output.schema import stale_schemas

SUITE = load_suite()


def test_catalogue_loads_without_errors():
    assert [str(e) for e in load_catalogue().errors] == []


def test_scenarios_load_without_errors():
    assert [str(e) for e in SUITE.errors] == []


def test_every_must_clause_has_a_case_and_every_refusal_a_refusal_case():
    cov = clause_coverage(SUITE.cases)
    assert cov.uncovered_must == []
    assert cov.missing_refusal == []


def test_no_orphaned_goldens():
    expects_golden = {c.id for c in SUITE.cases if c.error_code is None}
    assert [str(p) for p in golden.orphans(golden.GOLDEN_DIR, expects_golden)] == []


def test_published_schemas_are_current():
    assert stale_schemas(golden.GOLDEN_DIR.parent / "conformance" / "schema") == [], \
        "run `pi-conformance schema --out conformance/schema` and commit it"


def test_docs_render_every_clause(tmp_path):
    write_docs(tmp_path, SUITE.cases)
    text = "".join(p.read_text() for p in tmp_path.glob("*.md"))
    missing = [cid for cid in load_catalogue().clauses if f"## {cid}\n" not in text]
    assert missing == []


def _results(make_adapter):
    """Every case judged by each Pi edition it holds for (the edition travels over the protocol
    to the served reference): ``{(edition, case id): result}``."""
    out = {}
    for edition in ("pi-0.99.4", "pi-1.6.0"):
        runner = Runner(make_adapter(), edition=edition)
        runner.start()
        try:
            out.update({(edition, c.id): runner.run_case(c) for c in select(SUITE.cases, edition=edition)})
        finally:
            runner.stop()
    return out


@pytest.mark.untraced  # the whole suite again, served: the in-process run measures it
def test_serve_reference_gives_identical_results():
    assert len(SUITE.cases) > 500
    inproc = _results(lambda: InProcessAdapter(ReferenceImplementation()))
    served = _results(lambda: JsonLinesAdapter([sys.executable, "-m", "conformance.adapters.server"]))
    assert {k: r.status for k, r in inproc.items()} == dict.fromkeys(inproc, "passed")
    assert {k: (r.status, r.output) for k, r in served.items()} == {k: (r.status, r.output) for k, r in inproc.items()}
