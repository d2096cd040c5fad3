"""``pi-conformance compare REPORT...``: several JSON reports side by side (``--cases``: what
changed between two)."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.commands.options import path_argument
from conformance.errors import ExitCode, UsageError


def add_arguments(cp: argparse.ArgumentParser) -> None:
    """Add the ``compare`` subcommand's arguments to ``cp``."""
    cp.add_argument("reports", type=path_argument, nargs="+", metavar="REPORT", help="JSON reports written by run --report-json")
    form = cp.add_mutually_exclusive_group()  # one form to standard output: both is a usage error
    form.add_argument("--markdown", action="store_true", help="print a Markdown table")
    form.add_argument("--html", action="store_true", help="print an HTML report page of them all")
    cp.add_argument("--by-op", action="store_true", help="a row per operation (within its area) instead of per area")
    cp.add_argument("--cases", action="store_true",
                    help="with two reports, OLD then NEW: list every case whose status changed; exit 1 when "
                         "a case that passed in OLD does not pass in NEW")


def run(args: argparse.Namespace) -> ExitCode:
    """Print the reports side by side (text, ``--markdown`` or ``--html``); with ``--cases``, the
    cases whose status changed between two (exit 1 when one that passed no longer does). Raises
    :class:`UsageError` for a report that cannot be read."""
    from conformance.output.reports import compare, load_report
    from conformance.output.site.report import render_report

    try:
        reports_ = [load_report(Path(p)) for p in args.reports]
        if args.cases:
            from conformance.output.history import compare_cases
            return compare_cases(reports_, table_form=args.markdown or args.html or args.by_op)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(render_report(reports_) if args.html else compare(reports_, markdown=args.markdown, by_op=args.by_op))
    return ExitCode.OK
