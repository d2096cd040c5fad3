"""pi.models-value -- PI-MODELS-VALUE-FORMS.
Bug: a variable name is read as a run of word characters `[A-Za-z0-9_]+`, so `$1KEY` reads a
variable `1KEY` instead of staying literal (a name must start with a letter or `_`).
"""

from __future__ import annotations

import re

from reference.pi.core import values

from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(values, "_NAME", re.compile(r"[A-Za-z0-9_]+"))]):
        return call()

# shown on: {"input": {"value": "$1KEY", "env": {"1KEY": "secret"}}}
