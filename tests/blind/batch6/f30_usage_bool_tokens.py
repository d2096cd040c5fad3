"""pi.classifier-usage -- PI-CLASSIFIER-USAGE-REPORT.
Bug: a count is taken when it is an int or a float, and Python's True is an int, so a reported
"input_tokens": true counts as one token instead of 0.
"""

from __future__ import annotations

import math

from reference.pi.core import classifiers

from tests.blind.common import everywhere, swapped


def _tokens(value):
    if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return 0
    return value if isinstance(value, float) else int(value)


def handle(msg, call):
    with swapped(everywhere(classifiers._tokens, _tokens)):
        return call()
