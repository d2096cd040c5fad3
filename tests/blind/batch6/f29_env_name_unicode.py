"""pi.models-value -- PI-MODELS-VALUE-FORMS.
Bug: a variable name is matched with Python's Unicode \\w, so letters and digits beyond ASCII
continue or start a name: "$TOK\u00c9N" reads TOK\u00c9N instead of TOK followed by the literal text.
"""

from __future__ import annotations

import re

from reference.pi.core import values

from tests.blind.common import swapped

_NAME = re.compile(r"[^\W\d]\w*")


def handle(msg, call):
    with swapped([(values, "_NAME", _NAME)]):
        return call()
