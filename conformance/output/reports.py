"""Run reports: the JSON report (the public record of a run, :func:`build`), JUnit XML, Markdown,
and the side-by-side tables of ``compare``."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

from conformance import PROTOCOL_VERSION, SPEC_VERSION, SUITE_VERSION
from conformance.adapters.base import Hello
from conformance.output.console import LINE_LIMIT, bidi_escaped, json_document, markdown_block, markdown_inline, shown, xml_text
from conformance.judge.golden import canonical
from conformance.output.files import write_text
from conformance.corpus.editions import DEFAULT as DEFAULT_EDITION
from conformance.corpus.editions import judging, label
from conformance.judge.runner import STATUSES, CaseResult, RunSummary

REPORT_FORMAT = 2
"""The JSON report's format: 2 added ``header.format`` and ``header.editions``."""

TABLE_COLUMNS = ("passed", "failed", "errored", "unsupported", "xfail", "xpass", "skipped")
COLUMN_TITLES = {"xfail": "expected failures", "xpass": "unexpected passes"}


def header(hello: Hello, adapter: str, areas: list[str], *, expectations: str | None = None,
           suite_errors: list[str] | None = None, edition: str | None = None) -> dict:
    """The report header (the date is the run's UTC time, to the second). ``suiteErrors`` lists the
    suite errors of the run (a report with any comes from a run that exited 2); ``edition`` is the
    run's ``--edition`` (``None``: the default, ``conformance.corpus.editions.DEFAULT``), ``editions`` the
    edition that judged each of ``areas`` (:func:`conformance.corpus.editions.judging`). The
    implementation's name, version and language are adapter text, kept as
    :func:`conformance.output.console.shown` shows them."""
    return {
        "format": REPORT_FORMAT,
        "suite": SUITE_VERSION,
        "spec": SPEC_VERSION,
        "protocol": PROTOCOL_VERSION,
        "implementation": {"name": shown(hello.name), "version": shown(hello.version),
                           "language": shown(hello.language)},
        "adapter": adapter,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "areas": areas,
        "edition": edition or DEFAULT_EDITION,
        "editions": judging(edition, areas),
        "expectations": expectations,
        "suiteErrors": suite_errors or [],
    }


def build(head: dict, results: list[CaseResult], clauses: dict | None = None) -> dict:
    """The whole JSON report (its layout: ``docs/running.md``, "The JSON report"): ``header``,
    ``summary`` (counts per area and status), ``cases`` (one record per case; ``actual``, the
    canonical result, only on a case that did not pass and answered one) and, given the catalogue's ``clauses`` (id -> clause), ``clauses``: the level,
    statement and decision flag of every clause a case that did not pass cites, so that a report
    read alone says which rule to fix."""
    report = {"header": head, "summary": RunSummary.of(results).counts, "cases": [_record(r) for r in results]}
    if clauses is not None:
        cited = sorted({cid for r in results if r.status != "passed" for cid in r.clauses})
        report["clauses"] = {cid: {"level": clauses[cid].level, "statement": " ".join(clauses[cid].statement.split()),
                                   "decision": clauses[cid].decision} for cid in cited if cid in clauses}
    return report


def _clause_lines(report: dict, rec: dict) -> list[str]:
    """``ID (LEVEL[, decision]): statement`` for each clause ``rec`` cites that the report holds."""
    known = report.get("clauses") or {}
    out = []
    for cid in rec["clauses"]:
        c = known.get(cid)
        if c:
            out.append(f"{cid} ({c['level']}{', decision' if c['decision'] else ''}): {c['statement']}")
    return out


def _record(result: CaseResult) -> dict:
    rec = result.record()
    if result.status != "passed" and result.output is not None:
        try:
            rec["actual"] = canonical(result.output)
        except ValueError:
            rec["actual"] = repr(result.output)
    return rec


def write_json(path: Path, report: dict) -> None:
    """Write the JSON report (:func:`conformance.output.console.json_document`: UTF-8, or ASCII
    escapes when an answer holds a lone surrogate; controls, separators and bidirectional
    controls always as JSON escapes, the data read back exact)."""
    write_text(path, json_document(report) + "\n")


