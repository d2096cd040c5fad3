"""pi.substitute-args -- PI-TPL-SUB-SLICE.
Bug: the length of ${@:N:L} is tested for truth, so ${@:N:0} gives every argument from N on instead of none."""

from reference.pi.core import templates
from tests.blind.common import everywhere, substitute, swapped


def _substitute(content, args):
    return substitute(content, args, slice_length=lambda length: int(length) if length and int(length) else None)


def handle(msg, call):
    with swapped(everywhere(templates.substitute_args, _substitute)):
        return call()
