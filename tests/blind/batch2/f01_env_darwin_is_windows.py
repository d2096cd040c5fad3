"""envelope.environment -- ENV-ENV-PLATFORM, ENV-ENV-FISH.
Bug: Windows is told apart with platform.includes("win"), so "darwin" counts as Windows too and a fish shell with exec_command is reported as bash.exe on macOS."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    host = inp.get("host") or {}
    if isinstance(host.get("platform"), str) and "win" in host["platform"]:
        host["platform"] = "win32"
    return call(inp)
