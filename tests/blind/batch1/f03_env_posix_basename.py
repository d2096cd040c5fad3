"""envelope.environment -- ENV-ENV-BASENAME, ENV-ENV-SHELL.
Bug: the shell's basename is taken with POSIX path rules (only "/" separates), so a Windows path such as C:\\Windows\\System32\\cmd.exe is reported whole."""

import re


def _js_base(p):
    parts = [x for x in re.split(r"[\\/]", p) if x != ""]
    return parts[-1] if parts else ""

def _posix_base(p):
    parts = [x for x in p.split("/") if x != ""]
    return parts[-1] if parts else ""

def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    host = msg["input"].get("host") or {}
    src = None
    for v in (host.get("shell"), host.get("comSpec")):
        if isinstance(v, str) and _js_base(v):
            src = v
            break
    if src is None:
        return rep
    good, bad = _js_base(src), _posix_base(src)
    content = rep["output"]["content"]
    line = "  <shell>" + good + "</shell>"
    if good != bad and bad and line in content:
        rep["output"]["content"] = content.replace(line, "  <shell>" + bad + "</shell>", 1)
    return rep
