"""envelope.environment -- ENV-ENV-FISH, ENV-DECISION-FISH.
Bug: the fish check compares the basename with "fish" case-sensitively, so "Fish" or "FISH" is reported as it is even with exec_command active."""

import re


def _js_base(p):
    parts = [x for x in re.split(r"[\\/]", p) if x != ""]
    return parts[-1] if parts else ""

def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    inp = msg["input"]
    if "exec_command" not in (inp.get("activeTools") or []):
        return rep
    host = inp.get("host") or {}
    src = None
    for v in (host.get("shell"), host.get("comSpec")):
        if isinstance(v, str) and _js_base(v):
            src = v
            break
    if src is None:
        return rep
    base = _js_base(src)
    if base.lower() == "fish" and base != "fish":
        rep["output"]["content"] = re.sub(r"  <shell>[^\n]*</shell>", lambda m: "  <shell>" + base + "</shell>", rep["output"]["content"], count=1)
    return rep
