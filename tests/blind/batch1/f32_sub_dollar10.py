r"""pi.substitute-args -- PI-TPL-SUB-POSITIONAL.
Bug: a positional placeholder reads one digit only (/\$(\d)/), so $10 is argument 1 followed by "0"."""

import re


def handle(msg, call):
    inp = dict(msg["input"])
    c = inp.get("content", "")
    new = re.sub(r"\$(\d)(\d+)", lambda m: "${%s:-}%s" % (m.group(1), m.group(2)), c)
    if new != c:
        inp["content"] = new
        return call(inp)
    return call()
