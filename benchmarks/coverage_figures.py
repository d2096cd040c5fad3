"""Line and branch coverage per package, from the data of a ``coverage run`` of the tests.

Run after the tests (``.coveragerc`` measures both packages, subprocesses included)::

    .venv/bin/coverage run -m pytest -n auto
    .venv/bin/coverage combine -q
    .venv/bin/python benchmarks/coverage_figures.py --report --fail-under-branch reference=95

With ``--report``, first prints ``coverage report --skip-covered``, made alongside (the README's
test command uses it so that the two readings of the data do not wait for each other). Prints,
for ``reference/`` and ``conformance/``, the statements and branches measured and covered
and the two percentages (covered / measured, one decimal, rounded down so 94.96% never shows as
95.0%). ``--fail-under-branch PACKAGE=PERCENT`` (repeatable) exits 1 when that package's branch
figure is lower; ``--markdown`` prints the table as Markdown for docs/strength.md. ``--compare BEFORE.json`` (the
``coverage json`` of an earlier run) lists instead the lines and branches that run measured and
this one did not, and exits 1 when there are any: how a test marked ``untraced`` (see
``tests/conftest.py``) is shown to take nothing from the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGES = ("reference", "conformance")


def figures(data: dict) -> dict[str, dict[str, int]]:
    """Totals per package from ``coverage json`` output: statements, covered lines, branches,
    covered branches."""
    out = {p: {"statements": 0, "covered_lines": 0, "branches": 0, "covered_branches": 0} for p in PACKAGES}
    for name, info in data["files"].items():
        package = Path(name).parts[0]
        if package not in out:
            continue
        s = info["summary"]
        row = out[package]
        row["statements"] += s["num_statements"]
        row["covered_lines"] += s["covered_lines"]
        row["branches"] += s.get("num_branches", 0)
        row["covered_branches"] += s.get("covered_branches", 0)
    return out


def percent(covered: int, total: int) -> float:
    """``covered / total`` in percent, rounded down to one decimal (100.0 when nothing is measured)."""
    return 100.0 if total == 0 else math.floor(1000 * covered / total) / 10


def table(rows: dict[str, dict[str, int]], markdown: bool = False) -> str:
    head = ["package", "lines", "line coverage", "branches", "branch coverage"]
    body = [[f"{p}/", f"{r['covered_lines']}/{r['statements']}", f"{percent(r['covered_lines'], r['statements'])}%",
             f"{r['covered_branches']}/{r['branches']}", f"{percent(r['covered_branches'], r['branches'])}%"]
            for p, r in rows.items()]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in body])
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(row, widths)) for row in [head, *body])


def load(data_file: str | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "coverage.json"
        cmd = [sys.executable, "-m", "coverage", "json", "-q", "-o", str(out)]
        if data_file:
            cmd += ["--data-file", data_file]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"coverage_figures: no coverage data to read ({proc.stdout.strip() or proc.stderr.strip()}): "
                             "run the tests under `coverage run` and `coverage combine` first")
        return json.loads(out.read_text(encoding="utf-8"))


def lost(before: dict, after: dict) -> dict[str, tuple[list[int], list[list[int]]]]:
    """What ``before`` measured and ``after`` did not, per file: ``{file: (lines, branches)}``,
    both from ``coverage json`` output; files with nothing lost are left out."""
    out = {}
    for name, info in before["files"].items():
        now = after["files"].get(name, {})
        lines = sorted(set(info["executed_lines"]) - set(now.get("executed_lines", [])))
        arcs = {tuple(a) for a in now.get("executed_branches", [])}
        branches = [a for a in info.get("executed_branches", []) if tuple(a) not in arcs]
        if lines or branches:
            out[name] = (lines, branches)
    return out


def start_report(data_file: str | None) -> subprocess.Popen:
    """``coverage report --skip-covered`` (the settings of ``.coveragerc``: missing lines shown),
    started in a process of its own, its output and errors piped."""
    cmd = [sys.executable, "-m", "coverage", "report", "--skip-covered"]
    if data_file:
        cmd += ["--data-file", data_file]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-file", default=None, help="the combined coverage data (default .coverage)")
    parser.add_argument("--report", action="store_true",
                        help="print `coverage report --skip-covered` first, made while this reads the data "
                             "(each reads every measured file, which takes seconds); its failure is this one's")
    parser.add_argument("--fail-under-branch", action="append", default=[], metavar="PACKAGE=PERCENT")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--compare", metavar="BEFORE.json", default=None,
                        help="a `coverage json` of an earlier run: list what it measured that this run did not "
                             "(exit 1 when anything)")
    args = parser.parse_args(argv)
    report = start_report(args.data_file) if args.report else None
    try:
        data = load(args.data_file)
    finally:
        if report is not None:
            out, err = report.communicate()
            sys.stdout.write(out)
            sys.stderr.write(err)
    if report is not None and report.returncode != 0:
        return report.returncode
    if args.compare:
        missing = lost(json.loads(Path(args.compare).read_text(encoding="utf-8")), data)
        for name, (lines, branches) in missing.items():
            print(f"{name}: lines {lines or '-'}; branches {branches or '-'}")
        print(f"{len(missing)} file(s) measured less than in {args.compare}")
        return 1 if missing else 0
    rows = figures(data)
    print(table(rows, args.markdown))
    code = 0
    for floor in args.fail_under_branch:
        package, _, value = floor.partition("=")
        row = rows.get(package)
        if row is None or not value:
            parser.error(f"--fail-under-branch {floor!r}: expected one of {', '.join(PACKAGES)}=PERCENT")
        got = percent(row["covered_branches"], row["branches"])
        if got < float(value):
            print(f"{package}/ branch coverage {got}% is under {value}%", file=sys.stderr)
            code = 1
    return code


if __name__ == "__main__":
    sys.exit(main())
