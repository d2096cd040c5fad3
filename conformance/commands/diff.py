"""``pi-conformance diff``: compare two adapters on generated inputs (:mod:`conformance.diff`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from conformance.adapters.base import AdapterStartError
from conformance.adapters.connect import ADAPTER_NAMES, AdapterNameError, runs_in_process
from conformance.corpus.areas import AREAS
from conformance.output.console import LINE_LIMIT, shown
from conformance.diff import DEFAULT_EXAMPLES, DEFAULT_TIMEOUT, OperationReport, check_ops_in_areas, run_diff
from conformance.diff.scenario import case_id, scenario_text
from conformance.output.files import write_text
from conformance.commands.options import (MAX_EXAMPLES, add_edition_argument, add_generation_arguments, example_count,
                                folder_argument, path_argument, pattern_argument)
from conformance.errors import ExitCode, UsageError
from conformance.session import Session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``diff`` subcommand's options to ``parser``."""
    parser.add_argument("--adapter", action="append", metavar="ADAPTER", default=[],
                        help=f"give exactly two (there is no default): {ADAPTER_NAMES.replace(' (default)', '')}")
    parser.add_argument("--adapter-env", action="append", metavar="KEY=VALUE",
                        help="add a variable to the out-of-process adapters' environment (repeatable)")
    parser.add_argument("--area", action="append", choices=AREAS, help="only this area (repeatable)")
    parser.add_argument("--op", action="append", type=pattern_argument, metavar="OP", help="only this operation (repeatable)")
    parser.add_argument("--examples", type=int, default=DEFAULT_EXAMPLES, metavar="N",
                        help=f"examples per operation, at most {MAX_EXAMPLES:,} (default {DEFAULT_EXAMPLES})")
    add_generation_arguments(parser, DEFAULT_TIMEOUT)
    from conformance.corpus.editions import DEFAULT

    add_edition_argument(parser, DEFAULT, DEFAULT)
    parser.add_argument("--out", type=folder_argument, metavar="DIR", help="write each disagreement as DIR/<case-id>.yaml")
    parser.add_argument("--expectations", type=path_argument, metavar="FILE",
                        help="the second adapter's expectations file (as `run` reads it): a disagreement "
                             "only where one of its expected-failing cases also disagrees is reported as "
                             "known and does not fail the run")


def _usage(message: str) -> int:
    print(f"pi-conformance diff: {message}", file=sys.stderr)
    return ExitCode.USAGE


def _line(report: OperationReport) -> str:
    status = ("disagree" if report.disagreement else "KIT-ERROR" if report.error
              else "fault" if report.fault else "known" if report.known else "agree")
    known = f", {report.known} known: {', '.join(report.known_cases)}" if report.known else ""
    shrinks = f", {report.shrinks} shrink steps" if report.shrinks else ""
    return (f"{status:<9} {report.op} ({report.examples} examples{shrinks}, {report.source}, "
            f"{report.duration:.2f}s{known})")


