"""pi.convert-to-llm -- PI-CONVERT-BASH-EXIT.
Bug: the exit code is written with the implementation language's own number-to-text (Python's
`str`), so an exit code given as `2.0` reads `2.0` (and `1e16` reads `1e+16`) where JavaScript's
`String(n)` gives `2` (and `10000000000000000`).
"""

from __future__ import annotations

from reference.pi.core import convert

from tests.blind.common import everywhere, swapped


def _js_number(value):
    return str(value)


def handle(msg, call):
    with swapped(everywhere(convert.js_number, _js_number)):
        return call()

# shown on: {"input": {"messages": [{"role": "bashExecution", "command": "ls", "output": "", "exitCode": 2.0, "cancelled": false, "truncated": false, "timestamp": 1}]}}
