"""Run reports: JSON (the machine-readable record), JUnit XML, Markdown, and side-by-side tables.

The JSON report is the public record of a run::

    {"header": {"suite": "0.1.0", "spec": "1", "protocol": 1,
                "implementation": {"name": ..., "version": ..., "language": ...},
                "adapter": "...", "date": "2026-11-30T07:00:00Z", "areas": [...],
                "expectations": "path" | null, "suiteErrors": ["file:line:col: field: message", ...]},
     "summary": {"<area>": {"passed": N, "failed": N, ...}},
     "cases": [{"id", "area", "op", "title", "clauses", "status", "duration",
                "message", "diff", "stderr", "golden_written", "actual"?}, ...]}

``actual`` is present only on a case that did not pass and answered a result: that result (JSON
data, tree root replaced by ``<root>``), so a report page can show it beside the golden.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from conformance import PROTOCOL_VERSION, SPEC_VERSION, SUITE_VERSION
from conformance.adapters.base import Hello
from conformance.golden import canonical
from conformance.files import atomic_write_text
from conformance.editions import DEFAULT as DEFAULT_EDITION
from conformance.runner import STATUSES, CaseResult, RunSummary

TABLE_COLUMNS = ("passed", "failed", "errored", "unsupported", "xfail", "xpass", "skipped")
COLUMN_TITLES = {"xfail": "expected failures", "xpass": "unexpected passes"}


def header(hello: Hello, adapter: str, areas: list[str], *, expectations: str | None = None,
           suite_errors: list[str] | None = None, edition: str | None = None) -> dict:
    """The report header (the date is the run's UTC time, to the second). ``suiteErrors`` lists the
    suite errors of the run (a report with any comes from a run that exited 2); ``edition`` is the
    edition the run judged (``None``: the default, ``conformance.editions.DEFAULT``)."""
    return {
        "suite": SUITE_VERSION,
        "spec": SPEC_VERSION,
        "protocol": PROTOCOL_VERSION,
        "implementation": {"name": hello.name, "version": hello.version, "language": hello.language},
        "adapter": adapter,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "areas": areas,
        "edition": edition or DEFAULT_EDITION,
        "expectations": expectations,
        "suiteErrors": suite_errors or [],
    }


def build(head: dict, results: list[CaseResult]) -> dict:
    """The whole JSON report."""
    return {"header": head, "summary": RunSummary.of(results).counts, "cases": [_record(r) for r in results]}


def _record(result: CaseResult) -> dict:
    rec = result.record()
    if result.status != "passed" and result.output is not None:
        try:
            rec["actual"] = canonical(result.output)
        except ValueError:
            rec["actual"] = repr(result.output)
    return rec


def write_json(path: Path, report: dict) -> None:
    """Write the JSON report as UTF-8; when an answer holds a lone surrogate (which UTF-8 cannot
    carry), the whole report is written with ASCII escapes instead (``\\ud83d``)."""
    text = json.dumps(report, indent=2, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(report, indent=2)
    atomic_write_text(path, text + "\n")


_XML_BAD = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot hold (ANSI escapes' ESC, other controls, lone
    surrogates) written as ``\\xNN`` / ``\\uNNNN``, so the report stays well-formed."""
    return _XML_BAD.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256 else f"\\u{ord(m.group()):04x}", text)


def write_junit(path: Path, report: dict) -> None:
    """JUnit XML: one testsuite per area, one testcase per case."""
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
            tc = ET.SubElement(suite, "testcase", classname=f"{area}.{rec['op']}", name=rec["id"],
                               time=f"{rec['duration']:.6f}")
            message = xml_text(rec["message"][:500])
            if rec["status"] in ("failed", "xpass"):
                ET.SubElement(tc, "failure", message=message).text = xml_text(rec["diff"] or rec["message"])
            elif rec["status"] == "errored":
                ET.SubElement(tc, "error", message=message).text = xml_text(rec["stderr"] or rec["message"])
            elif rec["status"] in ("skipped", "unsupported", "xfail"):
                ET.SubElement(tc, "skipped", message=xml_text(f"{rec['status']}: {rec['message']}"[:500]))
    _junit_suite_errors(root, report["header"].get("suiteErrors") or [])
    ET.indent(root)
    atomic_write_text(path, ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n")


def _junit_suite_errors(root: ET.Element, errors: list[str]) -> None:
    """A testsuite ``suite-errors`` with one erroring testcase per suite error (a scenario file
    that does not load, an orphaned golden, ...), so that no JUnit reader shows such a run green."""
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


def text_table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
                     for row in rows)


