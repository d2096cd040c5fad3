"""Run reports as one HTML page: ``run --report-html FILE`` and ``compare --html REPORT...``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from conformance.corpus.cases import Case
from conformance.output.console import shown_lines
from conformance.judge.expectations import load_expectations
from conformance.output.files import write_text
from conformance.output.reports import report_edition
from conformance.session import Session
from conformance.judge.runner import STATUSES
from conformance.output.site import Block, cap, environment, golden_block, page_text, tree_block, yaml_text
from conformance.output.site.pages import results_by_case
from conformance.corpus.yamlio import SuiteFileError

# Cases the implementation gave no answer to: listed in a table, without input and golden.
UNANSWERED = ("unsupported", "skipped")
# Worst first: a cell is coloured by the worst status it holds.
SEVERITY = ("failed", "errored", "xpass", "xfail", "unsupported", "skipped", "passed")


@dataclass
class Cell:
    """The statuses of one implementation's cases of one operation: counts and the worst one."""

    counts: dict[str, int]

    @property
    def worst(self) -> str:
        """The worst status counted (see :data:`SEVERITY`), ``"none"`` for an empty cell."""
        return next((s for s in SEVERITY if self.counts.get(s)), "none")

    @property
    def total(self) -> int:
        """How many cases the cell counts."""
        return sum(self.counts.values())


@dataclass
class BadCase:
    """A case that did not pass, ready for the template."""

    record: dict
    clauses: list[tuple[str, str]]
    input: Block | None
    tree: Block | None
    expected: Block | None
    expected_error: str | None
    actual: Block | None
    diff: Block | None
    stderr: Block | None


@dataclass
class Run:
    """One report's part of the page."""

    index: int
    name: str
    header: dict
    bad: list[BadCase] = field(default_factory=list)
    unanswered: list[dict] = field(default_factory=list)
    expectations: list[dict] = field(default_factory=list)
    expectations_note: str = ""


def matrix(reports: list[dict]) -> list[tuple[str, str, list[Cell]]]:
    """Rows ``(area, operation, [cell per report])`` in area then operation order; an area's
    total row has the operation ``""``."""
    rows: dict[tuple[str, str], list[dict[str, int]]] = {}
    for i, report in enumerate(reports):
        for rec in report["cases"]:
            area, op, status = str(rec.get("area", "?")), str(rec.get("op", "?")), str(rec.get("status", "?"))
            for key in ((area, ""), (area, op)):
                cells = rows.setdefault(key, [{} for _ in reports])
                cells[i][status] = cells[i].get(status, 0) + 1
    return [(area, op, [Cell(c) for c in cells]) for (area, op), cells in sorted(rows.items())]


def _bad_case(rec: dict, cases: dict[str, Case], statements: dict[str, str], session: Session) -> BadCase:
    case = cases.get(rec.get("id"))
    expected = golden_block(case, session)[0] if case is not None else None
    actual = cap(yaml_text(rec["actual"])) if rec.get("actual") is not None else None
    tree = tree_block(case) if case is not None else None
    return BadCase(rec, [(c, statements.get(c, "(not in this checkout's catalogue)")) for c in rec.get("clauses", [])],
                   cap(yaml_text(case.input)) if case is not None else None, tree, expected,
                   case.error_code if case is not None else None, actual,
                   cap(rec["diff"]) if rec.get("diff") else None,
                   cap("\n".join(shown_lines(rec["stderr"]))) if rec.get("stderr") else None)


def _expectations(run: Run, report: dict) -> None:
    path = run.header.get("expectations")
    matched: dict[str, list[str]] = {}
    for rec in report["cases"]:
        if rec.get("status") in ("xfail", "xpass", "skipped", "unsupported") and rec.get("message"):
            matched.setdefault(str(rec["message"]), []).append(str(rec.get("id")))
    if not path:
        return
    try:
        loaded = load_expectations(Path(path))
    except (SuiteFileError, OSError) as exc:
        run.expectations_note = f"The expectations file {path} cannot be read here ({exc}); the reasons as the run recorded them:"
        run.expectations = [{"id": ", ".join(ids), "status": "", "reason": msg, "link": None, "cases": len(ids)}
                            for msg, ids in matched.items() if "expect" in msg]
        return
    run.expectations_note = f"From {path}; the first entry that matches a case applies."
    applied: dict[int, int] = {}
    for rec in report["cases"]:
        entry = loaded.match(str(rec.get("id")))
        if entry is not None:
            applied[id(entry)] = applied.get(id(entry), 0) + 1
    run.expectations = [{"id": e.id, "status": e.status, "reason": e.reason, "link": e.link,
                         "cases": applied.get(id(e), 0)} for e in loaded.entries]


def render_report(reports: list[dict], *, cases: list[Case] | None = None,
                  session: Session | None = None) -> str:
    """The HTML page of one or more JSON reports. ``cases`` (default: the suite of ``session``,
    whose default is the kit's own) give each failing case its input and its golden among those
    of ``session``, as the report's edition judges it; the clauses' statements are those of
    ``session``'s catalogue.

    The page holds each run's header; the area-by-operation matrix with the count of each status,
    coloured; every case that did not pass, with the statements of its clauses, its input, what
    was expected (golden or error code), the actual answer when the report has it, and the diff
    with invisible white space shown (large blocks cut, saying how much); the cases left
    unsupported or skipped, in one table; and the expectations that applied, with their reasons."""
    session = session or Session()
    if cases is None:
        cases = session.suite().cases
    by_id = {c.id: c for c in cases}
    statements = {cid: c.statement for cid, c in session.catalogue().clauses.items()}
    runs = []
    for i, ((name, _), report) in enumerate(zip(results_by_case(reports), reports)):
        run = Run(i, name, report["header"])
        records = [rec for rec in report["cases"] if isinstance(rec, dict)]
        judged_by = session.judging(report_edition(report["header"]))
        run.bad = [_bad_case(rec, by_id, statements, judged_by) for rec in records
                   if rec.get("status") not in ("passed", *UNANSWERED)]
        run.unanswered = [rec for rec in records if rec.get("status") in UNANSWERED]
        _expectations(run, report)
        runs.append(run)
    title = "Conformance report: " + ", ".join(r.name for r in runs)
    return page_text(environment().get_template("report.html").render(
        title=title, runs=runs, matrix=matrix(reports), statuses=STATUSES, statements=statements))


def write_html(path: Path, report: dict, session: Session | None = None) -> None:
    """Write the HTML page of one JSON report to ``path`` (``run --report-html``), its cases and
    clauses those of ``session`` (:func:`render_report`), as
    :func:`conformance.output.files.write_text` writes a file a person named."""
    write_text(path, render_report([report], session=session))
