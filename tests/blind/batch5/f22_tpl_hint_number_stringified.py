"""pi.load-templates -- PI-TPL-ARGUMENT-HINT.
Bug: an argument-hint written as a number (or a boolean) is turned into text (String(value)), so "argument-hint: 2" gives the hint "2" instead of none."""

import json

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped

_orig = templates.frontmatter_string


def _string(fields, key):
    value = fields.get(key)
    if key == "argument-hint" and isinstance(value, (bool, int, float)):
        return json.dumps(value) if isinstance(value, bool) else str(value)
    return _orig(fields, key)


def handle(msg, call):
    with swapped(everywhere(templates.frontmatter_string, _string)):
        return call()
