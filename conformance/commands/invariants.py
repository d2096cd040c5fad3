"""``pi-conformance invariants``: check the property-based invariants (:mod:`conformance.invariants`)
through an adapter, each counterexample shrunk and printed as a ready-to-commit scenario; also
``python -m conformance.invariants``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

from conformance.adapters.base import AdapterStartError
from conformance.adapters.connect import ADAPTER_NAMES, AdapterNameError
from conformance.commands.options import MAX_EXAMPLES, Once, add_generation_arguments, folder_argument, path_argument, pattern_argument
from conformance.corpus.areas import AREAS
from conformance.errors import ExitCode, UsageError
from conformance.invariants import DEFAULT_EXAMPLES, DEFAULT_TIMEOUT, EXAMPLES_ENV, example_budget, invariants, run_invariants
from conformance.output.console import LINE_LIMIT, json_document, shown_lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``invariants`` subcommand's options to ``parser``."""
    parser.add_argument("--adapter", metavar="ADAPTER", help=ADAPTER_NAMES)
    parser.add_argument("--adapter-env", action="append", metavar="KEY=VALUE",
                        help="add a variable to the out-of-process adapter's environment (repeatable)")
    parser.add_argument("--area", action="append", choices=AREAS,
                        help="only this area (repeatable)")
    parser.add_argument("--invariant", action="append", type=pattern_argument, metavar="PATTERN",
                        help="only invariants whose id matches this glob (repeatable)")
    parser.add_argument("--examples", type=int, default=None, metavar="N",
                        help=f"examples per invariant, at most {MAX_EXAMPLES:,} "
                             f"(default ${EXAMPLES_ENV} or {DEFAULT_EXAMPLES})")
    add_generation_arguments(parser, DEFAULT_TIMEOUT)
    parser.add_argument("--report-json", type=path_argument, action=Once, metavar="FILE",
                        help="write the results as JSON")
    parser.add_argument("--scenario-dir", type=folder_argument, metavar="DIR",
                        help="also write each counterexample as DIR/<invariant-id>.yaml")
    parser.add_argument("--list", action="store_true", help="list the invariants and exit")


def run(args: argparse.Namespace) -> ExitCode:
    """Run the invariants against ``args.adapter``. Exit code: 0 all passed (or unsupported),
    1 one failed or errored, 2 usage error, 3 the adapter could not start."""
    selected = invariants(args.area, args.invariant)
    if args.list:
        for inv in selected:
            print(f"{inv.id}\t{','.join(inv.ops)}\t{','.join(inv.clauses)}\t{inv.title}")
        return ExitCode.OK
    if not selected:
        print("pi-conformance: no invariant matches", file=sys.stderr)
        return ExitCode.USAGE
    try:
        examples = example_budget(args.examples)
    except ValueError as exc:
        print(f"pi-conformance: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    from conformance.output.report_paths import check_report_paths, kit_folders
    from conformance.strategies import keep_hypothesis_storage_out_of_the_working_folder

    try:  # before the examples are drawn, which takes minutes
        report = check_report_paths([("--report-json", args.report_json)], folders=kit_folders()).get("--report-json")
    except ValueError as exc:
        print(f"pi-conformance: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    from conformance.output.files import write_text

    # absolute now: an implementation run in process may change the working folder
    scenario_dir = Path(os.path.abspath(args.scenario_dir)) if args.scenario_dir else None
    keep_hypothesis_storage_out_of_the_working_folder()
    try:
        from conformance.session import Session

        adapter = Session.from_args(args, select=False).adapter(args.adapter)
        print(f"{len(selected)} invariants, {examples} examples each, "
              f"{'derandomized' if args.seed is None else f'seed {args.seed}'}")
        results = run_invariants(adapter, selected, examples=examples, seed=args.seed, timeout=args.timeout,
                                 progress=lambda r: print(f"{r.status:<11} {r.id} ({r.examples} examples, "
                                                          + (f"{r.shrinks} shrink steps, " if r.shrinks else "")
                                                          + f"{r.duration:.2f}s)", flush=True))
    except (AdapterNameError, UsageError, ValueError) as exc:
        print(f"pi-conformance: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    except AdapterStartError as exc:
        print(f"pi-conformance: the adapter could not start: {exc}", file=sys.stderr)
        return ExitCode.START
    bad = [r for r in results if r.status in ("failed", "errored")]
    for r in bad:
        print(f"\n{r.status.upper()} {r.id}: {r.title}\n  " + "\n  ".join(shown_lines(r.message.strip(), LINE_LIMIT)))
        if r.scenario:
            print("  ready-to-commit scenario:\n" + "\n".join("    " + line for line in r.scenario.splitlines()))
    if scenario_dir is not None:
        from conformance.output.ownership import check_replaceable

        found = {r.id: r.scenario for r in bad if r.scenario}
        try:  # none written when one would replace a file of the user's
            for name in found:
                check_replaceable("--scenario-dir", scenario_dir / f"{name}.yaml")
        except ValueError as exc:
            print(f"pi-conformance: {exc}", file=sys.stderr)
            return ExitCode.USAGE
        for name, text in found.items():
            write_text(scenario_dir / f"{name}.yaml", text)
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    print("\n" + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    if results and counts.get("unsupported") == len(results):  # a warning, as for a plain run (runner.unproven)
        print(f"pi-conformance: warning: no selected invariant was checked ({len(results)} unsupported): "
              "the run proves nothing", file=sys.stderr)
    if report is not None:
        write_text(report, json_document({"examples": examples, "seed": args.seed,
                                          "results": [r.record() for r in results]}))
    return ExitCode.FAILED if bad else ExitCode.OK


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conformance.invariants``: the same as ``pi-conformance invariants``."""
    parser = argparse.ArgumentParser(prog="pi-conformance invariants",
                                     description="Check property-based invariants through an adapter.")
    add_arguments(parser)
    return run(parser.parse_args(argv))
