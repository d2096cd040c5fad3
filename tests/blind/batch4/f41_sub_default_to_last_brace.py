"""pi.substitute-args -- PI-TPL-SUB-DEFAULT-TEXT.
Bug: the default of ${N:-default} is matched greedily (":-(.*)\\}"), so it runs to the last "}" of the line instead of the first."""

import re

from reference.pi.core import templates
from tests.blind.common import swapped

_GREEDY = re.compile(
    r"\$\{([0-9]+|ARGUMENTS|@):-(.*)\}"
    r"|\$\{@:([0-9]+)(?::([0-9]+))?\}"
    r"|\$(ARGUMENTS|@|[0-9]+)"
)


def handle(msg, call):
    with swapped([(templates, "_PLACEHOLDER", _GREEDY)]):
        return call()
