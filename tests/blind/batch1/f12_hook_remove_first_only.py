"""envelope.context-hook -- ENV-CTX-INJECT, ENV-CTX-REMOVE.
Bug: earlier context-files messages are removed with findIndex + splice, so only the first earlier copy goes and later copies stay in the history."""

import copy


T = "@luan.sh/pi-developer-messages/agents-md"
S = "\ue000kept-copy"
def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    seen = 0
    for m in inp.get("messages") or []:
        if isinstance(m, dict) and m.get("role") == "custom" and m.get("customType") == T:
            seen += 1
            if seen > 1:
                m["customType"] = S
    if seen < 2:
        return call()
    rep = call(inp)
    if rep.get("type") == "result":
        for m in rep["output"]["messages"]:
            if isinstance(m, dict) and m.get("customType") == S:
                m["customType"] = T
    return rep
