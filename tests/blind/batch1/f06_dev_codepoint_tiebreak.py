"""envelope.developer-messages -- ENV-ORDER-TIEBREAK.
Bug: contributions of equal priority are ordered by id with plain code-point comparison (a < b on strings) instead of the UCA root order, so "B" sorts before "a" and "a-b" before "a_b"."""


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    prio = {}
    for c in msg["input"].get("contributions") or []:
        if isinstance(c, dict) and isinstance(c.get("id"), str):
            p = c.get("priority", 0)
            if isinstance(p, (int, float)) and not isinstance(p, bool):
                prio[c["id"]] = p
    msgs = rep["output"]["messages"]
    env = [m for m in msgs if m["id"] == "environment"]
    rest = [m for m in msgs if m["id"] != "environment"]
    if all(m["id"] in prio for m in rest):
        rest.sort(key=lambda m: (prio[m["id"]], m["id"]))
        rep["output"]["messages"] = rest + env
    return rep
