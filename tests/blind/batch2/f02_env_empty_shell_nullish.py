"""envelope.environment -- ENV-ENV-EMPTY-VAR, ENV-ENV-SHELL.
Bug: the shell source is picked with SHELL ?? ComSpec, so a SHELL that is set but empty (or has no basename) is taken, and the shell is reported as "unknown" instead of ComSpec's basename."""

from reference.envelope import environment as env
from tests.blind.common import swapped


def login_shell(shell, com_spec):
    candidate = shell if shell is not None else com_spec
    return (env.shell_basename(candidate) if candidate else "") or "unknown"


def handle(msg, call):
    with swapped([(env, "login_shell", login_shell)]):
        return call()
