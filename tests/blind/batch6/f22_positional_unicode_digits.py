"""pi.substitute-args -- PI-TPL-SUB-POSITIONAL.
Bug: placeholder numbers are matched with Python's \\d, which takes any Unicode decimal digit, so
"$\u0661" (ARABIC-INDIC DIGIT ONE) is read as $1 instead of staying literal text.
"""

from __future__ import annotations

import re

from reference.pi.core import templates

from tests.blind.common import swapped

_PLACEHOLDER = re.compile(
    r"\$\{(\d+|ARGUMENTS|@):-([^}]*)\}"
    r"|\$\{@:(\d+)(?::(\d+))?\}"
    r"|\$(ARGUMENTS|@|\d+)"
)


def handle(msg, call):
    with swapped([(templates, "_PLACEHOLDER", _PLACEHOLDER)]):
        return call()
