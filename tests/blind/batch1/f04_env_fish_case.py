"""envelope.environment -- ENV-ENV-FISH, ENV-DECISION-FISH.
Bug: the fish check compares the basename with "fish" case-sensitively, so "Fish" or "FISH" is reported as it is even with exec_command active."""

import re

from tests.blind.common import js_basename, shell_source


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    inp = msg["input"]
    if "exec_command" not in (inp.get("activeTools") or []):
        return rep
    host = inp.get("host") or {}
    src = shell_source(host)
    if src is None:
        return rep
    base = js_basename(src)
    if base.lower() == "fish" and base != "fish":
        rep["output"]["content"] = re.sub(r"  <shell>[^\n]*</shell>", lambda m: "  <shell>" + base + "</shell>", rep["output"]["content"], count=1)
    return rep
