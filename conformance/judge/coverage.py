"""Clause coverage: which cases cover which clause of the spec catalogue (a decision clause through
the clauses citing it), and which clauses the seeded faults prove able to fail."""

from __future__ import annotations

from dataclasses import dataclass, field

from conformance.corpus.cases import Case, citations, select
from conformance.corpus.editions import holds, judged
from conformance.corpus.catalogue import Catalogue, Clause
from conformance.corpus.yamlio import FileError
from conformance.session import Session


@dataclass
class Coverage:
    """Clause ids to the ids of the cases that cover them, and what is missing: ``uncovered_must``,
    the MUST clauses with no case, and ``missing_refusal``, the ``refusal`` clauses with no case
    that shows the refusal; either fails ``pi-conformance coverage`` and the tests. A clause with
    ``check: manual`` is read by a person and needs no case."""

    clauses: dict[str, Clause] = field(default_factory=dict)
    cases: dict[str, list[str]] = field(default_factory=dict)
    uncovered_must: list[str] = field(default_factory=list)
    missing_refusal: list[str] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


def shows_refusal(case: Case) -> bool:
    """Whether ``case`` shows a refusal: an ``error:`` expectation or the tag ``refusal``."""
    return case.error_code is not None or "refusal" in case.tags


def covering_cases(cat: Catalogue, cid: str, cases: list[Case], edition: str | None = None) -> list[Case]:
    """The cases that cover clause ``cid``: those that cite it, and those that cite a clause whose
    ``source`` relies on it (a decision clause is covered through the clauses citing it). With an
    ``edition`` (a run's), a case's citations are those it makes when judged in a run of it
    (``clauses`` and its ``clauses@`` of the edition judging its area); without, those of every
    edition (the loader holds each ``clauses@EDITION`` clause to hold in that edition)."""
    through = set(cat.cited_by(cid)) - {cid}

    def cited(case: Case) -> list[str]:
        return citations(case, every=True) if edition is None else citations(case, judged(edition, case.area))

    return [c for c in cases if cid in (found := cited(c)) or through.intersection(found)]


def clause_coverage(cases: list[Case], session: Session | None = None, *,
                    areas: list[str] | None = None) -> Coverage:
    """Coverage of the catalogue of ``session`` (default: the kit's own) by ``cases``, for the
    clauses of ``areas`` when given.

    With the session's edition, only the clauses and cases judged in a run of that edition count
    (PI-DECISION-EDITIONS); without, every clause of every edition needs its cases."""
    session = session or Session()
    cat, edition = session.catalogue(), session.edition
    cov = Coverage(errors=list(cat.errors))
    if edition is not None:
        cases = select(cases, edition=edition)
    for cid, clause in cat.clauses.items():
        if areas and clause.area not in areas:
            continue
        if edition is not None and not holds(tuple(clause.editions) if clause.editions else None,
                                             clause.area, edition):
            continue
        covering = covering_cases(cat, cid, cases, edition)
        cov.clauses[cid] = clause
        cov.cases[cid] = [c.id for c in covering]
        if clause.check == "manual":
            continue
        if clause.level == "MUST" and not covering:
            cov.uncovered_must.append(cid)
        if clause.refusal and covering and not any(shows_refusal(c) for c in covering):
            cov.missing_refusal.append(cid)
        if clause.refusal and not covering and clause.level != "MUST":
            cov.missing_refusal.append(cid)
    return cov


def format_coverage(cov: Coverage) -> str:
    """One line per clause: a mark (``!!`` no case, ``~~`` manual), id, level, number of cases,
    case ids; then totals."""
    lines = []
    for cid, clause in cov.clauses.items():
        ids = cov.cases[cid]
        mark = "  " if ids else ("~~" if clause.check == "manual" else "!!")
        lines.append(f"{mark} {cid:<36} {clause.level:<6} {len(ids):>3}  {' '.join(ids[:8])}{' ...' if len(ids) > 8 else ''}")
    covered = sum(1 for ids in cov.cases.values() if ids)
    manual = sum(1 for c in cov.clauses.values() if c.check == "manual")
    lines.append(f"{covered}/{len(cov.clauses)} clauses covered, {manual} checked by a reader (~~); "
                 f"{len(cov.uncovered_must)} MUST clause(s) uncovered; "
                 f"{len(cov.missing_refusal)} refusal clause(s) without a refusal case")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Suite strength: every clause proven able to fail by a seeded fault (``coverage --faults``)


