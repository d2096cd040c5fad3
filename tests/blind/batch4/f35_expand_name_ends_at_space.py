"""pi.expand-input -- PI-TPL-EXPAND-MATCH, PI-TPL-ARGS-SPLIT.
Bug: a template command's name runs to the first space character (U+0020) only, as for extension commands, so after "/name" a tab, a newline or another JavaScript white space is part of the name and the template is not found."""

import re

from reference.pi.core import templates
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(templates, "_COMMAND", re.compile(r"/([^ ]+)(?: +(.*))?", re.DOTALL))]):
        return call()
