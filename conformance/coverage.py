"""Clause coverage: which cases cover which clause of the spec catalogue.

A MUST clause with no case, or a ``refusal`` clause with no case that shows the refusal (an
``error:`` expectation or the tag ``refusal``), fails ``pi-conformance coverage`` and the tests.
A decision clause that other clauses cite in their ``source`` is covered by their cases; a
clause with ``check: manual`` is read by a person and needs no case.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conformance.cases import Case, select
from conformance.editions import holds
from conformance.catalogue import Catalogue, Clause, load_catalogue
from conformance.yamlio import FileError


@dataclass
class Coverage:
    """Clause ids to the ids of the cases that cover them, and what is missing."""

    clauses: dict[str, Clause] = field(default_factory=dict)
    cases: dict[str, list[str]] = field(default_factory=dict)
    uncovered_must: list[str] = field(default_factory=list)
    missing_refusal: list[str] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


def shows_refusal(case: Case) -> bool:
    return case.error_code is not None or "refusal" in case.tags


def covering_cases(cat: Catalogue, cid: str, cases: list[Case]) -> list[Case]:
    """The cases that cover clause ``cid``: those that cite it, and those that cite a clause whose
    ``source`` relies on it (a decision clause is covered through the clauses citing it)."""
    through = set(cat.cited_by(cid)) - {cid}
    return [c for c in cases if cid in c.clauses or through.intersection(c.clauses)]


def clause_coverage(cases: list[Case], *, areas: list[str] | None = None, spec_dir=None,
                    edition: str | None = None) -> Coverage:
    """Coverage of the catalogue's clauses (those of ``areas`` when given) by ``cases``.

    With ``edition``, only the clauses and cases judged in a run of that edition count
    (PI-DECISION-EDITIONS); without, every clause of every edition needs its cases."""
    cat = load_catalogue(spec_dir) if spec_dir is not None else load_catalogue()
    cov = Coverage(errors=list(cat.errors))
    if edition is not None:
        cases = select(cases, edition=edition)
    for cid, clause in cat.clauses.items():
        if areas and clause.area not in areas:
            continue
        if edition is not None and not holds(tuple(clause.editions) if clause.editions else None,
                                             clause.area, edition):
            continue
        covering = covering_cases(cat, cid, cases)
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
