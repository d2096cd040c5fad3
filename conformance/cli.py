"""The ``pi-conformance`` command.

Exit codes: 0 all good; 1 a case failed, errored or passed unexpectedly; 2 usage or suite errors
(bad scenario, catalogue or expectations files, stale expectations, orphaned goldens);
3 the adapter could not start; 130 interrupted (no report is written).
"""

from __future__ import annotations

import argparse
import difflib
import math
import os
import sys
from pathlib import Path
from typing import Sequence

from conformance import golden
from conformance.adapters.base import Adapter, AdapterStartError
from conformance.operations import catalogue as op_catalogue

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_START, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
PROGRESS = {"passed": ".", "failed": "F", "errored": "E", "unsupported": "u", "xfail": "x", "xpass": "X",
            "skipped": "s"}
ADAPTERS_DIR = Path(__file__).resolve().parent / "adapters"


class UsageError(Exception):
    """A command-line mistake: printed as one line, exit code 2."""


def pi_node_command() -> list[str]:
    """The command line of the bundled Node adapter over the published Pi (see ADAPTERS.md)."""
    folder = ADAPTERS_DIR / "pi-node"
    launcher = folder / "run.sh"
    if not launcher.exists():
        raise AdapterStartError(f"the pi-node adapter is not present at {folder}")
    return ["bash", str(launcher)]


def make_adapter(spec: str | None) -> Adapter:
    """The adapter named by ``--adapter``.

    ``reference`` (default): the bundled reference in process; ``python:MODULE:CLASS``: a Python
    implementation in process; ``serve-reference``: the reference through the JSON-lines protocol;
    ``pi-node``: the bundled Node adapter over the published Pi; anything else: a command line
    (split like a POSIX shell) that speaks the JSON-lines protocol.
    """
    from conformance.adapters.inprocess import InProcessAdapter, load_implementation
    from conformance.adapters.reference import ReferenceImplementation

    if spec is not None and not spec.strip():
        raise UsageError("--adapter is empty; leave it out for the bundled reference")
    if spec in (None, "reference"):
        return InProcessAdapter(ReferenceImplementation())
    if spec.startswith("python:"):
        return InProcessAdapter(load_implementation(spec[len("python:"):]))
    from conformance.adapters.jsonlines import JsonLinesAdapter, parse_command

    if spec == "serve-reference":
        return JsonLinesAdapter([sys.executable, "-m", "conformance.adapters.jsonlines"], name="serve-reference")
    if spec == "pi-node":
        return JsonLinesAdapter(pi_node_command(), name="pi-node")
    try:
        command = parse_command(spec)
    except ValueError as exc:
        raise UsageError(f"--adapter {spec!r}: {exc}") from None
    return JsonLinesAdapter(command, name=spec)


def _err(msg: str) -> None:
    print(f"pi-conformance: {msg}", file=sys.stderr)


def _load(args: argparse.Namespace):
    from conformance.cases import SCENARIOS_DIR, load_suite

    spec = Path(args.spec_dir) if args.spec_dir else None
    return load_suite(Path(args.scenarios_dir or SCENARIOS_DIR), spec_dir=spec)


def _report_paths(args: argparse.Namespace) -> dict[str, Path]:
    """The requested report paths, checked before the run so a bad path costs nothing."""
    paths = {flag: Path(value) for flag, value in (("--report-json", args.report_json), ("--junit", args.junit),
                                                   ("--report-md", args.report_md)) if value}
    seen: dict[Path, str] = {}
    for flag, path in paths.items():
        resolved = path.resolve()
        if resolved in seen:
            raise UsageError(f"{flag} and {seen[resolved]} name the same file {path}")
        seen[resolved] = flag
        if path.is_dir():
            raise UsageError(f"{flag} {path}: is a directory")
        parent = path.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
            raise UsageError(f"{flag} {path}: cannot write in {parent}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{flag} {path}: cannot make its folder: {exc.strerror or exc}") from None
    return paths


