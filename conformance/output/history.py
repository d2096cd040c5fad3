"""How the verdicts of one suite change across runs, releases of an implementation side by side:
pure functions over JSON reports, oldest first, for ``compare --cases`` and ``history``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.output.console import markdown_inline, shown
from conformance.output.reports import SOURCE_KEY, report_editions
from conformance.errors import ExitCode

__all__ = ["FORMAT", "CaseChange", "Changes", "build_history", "case_changes", "case_records", "compare_cases",
           "markdown_table", "render_changes"]

FORMAT = 1
"""The format of ``history.json``; raised when a field changes meaning or goes."""

MISSING = "absent"
"""The status shown for a case a report does not hold (a suite of another version, a selection)."""


@dataclass(frozen=True)
class CaseChange:
    """One case whose status differs: ``old`` and ``new`` are statuses, or :data:`MISSING`."""

    id: str
    old: str
    new: str

    @property
    def regressed(self) -> bool:
        """Passed in OLD and held by NEW without passing."""
        return self.old == "passed" and self.new not in ("passed", MISSING)

    @property
    def fixed(self) -> bool:
        """Held by OLD without passing, passed in NEW."""
        return self.new == "passed" and self.old not in ("passed", MISSING)


@dataclass
class Changes:
    """The cases whose status differs between two reports, in the NEW report's case order (then
    OLD's for cases only OLD holds)."""

    changes: list[CaseChange]

    @property
    def regressions(self) -> list[CaseChange]:
        """The cases that passed in OLD and do not pass in NEW ("passes" means the status
        ``passed``: an expected failure, an unsupported answer or a case missing from a report
        does not pass)."""
        return [c for c in self.changes if c.regressed]

    @property
    def fixes(self) -> list[CaseChange]:
        """The cases that did not pass in OLD and pass in NEW."""
        return [c for c in self.changes if c.fixed]


def case_records(report: dict) -> dict[str, dict]:
    """``{case id: record}`` of a report's cases, in its order.

    Raises ``ValueError`` naming the report's file when a record is not an object with string
    ``id`` and ``status``, or an id appears twice.
    """
    where = report.get(SOURCE_KEY, "the report")
    out: dict[str, dict] = {}
    for n, record in enumerate(report["cases"]):
        if not isinstance(record, dict) or not isinstance(record.get("id"), str) or not isinstance(record.get("status"), str):
            raise ValueError(f"{where}: cases[{n}] must be an object with string id and status")
        if record["id"] in out:
            raise ValueError(f"{where}: cases[{n}]: case {shown(record['id'])} appears twice")
        out[record["id"]] = record
    return out


def case_changes(old: dict, new: dict) -> Changes:
    """The cases whose status differs between the reports ``old`` and ``new`` (see
    :class:`Changes`). Raises ``ValueError`` as :func:`case_records` does."""
    before, after = case_records(old), case_records(new)
    ids = list(after) + [i for i in before if i not in after]
    changes = []
    for case_id in ids:
        was = before[case_id]["status"] if case_id in before else MISSING
        now = after[case_id]["status"] if case_id in after else MISSING
        if was != now:
            changes.append(CaseChange(case_id, was, now))
    return Changes(changes)


def render_changes(old: dict, new: dict, changes: Changes) -> str:
    """``compare --cases``'s text: the two reports named, one line per changed case (regressions
    first, marked), and a closing count."""
    def named(report: dict) -> str:
        impl = report["header"]["implementation"]
        return f"{shown(impl['name'])} {shown(impl['version'])} ({shown(str(report.get(SOURCE_KEY, '')))})"

    lines = [f"old: {named(old)}", f"new: {named(new)}"]
    if report_editions(old["header"]) != report_editions(new["header"]):
        lines.append("note: the reports judged their areas by different editions, which changes verdicts too")
    order = changes.regressions + [c for c in changes.changes if not c.regressed]
    for change in order:
        mark = "REGRESSED" if change.regressed else "fixed" if change.fixed else "changed"
        lines.append(f"  {mark:9}  {shown(change.id)}: {change.old} -> {change.new}")
    lines.append(f"{len(changes.changes)} case(s) changed status: {len(changes.regressions)} regressed "
                 f"(passed, now not), {len(changes.fixes)} newly passing")
    return "\n".join(lines)


def _label(report: dict) -> str:
    header = report["header"]
    return str(header.get("adapter") or f"{header['implementation']['name']} {header['implementation']['version']}")


