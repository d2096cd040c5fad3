"""profiles.match -- PROF-SPECIFICITY.
Bug: only a field that is exactly "*" counts as a pattern; a field such as "gpt-*" that contains "*" is scored as exact."""


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    out = rep["output"]
    rules = msg["input"].get("match") or []
    best = None
    for i, r in enumerate(out["rules"]):
        if r is None or not isinstance(rules[i], dict):
            continue
        rule = rules[i]
        pe = "provider" in rule and rule["provider"] != "*"
        me = "model" in rule and rule["model"] != "*"
        r["specificity"] = (2 if me else 0) + (1 if pe else 0)
        if r["matches"] and (best is None or r["specificity"] > best):
            best = r["specificity"]
    out["specificity"] = best
    return rep
