r"""envelope.environment -- ENV-CWD-SLASHES.
Bug: the cwd's backslashes are replaced with cwd.replace("\\", "/"), which in JavaScript replaces only the first one."""

from reference.envelope import environment
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(environment.slash_path, lambda path: path.replace("\\", "/", 1))):
        return call()