def run(args: argparse.Namespace) -> ExitCode:
    """Run ``diff`` as parsed by :func:`add_arguments`; returns the exit code: 0 no disagreement
    (known divergences, with ``--expectations``, do not count); 1 at least one disagreement, an
    adapter that failed during the search (crashed, hung, answered malformed output, or answered
    the same example differently; as ``run`` counts such an answer a failed case), or an operation
    the kit could not generate valid inputs for; 2 usage error or a bad expectations file; 3 an
    adapter could not start."""
    if len(args.adapter) != 2:
        return _usage(f"give --adapter exactly twice (got {len(args.adapter)})")
    try:
        example_count(args.examples)
    except ValueError as exc:
        return _usage(str(exc))
    try:
        check_ops_in_areas(args.op, args.area)
    except ValueError as exc:
        return _usage(str(exc))
    # absolute now: an implementation run in process may change the working folder
    out = Path(os.path.abspath(args.out)) if args.out else None
    if out is not None:
        from conformance.output.report_paths import check_folder_writable, check_out_folder, kit_folders

        try:  # a scenario written among the kit's own files would break every later run
            check_out_folder("--out", args.out, kit_folders())
            # checked before the search, so that a long run is not lost at its end
            check_folder_writable(f"--out {args.out}", out)
        except ValueError as exc:
            return _usage(str(exc))
    from conformance.strategies import keep_hypothesis_storage_out_of_the_working_folder
    from conformance.corpus.yamlio import SuiteFileError

    keep_hypothesis_storage_out_of_the_working_folder()
    session = Session.from_args(args, select=False)
    try:  # checked against the suite's ids as `run` checks it
        expectations = session.expectations(args.expectations)
    except SuiteFileError as exc:
        return _usage(str(exc))
    try:
        environment = session.environment()
        # --adapter-env is for the one of the two the kit starts as a process (make_adapter
        # refuses it when neither is)
        served = [spec for spec in args.adapter if not runs_in_process(spec)] or args.adapter[:1]
        adapters = tuple(session.adapter(spec, environment if spec in served else None) for spec in args.adapter)
    except (AdapterNameError, UsageError, ValueError) as exc:
        return _usage(str(exc))
    except AdapterStartError as exc:
        print(f"pi-conformance diff: an adapter could not start: {exc}", file=sys.stderr)
        return ExitCode.START
    names = (args.adapter[0], args.adapter[1])
    from conformance.corpus.editions import judging, label

    editions = label(judging(args.edition, args.area or {o.split(".", 1)[0] for o in args.op or ()} or AREAS))
    print(f"diff {names[0]} against {names[1]}: {args.examples} examples per operation, "
          f"{'derandomized' if args.seed is None else f'seed {args.seed}'}" + (f"; {editions}" if editions else ""),
          flush=True)
    try:
        reports = run_diff(adapters, areas=args.area, ops=args.op, examples=args.examples, seed=args.seed,
                           timeout=args.timeout, progress=lambda r: print(_line(r), flush=True),
                           expectations=expectations, edition=args.edition)
    except AdapterStartError as exc:
        print(f"pi-conformance diff: an adapter could not start: {exc}", file=sys.stderr)
        return ExitCode.START
    except ValueError as exc:
        return _usage(str(exc))
    if not reports:
        return _usage("the two adapters share no operation of the selection")
    found = [r for r in reports if r.disagreement]
    for r in reports:
        if r.error:
            print(f"\nKIT-ERROR {r.op}: {r.error}")
        if r.fault:
            print(f"\nADAPTER-FAULT {r.op}: {names[r.fault_side]} {shown(r.fault, LINE_LIMIT)}")
    cases = {case_id(r.disagreement): scenario_text(r.disagreement, names) for r in found}
    for r, text in zip(found, cases.values()):
        print(f"\nDISAGREEMENT {r.op}:\n" + "\n".join("  " + line for line in text.splitlines()))
    if out is not None:
        from conformance.output.ownership import check_replaceable

        try:  # none written when one would replace a file of the user's
            for name in cases:
                check_replaceable("--out", out / f"{name}.yaml")
        except ValueError as exc:
            return _usage(str(exc))
        for name, text in cases.items():
            write_text(out / f"{name}.yaml", text)
    total = sum(r.examples for r in reports)
    known = [r.op for r in reports if r.known]
    faults = sum(1 for r in reports if r.fault)
    shrinks = sum(r.shrinks for r in reports)
    print(f"\n{len(reports)} operations, {total} examples compared, {len(found)} disagreements"
          + (f" (shrunk in {shrinks} further steps)" if shrinks else "")
          + (f", {faults} operations stopped by an adapter's fault" if faults else "")
          + (f", known divergences in {len(known)} operations ({sum(r.known for r in reports)} examples)"
             if expectations is not None else ""))
    return ExitCode.FAILED if found or any(r.error or r.fault for r in reports) else ExitCode.OK
