"""Citations by edition (scenario format 2): a case judged in both Pi editions cites a clause that
holds in one of them under ``clauses@EDITION`` (AUTHORING.md, "Citations by edition"). The loader
refuses, at the key's file:line, an edition that is not one of the area's or not one the case
holds for, a clause that does not hold in that edition, and the key in a file of format 1;
coverage counts the citation in its edition only.

Seen failing before the format knew the key: every case below was refused as having an unknown
field, and the suite's own cases that need it could not cite PI-160-CLASSIFIER-TABLE,
PI-160-MODELS-SAMPLING-OVERRIDE or PI-160-MSG-SYSTEM-NO-REPLACE without leaving pi-0.99.4."""

from __future__ import annotations

import json

import pytest

from conformance.corpus.cases import load_file, load_suite
from conformance.judge.coverage import clause_coverage
from conformance.session import Session
from tests.kit_fixtures import write

EDITIONS = {"PI-OLD": ["pi-0.99.4"], "PI-NEW": ["pi-1.6.0"], "PI-ANY": None}


def _load(tmp_path, body: str, fmt: int = 2):
    path = write(tmp_path / "pi" / "x.yaml", f"format: {fmt}\narea: pi\ntitle: t\nop: pi.validate-message\ncases:\n{body}")
    return load_file(path, known_clauses=set(EDITIONS), clause_editions=EDITIONS)


def test_a_case_cites_a_clause_of_one_edition_under_that_edition(tmp_path):
    cases, errors = _load(tmp_path, "  - id: a-case\n    title: t\n    clauses: [PI-ANY]\n"
                                    "    clauses@pi-1.6.0: [PI-NEW]\n    clauses@pi-0.99.4: [PI-OLD]\n"
                                    "    input: {message: {}}\n")
    assert errors == []
    (case,) = cases
    assert case.editions == ("pi-0.99.4", "pi-1.6.0")
    assert case.clauses == ["PI-ANY"] and case.clauses_at == {"pi-1.6.0": ["PI-NEW"], "pi-0.99.4": ["PI-OLD"]}
    assert case.cited("pi-1.6.0") == ["PI-ANY", "PI-NEW"] and case.cited("pi-0.99.4") == ["PI-ANY", "PI-OLD"]
    assert case.cited(None) == ["PI-ANY", "PI-OLD"]  # None: the area's default edition
    assert sorted(case.every_citation()) == ["PI-ANY", "PI-NEW", "PI-OLD"]


@pytest.mark.parametrize("key, ids, line, said", [
    ("clauses@pi-9", "[PI-NEW]", 4, "unknown edition 'pi-9' of area 'pi' (the editions are pi-0.99.4, pi-1.6.0)"),
    ("clauses@envelope", "[PI-NEW]", 4, "unknown edition 'envelope' of area 'pi'"),
    ("clauses@pi-0.99.4", "[PI-NEW]", 4, "clause 'PI-NEW' does not hold in edition pi-0.99.4 (its editions: pi-1.6.0)"),
    ("clauses@pi-1.6.0", "[PI-NOPE]", 4, "unknown clause 'PI-NOPE' (not in conformance/spec)"),
    ("clauses@pi-1.6.0", "[PI-ANY]", 4, "'PI-ANY' is cited in clauses already"),
    ("clauses@pi-1.6.0", "[]", 4, "a list of one or more clause ids"),
    ("clauses@pi-1.6.0", "PI-NEW", 4, "a list of one or more clause ids"),
    ("clauses@", "[PI-NEW]", 4, "unknown edition ''"),
])
def test_a_bad_citation_by_edition_is_an_error_at_its_line(tmp_path, key, ids, line, said):
    cases, errors = _load(tmp_path, f"  - id: a-case\n    title: t\n    clauses: [PI-ANY]\n    {key}: {ids}\n"
                                    "    input: {message: {}}\n")
    assert cases == []
    (error,) = errors
    assert error.line == line + 5 and error.field.startswith(f"cases[0].{key}") and said in error.message, str(error)


