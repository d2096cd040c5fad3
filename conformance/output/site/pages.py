"""The specification by example as a static site (``pi-conformance docs``): ``index.html`` and one
page per area, each clause followed by its cases and, with ``--results``, every implementation's
result."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.corpus.cases import Case
from conformance.corpus.catalogue import AREAS, Catalogue, Clause
from conformance.corpus.collations import COLLATIONS
from conformance.judge.coverage import covering_cases
from conformance.session import Session
from conformance.output.files import write_text
from conformance.operations import catalogue as op_catalogue
from conformance.output.site import Block, cap, environment, golden_block, page_text, tree_block, yaml_text
from conformance.corpus.yamlio import load_data, read_bytes

# The edition each area's clauses hold in when the catalogue names none, by the names
# `pi-conformance editions` prints (PI-DECISION-EDITIONS: the Pi pages default to edition
# pi-0.99.4; the envelope and profiles areas have one edition each, named after the area).
DEFAULT_EDITIONS = {"envelope": "envelope", "profiles": "profiles", "pi": "pi-0.99.4"}


@dataclass
class ResultView:
    """One implementation's result for one case, as shown under the case."""

    implementation: str
    status: str
    message: str
    diff: Block | None


@dataclass
class CaseView:
    """One case, ready for the template: the YAML blocks and where it is written out."""

    case: Case
    page: str
    home: str | None
    tree: Block | None
    input: Block
    expected: Block | None
    expected_error: str | None
    golden_note: str
    results: list[ResultView] = field(default_factory=list)
    edition: str | None = None
    """The edition whose golden is shown, when it is not the one the page's edition judges the
    case's area by (a case that edition does not judge)."""


@dataclass
class ClauseView:
    """One clause with the cases written under it and the cases that live elsewhere, and its
    coverage as ``pi-conformance coverage`` counts it (:func:`conformance.judge.coverage.covering_cases`):
    ``covered`` the cases citing it or a clause relying on it, ``relied_on`` the clauses whose
    source cites it."""

    clause: Clause
    editions: list[str]
    home_cases: list[CaseView]
    other_cases: list[CaseView]
    covered: list[CaseView] = field(default_factory=list)
    relied_on: list[str] = field(default_factory=list)


@dataclass
class Section:
    """A group of clauses from one catalogue file, for the table of contents."""

    title: str
    anchor: str
    clauses: list[ClauseView]

    @property
    def families(self) -> list[tuple[str, list[ClauseView]]]:
        """The clauses grouped by the second part of their id (``ENV-INSTR-*`` under ``INSTR``),
        in catalogue order, for a compact table of contents."""
        groups: dict[str, list[ClauseView]] = {}
        for cv in self.clauses:
            groups.setdefault(cv.clause.id.split("-")[1], []).append(cv)
        return list(groups.items())


def clause_editions(clause: Clause) -> list[str]:
    """The editions a clause holds in: the catalogue's own list when it has one, else its area's
    single edition."""
    named = getattr(clause, "editions", None)
    return list(named) if named else [DEFAULT_EDITIONS.get(clause.area, clause.area)]


def _file_title(clause: Clause) -> str:
    try:
        data = load_data(read_bytes(clause.file).decode("utf-8"))
        return str(data.get("title") or Path(clause.file).stem)
    except (OSError, AttributeError, ValueError):
        return Path(clause.file).stem


def _home_clause(case: Case, cat: Catalogue) -> str | None:
    return next((c for c in case.clauses if c in cat.clauses and cat.clauses[c].area == case.area), None)


def results_by_case(reports: list[dict]) -> list[tuple[str, dict[str, dict]]]:
    """``(column name, {case id: record})`` for each report, named by
    :func:`conformance.output.reports.column_names` (implementation, version and the report's file)."""
    from conformance.output.reports import column_names

    names = column_names(reports)
    return [(n, {rec.get("id"): rec for rec in r["cases"] if isinstance(rec, dict)}) for n, r in zip(names, reports)]


