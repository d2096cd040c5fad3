"""pi.substitute-args -- PI-TPL-SUB-POSITIONAL, PI-TPL-SUB-SLICE.
Bug: argument numbers are matched as `[1-9][0-9]*`, so `$0` and `${@:0}` are left in the text as
written instead of being substituted (`$0` by nothing, `${@:0}` by every argument).
"""

from __future__ import annotations

import re

from reference.pi.core import templates

from tests.blind.common import swapped

_NO_ZERO = re.compile(
    r"\$\{([1-9][0-9]*|ARGUMENTS|@):-([^}]*)\}"
    r"|\$\{@:([1-9][0-9]*)(?::([0-9]+))?\}"
    r"|\$(ARGUMENTS|@|[1-9][0-9]*)"
)


def handle(msg, call):
    with swapped([(templates, "_PLACEHOLDER", _NO_ZERO)]):
        return call()

# shown on: {"input": {"content": "[$0] [${@:0}]", "args": ["a", "b"]}}