def cmd_run(args: argparse.Namespace) -> int:
    from conformance import reports
    from conformance.cases import select
    from conformance.expectations import load_expectations
    from conformance.runner import Runner, RunSummary
    from conformance.yamlio import FileError, SuiteFileError

    report_paths = _report_paths(args)
    if not Path(args.golden_dir).is_dir():
        raise UsageError(f"no goldens at {args.golden_dir}: the kit runs from a source checkout installed with "
                         "`pip install -e .` (see README.md)")
    suite = _load(args)
    suite_errors = list(suite.errors)
    cases = select(suite.cases, areas=args.area, patterns=args.case)
    expectations = None
    if args.expectations:
        # A bad expectations file would change every verdict: stop before running anything.
        try:
            expectations = load_expectations(Path(args.expectations))
        except SuiteFileError as exc:
            return _print_suite_errors(exc.errors)
        stale = expectations.stale({c.id for c in suite.cases})
        if stale:
            return _print_suite_errors(stale)
    if not suite.errors:
        ids = {c.id for c in suite.cases if c.error_code is None}
        for path in golden.orphans(Path(args.golden_dir), ids):
            suite_errors.append(FileError(str(path), 0, 0, "", "orphaned golden: no case of the suite expects it; "
                                          "delete it, or list its id in conformance/scenarios/ids.yaml if retired"))
    if args.case and not cases:
        _print_suite_errors(suite_errors)
        raise UsageError(f"no case matches {' '.join(args.case)}")
    try:
        adapter = make_adapter(args.adapter)
    except AdapterStartError as exc:
        _err(f"the adapter could not start: {exc}")
        return EXIT_START
    try:
        runner = Runner(adapter, golden_dir=Path(args.golden_dir), timeout=args.timeout,
                        expectations=expectations, update=args.update_goldens)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        hello = runner.start()
    except AdapterStartError as exc:
        _err(f"the adapter could not start: {exc}")
        return EXIT_START
    out = sys.stdout
    print(f"implementation: {hello.name} {hello.version} ({hello.language}); {len(cases)} cases", file=out)
    unknown_ops = sorted(set(hello.operations) - set(op_catalogue()))
    if unknown_ops:
        _err(f"warning: the adapter lists operations the suite does not know: {', '.join(unknown_ops)} "
             "(see `pi-conformance list` for the operation names)")
    results = []
    interrupted = False
    try:
        for i, case in enumerate(cases, 1):
            result = runner.run_case(case)
            results.append(result)
            if not args.quiet:
                out.write(PROGRESS[result.status])
                if i % 72 == 0 or i == len(cases):
                    out.write(f" {i}/{len(cases)}\n")
                out.flush()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        runner.stop()
    if interrupted:
        if not args.quiet:
            out.write("\n")
        _err(f"interrupted after {len(results)} of {len(cases)} cases; no report written")
        return EXIT_INTERRUPTED
    for r in results:
        if r.status in ("failed", "errored", "xpass"):
            print(f"\n{r.status.upper()} {r.id} ({r.op}): {r.title}\n  {r.message}", file=out)
            if r.diff:
                print("\n".join("  " + line for line in r.diff.rstrip("\n").splitlines()), file=out)
            if r.stderr:
                print("  adapter stderr (tail):\n" + "\n".join("    " + line for line in r.stderr.rstrip().splitlines()[-20:]), file=out)
    written = [r for r in results if r.golden_written]
    if written:
        print(f"\n{len(written)} golden(s) written; read each against the spec before committing:", file=out)
        for r in written:
            print(f"  {golden.golden_path(Path(args.golden_dir), r.area, r.id)}", file=out)
    summary = RunSummary.of(results)
    print("\n" + reports.text_table(reports.table(summary.counts)), file=out)
    head = reports.header(hello, args.adapter or "reference", sorted({c.area for c in cases}),
                          expectations=args.expectations, suite_errors=[str(e) for e in suite_errors])
    report = reports.build(head, results)
    writers = {"--report-json": reports.write_json, "--junit": reports.write_junit, "--report-md": reports.write_markdown}
    for flag, path in report_paths.items():
        try:
            writers[flag](path, report)
        except OSError as exc:
            _err(f"{flag} {path}: cannot write the report: {exc.strerror or exc}")
            suite_errors.append(FileError(str(path), 0, 0, "", "report not written"))
    for e in suite_errors:
        _err(str(e))
    if suite_errors:
        _err(f"{len(suite_errors)} suite error(s)")
        return EXIT_USAGE
    return EXIT_OK if summary.ok else EXIT_FAIL


def _print_suite_errors(errors) -> int:
    for e in errors:
        _err(str(e))
    return EXIT_USAGE if errors else EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    from conformance.cases import select

    suite = _load(args)
    for c in select(suite.cases, areas=args.area, patterns=args.case):
        print(f"{c.id}\t{c.op}\t{','.join(c.clauses)}\t{c.title}")
    return _print_suite_errors(suite.errors)


