"""pi.parse-args -- PI-TPL-ARGS-ESCAPE.
Bug: inside quotes a backslash also escapes a backslash (as in a JavaScript string literal), so
`"a\\\\b"` gives `a\\b` where only the opening quote can be escaped and both backslashes stay.
"""

from __future__ import annotations

from reference.pi.core import templates
from reference.text import JS_WHITESPACE

from tests.blind.common import everywhere, swapped


def _parse_command_args(text):
    args, current = [], []
    started, quote, quote_at = False, None, 0
    last, i = len(text) - 1, 0
    while i <= last:
        ch = text[i]
        if quote is not None:
            if ch == "\\" and i < last and text[i + 1] in (quote, "\\"):
                current.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = None
            else:
                current.append(ch)
        elif ch in "\"'" and not started:
            quote, quote_at, started = ch, i, True
        elif ch in JS_WHITESPACE:
            if started:
                args.append("".join(current))
                current, started = [], False
        else:
            current.append(ch)
            started = True
        if quote is not None and i == last:
            current, quote, i = [text[quote_at]], None, quote_at
        i += 1
    if started:
        args.append("".join(current))
    return args


def handle(msg, call):
    with swapped(everywhere(templates.parse_command_args, _parse_command_args)):
        return call()

# shown on: {"input": {"text": "\"a\\\\b\" c"}}
