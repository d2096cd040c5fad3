"""``pi-conformance serve-reference``: serve the bundled reference over the JSON-lines protocol on
standard input and output."""

from __future__ import annotations

import argparse

from conformance.errors import ExitCode


def add_arguments(sv: argparse.ArgumentParser) -> None:
    """``serve-reference`` takes no option."""


def run(args: argparse.Namespace) -> ExitCode:
    """Serve until standard input ends or ``stop`` comes; the server's exit code."""
    from conformance.adapters.server import serve_reference_main

    return serve_reference_main()