def cmd_show(args: argparse.Namespace) -> int:
    suite = _load(args)
    case = suite.by_id().get(args.case_id)
    if case is None:
        _print_suite_errors(suite.errors)
        near = difflib.get_close_matches(args.case_id, list(suite.by_id()), n=3)
        raise UsageError(f"no case {args.case_id!r}" + (f"; did you mean {', '.join(near)}?" if near else ""))
    print(f"{case.id}: {case.title}\n  file: {case.file}:{case.line}\n  op: {case.op}\n"
          f"  clauses: {', '.join(case.clauses)}\n  tags: {', '.join(case.tags) or '-'}")
    if case.normalise:
        print(f"  normalise: {', '.join(case.normalise)}")
    if case.tree is not None:
        print("tree:")
        print(_indent(golden.dump({k: v.model_dump(exclude_none=True) for k, v in case.tree.items()})))
    print("input:")
    print(_indent(golden.dump(case.input)))
    if case.error_code:
        print(f"expected error: {case.error_code}")
    else:
        path = golden.golden_path(Path(args.golden_dir), case.area, case.id)
        try:
            stored = golden.read(path)
        except ValueError as exc:
            stored, note = None, str(exc)
        else:
            note = "missing"
        if stored is None:
            print(f"golden ({path}): {note}")
        else:
            print(f"golden ({path}):")
            print(_indent(golden.dump(stored["output"])))
    return EXIT_OK


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.rstrip("\n").splitlines())


def cmd_coverage(args: argparse.Namespace) -> int:
    from conformance.coverage import clause_coverage, cmd_fault_coverage, format_coverage

    suite = _load(args)
    if args.faults is not None:
        return cmd_fault_coverage(args, suite)
    cov = clause_coverage(suite.cases, areas=args.area, spec_dir=Path(args.spec_dir) if args.spec_dir else None)
    print(format_coverage(cov))
    code = _print_suite_errors(cov.errors + suite.errors)
    if code:
        return code
    if cov.uncovered_must:
        _err(f"{len(cov.uncovered_must)} MUST clause(s) without a case: {', '.join(cov.uncovered_must)}")
        return EXIT_FAIL
    if cov.missing_refusal:
        _err(f"{len(cov.missing_refusal)} refusal clause(s) without a refusal case: {', '.join(cov.missing_refusal)}")
        return EXIT_FAIL
    return EXIT_OK


def cmd_compare(args: argparse.Namespace) -> int:
    from conformance.reports import compare, load_report

    try:
        reports_ = [load_report(Path(p)) for p in args.reports]
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(compare(reports_, markdown=args.markdown))
    return EXIT_OK


def cmd_docs(args: argparse.Namespace) -> int:
    from conformance.docs import write_docs

    suite = _load(args)
    try:
        written = write_docs(Path(args.out), suite.cases, golden_dir=Path(args.golden_dir))
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write the pages: {exc.strerror or exc}") from None
    print(f"wrote {len(written)} page(s) to {args.out}")
    return _print_suite_errors(suite.errors)


def cmd_schema(args: argparse.Namespace) -> int:
    from conformance.schema import write_schemas, stale_schemas

    out = Path(args.out)
    if args.check:
        stale = stale_schemas(out)
        for s in stale:
            _err(f"{s} is out of date: run `pi-conformance schema`")
        return EXIT_FAIL if stale else EXIT_OK
    written = write_schemas(out)
    print(f"wrote {len(written)} schema file(s) to {out}")
    return EXIT_OK


def cmd_smoke(args: argparse.Namespace) -> int:
    from conformance.smoke import smoke_adapter

    try:
        adapter = make_adapter(args.adapter)
    except AdapterStartError as exc:
        _err(f"the adapter could not start: {exc}")
        return EXIT_START
    return smoke_adapter(adapter)


def cmd_serve_reference(args: argparse.Namespace) -> int:
    from conformance.adapters.jsonlines import serve_reference_main

    return serve_reference_main()


def _timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0 or value > 3600:
        raise argparse.ArgumentTypeError(f"{text!r}: the timeout must be more than 0 and at most 3600 seconds")
    return value


