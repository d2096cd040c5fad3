"""The clause catalogue's loader: sources stay inside the repository, cited decision clauses exist,
manual clauses say why, and coverage reaches a decision clause through the clauses citing it."""

from __future__ import annotations

import textwrap
from types import SimpleNamespace

import pytest

from conformance.corpus.catalogue import load_catalogue
from conformance.judge.coverage import clause_coverage, format_coverage
from conformance.session import Session

HEAD = "area: envelope\nclauses:\n"


def clause(cid: str, source: str, **extra: str) -> str:
    lines = [f"  - id: {cid}", "    level: MUST", "    statement: A rule.", f"    source: {source!r}"]
    lines += [f"    {k}: {v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n"


def load(tmp_path, *clauses: str):
    (tmp_path / "a.yaml").write_text(HEAD + "".join(clauses))
    return load_catalogue(tmp_path)


@pytest.mark.parametrize("source", [
    "seed 000 'What Pi sends'",
    "README 'Settings'; note N8",
    "notes N11, N12",
    "see ../shared/spec/README.md",
    "SEED 3 'Usage'",
])
def test_a_source_pointing_outside_the_repository_is_refused_with_file_and_line(tmp_path, source):
    cat = load(tmp_path, clause("ENV-OK", "@luan.sh/pi-developer-messages README 'Settings'"),
               clause("ENV-OUT", source))
    assert list(cat.clauses) == ["ENV-OK"]
    (err,) = cat.errors
    assert (err.file.endswith("a.yaml"), err.line, err.field) == (True, 10, "clauses[1].source")
    assert "points outside the repository" in err.message


def test_the_project_catalogue_cites_no_file_outside_the_repository():
    cat = load_catalogue()
    assert cat.errors == []
    for c in cat.clauses.values():
        for word in ("seed ", "note N", "notes N", "../shared"):
            assert word not in c.source, c.id


def test_a_cited_clause_must_exist_and_be_a_decision(tmp_path):
    cat = load(tmp_path,
               clause("ENV-DEC", "README 'Settings'", decision="true", note="why"),
               clause("ENV-PLAIN", "README 'Settings'"),
               clause("ENV-A", "README 'Settings'; ENV-DEC"),
               clause("ENV-B", "README 'Settings'; ENV-GONE"),
               clause("ENV-C", "ENV-PLAIN"))
    assert sorted(e.message for e in cat.errors) == [
        "cites ENV-PLAIN, which is not a decision clause", "cites unknown clause ENV-GONE"]
    assert {(e.field, e.line) for e in cat.errors} == {("ENV-B.source", 17), ("ENV-C.source", 21)}
    assert cat.cited_by("ENV-DEC") == ["ENV-A"]


def test_a_manual_clause_needs_a_note_and_no_case(tmp_path):
    cat = load(tmp_path, clause("ENV-M", "README", check="manual"))
    assert list(cat.clauses) == [] and "check: manual needs a note" in cat.errors[0].message
    cat = load(tmp_path, clause("ENV-M", "README", check="manual", note="a reader checks the wording"))
    assert cat.errors == [] and cat.clauses["ENV-M"].check == "manual"
    cov = clause_coverage([], Session(spec_dir=tmp_path))
    assert cov.uncovered_must == [] and format_coverage(cov).startswith("~~ ENV-M ")
    cat = load(tmp_path, clause("ENV-M", "README", check="sometimes"))
    assert cat.errors and cat.errors[0].field.endswith("check")


def test_a_decision_clause_is_covered_through_the_clauses_citing_it(tmp_path):
    (tmp_path / "a.yaml").write_text(HEAD + clause("ENV-DEC", "README", decision="true", note="why")
                                     + clause("ENV-LEAF", "README 'Settings'; ENV-DEC"))
    case = SimpleNamespace(id="c1", clauses=["ENV-LEAF"], error_code=None, tags=[])
    cov = clause_coverage([case], Session(spec_dir=tmp_path))
    assert cov.uncovered_must == [] and cov.cases["ENV-DEC"] == ["c1"]
    assert clause_coverage([], Session(spec_dir=tmp_path)).uncovered_must == ["ENV-DEC", "ENV-LEAF"]


def test_every_note_of_the_project_is_a_decision_clause_in_its_area():
    cat = load_catalogue()
    expected = textwrap.dedent("""\
        ENV-DECISION-SOURCE ENV-DECISION-ENVIRONMENT ENV-DECISION-FISH ENV-DECISION-CONTRIBUTIONS
        ENV-DECISION-INSTRUCTIONS ENV-DECISION-CONTEXT-FILES ENV-DECISION-ADAPTERS ENV-DECISION-SERVICE
        ENV-DECISION-AUDIT ENV-DECISION-REGISTRIES PROF-DECISION-SOURCE PROF-DECISION-MARKERS
        PROF-DECISION-BLOCK PROF-DECISION-STRIPPING PROF-DECISION-LOADING PROF-DECISION-INHERITANCE
        PROF-DECISION-CONFIG PROF-DECISION-RESOLUTION PROF-DECISION-SUBAGENTS PROF-DECISION-CONFIG-EDITS
        PI-DECISION-SOURCE PI-DECISION-EDITIONS PI-DECISION-MESSAGES PI-DECISION-CONVERSION
        PI-DECISION-TEMPLATES PI-DECISION-PACKAGES PI-DECISION-MODELS""").split()
    for cid in expected:
        assert cat.clauses[cid].decision, cid
        assert cat.clauses[cid].check == "manual" or cat.cited_by(cid), f"{cid} is relied on by no clause"


@pytest.mark.parametrize("breakage, root", [
    (("source: test\n  - id: ENV-TEST-REFUSE", "source: seed 000\n  - id: ENV-TEST-REFUSE"),
     "clauses[0].source: 'seed 000' points outside the repository"),
    (("  - id: ENV-TEST-ECHO", "  - id: ENV-TEST-ECHO [unclosed"), "clauses[0].id: String should match pattern"),
    (("clauses:", "clauses: ["), "YAML error"),
    # a clause written as a flow mapping: its id is on no `id:` line of its own
    (("  - id: ENV-TEST-ECHO\n    level: MUST\n    statement: Echo returns its value.\n    source: test\n",
      "  - {id: ENV-TEST-ECHO, level: MUSTN'T, statement: Echo returns its value., source: test}\n"),
     "clauses[0].level: must be 'MUST', 'SHOULD' or 'MAY'"),
    (("  - id: ENV-TEST-ECHO\n    level: MUST\n    statement: Echo returns its value.\n    source: test\n",
      "  - {level: MUST, 'id': \"ENV-TEST-ECHO\", statement: [Echo returns its value.], source: test}\n"),
     "clauses[0].statement: must be a string"),
    (("  - id: ENV-TEST-ECHO\n    level: MUST\n    statement: Echo returns its value.\n    source: test\n",
      "  - {level: MUST, id: ENV-TEST-ECHO, statement: Echo [returns, source: test}\n"), "YAML error"),
])
def test_a_bad_clause_is_reported_first_and_alone_not_under_errors_of_every_case_citing_it(tmp_path, breakage, root):
    from conformance.corpus.cases import load_suite
    from tests.kit_fixtures import mini_suite

    dirs = mini_suite(tmp_path)
    spec = dirs["spec"] / "test.yaml"
    spec.write_text(spec.read_text().replace(*breakage, 1))
    errors = [str(e) for e in load_suite(dirs["scenarios"], spec_dir=dirs["spec"]).errors]
    assert root in errors[0] and errors[0].startswith(str(spec))
    assert not [e for e in errors if "unknown clause" in e]
    assert "case(s) not loaded (kit-echo-" in errors[-1] and "ENV-TEST-ECHO" in errors[-1]
    assert "fix its error(s) above first" in errors[-1]


def test_coverage_reports_a_bad_clause_once_and_first(tmp_path, capsys):
    # `coverage` printed the catalogue's errors twice: its own table's and the suite's.
    from conformance.cli import main
    from tests.kit_fixtures import mini_suite

    dirs = mini_suite(tmp_path)
    spec = dirs["spec"] / "test.yaml"
    spec.write_text(spec.read_text().replace("level: MAY", "level: MAYBE", 1))
    assert main(["coverage", "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"])]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(f"pi-conformance: {spec}:") and "level: must be" in lines[0]
    assert len(lines) == 2 and "case(s) not loaded" in lines[1]


_CLAUSE_ID = r"\b(?:ENV|PROF|PI)-[A-Z0-9-]*[A-Z0-9]"


def _ids_in_docstrings(roots) -> set[str]:
    """Clause ids named in the docstrings of the functions and classes under ``roots``."""
    import ast
    import re
    from pathlib import Path

    found: set[str] = set()
    for root in roots:
        for path in Path(root).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    found.update(re.findall(_CLAUSE_ID, ast.get_docstring(node) or ""))
    return found


def test_every_clause_a_case_checks_is_named_by_the_reference_code_that_implements_it():
    """AUTHORING.md's promise: ``grep CLAUSE-ID`` finds the function or class that implements the
    rule, in reference/ or (for what the protocol adds: refusals, scripts) the reference adapter.
    Decision clauses (settled through the clauses citing them) and manual ones are exempt."""
    from pathlib import Path

    import conformance.adapters.reference as adapter
    import reference

    roots = [Path(reference.__file__).parent, Path(adapter.__file__).parent]
    named = _ids_in_docstrings(roots)
    missing = sorted(cid for cid, clause in load_catalogue().clauses.items()
                     if not clause.decision and clause.check != "manual" and cid not in named)
    assert missing == []