def test_an_edition_the_case_does_not_hold_for_is_an_error(tmp_path):
    cases, errors = _load(tmp_path, "  - id: a-case\n    title: t\n    clauses: [PI-OLD]\n"
                                    "    clauses@pi-1.6.0: [PI-NEW]\n    input: {message: {}}\n")
    assert cases == [] and len(errors) == 1
    assert "the case holds in pi-0.99.4 only, not in pi-1.6.0" in errors[0].message and errors[0].line == 9


def test_the_key_needs_format_2(tmp_path):
    cases, errors = _load(tmp_path, "  - id: a-case\n    title: t\n    clauses: [PI-ANY]\n"
                                    "    clauses@pi-1.6.0: [PI-NEW]\n    input: {message: {}}\n", fmt=1)
    assert cases == [] and len(errors) == 1
    assert "clauses@pi-1.6.0 needs format: 2" in errors[0].message and errors[0].line == 9


def test_an_area_without_editions_has_no_citation_by_edition(tmp_path):
    path = write(tmp_path / "envelope" / "x.yaml", "format: 2\narea: envelope\ntitle: t\nop: envelope.instructions\n"
                                                   "cases:\n  - id: a-case\n    title: t\n    clauses: [ENV-X]\n"
                                                   "    clauses@envelope: [ENV-X]\n    input: {}\n")
    cases, errors = load_file(path, known_clauses={"ENV-X"}, clause_editions={"ENV-X": None})
    assert cases == [] and "area 'envelope' has one edition" in errors[0].message


def test_coverage_counts_a_citation_in_its_edition_only():
    suite = load_suite(areas=["pi"])
    (case,) = [c for c in suite.cases if c.id == "mdl-cls-catalogue"]
    assert "PI-160-CLASSIFIER-TABLE" in case.clauses_at["pi-1.6.0"]
    newer = clause_coverage(suite.cases, Session(edition="pi-1.6.0"), areas=["pi"])
    assert "mdl-cls-catalogue" in newer.cases["PI-160-CLASSIFIER-TABLE"]
    every = clause_coverage(suite.cases, Session(), areas=["pi"])
    assert "mdl-cls-catalogue" in every.cases["PI-160-CLASSIFIER-TABLE"]
    default = clause_coverage(suite.cases, Session(edition="pi-0.99.4"), areas=["pi"])
    assert "PI-160-CLASSIFIER-TABLE" not in default.cases


def test_every_case_with_a_golden_of_its_own_in_an_edition_cites_a_clause_of_that_edition():
    """A case whose answer differs in pi-1.6.0 (a golden in golden/pi@pi-1.6.0/) is decided there
    by a clause that holds in that edition only, which it now cites under clauses@pi-1.6.0."""
    from conformance.judge import golden

    suite = load_suite(areas=["pi"])
    own = {p.stem for p in (golden.GOLDEN_DIR / "pi@pi-1.6.0").glob("*.yaml")}
    assert own
    lacking = sorted(c.id for c in suite.cases if c.id in own and not c.clauses_at.get("pi-1.6.0"))
    assert lacking == []


def test_the_scenario_schema_knows_the_key():
    """The published schema takes the key in format 2 (a non-empty list of ids) and refuses it in
    format 1."""
    from pathlib import Path

    schema = json.loads((Path(__file__).resolve().parent.parent / "conformance" / "schema" / "scenario.schema.json")
                        .read_text(encoding="utf-8"))
    assert schema["properties"]["format"]["enum"] == [1, 2]
    case = schema["$defs"]["CaseModel"]
    (pattern, value), = case["patternProperties"].items()
    assert pattern == "^clauses@" and value["minItems"] == 1 and value["items"] == {"type": "string"}
    assert case["additionalProperties"] is False
    assert schema["if"] == {"properties": {"format": {"const": 1}}}
    assert schema["then"]["properties"]["cases"]["items"]["propertyNames"] == {"not": {"pattern": "^clauses@"}}
