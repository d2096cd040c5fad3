"""``pi-conformance faults``: run the suite against each seeded fault of the reference
(:mod:`conformance.faults.runner`) and show which cases catch it; ``--list`` lists the faults."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conformance.commands.options import DEFAULT_FAULTS_PACKAGE
from conformance.corpus.areas import AREAS
from conformance.errors import ExitCode
from conformance.faults.runner import FaultError, catch_matrix, format_matrix, load_faults, no_fault_matches, select_faults


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``faults`` subcommand's options to ``parser``."""
    from conformance.commands.options import Once, module_argument, path_argument, pattern_argument

    parser.add_argument("--faults", metavar="MODULE", default=None, type=module_argument,
                        help=f"module or package exposing FAULTS (default {DEFAULT_FAULTS_PACKAGE})")
    parser.add_argument("--area", action="append", choices=AREAS,
                        help="only faults of this area (repeatable)")
    parser.add_argument("--fault", action="append", type=pattern_argument, metavar="PATTERN",
                        help="only faults whose id matches this glob (repeatable)")
    parser.add_argument("--via", choices=["inprocess", "serve"], default="inprocess",
                        help="run each fault in process (default) or served over the JSON-lines protocol")
    parser.add_argument("--invariants", action="store_true", help="check the invariants against each fault too")
    parser.add_argument("--examples", type=int, default=None, metavar="N",
                        help="examples per invariant with --invariants (at most 10,000)")
    parser.add_argument("--report-json", type=path_argument, action=Once, metavar="FILE",
                        help="write the catch matrix as JSON")
    parser.add_argument("--first", action="store_true",
                        help="stop each fault at its first catching case (caught or survived, quickly)")
    parser.add_argument("--list", action="store_true", help="list the faults and exit")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress dots")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every catching case")
    parser.add_argument("--scenarios-dir", type=path_argument, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--golden-dir", type=path_argument, default=None, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> ExitCode:
    """Run the suite against every seeded fault and print which cases catch which fault.

    Exit code: 0 every fault caught, 1 a fault survived or is too broad, 2 usage or suite errors (a
    fault naming an unknown clause or whose patches cannot be applied included)."""
    from conformance.session import Session

    session = Session.from_args(args, select=False)
    try:
        faults = select_faults(load_faults(args.faults, session.catalogue().clauses), areas=args.area, patterns=args.fault)
    except FaultError as exc:
        print(f"pi-conformance: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    if not faults and (args.fault or args.area or not args.list):  # --list of a selection too, as run --case
        print(f"pi-conformance: {no_fault_matches(args.fault, args.area, args.faults)}", file=sys.stderr)
        return ExitCode.USAGE
    if args.list:
        for f in faults:
            print(f"{f.id}\t{f.area}\t{','.join(f.clauses)}\t{f.title}")
        return ExitCode.OK
    from conformance.output.report_paths import check_report_paths, kit_folders

    try:  # before the matrix, which takes minutes; never over the faults read or the suite
        if args.invariants or args.examples is not None:
            from conformance.invariants import example_budget

            example_budget(args.examples)
        source = getattr(sys.modules.get(args.faults or DEFAULT_FAULTS_PACKAGE), "__file__", None)
        source = Path(source).parent if source and Path(source).name == "__init__.py" else source
        report = check_report_paths([("--report-json", args.report_json)],
                                    folders=kit_folders(args.scenarios_dir, args.golden_dir, source)).get("--report-json")
    except ValueError as exc:
        print(f"pi-conformance: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    suite = session.suite()
    for e in suite.errors:
        print(f"pi-conformance: {e}", file=sys.stderr)
    matrix = catch_matrix(faults, suite.cases, session, via=args.via, faults_module=args.faults, invariants=args.invariants,
                          examples=args.examples, first_only=args.first,
                          progress=None if args.quiet else lambda r: print(".", end="", flush=True))
    if not args.quiet:
        print()
    print(format_matrix(matrix, verbose=args.verbose))
    if report is not None:
        from conformance.output.files import write_text

        write_text(report, json.dumps(matrix.record(), indent=2) + "\n")
    if suite.errors or matrix.unapplied:
        return ExitCode.USAGE
    return ExitCode.FAILED if matrix.survivors or matrix.too_broad else ExitCode.OK
