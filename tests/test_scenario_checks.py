"""conformance.corpus.scenario_checks on the real catalogue: an unknown operation is reported once
per file with a suggestion, and a case cites only its own area's clauses."""

from __future__ import annotations

from conformance.corpus.cases import load_suite
from tests.kit_fixtures import write

_CASE = """\
  - id: {id}
    title: t
    clauses: [{clause}]
    op: {op}
    input: {{text: a}}
"""


def _suite(tmp_path, *cases):
    body = "".join(_CASE.format(id=i, op=op, clause=clause) for i, op, clause in cases)
    write(tmp_path / "pi" / "x.yaml", f"format: 1\narea: pi\ntitle: t\ncases:\n{body}")
    return load_suite(tmp_path)


def test_an_unknown_operation_is_reported_once_per_file_with_the_close_names(tmp_path):
    suite = _suite(tmp_path, ("probe-a", "pi.parse-arg", "PI-TPL-ARGS-SPLIT"),
                   ("probe-b", "pi.parse-arg", "PI-TPL-ARGS-SPLIT"),
                   ("probe-c", "pi.parse-args", "PI-TPL-ARGS-SPLIT"),
                   ("probe-d", "pi.parse-arg", "PI-TPL-ARGS-SPLIT"))
    (error,) = suite.errors
    assert (error.line, error.field) == (8, "cases[0].op")
    assert error.message == ("unknown operation 'pi.parse-arg'; did you mean pi.parse-args? "
                             "(named by 3 cases of this file, reported once)")
    assert [c.id for c in suite.cases] == ["probe-c"]


def test_an_unknown_operation_named_once_says_no_count_and_a_far_one_no_suggestion(tmp_path):
    suite = _suite(tmp_path, ("probe-a", "zz.qq", "PI-TPL-ARGS-SPLIT"))
    (error,) = suite.errors
    assert error.message == "unknown operation 'zz.qq' (the operations are listed in PROTOCOL.md)"


def test_a_case_may_cite_only_its_own_areas_clauses(tmp_path):
    suite = _suite(tmp_path, ("probe-a", "pi.parse-args", "ENV-CTX-BLANK"),
                   ("probe-b", "pi.parse-args", "PI-TPL-ARGS-SPLIT"))
    (error,) = suite.errors
    assert (error.line, error.field) == (7, "cases[0].clauses[0]")
    assert error.message == "clause 'ENV-CTX-BLANK' is not of area 'pi' (its clauses start with PI-)"
    assert [c.id for c in suite.cases] == ["probe-b"]
