"""pi.convert-to-llm -- PI-CONVERT-BASH-EXIT.
Bug: an integer exit code is written with Python's str(), exact, not as the double JavaScript reads, so 2**60 gives 1152921504606846976 and 1e21 written as an integer stays in plain digits."""

from reference.pi.core import convert
from tests.blind.common import everywhere, swapped

_original = convert.js_number


def _number(value):
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return _original(value)


def handle(msg, call):
    with swapped(everywhere(_original, _number)):
        return call()
