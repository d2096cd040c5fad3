"""pi.parse-args -- PI-TPL-ARGS-UNTERMINATED.
Bug: a quote still open at the end runs to the end of the text as one argument without its quote character (as a lenient shell splitter does), instead of being taken back and the rest read again."""

from reference.pi.core import templates
from tests.blind.common import everywhere, split_args, swapped


def handle(msg, call):
    with swapped(everywhere(templates.parse_command_args, lambda text: split_args(text, take_back=False))):
        return call()
