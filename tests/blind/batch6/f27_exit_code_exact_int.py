"""pi.convert-to-llm -- PI-CONVERT-BASH-EXIT.
Bug: a whole exit code is written as the exact integer (Python's str of int) rather than as the
double JavaScript reads from JSON, so 2**53 + 1 stays 9007199254740993 and 1e21 is written out in
full; other numbers use Python's repr.
"""

from __future__ import annotations

from reference.pi.core import convert

from tests.blind.common import everywhere, swapped


def _js_number(value) -> str:
    if isinstance(value, int):
        return str(value)
    if value == int(value):
        return str(int(value))
    return repr(value)


def handle(msg, call):
    with swapped(everywhere(convert.js_number, _js_number)):
        return call()
