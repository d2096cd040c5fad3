"""No shipped text cites the project's private working files: the sources tree, the wheel and the
docs site are scanned, and the loaders refuse such a citation in expectations and operation
summaries (:mod:`conformance.corpus.public`; ENV-DECISION-SOURCE, PROF-DECISION-SOURCE, PI-DECISION-SOURCE)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main
from conformance.judge.expectations import load_expectations
from conformance.operations.base import operation
from conformance.corpus.public import outside_pointer, private_reference
from conformance.corpus.yamlio import SuiteFileError

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("conformance", "reference", "golden", "docs", "README.md", "pyproject.toml", "MANIFEST.in")
SKIP_PARTS = {"node_modules", "__pycache__"}
TEXT = {".py", ".yaml", ".md", ".json", ".mjs", ".js", ".html", ".j2", ".css", ".txt", ".toml", ".in", ".cjs"}


@pytest.mark.parametrize("text, found", [
    ("read against seed 003", "seed 003"), ("Seed 3 'Use a template'", "Seed 3"), ("note N19 says", "note N19"),
    ("(N1, N2)", "N1"), ("in the N22 order", "N22"), ("003_494f981f75db4981.txt", "003_494f981f75db4981"),
    ("shared/spec/README.md", "shared/spec"), ("../shared/design.md", "shared/design"),
    ("--seed N", None), ("mdl-cls-request-seed", None), ("PI-DECISION-N2", None), ("a1 < a10 < a2", None),
    ("symlink: ../../shared/prompts", None), ("cwd: /work/project", None), ("n1 = 2", None),
])
def test_private_reference_finds_working_files_and_notes_only(text, found):
    assert private_reference(text) == found


def test_a_clause_source_also_may_not_name_a_machine_path():
    assert outside_pointer("see /work/main/notes") == "/work/"
    assert outside_pointer("../shared/x") == "../shared"
    assert outside_pointer("Pi 0.99.4 docs/models.md 'Custom providers'") is None


def _shipped_texts(root: Path):
    for name in SHIPPED:
        base = root / name
        paths = [base] if base.is_file() else sorted(base.rglob("*")) if base.is_dir() else []
        for path in paths:
            if path.is_file() and path.suffix in TEXT and not SKIP_PARTS & set(path.parts):
                yield path


def _citations(paths, root: Path) -> list[str]:
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if (hit := private_reference(line)) is not None:
                found.append(f"{path.relative_to(root)}:{number}: {hit!r}")
    return found


def test_no_file_of_the_source_tree_cites_a_private_working_file():
    assert _citations(_shipped_texts(ROOT), ROOT) == []


def test_the_docs_site_cites_no_private_working_file(tmp_path):
    for fmt in ("html", "md"):
        out = tmp_path / fmt
        assert main(["docs", "--out", str(out), "--format", fmt]) == 0
        pages = sorted(p for p in out.rglob("*") if p.is_file())
        assert pages
        assert _citations(pages, out) == []


def test_an_expectation_reason_citing_a_working_note_is_refused_at_its_line(tmp_path):
    path = tmp_path / "expectations.yaml"
    path.write_text("expectations:\n  - id: env-*\n    status: fail\n    reason: as note N3 says\n", encoding="utf-8")
    with pytest.raises(SuiteFileError) as info:
        load_expectations(path)
    (error,) = info.value.errors
    assert (error.line, error.field) == (4, "expectations[0].reason")
    assert "'note N3'" in error.message


def test_an_operation_summary_citing_a_working_note_is_refused():
    from pydantic import BaseModel

    with pytest.raises(ValueError, match="summary cites 'N4'"):
        operation("kit.private-summary-probe", input=BaseModel, output=BaseModel, summary="Compose (N4).")


def test_no_shipped_text_talks_of_note_numbers_or_a_working_file_as_its_own():
    """Beside citations, talk of the project's working papers: "note numbers", "working file".
    Allowed only where the rule that refuses them is stated (the checks and the guides on them)."""
    import re

    talk = re.compile(r"note numbers?|no id names a working|working[- ]notes?\b(?! by its number| number)", re.I)
    rule = {"conformance/corpus/public.py", "conformance/AUTHORING.md", "conformance/operations/base.py",
            "conformance/judge/expectations.py", "docs/specification.md"}
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}" for path in _shipped_texts(ROOT)
             if str(path.relative_to(ROOT)) not in rule
             for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if talk.search(line)]
    assert found == []
