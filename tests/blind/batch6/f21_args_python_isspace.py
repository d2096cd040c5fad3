"""pi.parse-args -- PI-TPL-ARGS-SPLIT.
Bug: arguments are separated by Python's str.isspace, so U+0085 and U+001C..U+001F split
arguments while U+FEFF, which JavaScript's \\s matches, does not.
"""

from __future__ import annotations

from reference.pi.core import templates

from tests.blind.common import everywhere, swapped


def _parse_command_args(text: str) -> list[str]:
    args: list[str] = []
    current: list[str] = []
    started, quote, quote_at = False, None, 0
    last, i = len(text) - 1, 0
    while i <= last:
        ch = text[i]
        if quote is not None:
            if ch == "\\" and i < last and text[i + 1] == quote:
                current.append(quote)
                i += 1
            elif ch == quote:
                quote = None
            else:
                current.append(ch)
        elif ch in "\"'" and not started:
            quote, quote_at, started = ch, i, True
        elif ch.isspace():
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
