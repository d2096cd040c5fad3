"""First-sight strength of the suite against a batch of blind faults (``tests/blind/``).

Run on demand: ``.venv/bin/python benchmarks/blind.py [--batch batch1] [--kit DIR] [-j N]
[--json FILE] [--record]``. For each fault it runs every case of the fault's operation
(a blind fault changes nothing else, so no other case can catch it) as ``pi-conformance run``
judges them (the default edition; an operation whose cases all hold in another edition only, such
as Pi 1.6.0's, under the first edition they hold for), and counts the fault caught by the suite when a case that
passes on the reference fails or errors against it; then ``diff`` at its default budget
compares the reference and the fault on that operation, and counts it caught when a disagreement
is found. It prints the table and the totals: the suite alone, diff alone, the suite plus diff,
and the catches that rest on a single case. ``--kit DIR`` measures the kit of another checkout
(its reference, cases and goldens: first sight is the batch against the kit as it stood before
anything was fixed). ``--record`` writes the batch's ``measured.json`` (what
docs/strength.md quotes as now) and ``catches.yaml`` (the cases that catch each fault, which
``tests/test_blind_faults.py`` runs); a batch's first ``--record`` also writes its
``first-sight.json``, which later records never overwrite. Target: the suite alone 90% or more,
the suite plus diff 100%.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLIND = ROOT / "tests" / "blind"


def _proxy():
    """tests/blind/proxy.py by its path: under ``--kit`` the package ``tests`` is the other kit's."""
    spec = importlib.util.spec_from_file_location("blind_proxy", BLIND / "proxy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(path: str) -> dict:
    """One fault: the suite's catching cases, the cases run, and whether diff disagreed."""
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.adapters.reference import ReferenceImplementation
    from conformance.corpus.cases import load_suite
    from conformance.diff import diff_operation
    from conformance.corpus.editions import holds
    from conformance.judge.runner import Runner

    proxy = _proxy()
    fault = proxy.BlindFault(Path(path))
    op = fault.fault.OP
    of_op = [c for c in load_suite().cases if c.op == op]
    # the default edition, as run judges; an operation of one edition only, under that edition
    edition = None if any(holds(c.editions, c.area, None) for c in of_op) or not of_op else of_op[0].editions[0]
    cases = [c for c in of_op if holds(c.editions, c.area, edition)]
    reference, faulty = (Runner(InProcessAdapter(i), details=False, edition=edition)
                         for i in (ReferenceImplementation(), fault))
    caught, ran = [], 0
    for runner in (reference, faulty):
        runner.start()
    try:
        for case in cases:
            status = faulty.run_case(case).status
            ran += status != "skipped"
            if status in ("failed", "errored") and reference.run_case(case).status == "passed":
                caught.append(case.id)
    finally:
        for runner in (reference, faulty):
            runner.stop()
    adapters = (InProcessAdapter(ReferenceImplementation()), InProcessAdapter(proxy.BlindFault(Path(path))))
    for adapter in adapters:
        adapter.start()
    try:
        report = diff_operation(adapters, op, edition=edition)
    finally:
        for adapter in adapters:
            adapter.stop()
    doc = (fault.fault.__doc__ or "").strip().splitlines()
    return {"fault": Path(path).stem, "op": op, "area": next(c.area for c in cases) if cases else "?",
            "clauses": doc[0].split(" -- ", 1)[-1].rstrip("."), "bug": " ".join(doc[1:]).removeprefix("Bug: "),
            "cases": ran, "caughtBy": caught, "diff": report.disagreement is not None,
            "diffExamples": report.examples, "diffError": report.error or report.fault}


def _pct(n: int, total: int) -> str:
    return f"{n}/{total} = {round(100 * n / total)}%" if total else "0/0"


def totals(results: list[dict]) -> list[str]:
    """The totals lines of ``results`` (as :func:`measure` returns them), as docs/strength.md quotes them."""
    n = len(results)
    suite = [r for r in results if r["caughtBy"]]
    both = [r for r in results if r["caughtBy"] or r["diff"]]
    single = [r["fault"] for r in suite if len(r["caughtBy"]) == 1]
    return [f"Faults: {n}; operations: {len({r['op'] for r in results})}",
            f"Caught by the suite alone: {_pct(len(suite), n)}",
            f"Caught by diff alone: {_pct(sum(r['diff'] for r in results), n)}",
            f"Caught by the suite plus diff: {_pct(len(both), n)}",
            f"Suite catches resting on a single case: {len(single)}",
            "Escapes from the suite: " + (", ".join(r["fault"] for r in results if not r["caughtBy"]) or "none"),
            "Escapes from both: " + (", ".join(r["fault"] for r in results if r not in both) or "none")]


def table(results: list[dict]) -> str:
    """The Markdown table of ``results``, then :func:`totals`."""
    lines = ["| fault | operation | suite: cases caught (of cases run) | diff |", "| --- | --- | --- | --- |"]
    for r in results:
        suite = f"{len(r['caughtBy'])} ({r['cases']})" if r["caughtBy"] else f"**0 (escape)** ({r['cases']})"
        diff = "disagreement" if r["diff"] else f"none ({r['diffExamples']} examples)"
        lines.append(f"| {r['fault']} | `{r['op']}` | {suite} | {diff} |")
    single = [r["fault"] for r in results if len(r["caughtBy"]) == 1]
    return "\n".join(lines + [""] + totals(results) + ([f"Single-case catches: {', '.join(single)}"] if single else []))


def _rate(results: list[dict], caught) -> str:
    n = sum(1 for r in results if caught(r))
    return f"{n}/{len(results)} ({round(100 * n / len(results))}%)" if results else "--"


def summary() -> str:
    """The Markdown table of every recorded batch (``tests/blind/*/first-sight.json`` and
    ``measured.json``): faults, then the suite alone and the suite plus diff at first sight and
    now. The README's strength section is this table (tests/test_printed_figures.py)."""
    rows = ["| batch | faults | first sight: suite | first sight: suite + diff | now: suite | now: suite + diff |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    suite = lambda r: bool(r["caughtBy"])  # noqa: E731
    both = lambda r: bool(r["caughtBy"]) or r["diff"]  # noqa: E731
    for folder in sorted(p for p in BLIND.iterdir() if (p / "first-sight.json").is_file()):
        first = json.loads((folder / "first-sight.json").read_text(encoding="utf-8"))["results"]
        now = json.loads((folder / "measured.json").read_text(encoding="utf-8"))["results"]
        rows.append(f"| {folder.name} | {len(first)} | {_rate(first, suite)} | {_rate(first, both)} | "
                    f"{_rate(now, suite)} | {_rate(now, both)} |")
    return "\n".join(rows)


def write_catches(batch: str, results: list[dict]) -> Path:
    """``tests/blind/BATCH/catches.yaml``: per fault, the cases that catch it."""
    path = BLIND / batch / "catches.yaml"
    body = ["# The cases that catch each blind fault of this batch, as benchmarks/blind.py --record measured",
            "# them (with measured.json); tests/test_blind_faults.py runs each fault against its cases."]
    for r in results:
        body.append(f"{r['fault']}:" + ("" if r["caughtBy"] else " []"))
        body += [f"  - {cid}" for cid in sorted(r["caughtBy"])]
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    return path


def kit_version(kit: Path) -> str:
    """``git describe --always --dirty`` of the checkout at ``kit`` (``unknown`` outside git)."""
    done = subprocess.run(["git", "-C", str(kit), "describe", "--always", "--dirty"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", default="batch1")
    parser.add_argument("--kit", help="measure the kit of this checkout (its reference, cases and goldens)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--record", action="store_true",
                        help="write the batch's measured.json and catches.yaml (the current kit only)")
    parser.add_argument("--faults", nargs="*", help="only these faults (names or fNN prefixes)")
    parser.add_argument("--summary", action="store_true",
                        help="print the table of every recorded batch, first sight and now, measuring nothing")
    args = parser.parse_args(argv)
    if args.summary:
        print(summary())
        return 0
    if args.kit:
        if args.record:
            parser.error("--record measures this checkout, not --kit")
        kit = Path(args.kit).resolve()
        rest = ["--batch", args.batch, "-j", str(args.jobs)] + (["--json", str(Path(args.json).resolve())] if args.json else [])
        rest += ["--faults", *args.faults] if args.faults else []
        return subprocess.call([sys.executable, str(Path(__file__).resolve()), *rest],
                               env=dict(os.environ, PYTHONPATH=str(kit)), cwd=kit)
    proxy = _proxy()
    paths = [str(p) for p in proxy.batch_faults(args.batch)
             if not args.faults or any(p.stem == f or p.stem.startswith(f + "_") for f in args.faults)]
    with Pool(args.jobs) as pool:
        results = pool.map(measure, paths, chunksize=1)
    import conformance

    kit = Path(conformance.__file__).resolve().parent.parent
    record = {"batch": args.batch, "kit": kit_version(kit), "results": results}
    print(f"kit: {kit} at {record['kit']}; batch {args.batch}")
    print(table(results))
    outs = [Path(args.json)] if args.json else []
    if args.record:
        if kit != ROOT:
            parser.error(f"--record: the kit imported is {kit}, not this checkout")
        outs.append(BLIND / args.batch / "measured.json")
        if not (BLIND / args.batch / "first-sight.json").exists():
            outs.append(BLIND / args.batch / "first-sight.json")
        print(f"wrote {write_catches(args.batch, results)}")
    for out in outs:
        out.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
