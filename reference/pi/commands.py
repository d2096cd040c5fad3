"""The one I/O edge of value resolution: running a ``!command`` through the shell.

Kept apart from :mod:`reference.pi.values` so that the rules stay pure. The command runs through
``/bin/sh -c`` with exactly the environment it is given (no variable of the calling process leaks
in), no standard input, and a time limit.
"""

from __future__ import annotations

import subprocess
from typing import Mapping

from reference.pi.values import CommandResult


def run_shell_command(command: str, env: Mapping[str, str], time_limit_s: float) -> CommandResult:
    """Run ``command`` with ``/bin/sh -c`` and the environment ``env``.

    Args:
        command: the shell command text.
        env: the complete environment of the child process.
        time_limit_s: seconds before the child is killed; then ``exit_code`` is ``None``.
    Returns:
        a :class:`~reference.pi.values.CommandResult`. A shell that cannot start gives exit code 127.
    """
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", command],
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            timeout=time_limit_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return CommandResult(exit_code=None, stdout="")
    except OSError:
        return CommandResult(exit_code=127, stdout="")
    return CommandResult(exit_code=done.returncode, stdout=done.stdout.decode("utf-8", errors="replace"))
