r"""pi.parse-args -- PI-TPL-ARGS-ESCAPE, PI-TPL-ARGS-SPLIT.
Bug: outside quotes a backslash escapes the next character as in a POSIX shell, so a\ b is one argument "a b" and " is a literal quote."""

from tests.blind.common import split_args


def parse(text):
    return split_args(text, escape_outside=True)


def handle(msg, call):
    reply = call()
    if reply.get("type") == "result":
        reply["output"]["args"] = parse(msg["input"]["text"])
    return reply
