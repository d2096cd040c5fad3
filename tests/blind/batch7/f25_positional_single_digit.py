"""pi.substitute-args -- PI-TPL-SUB-POSITIONAL.
Bug: a bare positional placeholder takes one digit, as in a POSIX shell, so "$10" is read as
argument 1 followed by a literal "0" instead of the tenth argument.
"""

from __future__ import annotations

import re

from reference.pi.core import templates

from tests.blind.common import swapped

_SHELL_STYLE = re.compile(
    r"\$\{([0-9]+|ARGUMENTS|@):-([^}]*)\}"
    r"|\$\{@:([0-9]+)(?::([0-9]+))?\}"
    r"|\$(ARGUMENTS|@|[0-9])"
)


def handle(msg, call):
    with swapped([(templates, "_PLACEHOLDER", _SHELL_STYLE)]):
        return call()


# shown on: {"op": "pi.substitute-args", "input": {"content": "first=$1 tenth=$10", "args": ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]}}
