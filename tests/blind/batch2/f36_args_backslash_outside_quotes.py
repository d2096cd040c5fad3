r"""pi.parse-args -- PI-TPL-ARGS-ESCAPE, PI-TPL-ARGS-SPLIT.
Bug: outside quotes a backslash escapes the next character as in a POSIX shell, so a\ b is one argument "a b" and " is a literal quote."""

from reference.pi.core.templates import JS_WHITESPACE


def parse(text):
    args, current, started, quote, quote_at = [], [], False, None, 0
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
        elif ch == "\\" and i < last:
            current.append(text[i + 1])
            started = True
            i += 1
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
    reply = call()
    if reply.get("type") == "result":
        reply["output"]["args"] = parse(msg["input"]["text"])
    return reply
