"""The ``pi-conformance`` program's entry point: the command line of :mod:`conformance.cli`, then
the exit with its code, which nothing an implementation in process left behind can hold up."""

from __future__ import annotations


def run_as_program() -> None:
    """Run :func:`conformance.cli.main` on ``sys.argv`` and end the process with its exit code,
    without waiting for threads an implementation in process left running
    (:func:`conformance.output.console.leave`); in Python's UTF-8 mode
    (:func:`conformance.output.console.in_utf8_mode`)."""
    from conformance.output.console import in_utf8_mode, leave

    in_utf8_mode()
    from conformance.cli import main

    leave(main())