def case_view(case: Case, cat: Catalogue, session: Session, results: list[tuple[str, dict[str, dict]]]) -> CaseView:
    """The view of one case: its tree, input, golden as the session's edition judges it (``None``:
    the default; or the expected error) and results."""
    from conformance.corpus.editions import judged

    expected, note = golden_block(case, session)
    shown = session.shown_edition(case)
    view = CaseView(case, f"{case.area}.html", _home_clause(case, cat), tree_block(case), cap(yaml_text(case.input)),
                    expected, case.error_code, note,
                    edition=shown if shown != judged(session.edition, case.area) else None)
    for name, records in results:
        rec = records.get(case.id)
        if rec is None:
            view.results.append(ResultView(name, "not run", "", None))
            continue
        diff = rec.get("diff") or ""
        view.results.append(ResultView(name, str(rec.get("status", "?")), str(rec.get("message") or ""),
                                       cap(diff) if diff else None))
    return view


def area_page(area: str, cat: Catalogue, views: list[CaseView]) -> dict[str, Any]:
    """The template context of one area's page."""
    sections: dict[str, Section] = {}
    for cid, clause in cat.clauses.items():
        if clause.area != area:
            continue
        key = clause.file
        if key not in sections:
            sections[key] = Section(_file_title(clause), f"part-{Path(key).stem}", [])
        citing = [v for v in views if cid in v.case.every_citation()]
        covering = {id(c) for c in covering_cases(cat, cid, [v.case for v in views])}
        sections[key].clauses.append(ClauseView(
            clause, clause_editions(clause),
            [v for v in citing if v.case.area == area and v.home == cid],
            [v for v in citing if not (v.case.area == area and v.home == cid)],
            [v for v in views if id(v.case) in covering], cat.cited_by(cid)))
    own = [v for v in views if v.case.area == area]
    homeless = [v for v in own if v.home is None]
    ops: dict[str, list[CaseView]] = {}
    for v in own:
        ops.setdefault(v.case.op, []).append(v)
    return {"area": area, "here": f"{area}.html", "sections": list(sections.values()), "homeless": homeless,
            "operations": sorted(ops.items()), "summaries": _summaries(), "collations": COLLATIONS,
            "op_errors": {name: op.errors for name, op in op_catalogue().items()},
            "clause_pages": {cid: f"{c.area}.html" for cid, c in cat.clauses.items()},
            "editions": sorted({e for s in sections.values() for c in s.clauses for e in c.editions})}


def _summaries() -> dict[str, str]:
    return {name: op.summary for name, op in op_catalogue().items()}


def render_site(cases: list[Case], session: Session | None = None, *,
                reports: list[dict] | None = None) -> dict[str, str]:
    """Every page of the site as ``{file name: HTML}`` (``index.html`` and ``<area>.html``).

    The index lists the areas (with their editions) and the operations. An area page has a table
    of contents, then each clause (statement, level, source, decision note) followed by its cases.
    Every case is written out once, on its own area's page, under the first clause of that area it
    cites, with the anchor ``id="case-CASE-ID"``; every other clause it cites links there.

    ``reports`` are JSON reports (as :func:`conformance.output.reports.load_report` returns them) whose
    results are shown under each case; each case shows the golden the edition of ``session``
    (default: the kit's own goldens and catalogue, edition ``None``: the default) judges it by."""
    session = session or Session()
    cat = session.catalogue()
    results = results_by_case(reports or [])
    views = [case_view(c, cat, session, results) for c in cases]
    areas = list(AREAS) + sorted({c.area for c in cases} - set(AREAS))
    env = environment()
    implementations = [name for name, _ in results]
    pages = {}
    rows = []
    for area in areas:
        ctx = area_page(area, cat, views)
        pages[f"{area}.html"] = page_text(env.get_template("area.html").render(implementations=implementations, **ctx))
        rows.append({"area": area, "clauses": sum(len(s.clauses) for s in ctx["sections"]),
                     "cases": sum(1 for v in views if v.case.area == area), "editions": ctx["editions"],
                     "operations": [(op, len(vs)) for op, vs in ctx["operations"]]})
    pages["index.html"] = page_text(env.get_template("index.html").render(rows=rows, summaries=_summaries(),
                                                                          implementations=implementations))
    return pages


def write_site(out: Path, cases: list[Case], session: Session, *, reports: list[dict] | None = None) -> list[Path]:
    """Render every page first (goldens as the session's edition judges them), then write each under ``out
    (:func:`conformance.output.files.write_text`: atomically, a link followed); returns the paths written. Raises ``OSError`` when ``out`` cannot be written."""
    pages = render_site(cases, session, reports=reports)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, html in pages.items():
        write_text(out / name, html)
        written.append(out / name)
    return written
