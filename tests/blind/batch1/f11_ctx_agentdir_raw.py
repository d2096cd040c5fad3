"""envelope.context-message -- ENV-CTX-AGENTDIR, ENV-CTX-DIVIDER.
Bug: a file is taken to live in the agent directory only when path.posix.dirname(file) === agentDir exactly, so a trailing slash or backslashes in either loses the project-doc divider."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    agent = inp.get("agentDir")
    kept = [f for f in inp.get("contextFiles") or [] if f.get("content", "").strip() != ""]
    if agent is None or len(kept) < 2:
        return call()
    p = kept[0]["path"]
    d = p[: p.rfind("/")] if "/" in p else "."
    if d == "":
        d = "/"
    if d != agent:
        inp["agentDir"] = None
        return call(inp)
    return call()
