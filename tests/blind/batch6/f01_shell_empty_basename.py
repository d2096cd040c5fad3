"""envelope.environment -- ENV-ENV-EMPTY-VAR.
Bug: a $SHELL that is set and non-empty is taken as the shell source even when its basename is
empty (a path of separators only), so the message says "unknown" instead of falling back to %ComSpec%.
"""

from __future__ import annotations

from reference.envelope import environment

from tests.blind.common import everywhere, swapped


def _login_shell(shell: str | None, com_spec: str | None) -> str:
    if shell:
        return environment.shell_basename(shell) or "unknown"
    if com_spec:
        return environment.shell_basename(com_spec) or "unknown"
    return "unknown"


def handle(msg, call):
    with swapped(everywhere(environment.login_shell, _login_shell)):
        return call()
