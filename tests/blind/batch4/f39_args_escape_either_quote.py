"""pi.parse-args -- PI-TPL-ARGS-ESCAPE.
Bug: inside a quote a backslash escapes either quote character, not only the opening one, so in "it\\'s" the backslash is dropped."""

from reference.pi.core import templates
from tests.blind.common import everywhere, split_args, swapped


def handle(msg, call):
    with swapped(everywhere(templates.parse_command_args, lambda text: split_args(text, escapable="\"'"))):
        return call()
