"""The ``pi-conformance`` command: its parser (:mod:`conformance.commands.parser`) and the dispatch to
the chosen subcommand's module; exit codes are :class:`conformance.errors.ExitCode`."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from conformance.adapters.connect import AdapterNameError
from conformance.commands.common import err, session_of
from conformance.commands.parser import build_parser
from conformance.errors import ExitCode, UsageError
from conformance.output.console import (interrupted_exit_code, terminate_as_interrupt, tolerate_any_encoding,
                                        tolerate_closed_stdout)


def parser() -> argparse.ArgumentParser:
    """The ``pi-conformance`` argument parser (:func:`conformance.commands.parser.build_parser`)."""
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process's arguments) and run the chosen subcommand; its exit code."""
    # A closed or full standard output (`| head -1`, `> /dev/full`, `>&-`) or one whose encoding
    # cannot hold an answer's text (PYTHONIOENCODING=ascii) loses console text only: never a
    # verdict or a report. Output lost though its reader did not leave turns an exit 0 into 2.
    with tolerate_any_encoding(), tolerate_closed_stdout() as out:
        try:
            os.getcwd()  # every relative path is taken from it, and every shown path made relative to it
        except OSError as exc:
            err(f"the working folder no longer exists ({exc.strerror or exc}): change to a folder that does")
            return ExitCode.USAGE
        given = list(sys.argv[1:] if argv is None else argv)
        if given and given[0].startswith("-") and given[0] not in ("-h", "--help"):
            # argparse would say only that COMMAND is missing
            parser().error(f"unrecognized option {given[0]}: options follow the command "
                           "(pi-conformance COMMAND --help lists them)")
        args = parser().parse_args(given)
        with terminate_as_interrupt():
            code = _dispatch(args)
        out.flush()
    return ExitCode.USAGE if code == ExitCode.OK and out.lost else code


def _dispatch(args: argparse.Namespace) -> int:
    try:
        from conformance.corpus.yamlcache import size_bound_problem

        problem = size_bound_problem()  # refused as a bad $PI_CONFORMANCE_INVARIANT_EXAMPLES is
        if problem is not None:
            raise UsageError(problem)
        session_of(args).check_edition_areas()
        return args.fn(args)
    except (UsageError, AdapterNameError) as exc:
        err(str(exc))
        return ExitCode.USAGE
    except KeyboardInterrupt as exc:
        err("interrupted")
        return interrupted_exit_code(exc)


if __name__ == "__main__":
    from conformance.output.console import in_utf8_mode, leave

    in_utf8_mode()
    leave(main())  # as conformance.program runs it
