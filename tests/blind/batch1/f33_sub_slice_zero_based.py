"""pi.substitute-args -- PI-TPL-SUB-SLICE.
Bug: ${@:N} slices with args.slice(N) (0-based), so ${@:2} starts at the third argument and ${@:1} drops the first (N = 0 still gives every argument)."""

import re


def handle(msg, call):
    inp = dict(msg["input"])
    c = inp.get("content", "")
    new = re.sub(r"\$\{@:(\d+)(?=[:}])", lambda m: "${@:%d" % (int(m.group(1)) + 1 if int(m.group(1)) >= 1 else 1), c)
    if new != c:
        inp["content"] = new
        return call(inp)
    return call()
