"""envelope.build -- ENV-FILTER-TOOLS.
Bug: the activeTools filter keeps a contribution when any listed tool is active (some) instead of every listed tool (every)."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    active = set((inp.get("request") or {}).get("activeTools") or [])
    changed = False
    for c in inp.get("contributions") or []:
        t = c.get("activeTools") if isinstance(c, dict) else None
        if isinstance(t, list) and t and any(x in active for x in t) and not all(x in active for x in t):
            c["activeTools"] = []
            changed = True
    return call(inp) if changed else call()
