"""envelope.context-message -- ENV-CTX-BLANK, ENV-CTX-NONE.
Bug: only empty context files are dropped (content === ""); a file of white space only is kept and joined into the body."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    subst = {}
    for i, f in enumerate(inp.get("contextFiles") or []):
        c = f.get("content", "")
        if c != "" and c.strip() == "":
            key = "\ue000BLANK%d\ue000" % i
            subst[key] = c
            f["content"] = key
    if not subst:
        return call()
    rep = call(inp)
    if rep.get("type") == "result" and rep["output"].get("message"):
        m = rep["output"]["message"]
        for k, v in subst.items():
            m["content"] = m["content"].replace(k, v)
    return rep
