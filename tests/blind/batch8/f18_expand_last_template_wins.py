"""pi.expand-input -- PI-TPL-EXPAND-MATCH.
Bug: templates are looked up in a map built from the list, so when two templates share a name the
last one is expanded instead of the first.
"""

from __future__ import annotations

from reference.pi.core import templates

from tests.blind.common import everywhere, swapped

_original = templates.expand_input


def _expand_input(text, tpls, extension_commands=frozenset()):
    return _original(text, list(reversed(list(tpls))), extension_commands)


def handle(msg, call):
    with swapped(everywhere(_original, _expand_input)):
        return call()

# shown on: {"input": {"text": "/review x", "templates": [{"name": "review", "content": "first $1"}, {"name": "review", "content": "second $1"}]}}
