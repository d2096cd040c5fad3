"""The docs site shows each clause's coverage as ``pi-conformance coverage`` counts it (cases of
every edition, decision clauses covered through the clauses relying on them, manual clauses read
by a person) and names the editions as ``pi-conformance editions`` does."""

from __future__ import annotations

import re

import pytest

from conformance.cli import main
from conformance.corpus.editions import names as edition_names
from conformance.judge.coverage import clause_coverage
from conformance.output.site.pages import render_site
from conformance.session import Session


@pytest.fixture(scope="module")
def site() -> dict[str, str]:
    session = Session()
    return render_site(session.suite().cases, session)


def _clause_sections(pages: dict[str, str]) -> dict[str, str]:
    """Each clause's own section (from its heading to its end), by clause id."""
    out = {}
    for name, html in pages.items():
        for cid, body in re.findall(r'<section class="clause[^"]*" id="clause-([A-Z0-9-]+)">(.*?)</section>', html, re.S):
            out[cid] = body
    return out


def _toc_counts(pages: dict[str, str]) -> dict[str, int]:
    """The number the table of contents shows after each clause."""
    return {cid: int(n) for html in pages.values()
            for cid, n in re.findall(r'<a href="#clause-([A-Z0-9-]+)"[^>]*>[A-Z0-9-]+</a>&nbsp;\((\d+)\)', html)}


def test_each_clause_counts_the_cases_coverage_counts(site):
    cov = clause_coverage(Session().suite().cases, Session(edition=None))
    counts = _toc_counts(site)
    assert set(counts) == set(cov.cases)
    assert {cid: n for cid, n in counts.items() if n != len(cov.cases[cid])} == {}


def test_only_an_uncovered_clause_says_no_case_covers_it(site):
    cov = clause_coverage(Session().suite().cases, Session(edition=None))
    sections = _clause_sections(site)
    says_none = {cid for cid, body in sections.items() if "No case covers this clause yet" in body}
    reader = {cid for cid, body in sections.items() if "Checked by a reader" in body}
    assert says_none == {cid for cid, ids in cov.cases.items() if not ids and cov.clauses[cid].check != "manual"}
    assert reader == {cid for cid, c in cov.clauses.items() if c.check == "manual"}
    # The pi-1.6.0 clauses and the decision clauses are covered (by their edition's cases, by the
    # clauses relying on them), and say so.
    for cid in ("PI-160-MSG-THINKING-LEVEL", "ENV-DECISION-CONTRIBUTIONS", "PROF-DECISION-RESOLUTION"):
        assert cid not in says_none and cov.cases[cid], cid
    assert "Relied on by:" in sections["ENV-DECISION-CONTRIBUTIONS"]


def test_a_case_of_another_edition_is_shown_with_its_own_editions_golden(site):
    page = site["pi.html"]
    body = page.split('id="case-msg160-assistant-thinking-levels"', 1)[1].split('<div class="case"', 1)[0]
    assert "Judged by edition <code>pi-1.6.0</code>" in body and "Expected output (the golden)" in body
    shared = page.split('id="case-msg-system-wrong-types"', 1)[1].split('<div class="case"', 1)[0]
    assert "Judged by edition" not in shared  # the page's own edition judges it


def test_editions_are_named_as_the_cli_names_them(site, capsys):
    shown = {e for html in site.values() for e in re.findall(r'<span class="flag">([^<]+)</span>', html)}
    shown -= {"refusal", "project decision"}
    assert shown == set(edition_names())
    assert main(["editions"]) == 0
    printed = capsys.readouterr().out
    assert all(name in printed for name in shown)
    assert not re.search(r"\bseeds? [0-9]", "".join(site.values()), re.I)  # a private file's name


def test_the_markdown_pages_count_alike(tmp_path):
    assert main(["docs", "--format", "md", "--out", str(tmp_path)]) == 0
    text = "".join(p.read_text() for p in tmp_path.glob("*.md"))
    assert "No case covers this clause yet" not in text
    assert "Judged by edition `pi-1.6.0`" in text
