"""pi.expand-input -- PI-TPL-EXPAND-EXTENSION-NAME.
Bug: an extension command's name ends at the first white space of any kind (a tab, a newline),
not at the first space character U+0020, so "/deploy<TAB>prod" runs the extension command deploy.
"""

from __future__ import annotations

from reference.pi.core import templates
from reference.text import JS_WHITESPACE

from tests.blind.common import everywhere, swapped


def _match_extension_command(text, commands):
    if not text.startswith("/"):
        return None
    cut = next((i for i, ch in enumerate(text) if ch in JS_WHITESPACE), -1)
    name = text[1:] if cut == -1 else text[1:cut]
    if name not in commands:
        return None
    return templates.Expansion("extension-command", text, name, "" if cut == -1 else text[cut + 1:])


def handle(msg, call):
    with swapped(everywhere(templates.match_extension_command, _match_extension_command)):
        return call()
