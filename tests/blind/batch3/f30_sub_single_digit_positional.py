r"""pi.substitute-args -- PI-TPL-SUB-POSITIONAL.
Bug: a positional placeholder takes one digit (/\$(\d)/), so "$10" is the first argument followed by "0"."""

import re

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped

_original = templates.substitute_args
_MULTI = re.compile(r"(?<!\$)\$([1-9])([0-9]+)")


def _substitute(content, args):
    # "$NN..." is cut after its first digit: the rest of the digits are literal text
    pieces, pos = [], 0
    for m in _MULTI.finditer(content):
        pieces.append(_original(content[pos:m.start()], args))
        pieces.append(_original("$" + m.group(1), args) + m.group(2))
        pos = m.end()
    pieces.append(_original(content[pos:], args))
    return "".join(pieces)


def handle(msg, call):
    with swapped(everywhere(_original, _substitute)):
        return call()