def markdown_table(rows: list[list[str]]) -> str:
    head, *body = rows
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " if i == 0 else " ---: " for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(out)


def write_markdown(path: Path, report: dict) -> None:
    """A readable Markdown report: header, per-area table, then every case that did not pass."""
    h = report["header"]
    impl = h["implementation"]
    lines = [f"# Conformance report: {impl['name']} {impl['version']} ({impl['language']})", "",
             f"Suite {h['suite']}, spec {h['spec']}, edition {report_edition(h)}, protocol {h['protocol']}, "
             f"run {h['date']}.", "",
             markdown_table(table(report["summary"])), ""]
    errors = h.get("suiteErrors") or []
    if errors:
        lines += [f"## Suite errors ({len(errors)})", "",
                  "The suite itself did not load cleanly; the run exited 2 whatever its cases did.", ""]
        lines += [f"- `{e}`" for e in errors] + [""]
    bad = [r for r in report["cases"] if r["status"] not in ("passed",)]
    if bad:
        lines += ["## Cases that did not pass", ""]
        for r in bad:
            lines += [f"### `{r['id']}` ({r['status']})", "", f"{r['title']} -- `{r['op']}`, clauses "
                      + ", ".join(f"`{c}`" for c in r["clauses"]), ""]
            if r["message"]:
                lines += [r["message"], ""]
            if r["diff"]:
                lines += ["```diff", r["diff"].rstrip("\n"), "```", ""]
    atomic_write_text(path, "\n".join(lines))


def load_report(path: Path) -> dict:
    """Read a JSON report. Raises ``ValueError`` naming the file and the field when it is not one."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable JSON report: {exc}") from None
    problem = _report_problem(data)
    if problem:
        raise ValueError(f"{path}: not a pi-conformance JSON report: {problem}")
    return data


def _report_problem(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "the top level must be an object with header, summary and cases"
    for key, kind in (("header", dict), ("summary", dict), ("cases", list)):
        if not isinstance(data.get(key), kind):
            return f"{key} must be {'an object' if kind is dict else 'a list'}"
    impl = data["header"].get("implementation")
    if not isinstance(impl, dict) or not all(isinstance(impl.get(k), str) for k in ("name", "version")):
        return "header.implementation must have string name and version"
    for area, row in data["summary"].items():
        if not isinstance(row, dict) or not all(isinstance(v, int) for v in row.values()):
            return f"summary.{area} must map statuses to counts"
    return None


def report_edition(head: dict) -> str:
    """The edition a report's header names (reports written before editions judged the default)."""
    edition = head.get("edition")
    return edition if isinstance(edition, str) else DEFAULT_EDITION


def compare(reports: list[dict], *, markdown: bool = False) -> str:
    """A side-by-side per-area table of several implementations: passed/total per cell, where
    total counts every case the report ran; a second line per area breaks the rest down."""
    names = [f"{r['header']['implementation']['name']} {r['header']['implementation']['version']} "
             f"({report_edition(r['header'])})" for r in reports]
    names = [f"{n} [{i}]" if names.count(n) > 1 else n for i, n in enumerate(names, 1)]
    areas = sorted({a for r in reports for a in r["summary"]})
    rows = [["area", *names]]
    for area in areas:
        cells = []
        for r in reports:
            row = r["summary"].get(area)
            if not row:
                cells.append("-")
                continue
            total = sum(row.values())
            rest = ", ".join(f"{row[s]} {COLUMN_TITLES.get(s, s)}" for s in STATUSES if s != "passed" and row.get(s))
            cells.append(f"{row.get('passed', 0)}/{total} passed" + (f" ({rest})" if rest else ""))
        rows.append([area, *cells])
    errors = [len(r["header"].get("suiteErrors") or []) for r in reports]
    if any(errors):
        rows.append(["suite errors", *(str(n) for n in errors)])
    return markdown_table(rows) if markdown else text_table(rows)
