"""``pi-conformance docs --out DIR``: the spec catalogue with its cases as a static HTML site (or
Markdown), each case with the golden the edition judges it by."""

from __future__ import annotations

import argparse

from conformance.commands.common import add_suite_arguments, err, out_folder, print_suite_errors, session_of
from conformance.commands.options import folder_argument, path_argument
from conformance.errors import ExitCode, UsageError


def add_arguments(dc: argparse.ArgumentParser) -> None:
    """Add the ``docs`` subcommand's options to ``dc``."""
    dc.add_argument("--out", type=folder_argument, required=True, metavar="DIR", help="folder for the index and one page per area")
    dc.add_argument("--format", choices=["html", "md"], default="html", help="HTML site (default) or Markdown")
    dc.add_argument("--results", type=path_argument, nargs="+", metavar="REPORT.json", help="show these reports' results under each case")
    add_suite_arguments(dc, select=False)


def run(args: argparse.Namespace) -> ExitCode:
    """Write the pages into ``--out``; exit 2 for suite errors. Raises :class:`UsageError` for a
    bad ``--out`` or report."""
    from conformance.output.docs import write

    out = out_folder(args.out, args.scenarios_dir, args.golden_dir, args.spec_dir)
    session = session_of(args, select=False)
    suite = session.suite()
    warnings: list[str] = []
    try:
        written = write(out, session.suite().cases, session, fmt=args.format, results=args.results, warnings=warnings)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write the pages: {exc.strerror or exc}") from None
    for warning in warnings:
        err(f"warning: {warning}")
    print(f"wrote {len(written)} page(s) to {args.out}")
    return print_suite_errors(suite.errors)
