"""pi.substitute-args -- PI-TPL-SUB-ALL-DEFAULT.
Bug: ${@:-default} and ${ARGUMENTS:-default} give the default only when there are no arguments, so one empty argument ("") gives the empty text instead of the default."""

from reference.pi.core import templates
from tests.blind.common import everywhere, substitute, swapped


def _substitute(content, args):
    return substitute(content, args, all_default_when=lambda args, joined: not args)


def handle(msg, call):
    with swapped(everywhere(templates.substitute_args, _substitute)):
        return call()
