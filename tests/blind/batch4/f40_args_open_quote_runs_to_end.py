"""pi.parse-args -- PI-TPL-ARGS-UNTERMINATED.
Bug: a quote still open at the end runs to the end of the text as one argument without its quote character (as a lenient shell splitter does), instead of being taken back and the rest read again."""

from reference.pi.core import templates
from reference.text import JS_WHITESPACE
from tests.blind.common import everywhere, swapped


def _parse(text):
    args, current, started, quote = [], [], False, None
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
            quote, started = ch, True
        elif ch in JS_WHITESPACE:
            if started:
                args.append("".join(current))
                current, started = [], False
        else:
            current.append(ch)
            started = True
        i += 1
    if started:
        args.append("".join(current))
    return args


def handle(msg, call):
    with swapped(everywhere(templates.parse_command_args, _parse)):
        return call()
