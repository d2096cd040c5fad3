"""``pi-conformance coverage``: each clause of the catalogue with the cases that cover it, failing
when a MUST clause has none or a refusal clause no refusal case; ``--faults``: each MUST clause
proven by a seeded fault; ``--cells``: each declared input class with the cases and generated
examples that hit it."""

from __future__ import annotations

import argparse

from conformance.commands.common import add_suite_arguments, err, print_suite_errors, session_of
from conformance.commands.options import DEFAULT_FAULTS_PACKAGE, module_argument
from conformance.corpus.areas import AREAS
from conformance.errors import ExitCode, UsageError


def add_arguments(cv: argparse.ArgumentParser) -> None:
    """Add the ``coverage`` subcommand's options to ``cv``."""
    add_suite_arguments(cv, select=False, edition_default=None, edition_help="every edition")
    cv.add_argument("--area", action="append", choices=AREAS, help="only this area's clauses")
    cv.add_argument("--faults", nargs="?", const=DEFAULT_FAULTS_PACKAGE, type=module_argument, metavar="MODULE", help="each MUST clause proven by a seeded fault?")
    cv.add_argument("--json", action="store_true", help="with --faults or --cells: one JSON object")
    cv.add_argument("--cells", action="store_true", help="each declared input class with the suite cases and generated examples that hit it")
    cv.add_argument("--examples", type=int, metavar="N", help="with --cells: the examples generated per operation (default: diff's)")


def run(args: argparse.Namespace) -> ExitCode:
    """The clause table (exit 1 when a MUST clause has no case or a refusal clause no refusal
    case), or with ``--faults`` or ``--cells`` theirs; 2 for usage or suite errors."""
    if args.cells:
        return _cells(args)
    from conformance.judge.coverage import clause_coverage, format_coverage

    if args.json and args.faults is None:
        raise UsageError("--json is an option of coverage --faults or --cells (the clause table is text only)")
    if args.faults is not None and getattr(args, "edition_given", False):
        raise UsageError("--edition is not an option of coverage --faults, which judges every case, each "
                         "under an edition it holds for (every edition's clauses at once)")
    session = session_of(args, select=False)
    suite = session.suite()
    if args.faults is not None:
        return _faults(args, session)
    cov = clause_coverage(suite.cases, session, areas=args.area)
    print(format_coverage(cov))
    code = print_suite_errors([e for e in cov.errors if e not in suite.errors] + suite.errors)  # the catalogue's once
    if code:
        return code
    if cov.uncovered_must:
        err(f"{len(cov.uncovered_must)} MUST clause(s) without a case: {', '.join(cov.uncovered_must)}")
        return ExitCode.FAILED
    if cov.missing_refusal:
        err(f"{len(cov.missing_refusal)} refusal clause(s) without a refusal case: {', '.join(cov.missing_refusal)}")
        return ExitCode.FAILED
    return ExitCode.OK


def _faults(args: argparse.Namespace, session) -> ExitCode:
    """``pi-conformance coverage --faults [MODULE] [--json]``: every MUST clause proven, manual or
    unproven. Exit code 1 when a cited clause is unproven and not on the faults package's
    allow-list (``unproven.txt`` beside it), or a fault is too broad; 2 when the faults cannot be
    loaded, one names a clause the catalogue does not have or cannot be applied, or a scenario file
    is bad."""
    import importlib
    import json
    import sys
    from pathlib import Path

    from conformance.faults.runner import FaultError, load_faults
    from conformance.judge.coverage import fault_coverage, format_fault_coverage, load_allow_list

    cat, suite = session.catalogue(), session.suite()
    try:
        faults = load_faults(args.faults, cat.clauses)
        pkg = importlib.import_module(args.faults or DEFAULT_FAULTS_PACKAGE)
    except FaultError as exc:
        print(f"pi-conformance: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    allow = Path(pkg.__file__).parent / "unproven.txt" if getattr(pkg, "__path__", None) else None
    fc = fault_coverage(suite.cases, faults, session, areas=args.area,
                        allowed=load_allow_list(allow) if allow else set())
    print(json.dumps(fc.record(), indent=2) if args.json else format_fault_coverage(fc))
    for error in suite.errors:
        print(f"pi-conformance: {error}", file=sys.stderr)
    if suite.errors or fc.cannot_apply:
        return ExitCode.USAGE
    return ExitCode.FAILED if fc.failing or fc.too_broad else ExitCode.OK


def _cells(args: argparse.Namespace) -> ExitCode:
    """``coverage --cells``: each declared input class with the suite cases and the examples
    ``diff`` draws that hit it; exit 1 when a class is hit by neither."""
    import json

    from conformance.corpus.cases import SCENARIOS_DIR, load_suite
    from conformance.diff import DEFAULT_EXAMPLES
    from conformance.judge.cells import cells_report, format_cells

    suite = load_suite(SCENARIOS_DIR)
    report = cells_report(suite.cases, args.examples or DEFAULT_EXAMPLES)
    print(json.dumps(report.as_json(), indent=2, ensure_ascii=False) if args.json else format_cells(report))
    return ExitCode.FAILED if report.unhit else ExitCode.OK
