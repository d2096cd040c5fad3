"""pi.classifier-usage -- PI-CLASSIFIER-USAGE-REPORT, PI-CLASSIFIER-COST.
Bug: a reported token count is read as an integer (parseInt), so a fractional count such as 12.5
is counted and priced as 12.
"""

from __future__ import annotations

import math

from reference.pi.core import classifiers

from tests.blind.common import everywhere, swapped


def _tokens(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return 0
    return int(value)


def handle(msg, call):
    with swapped(everywhere(classifiers._tokens, _tokens)):
        return call()

# shown on: {"input": {"provider": "typesafe", "model": "jev-latest", "usage": {"input_tokens": 12.5, "output_tokens": 3}, "cost": {"input": 2, "output": 4}}}
