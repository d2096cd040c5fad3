"""envelope.environment -- ENV-ENV-EMPTY-VAR, ENV-ENV-SHELL.
Bug: the shell path is chosen with process.env.SHELL ?? process.env.ComSpec, so a SHELL that is set but empty (or has an empty basename) hides ComSpec and "unknown" is reported."""

from reference.envelope import environment
from tests.blind.common import everywhere, swapped


def _login(shell, com_spec):
    candidate = shell if shell is not None else com_spec
    if candidate is None:
        return "unknown"
    return environment.shell_basename(candidate) or "unknown"


def handle(msg, call):
    with swapped(everywhere(environment.login_shell, _login)):
        return call()
