"""``pi-conformance list``: the selected cases, one a line (id, operation, clauses, title)."""

from __future__ import annotations

import argparse

from conformance.commands.common import add_suite_arguments, nothing_selected, print_suite_errors, session_of
from conformance.errors import ExitCode, UsageError


def add_arguments(ls: argparse.ArgumentParser) -> None:
    """Add the ``list`` subcommand's options to ``ls``."""
    add_suite_arguments(ls)


def run(args: argparse.Namespace) -> ExitCode:
    """Print the selected cases; exit 2 for suite errors. Raises :class:`UsageError` when
    ``--case`` selects nothing (saying why) or the edition fits none of the cases."""
    session = session_of(args)
    suite, cases = session.suite(), session.cases()
    session.check_edition_fits(cases)
    from conformance.corpus.editions import judged

    for c in cases:  # the clauses the case cites in the edition judging it (its clauses@ of that edition too)
        print(f"{c.id}\t{c.op}\t{','.join(c.cited(judged(session.edition, c.area)))}\t{c.title}")
    code = print_suite_errors(suite.errors)
    if (args.case or args.op) and not cases:
        raise UsageError(nothing_selected(suite, args))
    return code
