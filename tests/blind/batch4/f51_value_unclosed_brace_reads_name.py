"""pi.models-value -- PI-MODELS-VALUE-ESCAPES.
Bug: an unclosed "${" is read as "$" before a name, so "${TOKEN" reads TOKEN instead of staying literal."""

import dataclasses

from reference.pi.core import values
from tests.blind.common import everywhere, swapped

_original = values.parse_config_value


def _parse(value):
    if isinstance(value, str) and not value.startswith("!"):
        text, i = value, 0
        while True:
            at = text.find("${", i)
            if at < 0:
                break
            if text.find("}", at) < 0 and (at == 0 or text[at - 1] != "$"):
                text = text[:at] + "$" + text[at + 2:]
            i = at + 1
        if text != value:
            return dataclasses.replace(_original(text), raw=value)
    return _original(value)


def handle(msg, call):
    with swapped(everywhere(_original, _parse)):
        return call()
