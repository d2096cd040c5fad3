"""pi.parse-args -- PI-TPL-ARGS-EMPTY.
Bug: an argument is only pushed when its text is non-empty, so an empty quoted argument ("" or '')
disappears instead of being kept as an empty argument.
"""

from __future__ import annotations

from reference.pi.core import templates

from tests.blind.common import everywhere, swapped

_original = templates.parse_command_args


def _parse_command_args(text):
    return [arg for arg in _original(text) if arg != ""]


def handle(msg, call):
    with swapped(everywhere(templates.parse_command_args, _parse_command_args)):
        return call()


# shown on: {"op": "pi.parse-args", "input": {"text": "\"\" a"}}
