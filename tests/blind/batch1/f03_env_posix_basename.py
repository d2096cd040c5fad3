"""envelope.environment -- ENV-ENV-BASENAME, ENV-ENV-SHELL.
Bug: the shell's basename is taken with POSIX path rules (only "/" separates), so a Windows path such as C:\\Windows\\System32\\cmd.exe is reported whole."""

import re

from tests.blind.common import js_basename, shell_source


def _posix_base(p):
    parts = [x for x in p.split("/") if x != ""]
    return parts[-1] if parts else ""

def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    host = msg["input"].get("host") or {}
    src = shell_source(host)
    if src is None:
        return rep
    good, bad = js_basename(src), _posix_base(src)
    content = rep["output"]["content"]
    line = "  <shell>" + good + "</shell>"
    if good != bad and bad and line in content:
        rep["output"]["content"] = content.replace(line, "  <shell>" + bad + "</shell>", 1)
    return rep
