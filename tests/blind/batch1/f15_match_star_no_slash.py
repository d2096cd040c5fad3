"""profiles.match -- PROF-MATCH-PATTERN.
Bug: a rule field is matched like a file glob, where "*" does not match "/", so "openrouter/*"-style patterns miss model ids with a further "/" and "*" misses "a/b"."""

import re


def _re(pat, slash):
    body = "".join((("[^/]*" if not slash else ".*") if ch == "*" else re.escape(ch)) for ch in pat)
    return re.compile(r"\A" + body + r"\Z", re.S)

def _m(rule, model, slash):
    for f, v in (("provider", model.get("provider", "")), ("model", model.get("id", ""))):
        if f in rule and not _re(rule[f], slash).match(v):
            return False
    return True

def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    out = rep["output"]
    model = msg["input"]["model"]
    rules = msg["input"].get("match") or []
    best = None
    for i, r in enumerate(out["rules"]):
        if r is None or not isinstance(rules[i], dict):
            continue
        if _m(rules[i], model, True) == r["matches"]:
            r["matches"] = _m(rules[i], model, False)
        if r["matches"] and (best is None or r["specificity"] > best):
            best = r["specificity"]
    out["matches"] = best is not None
    out["specificity"] = best
    return rep
