"""``pi-conformance smoke --adapter ADAPTER``: check an adapter before its results count (the
protocol's handshake, echo, errors and stop; with ``--locales``, the collation cases under each)."""

from __future__ import annotations

import argparse

from conformance.adapters.base import AdapterStartError
from conformance.commands.common import add_environment_arguments, err, locale_check, session_of
from conformance.commands.options import path_argument, timeout_seconds
from conformance.errors import ExitCode
from conformance.judge.locales import DEFAULT_LOCALES


def add_arguments(sm: argparse.ArgumentParser) -> None:
    """Add the ``smoke`` subcommand's options to ``sm``."""
    sm.add_argument("--adapter", required=True, metavar="ADAPTER", help="as for run --adapter")
    add_environment_arguments(sm, locales=DEFAULT_LOCALES)
    sm.add_argument("--timeout", type=timeout_seconds, default=10.0, metavar="SECONDS",
                    help="per-request timeout, for the checks and the locale check's cases (default 10; the start has its own 30 s, see PROTOCOL.md)")
    sm.add_argument("--scenarios-dir", type=path_argument, default=None, help=argparse.SUPPRESS)
    sm.add_argument("--spec-dir", type=path_argument, default=None, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> ExitCode:
    """Run the smoke checks (and the locale check of ``--locales``); exit 3 when the adapter cannot
    start, 1 when a check fails."""
    from conformance.adapters.smoke import smoke_adapter

    session = session_of(args, select=False)
    try:
        adapter = session.adapter(args.adapter)
    except AdapterStartError as exc:
        err(f"the adapter could not start: {exc}")
        return ExitCode.START
    from conformance.adapters.connect import out_of_process

    check = None
    if args.locales and out_of_process(adapter):
        check = locale_check(args, session, adapter, session.suite().cases)
    return smoke_adapter(adapter, timeout=args.timeout, locale_check=check)