@dataclass
class FaultCoverage:
    """Each clause of the catalogue as ``proven`` (a seeded fault declaring it is caught by a case
    citing it, and that case's operation has a case the fault leaves passing; a decision clause is
    also proven through a proven clause whose ``source`` cites it), ``cited`` (cases cite it, or a
    clause relying on it, and no fault proves it), ``uncovered`` (no case cites it) or ``manual`` (``check: manual``
    in the catalogue).

    Attributes:
        status: clause id to its status, in catalogue order.
        proven_by: clause id to the ids of the faults that prove it.
        too_broad: ids of the faults caught only by cases of operations they break entirely.
        survivors: ids of the faults no case catches.
        cannot_apply: ``"id: why"`` of each fault whose patches cannot be applied (a broken fault).
        allowed: clause ids of the allow-list (still to be proven; they do not fail the check).
    """

    status: dict[str, str] = field(default_factory=dict)
    proven_by: dict[str, list[str]] = field(default_factory=dict)
    too_broad: list[str] = field(default_factory=list)
    survivors: list[str] = field(default_factory=list)
    cannot_apply: list[str] = field(default_factory=list)
    allowed: set[str] = field(default_factory=set)

    def ids(self, status: str) -> list[str]:
        return [cid for cid, s in self.status.items() if s == status]

    @property
    def unproven(self) -> list[str]:
        """Clauses neither proven nor manual."""
        return [cid for cid, s in self.status.items() if s in ("cited", "uncovered")]

    @property
    def failing(self) -> list[str]:
        """Cited clauses that are not proven and not on the allow-list."""
        return [cid for cid in self.ids("cited") if cid not in self.allowed]

    def record(self) -> dict:
        return {"clauses": len(self.status), "proven": len(self.ids("proven")), "manual": len(self.ids("manual")),
                "cited": len(self.ids("cited")), "uncovered": len(self.ids("uncovered")),
                "unproven": self.unproven, "allowed": sorted(self.allowed & set(self.unproven)),
                "failing": self.failing, "tooBroad": self.too_broad, "survivors": self.survivors,
                "cannotApply": self.cannot_apply,
                "provenBy": {cid: ids for cid, ids in self.proven_by.items() if ids}}


def load_allow_list(path) -> set[str]:
    """Clause ids listed in ``path``, one a line; ``#`` starts a comment. A missing file is empty."""
    from pathlib import Path

    path = Path(path)
    if not path.exists():
        return set()
    return {line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()} - {""}


def fault_coverage(cases: list[Case], faults, session: Session | None = None, *, areas: list[str] | None = None,
                   allowed: set[str] | None = None, matrix=None) -> FaultCoverage:
    """Run each fault (a :class:`conformance.faults.runner.Fault`) against the cases of its operations and
    classify every MUST clause of the catalogue of ``session`` (default: the kit's own; of
    ``areas`` when given), judged by its goldens; see :class:`FaultCoverage`. ``matrix``: the
    :class:`~conformance.faults.runner.Matrix` of those faults and cases when it is at hand (the
    catches it records decide), else it is made, each fault run until it is caught and proven."""
    from conformance.faults.runner import catch_matrix

    session = session or Session()
    cat = session.catalogue()
    faults = [f for f in faults if not areas or f.area in areas]
    if matrix is None:
        matrix = catch_matrix(faults, cases, session, first_only=True)
    fc = FaultCoverage(too_broad=[r.id for r in matrix.too_broad], survivors=[r.id for r in matrix.survivors],
                       cannot_apply=[f"{r.id}: {r.cannot_apply}" for r in matrix.unapplied], allowed=set(allowed or ()))
    cited = {cid for c in cases for cid in citations(c, every=True)}
    proves = {cid: [r.id for r in matrix.results if cid in r.proves] for cid in cat.clauses}
    for cid, clause in cat.clauses.items():
        if (areas and clause.area not in areas) or clause.level != "MUST":
            continue
        through = [other for other in cat.cited_by(cid) if other != cid]
        fc.proven_by[cid] = proves[cid] + [f for other in through for f in proves[other] if f not in proves[cid]]
        fc.status[cid] = ("manual" if clause.check == "manual" else "proven" if fc.proven_by[cid]
                          else "cited" if cid in cited or cited.intersection(through) else "uncovered")
    return fc


def format_fault_coverage(fc: FaultCoverage) -> str:
    """One line per clause (status, proving faults), then the totals."""
    marks = {"proven": "  ", "manual": "m ", "cited": "!!", "uncovered": "!!"}
    lines = []
    for cid, status in fc.status.items():
        note = " (allow-listed)" if status in ("cited", "uncovered") and cid in fc.allowed else ""
        lines.append(f"{marks[status]} {cid:<36} {status:<9} {' '.join(fc.proven_by[cid][:4])}{note}")
    lines.append(f"{len(fc.status)} clauses: {len(fc.ids('proven'))} proven, {len(fc.ids('manual'))} manual, "
                 f"{len(fc.ids('cited'))} cited only, {len(fc.ids('uncovered'))} uncovered; "
                 f"{len(fc.failing)} cited, unproven and not allow-listed")
    if fc.too_broad:
        lines.append(f"too broad (fail every case of their operation, prove nothing): {' '.join(fc.too_broad)}")
    if fc.survivors:
        lines.append(f"surviving faults: {' '.join(fc.survivors)}")
    lines += [f"cannot apply (fix the fault): {problem}" for problem in fc.cannot_apply]
    return "\n".join(lines)
