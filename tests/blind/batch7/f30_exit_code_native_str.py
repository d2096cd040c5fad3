"""pi.convert-to-llm -- PI-CONVERT-BASH-EXIT.
Bug: the exit code is written with the host language's own number-to-text (Python's str) instead
of JavaScript's String(number), so 3.0 gives "3.0" and 2**60 written as a float gives
"1.152921504606847e+18".
"""

from __future__ import annotations

from reference.pi.core import convert

from tests.blind.common import everywhere, swapped


def _js_number(value):
    return str(value)


def handle(msg, call):
    with swapped(everywhere(convert.js_number, _js_number)):
        return call()


# shown on: {"op": "pi.convert-to-llm", "input": {"messages": [{"role": "bashExecution", "command": "make", "output": "boom", "cancelled": false, "truncated": false, "timestamp": 1, "exitCode": 3.0}]}}
