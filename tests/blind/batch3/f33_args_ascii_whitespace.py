"""pi.parse-args -- PI-TPL-ARGS-SPLIT.
Bug: arguments are split on ASCII white space only (space, tab, LF, VT, FF, CR), so U+00A0, U+3000 or U+2028 stay inside an argument."""

from reference.pi.core import templates
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(templates, "JS_WHITESPACE", " \t\n\v\f\r")]):
        return call()
