"""The kit's exit codes and its usage error, low enough for every layer to import (it imports
nothing of the kit).

Every command of ``pi-conformance`` (and ``python -m`` entry point of the kit) returns an
:class:`ExitCode`; docs/running.md tables them. A literal exit code elsewhere under conformance/
fails tests/test_exit_codes.py.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """The exit codes of ``pi-conformance`` (docs/running.md, "Exit codes")."""

    OK = 0
    """Every case passed or failed as expected; every check passed."""
    FAILED = 1
    """A case failed, errored or passed unexpectedly (a fault survived, a MUST clause has no case...)."""
    USAGE = 2
    """A usage or suite error: a bad option, a scenario, catalogue, expectations file or golden that
    does not load, an adapter that does not stop cleanly."""
    START = 3
    """The adapter could not start."""
    CRASHED = 70
    """A run carried out in a forked child ended by an exception the command did not turn into a
    message (``EX_SOFTWARE`` of sysexits.h)."""
    HANGUP = 129
    """Interrupted by ``SIGHUP`` (128 + 1, as a shell reports it)."""
    INTERRUPTED = 130
    """Interrupted by Ctrl-C (``SIGINT``, 128 + 2)."""
    TERMINATED = 143
    """Interrupted by ``SIGTERM`` (128 + 15)."""

    @classmethod
    def of_signal(cls, signum: int) -> int:
        """The exit code of a process ended by signal ``signum``: 128 plus its number, as a shell
        reports it; the member when there is one (:attr:`HANGUP`, :attr:`INTERRUPTED`,
        :attr:`TERMINATED`), else the plain number."""
        code = _SIGNAL_BASE + signum
        return cls(code) if code in cls._value2member_map_ else code


_SIGNAL_BASE = 128
"""What a shell adds to a signal's number to report the process it ended."""


class UsageError(Exception):
    """A command-line mistake (a bad option value, a selection that selects nothing, a folder
    that cannot be written): printed as one line ``pi-conformance: MESSAGE``, exit code
    :attr:`ExitCode.USAGE`."""
