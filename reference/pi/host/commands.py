"""The one I/O edge of value resolution: running a ``!command`` through the shell, with exactly the
environment it is given and contained in a process group of its own. Kept apart from
:mod:`reference.pi.core.values` so that the rules stay pure."""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Mapping, Sequence

from reference.pi.core.values import CommandResult


def run_shell_command(command: str, env: Mapping[str, str], time_limit_s: float, *, cwd: str | None = None,
                      wrapper: Sequence[str] = ()) -> CommandResult:
    """Run ``command`` with ``/bin/sh -c`` and the environment ``env``, with empty standard input
    (PI-MODELS-VALUE-COMMAND-STDIN); its output is read as UTF-8, bytes that are not becoming
    U+FFFD (PI-MODELS-VALUE-COMMAND-BYTES). The command leads a process group of its own, which
    is killed when it ends or its time limit does, so nothing it started outlives it.

    Args:
        command: the shell command text.
        env: the complete environment of the child process.
        time_limit_s: seconds before the child is killed; then ``exit_code`` is ``None``.
        cwd: its working folder (``None``: the caller's).
        wrapper: arguments run before the shell's (a program that runs the rest contained, such
            as ``unshare ... --``).
    Returns:
        a :class:`~reference.pi.core.values.CommandResult`. A shell that cannot start gives exit code 127.
    """
    try:
        child = subprocess.Popen(
            list(wrapper) + ["/bin/sh", "-c", command],
            env=dict(env),
            cwd=cwd,
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
        return CommandResult(exit_code=None, stdout="")
    finally:
        _end_group(child)
    return CommandResult(exit_code=child.returncode, stdout=out.decode("utf-8", errors="replace"))


def _end_group(child: subprocess.Popen) -> None:
    """Kill the process group ``child`` leads (a grandchild holding its output, or left running in
    the background, goes too) and reap the child."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        child.communicate(timeout=5)
    except (subprocess.SubprocessError, OSError, ValueError):
        pass
