"""The one I/O edge of value resolution: running a ``!command`` through the shell.

Kept apart from :mod:`reference.pi.core.values` so that the rules stay pure. The command runs through
``/bin/sh -c`` with exactly the environment it is given (no variable of the calling process leaks
in), no standard input, and a time limit that ends the command's whole process group.
"""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Mapping

from reference.pi.core.values import CommandResult


def run_shell_command(command: str, env: Mapping[str, str], time_limit_s: float) -> CommandResult:
    """Run ``command`` with ``/bin/sh -c`` and the environment ``env``, with empty standard input
    (PI-MODELS-VALUE-COMMAND-STDIN); its output is read as UTF-8, bytes that are not becoming
    U+FFFD (PI-MODELS-VALUE-COMMAND-BYTES).

    Args:
        command: the shell command text.
        env: the complete environment of the child process.
        time_limit_s: seconds before the child is killed; then ``exit_code`` is ``None``.
    Returns:
        a :class:`~reference.pi.core.values.CommandResult`. A shell that cannot start gives exit code 127.
    """
    try:
        child = subprocess.Popen(
            ["/bin/sh", "-c", command],
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return CommandResult(exit_code=127, stdout="")
    try:
        out, _ = child.communicate(timeout=time_limit_s)
    except subprocess.TimeoutExpired:
        # The whole process group goes, so a grandchild holding stdout cannot outlive the limit.
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except OSError:
            pass
        child.communicate()
        return CommandResult(exit_code=None, stdout="")
    return CommandResult(exit_code=child.returncode, stdout=out.decode("utf-8", errors="replace"))
