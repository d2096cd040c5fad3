"""pi.substitute-args -- PI-TPL-SUB-DEFAULT.
Bug: ${N:-default} uses the default only when argument N is missing (args[n - 1] ?? default), not when it is empty."""

import re

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped

_original = templates.substitute_args
_DEFAULT = re.compile(r"\$\{([0-9]+):-([^}]*)\}")


def _substitute(content, args):
    pieces, pos = [], 0
    for m in _DEFAULT.finditer(content):
        pieces.append(_original(content[pos:m.start()], args))
        index = int(m.group(1)) - 1
        pieces.append(args[index] if 0 <= index < len(args) else m.group(2))
        pos = m.end()
    pieces.append(_original(content[pos:], args))
    return "".join(pieces)


def handle(msg, call):
    with swapped(everywhere(_original, _substitute)):
        return call()
