"""pi.parse-args -- PI-TPL-ARGS-EMPTY.
Bug: empty arguments are filtered out at the end (args.filter(Boolean)), so "" and '' disappear."""

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped

_original = templates.parse_command_args


def handle(msg, call):
    with swapped(everywhere(_original, lambda text: [a for a in _original(text) if a])):
        return call()
