"""pi.validate-message -- PI-MSG-USAGE-CACHEWRITE1H.
Bug: the check is cacheWrite1h >= cacheWrite, so a cacheWrite1h equal to cacheWrite (0 and 0 included) is reported exceeds-cache-write."""

import json
import re


def _key(path):
    out = []
    for m in re.finditer(r"\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[(\"(?:[^\"\\]|\\.)*\")\]", path):
        if m.group(2) is not None:
            out.append((0, int(m.group(2)), ""))
        else:
            out.append((1, 0, m.group(1) if m.group(1) is not None else json.loads(m.group(3))))
    return out

def handle(msg, call):
    rep = call()
    m = msg["input"].get("message")
    if rep.get("type") != "result" or not isinstance(m, dict) or m.get("role") not in ("assistant", "toolResult"):
        return rep
    u = m.get("usage")
    if isinstance(u, dict):
        a, b = u.get("cacheWrite1h"), u.get("cacheWrite")
        num = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)
        if num(a) and num(b) and a == b:
            probs = rep["output"]["problems"]
            probs.append({"path": "$.usage.cacheWrite1h", "code": "exceeds-cache-write"})
            probs.sort(key=lambda p: (_key(p["path"]), p["code"]))
            rep["output"]["valid"] = False
    return rep