def write_junit(path: Path, report: dict) -> None:
    """JUnit XML: one testsuite per area, one testcase per case."""
    import xml.etree.ElementTree as ET  # only for this report

    root = ET.Element("testsuites", name=xml_text(f"pi-conformance {report['header']['implementation']['name']}"))
    by_area: dict[str, list[dict]] = {}
    for rec in report["cases"]:
        by_area.setdefault(rec["area"], []).append(rec)
    for area, recs in by_area.items():
        suite = ET.SubElement(root, "testsuite", name=area, tests=str(len(recs)),
                              failures=str(sum(r["status"] in ("failed", "xpass") for r in recs)),
                              errors=str(sum(r["status"] == "errored" for r in recs)),
                              skipped=str(sum(r["status"] in ("skipped", "unsupported", "xfail") for r in recs)))
        for rec in recs:
            tc = ET.SubElement(suite, "testcase", classname=rec["op"], name=rec["id"],
                               time=f"{rec['duration']:.6f}")
            message = xml_text(rec["message"][:500])
            about = "\n".join([rec["title"], rec["message"], "clauses:", *_clause_lines(report, rec)]) + "\n\n"
            if rec["status"] in ("failed", "xpass"):
                ET.SubElement(tc, "failure", message=message).text = xml_text(about + (rec["diff"] or ""))
            elif rec["status"] == "errored":
                ET.SubElement(tc, "error", message=message).text = xml_text(about + (rec["stderr"] or ""))
            elif rec["status"] in ("skipped", "unsupported", "xfail"):
                ET.SubElement(tc, "skipped", message=xml_text(f"{rec['status']}: {rec['message']}"[:500]))
    _junit_suite_errors(root, report["header"].get("suiteErrors") or [])
    ET.indent(root)
    write_text(path, ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n")


def _junit_suite_errors(root: ET.Element, errors: list[str]) -> None:
    """A testsuite ``suite-errors`` with one erroring testcase per suite error (a scenario file
    that does not load, an orphaned golden, ...), so that no JUnit reader shows such a run green."""
    import xml.etree.ElementTree as ET

    if not errors:
        return
    suite = ET.SubElement(root, "testsuite", name="suite-errors", tests=str(len(errors)), failures="0",
                          errors=str(len(errors)), skipped="0")
    for i, error in enumerate(errors, 1):
        tc = ET.SubElement(suite, "testcase", classname="suite-errors", name=f"suite-error-{i}", time="0")
        ET.SubElement(tc, "error", message=xml_text(error[:500])).text = xml_text(error)


CONSOLE_LEGEND = "xfail: failed as expected; xpass: passed though expected to fail"
"""The line under the console table that spells out its short column titles."""


def table(summary: dict[str, dict[str, int]], *, short: bool = False) -> list[list[str]]:
    """Rows of the per-area table, with a total row. ``short`` keeps the statuses' own short
    names as titles (``xfail``, ``xpass``) so the console table fits 80 columns."""
    rows = [["area", *(c if short else COLUMN_TITLES.get(c, c) for c in TABLE_COLUMNS)]]
    total = {c: 0 for c in TABLE_COLUMNS}
    for area in sorted(summary):
        rows.append([area, *(str(summary[area].get(c, 0)) for c in TABLE_COLUMNS)])
        for c in TABLE_COLUMNS:
            total[c] += summary[area].get(c, 0)
    rows.append(["total", *(str(total[c]) for c in TABLE_COLUMNS)])
    return rows


def text_table(rows: list[list[str]], labels: int = 1) -> str:
    """``rows`` (the first is the head) as aligned text: the first ``labels`` columns to the left,
    the counts to the right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) if i < labels else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
                     for row in rows)


def markdown_table(rows: list[list[str]], labels: int = 1) -> str:
    """``rows`` (the first is the head) as a Markdown table, aligned as :func:`text_table`, each
    cell written by :func:`conformance.output.console.markdown_inline`, so that no name makes a
    tag, a link or markup, or breaks the table."""
    rows = [[markdown_inline(cell, LINE_LIMIT) for cell in row] for row in rows]
    head, *body = rows
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " if i < labels else " ---: " for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(out)


MARKDOWN_ORDER = ("failed", "errored", "xpass", "xfail", "unsupported", "skipped")
"""The order of the Markdown report's cases that did not pass, by status."""


def write_markdown(path: Path, report: dict) -> None:
    """A readable Markdown report: header, per-area table, then every case that did not pass.
    Adapter text (its name, messages, diffs of its answers) enters it only through
    :func:`conformance.output.console.markdown_inline` and :func:`~conformance.output.console.markdown_block`."""
    h = report["header"]
    impl = h["implementation"]
    editions = label(report_editions(h))
    lines = [f"# Conformance report: {markdown_inline(impl['name'])} {markdown_inline(impl['version'])} "
             f"({markdown_inline(impl['language'])})", "",
             f"Suite {h['suite']}, spec {h['spec']}, {editions + ', ' if editions else ''}protocol {h['protocol']}, "
             f"run {h['date']}.", "",
             markdown_table(table(report["summary"])), ""]
    errors = h.get("suiteErrors") or []
    if errors:
        lines += [f"## Suite errors ({len(errors)})", "",
                  "The suite itself did not load cleanly; the run exited 2 whatever its cases did.", ""]
        lines += [f"- {markdown_inline(e, limit=10 * len(e) + 1)}" for e in errors] + [""]
    # what fails the run first (a few real failures were found after hundreds of unsupported
    # cases), each group in the run's order
    bad = sorted((r for r in report["cases"] if r["status"] not in ("passed",)),
                 key=lambda r: MARKDOWN_ORDER.index(r["status"]) if r["status"] in MARKDOWN_ORDER else len(MARKDOWN_ORDER))
    if bad:
        lines += ["## Cases that did not pass", "",
                  "Those that fail the run first (failed, errored, unexpected passes), then the expected "
                  "failures, the unsupported and the skipped cases.", ""]
        for r in bad:
            lines += [f"### `{r['id']}` ({r['status']})", "", f"{r['title']} -- `{r['op']}`, clauses "
                      + ", ".join(f"`{c}`" for c in r["clauses"]), ""]
            lines += [f"- {line}" for line in _clause_lines(report, r)] + ([""] if _clause_lines(report, r) else [])
            if r["message"]:  # the adapter's words among the kit's: a block, never markup
                lines += [markdown_block(r["message"]), ""]
            if r["diff"]:
                lines += [markdown_block(r["diff"], "diff"), ""]
    write_text(path, bidi_escaped("\n".join(lines)))


def load_report(path: Path) -> dict:
    """Read a JSON report. Raises ``ValueError`` naming the file and the field when it is not one:
    a ``header.format`` this kit does not read (1 to :data:`REPORT_FORMAT`; none is format 1; read
    first), a status in its summary or cases that is not one of
    :data:`conformance.judge.runner.STATUSES`, a count of its summary that is not a whole number of
    0 or more among them, a case record without a string id (each once) and area, or a summary
    that disagrees with the cases (a count of an area and status, an area no case or
    ``header.areas`` holds): the one reading of ``compare`` (text, Markdown, ``--html``,
    ``--cases``), ``docs --results`` and ``history``."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable JSON report: {exc}") from None
    except RecursionError:
        raise ValueError(f"{path}: not a readable JSON report: nested too deeply to read") from None
    problem = _report_problem(data)
    if problem:
        raise ValueError(f"{path}: not a pi-conformance JSON report: {problem}")
    data[SOURCE_KEY] = str(path)
    return data


SOURCE_KEY = "file"
"""The key under which :func:`load_report` keeps the path it read a report from (in memory only)."""


def column_names(reports: list[dict]) -> list[str]:
    """How a table names each report's column: the implementation's name and version, then the
    file it was read from and the editions that judged the areas it ran
    (``pi 1.6.0 (pi.json, editions envelope, profiles, pi-1.6.0)``; :func:`report_editions`), made
    unique with ``[1]``, ``[2]`` ... when two are still alike."""
    names = []
    for r in reports:
        impl = r["header"]["implementation"]
        name = f"{shown(impl['name'])} {shown(impl['version'])}"  # a report may have been edited by hand
        source = r.get(SOURCE_KEY)
        said = [shown(Path(source).name)] if source else []
        editions = label(report_editions(r["header"]))
        said += [shown(editions)] if editions else []
        names.append(f"{name} ({', '.join(said)})" if said else name)
    return [f"{n} [{i}]" if names.count(n) > 1 else n for i, n in enumerate(names, 1)]


def _report_problem(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "the top level must be an object with header, summary and cases"
    if not isinstance(data.get("header"), dict):
        return "header must be an object"
    fmt = data["header"].get("format", 1)  # format 1 wrote no header.format; read first, as it decides the rest
    if isinstance(fmt, bool) or fmt not in range(1, REPORT_FORMAT + 1):
        return (f"header.format must be {' or '.join(map(str, range(1, REPORT_FORMAT + 1)))} (the formats this "
                f"kit reads), not {shown(json.dumps(fmt))}")
    for key, kind in (("summary", dict), ("cases", list)):
        if not isinstance(data.get(key), kind):
            return f"{key} must be {'an object' if kind is dict else 'a list'}"
    impl = data["header"].get("implementation")
    if not isinstance(impl, dict) or not all(isinstance(impl.get(k), str) for k in ("name", "version")):
        return "header.implementation must have string name and version"
    for area, row in data["summary"].items():
        if not isinstance(row, dict):
            return f"summary.{shown(area)} must map statuses to counts"
        for status, count in row.items():
            if status not in STATUSES:
                return f"summary.{shown(area)}.{shown(status)} is not a status ({', '.join(STATUSES)})"
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                return f"summary.{shown(area)}.{shown(status)} must be a whole number of 0 or more, not {shown(json.dumps(count))}"
    if not isinstance(data["header"].get("suiteErrors") or [], list):
        return "header.suiteErrors must be a list"
    return _cases_problem(data["cases"]) or _summary_mismatch(data)


def _cases_problem(cases: list) -> str | None:
    """What makes a report's ``cases`` unreadable: a record that is not an object with a string
    ``id`` (each once), ``area`` and a ``status`` of :data:`~conformance.judge.runner.STATUSES`."""
    seen: set[str] = set()
    for n, record in enumerate(cases):
        if not isinstance(record, dict):
            return f"cases[{n}] must be an object"
        if record.get("status") not in STATUSES:
            return f"cases[{n}].status is not a status ({', '.join(STATUSES)}), not {shown(json.dumps(record.get('status')))}"
        for key in ("id", "area"):
            if not isinstance(record.get(key), str):
                return f"cases[{n}].{key} must be a string, not {shown(json.dumps(record.get(key)))}"
        if record["id"] in seen:
            return f"cases[{n}].id: case {shown(json.dumps(record['id']))} appears twice"
        seen.add(record["id"])
    return None


def _summary_mismatch(data: dict) -> str | None:
    """Where a report's ``summary`` disagrees with its ``cases`` (the count of each area and
    status) or names an area its ``header.areas`` does not: every table is counted from the
    summary and every page from the cases, so both must say the same."""
    counted: dict[str, dict[str, int]] = {}
    for record in data["cases"]:
        row = counted.setdefault(record["area"], {})
        row[record["status"]] = row.get(record["status"], 0) + 1
    listed = data["header"].get("areas")
    for area in data["summary"]:
        if area not in counted:
            return f"summary.{shown(area)}: no case of the report is of that area"
        if isinstance(listed, list) and area not in listed:
            return f"summary.{shown(area)}: an area header.areas does not list"
    for area, row in counted.items():
        if area not in data["summary"]:
            return f"summary has no row for area {shown(area)}, which {sum(row.values())} of its cases are of"
        for status in STATUSES:
            said, held = data["summary"][area].get(status, 0), row.get(status, 0)
            if said != held:
                return f"summary.{shown(area)}.{status} is {said}, but {held} of its cases are {status} in that area"
    return None


def report_edition(head: dict) -> str:
    """The ``--edition`` of the run a report's header records (reports written before editions
    judged the default), from which each area's edition follows."""
    edition = head.get("edition")
    return edition if isinstance(edition, str) else DEFAULT_EDITION


