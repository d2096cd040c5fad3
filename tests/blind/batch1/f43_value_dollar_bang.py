"""pi.models-value -- PI-MODELS-VALUE-ESCAPES.
Bug: only "$$" is an escape; "$!" is left as it is, so "$!x" gives the literal "$!x" instead of "!x"."""

import re


def handle(msg, call):
    inp = dict(msg["input"])
    v = inp.get("value", "")
    if v.startswith("!") or "$!" not in v:
        return call()
    new = re.sub(r"\$\$|\$!", lambda m: "$$" if m.group(0) == "$$" else "$$!", v)
    if new != v:
        inp["value"] = new
        return call(inp)
    return call()
