"""pi.expand-input -- PI-TPL-EXPAND-EXTENSION-NAME.
Bug: an extension command's name ends at the first whitespace character of any kind (a tab or a newline too), and its argument text starts after that character."""

import re

from reference.pi.core import templates
from reference.pi.core.templates import Expansion
from tests.blind.common import everywhere, swapped

WS = re.compile("[" + re.escape(templates.JS_WHITESPACE) + "]")


def match_extension_command(text, commands):
    if not text.startswith("/"):
        return None
    m = WS.search(text)
    name = text[1:] if m is None else text[1:m.start()]
    if name not in commands:
        return None
    return Expansion("extension-command", text, name, "" if m is None else text[m.end():])


def handle(msg, call):
    with swapped(everywhere(templates.match_extension_command, match_extension_command)):
        return call()
