"""pi.models-value -- PI-MODELS-VALUE-FORMS.
Bug: a variable name is matched with Python's Unicode \\w ([^\\W\\d]\\w*), so "$TOKÉN" reads the variable TOKÉN instead of TOK followed by the literal "ÉN", and "${É}" reads É."""

import re

from reference.pi.core import values
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(values, "_NAME", re.compile(r"[^\W\d]\w*"))]):
        return call()