EPILOG = ("exit codes: 0 all good; 1 a case failed, errored or passed unexpectedly; 2 usage or suite errors; "
          "3 the adapter could not start; 130 interrupted")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pi-conformance", epilog=EPILOG,
                                description="Conformance suite for how Pi and its extensions compose what a model receives.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def common(sp: argparse.ArgumentParser, *, adapter: bool = False, select: bool = True) -> None:
        if select:
            sp.add_argument("--area", action="append", choices=["envelope", "profiles", "pi"],
                            help="only this area (repeatable)")
            sp.add_argument("--case", action="append", metavar="PATTERN",
                            help="only cases whose id matches this glob (repeatable)")
        sp.add_argument("--golden-dir", default=str(golden.GOLDEN_DIR), help=argparse.SUPPRESS)
        sp.add_argument("--scenarios-dir", default=None, help=argparse.SUPPRESS)
        sp.add_argument("--spec-dir", default=None, help=argparse.SUPPRESS)
        if adapter:
            sp.add_argument("--adapter", metavar="ADAPTER",
                            help="reference (default), serve-reference, pi-node, python:MODULE:CLASS, or a command")

    r = sub.add_parser("run", help="run the scenarios against an implementation", epilog=EPILOG)
    common(r, adapter=True)
    r.add_argument("--expectations", metavar="FILE", help="the implementation's expectations file")
    r.add_argument("--report-json", metavar="FILE", help="write the JSON report (header and one record per case)")
    r.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    r.add_argument("--report-md", metavar="FILE", help="write a Markdown report")
    r.add_argument("--timeout", type=_timeout, default=10.0, metavar="SECONDS",
                   help="per-case timeout for out-of-process adapters (default 10)")
    r.add_argument("--update-goldens", action="store_true",
                   help="write missing or changed goldens (bundled reference only)")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    r.set_defaults(fn=cmd_run)

    ls = sub.add_parser("list", help="list the cases")
    common(ls)
    ls.set_defaults(fn=cmd_list)

    sh = sub.add_parser("show", help="show one case: input, golden, clauses")
    sh.add_argument("case_id", metavar="CASE-ID")
    common(sh, select=False)
    sh.set_defaults(fn=cmd_show)

    cv = sub.add_parser("coverage", help="clause x cases; fails when a MUST clause has no case")
    common(cv, select=False)
    cv.add_argument("--area", action="append", choices=["envelope", "profiles", "pi"], help="only this area's clauses")
    cv.add_argument("--faults", nargs="?", const="", metavar="MODULE", help="each MUST clause proven by a seeded fault?")
    cv.add_argument("--json", action="store_true", help="with --faults: one JSON object (counts, unproven clause ids)")
    cv.set_defaults(fn=cmd_coverage)

    sm = sub.add_parser("smoke", help="check an adapter before its results count")
    sm.add_argument("--adapter", required=True, metavar="ADAPTER", help="as for run --adapter")
    sm.set_defaults(fn=cmd_smoke)

    sv = sub.add_parser("serve-reference", help="serve the reference over the JSON-lines protocol on stdin/stdout")
    sv.set_defaults(fn=cmd_serve_reference)

    cp = sub.add_parser("compare", help="side-by-side table of several JSON reports")
    cp.add_argument("reports", nargs="+", metavar="REPORT", help="JSON reports written by run --report-json")
    cp.add_argument("--markdown", action="store_true", help="print a Markdown table")
    cp.set_defaults(fn=cmd_compare)

    dc = sub.add_parser("docs", help="render the spec catalogue with its cases as Markdown")
    dc.add_argument("--out", required=True, metavar="DIR", help="folder for index.md and one page per area")
    common(dc, select=False)
    dc.set_defaults(fn=cmd_docs)

    from conformance import faults as faults_mod
    from conformance import invariants as invariants_mod

    fa = sub.add_parser("faults", help="run the suite against each seeded fault; show which cases catch it")
    faults_mod.add_arguments(fa)
    fa.set_defaults(fn=faults_mod.cmd_faults)

    iv = sub.add_parser("invariants", help="check the property-based invariants through an adapter")
    invariants_mod.add_arguments(iv)
    iv.set_defaults(fn=invariants_mod.cmd_invariants)

    sc = sub.add_parser("schema", help="write the JSON Schemas of the scenario format and every operation")
    sc.add_argument("--out", default=str(Path(__file__).resolve().parent / "schema"), metavar="DIR")
    sc.add_argument("--check", action="store_true", help="only check that the committed schemas are current")
    sc.set_defaults(fn=cmd_schema)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.fn(args)
    except UsageError as exc:
        _err(str(exc))
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        _err("interrupted")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
