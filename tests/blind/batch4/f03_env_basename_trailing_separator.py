"""envelope.environment -- ENV-ENV-BASENAME, ENV-ENV-EMPTY-VAR.
Bug: the basename is whatever follows the last separator, so a shell path with a trailing "/" or "\" has an empty basename and counts as unset."""

import re

from reference.envelope import environment
from tests.blind.common import everywhere, swapped


def _basename(path):
    return re.split(r"[\\/]", path)[-1]


def handle(msg, call):
    with swapped(everywhere(environment.shell_basename, _basename)):
        return call()