def report_editions(head: dict) -> dict[str, str]:
    """The edition that judged each area a report's run ran, ``{area: edition}``: its header's
    ``editions`` (format 2), else what its ``edition`` and ``areas`` say (format 1)."""
    editions = head.get("editions")
    if isinstance(editions, dict) and all(isinstance(v, str) for v in editions.values()):
        return {str(k): v for k, v in editions.items()}
    areas = head.get("areas")
    ran = [a for a in areas if isinstance(a, str)] if isinstance(areas, list) else []
    return judging(report_edition(head), ran)


def compare(reports: list[dict], *, markdown: bool = False, by_op: bool = False) -> str:
    """A side-by-side table of several implementations, a column per report (named by
    :func:`column_names`) and a row per area, or with ``by_op`` a row per area and operation
    (counted from the reports' cases): passed/total per cell, where total counts every case the
    report ran, then the other statuses."""
    if by_op:
        counts = [_counts_by_op(r) for r in reports]
        keys = sorted({k for c in counts for k in c})
        rows = [["area", "operation", *column_names(reports)]]
        rows += [[area, op, *(_cell(c.get((area, op))) for c in counts)] for area, op in keys]
    else:
        areas = sorted({a for r in reports for a in r["summary"]})
        rows = [["area", *column_names(reports)]]
        rows += [[area, *(_cell(r["summary"].get(area)) for r in reports)] for area in areas]
    errors = [len(r["header"].get("suiteErrors") or []) for r in reports]
    if any(errors):
        rows.append(["suite errors", *([""] if by_op else []), *(str(n) for n in errors)])
    labels = 2 if by_op else 1
    return markdown_table(rows, labels) if markdown else text_table(rows, labels)


def _counts_by_op(report: dict) -> dict[tuple[str, str], dict[str, int]]:
    """``{(area, operation): {status: count}}`` of a report's cases."""
    out: dict[tuple[str, str], dict[str, int]] = {}
    for rec in report["cases"]:
        if isinstance(rec, dict):
            row = out.setdefault((shown(rec.get("area", "?")), shown(rec.get("op", "?"))), {})
            row[str(rec.get("status", "?"))] = row.get(str(rec.get("status", "?")), 0) + 1
    return out


def _cell(row: dict[str, int] | None) -> str:
    """One cell of :func:`compare`: ``3/5 passed (1 failed, 1 skipped)``, or ``-`` when the report
    ran no such case."""
    if not row:
        return "-"
    rest = ", ".join(f"{row[s]} {COLUMN_TITLES.get(s, s)}" for s in STATUSES if s != "passed" and row.get(s))
    return f"{row.get('passed', 0)}/{sum(row.values())} passed" + (f" ({rest})" if rest else "")
