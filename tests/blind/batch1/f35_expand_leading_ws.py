"""pi.expand-input -- PI-TPL-EXPAND-MATCH.
Bug: the input is trimmed before it is matched, so "  /review x" with leading white space expands the template instead of being sent as text."""


def handle(msg, call):
    inp = dict(msg["input"])
    t = inp.get("text", "")
    s = t.lstrip()
    if s != t and s.startswith("/"):
        inp["text"] = s
        return call(inp)
    return call()
