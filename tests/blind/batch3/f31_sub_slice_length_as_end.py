"""pi.substitute-args -- PI-TPL-SUB-SLICE.
Bug: in ${@:N:L} the L is used as an end position (args.slice(N - 1, L)) instead of a count."""

import re

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped

_original = templates.substitute_args
_SLICE = re.compile(r"\$\{@:([0-9]+):([0-9]+)\}")


def _substitute(content, args):
    pieces, pos = [], 0
    for m in _SLICE.finditer(content):
        pieces.append(_original(content[pos:m.start()], args))
        begin = max(int(m.group(1)) - 1, 0)
        pieces.append(" ".join(args[begin:int(m.group(2))]))
        pos = m.end()
    pieces.append(_original(content[pos:], args))
    return "".join(pieces)


def handle(msg, call):
    with swapped(everywhere(_original, _substitute)):
        return call()