def build_history(reports: list[dict], labels: list[str] | None = None) -> dict[str, Any]:
    """``history.json`` of ``reports`` (oldest first), each named by ``labels`` (default: the
    adapter its header names).

    Shape: ``{"format", "releases": [{"label", "implementation", "adapter", "editions",
    "summary"}], "cases": [{"id", "area", "op", "title", "clauses", "status": [one per
    release]}], "clauses": [{"id", "cases", "status": [{status: count} per release]}], "pairs":
    [{"from", "to", "newlyFailing": [{"id", "from", "to"}], "newlyPassing": [...], "changed":
    [...]}]}``; a case a report lacks has status ``absent``. Raises ``ValueError`` as
    :func:`case_records` does.
    """
    labels = labels or [_label(r) for r in reports]
    records = [case_records(r) for r in reports]
    order: dict[str, dict] = {}
    for held in records:
        for case_id, record in held.items():
            order.setdefault(case_id, record)
    cases = []
    clause_rows: dict[str, list[dict[str, int]]] = {}
    clause_cases: dict[str, int] = {}
    for case_id, first in order.items():
        statuses = [held[case_id]["status"] if case_id in held else MISSING for held in records]
        clauses = [c for c in first.get("clauses") or [] if isinstance(c, str)]
        cases.append({"id": case_id, "area": first.get("area"), "op": first.get("op"), "title": first.get("title"),
                      "clauses": clauses, "status": statuses})
        for clause in clauses:
            row = clause_rows.setdefault(clause, [{} for _ in reports])
            clause_cases[clause] = clause_cases.get(clause, 0) + 1
            for counts, status in zip(row, statuses):
                counts[status] = counts.get(status, 0) + 1
    pairs = []
    for i in range(1, len(reports)):
        changed = case_changes(reports[i - 1], reports[i])
        pairs.append({"from": labels[i - 1], "to": labels[i],
                      "newlyFailing": [_change(c) for c in changed.regressions],
                      "newlyPassing": [_change(c) for c in changed.fixes],
                      "changed": [_change(c) for c in changed.changes]})
    releases = [{"label": label, "implementation": r["header"]["implementation"], "adapter": r["header"].get("adapter"),
                 "editions": report_editions(r["header"]), "summary": r["summary"]}
                for label, r in zip(labels, reports)]
    return {"format": FORMAT, "releases": releases, "cases": cases,
            "clauses": [{"id": c, "cases": clause_cases[c], "status": clause_rows[c]} for c in sorted(clause_rows)],
            "pairs": pairs}


def _change(change: CaseChange) -> dict[str, str]:
    return {"id": change.id, "from": change.old, "to": change.new}


STATUS_COLUMNS = ("passed", "failed", "errored", "unsupported", "xfail", "xpass", "skipped")


def markdown_table(history: dict) -> str:
    """A Markdown table of a history: a row per run and area, its counts by status, and the cases
    newly failing and newly passing since the run before it (``history --markdown``)."""
    head = ["run", "version", "area", *STATUS_COLUMNS, "newly failing", "newly passing"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] * 3 + ["---:"] * (len(head) - 3)) + " |"]
    for i, release in enumerate(history["releases"]):
        pair = history["pairs"][i - 1] if i else None
        for area, row in sorted(release["summary"].items()):
            moved = [c for c in history["cases"] if c["area"] == area]
            ids = {c["id"] for c in moved}
            failing = sum(c["id"] in ids for c in pair["newlyFailing"]) if pair else "-"
            passing = sum(c["id"] in ids for c in pair["newlyPassing"]) if pair else "-"
            label = shown(release["label"])  # the --adapter given: code, unless a backtick would end it
            cells = ["`" + label.replace("|", "\\|") + "`" if "`" not in label else markdown_inline(label),
                     markdown_inline(str(release["implementation"].get("version"))),
                     f"{markdown_inline(area)} ({markdown_inline(release['editions'].get(area, ''))})",
                     *(str(row.get(s, 0)) for s in STATUS_COLUMNS), str(failing), str(passing)]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def compare_cases(reports: list[dict], *, table_form: bool = False) -> int:
    """``compare --cases OLD NEW``: print every case whose status changed; 1 when a case that
    passed in OLD does not pass in NEW, else 0. Raises ``ValueError`` (a usage error) for another
    number of reports, a table form asked for with it (``table_form``: --markdown, --html or
    --by-op), or a malformed case record."""
    if len(reports) != 2:
        raise ValueError(f"compare --cases takes two reports, OLD then NEW, not {len(reports)}")
    if table_form:
        raise ValueError("compare --cases prints the changed cases; --markdown, --html and --by-op are for the table")
    changes = case_changes(*reports)
    print(render_changes(reports[0], reports[1], changes))
    return ExitCode.FAILED if changes.regressions else ExitCode.OK
